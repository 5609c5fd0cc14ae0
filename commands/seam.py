"""
The command side of the seam a dice system plugs into, written as code (the pure side, the
`System`, its sheet, Willpower and extended-roll rules, is `rules.seam`): the wing
(`commands.dice_base.Wing`), the teamwork rules (`commands.teamwork.TeamworkRules`) and a
contest's rules (`commands.contest.ContestCommand`), as `typing.Protocol`s with their types.
The classes named are base classes that satisfy them; a system subclasses them.

Every shared feature's rules are reached from the configured `System` one way,
`features_of(system)`:

- `sheet`, `willpower`, `extended`: the System's own attributes (`rules.seam`);
- `wing`: the one the System names (`System.wing`, `rules.systems.wing_of`), or the default
  one that adds nothing;
- `teamwork`: the wing's `teamwork` (None: no `+teamwork`);
- `contests`: the `ContestCommand`s among the wing's commands (its `cmdset`), each a contest on
  the shared challenge flow;
- `contest_odds`: the wing's `+odds/contest` (None: none);
- `offers`: the optional hooks the wing has beyond the shared `Wing`'s (`commands.wing_features`:
  `RollPreparer`, `OddsPreparer`, `OddsChecker`, `RollKeeper`, `ExtendedKeeper`, `SheetFlagger`,
  `PanelActions`, `PanelTools`, `StartRestorer`), each a runtime-checkable Protocol of one hook
  that the shared command calls only on a wing that has it.

`WingProtocol` holds the hooks more than one system uses, each with a default that adds nothing;
a hook only one system needs is that system's wing's alone (an optional hook). Which system uses
which: docs/contract.md; tests/test_seam_protocols.py counts them again.

Nothing in `commands/` imports this module: it is the page a new system is written against,
and what tests/test_seam_protocols.py holds the systems to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any, NamedTuple, Protocol, runtime_checkable

from storyteller_dice.rules.contest import Outcome
from storyteller_dice.rules.engine import Roller, RollRequest
from storyteller_dice.rules.seam import (ExtendedRulesProtocol, SheetProtocol, SystemProtocol, WillpowerProtocol,
                                         willpower_rules)

from .contest import Challenge, ContestCommand
from .dice_base import Announced, Asked, ExtraLines, dice_system, dice_wing
from .teamwork import Team
from .wing_features import (OPTIONAL_HOOKS, ExtendedKeeper, OddsChecker, OddsPreparer,  # noqa: F401
                            PanelActions, PanelTools, RollKeeper, RollPreparer, SheetFlagger, StartRestorer,
                            offered_by)


@runtime_checkable
class WingProtocol(Protocol):
    """A system's commands and its extras to the shared ones (`commands.dice_base.Wing`): the
    hooks every wing has (more than one system uses each). A wing may offer more, one hook each
    (`commands.wing_features`)."""

    key: str
    switches: tuple[str, ...]
    odds_switches: tuple[str, ...]
    cmdset: Any  # an Evennia CmdSet class, or None
    roll_help: str
    odds_help: str
    guide: str
    help_topics: Sequence[dict]
    teamwork: TeamworkRulesProtocol | None
    contest_odds: Callable[[Asked], None] | None

    def handle_roll(self, cmd: Asked) -> bool: ...

    def handle_odds(self, cmd: Asked) -> bool: ...

    def prepare_request(self, cmd: Asked, request: RollRequest, roller: Roller) -> RollRequest: ...

    def before_roll(self, cmd: Asked, request: RollRequest, roller: Roller) -> None: ...

    def after_roll(self, cmd: Asked, request: RollRequest, result: Any,
                   rng: Random) -> tuple[Any, Any | None, ExtraLines]: ...

    def rolled(self, cmd: Asked, request: RollRequest, result: Any, record: dict, receivers: Announced) -> None: ...

    def extended_rolled(self, cmd: Asked, request: RollRequest, result: Any, record: dict,
                        receivers: Announced) -> None: ...

    def pending_lines(self, character: Any) -> list[str]: ...


@runtime_checkable
class TeamworkRulesProtocol(Protocol):
    """A system's rules for the shared `+teamwork` (`commands.teamwork.TeamworkRules`)."""

    at_once: bool
    offer_key: str
    max_helpers: int
    prefix: str
    usage: str
    join_usage: str
    words: dict[str, str]

    def word(self, key: str, **names: Any) -> str: ...

    def open(self, cmd: Any, text: str) -> tuple[Any, str]: ...

    def opened(self, team: Team) -> str: ...

    def join(self, cmd: Any, team: Team, given: str | None, already: bool) -> tuple[Any, str]: ...

    def describe(self, team: Team) -> str: ...

    def describe_help(self, team: Team, part: Any) -> str: ...

    def before_roll(self, cmd: Any, team: Team, present: list[tuple[Any, Any]]) -> None: ...

    def roll(self, cmd: Any, team: Team, present: list[tuple[Any, Any]], absent: list[str]) -> None: ...

    def help_text(self) -> str: ...


@runtime_checkable
class ContestRulesProtocol(Protocol):
    """What a system's contest command supplies to the shared challenge flow
    (`commands.contest.ContestCommand`, which it subclasses)."""

    key: str
    answer_usage: str
    kind: str
    exclusive: tuple[str, ...]
    other: str
    other_example: str

    def read_side(self, text: str) -> tuple[Any, str]: ...

    def read_opposition(self, text: str) -> Any | None: ...

    def roll_now(self, left: str, opposition: Any, comment: str) -> None: ...

    def read_answer(self, challenge: Challenge, text: str) -> Any: ...

    def roll_contest(self, challenge: Challenge, answer: Any) -> Outcome: ...

    def contested(self, challenge: Challenge, outcome: Outcome, receivers: Any) -> None: ...


class Features(NamedTuple):
    """Every shared feature's rules of one system (see the module)."""

    system: SystemProtocol
    sheet: SheetProtocol | None
    willpower: WillpowerProtocol | None
    extended: ExtendedRulesProtocol | None
    wing: WingProtocol
    teamwork: TeamworkRulesProtocol | None
    contests: tuple[type, ...]
    contest_odds: Callable[[Asked], None] | None
    offers: tuple[type, ...]


def features_of(system: SystemProtocol | None = None) -> Features:
    """The rules of every shared feature of `system` (the configured one by default)."""
    system = system or dice_system()
    wing = dice_wing(system)
    commands = wing.cmdset().commands if wing.cmdset is not None else []
    contests = tuple(type(command) for command in commands if isinstance(command, ContestCommand))
    return Features(system=system, sheet=system.sheet, willpower=willpower_rules(system), extended=system.extended,
                    wing=wing, teamwork=wing.teamwork, contests=contests, contest_odds=wing.contest_odds,
                    offers=offered_by(wing))
