"""
The hooks a wing may offer beyond the shared `commands.dice_base.Wing`, each a runtime-checkable
`typing.Protocol` of one hook. A hook only one system needs lives in that system's wing alone,
and the shared command that would call it asks first whether the configured wing offers it
(`isinstance(wing, RollKeeper)`), instead of every wing carrying a default that does nothing.

The shared `Wing` keeps the hooks more than one system uses (tests/test_seam_protocols.py counts
them); a hook here moves there once a second system needs it. `commands.seam` lists these on the
page a system is written against (`features_of(system).offers`); the flows import them from
here, since nothing in `commands/` imports that page.

Which system offers each today: `RollPreparer` V20 (its `/retry` count); `OddsPreparer`,
`OddsChecker`, `RollKeeper`, `ExtendedKeeper`, `SheetFlagger`, `PanelActions`, `PanelTools` V5;
`StartRestorer` none yet (a wing whose pending state needs its timers set again at a start).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from storyteller_dice.rules.engine import Roller, RollRequest

from .dice_base import Announced, Asked


@runtime_checkable
class RollPreparer(Protocol):
    """Changes +roll/+check's text and roller before the system parses them (`commands.rolls`)."""

    def prepare_roll(self, cmd: Asked, text: str, roller: Roller) -> tuple[str, Roller]:
        """(text, roller) to parse: e.g. state the wing keeps (V20: the failed attempts at the
        action so far, for `/retry`)."""
        ...


@runtime_checkable
class OddsPreparer(Protocol):
    """Changes +odds' text and roller before the system parses them (`commands.odds.odds_of`,
    for `+odds` and the web client's dice panel alike)."""

    def prepare_odds(self, cmd: Asked, text: str, roller: Roller) -> tuple[str, Roller]:
        """(text, roller) to parse: a system's own ending (V5: `hunger <n>`, the odds at
        another Hunger than the caller's)."""
        ...


@runtime_checkable
class OddsChecker(Protocol):
    """Refuses a +odds request the system cannot answer (`commands.odds.odds_of`), after
    `Wing.prepare_request`."""

    def before_odds(self, cmd: Asked, request: RollRequest, roller: Roller) -> None:
        """Raise `DiceError` to refuse (V5: odds spend no Willpower; `+odds/reroll` instead)."""
        ...


@runtime_checkable
class RollKeeper(Protocol):
    """Keeps state with a +roll/+check, in the roll's own transaction (`commands.rolls`)."""

    def keep(self, cmd: Asked, request: RollRequest, result: Any, record: dict, receivers: Announced) -> None:
        """
        Written once the roll is stored and before it is shown: one commit for both.
        `receivers.entry` is the stored entry. Only database writes here, nothing sent: the
        transaction may be tried again (a clash of codes). V5: the `+willpower` window.
        """
        ...


@runtime_checkable
class ExtendedKeeper(Protocol):
    """As `RollKeeper`, for each roll of an extended roll (`commands.extended`)."""

    def extended_keep(self, cmd: Asked, state: Any, request: RollRequest, result: Any, record: dict,
                      receivers: Announced) -> None:
        """`state`: the `rules.extended.ExtendedRoll` after this roll. V5: the roll a later
        `+willpower` corrects the total of."""
        ...


@runtime_checkable
class SheetFlagger(Protocol):
    """Flags the sheet's layout shows (`commands.sheet.render_sheet`, `Sheet.layout`)."""

    def sheet_flags(self, character: Any) -> frozenset[str]:
        """A frozenset of str (V5: `frenzy` while the character is in one)."""
        ...


@runtime_checkable
class PanelActions(Protocol):
    """What the web client's dice panel offers the character now (`commands.panel`), besides the
    contests every system shares."""

    def panel_actions(self, character: Any) -> list[dict]:
        """A list of {"label", "command" (the line a player types), "seconds" (left, or None)}
        (V5: the Willpower reroll while its window is open)."""
        ...


@runtime_checkable
class PanelTools(Protocol):
    """The web client's buttons for the system's own rolls (`commands.panel.tools`)."""

    def panel_tools(self, character: Any) -> list[dict]:
        """A list of {"label", "command"[, "target": True]} (V5: Rouse, Remorse, Frenzy)."""
        ...


@runtime_checkable
class StartRestorer(Protocol):
    """Restores the wing's own pending state at every start (`commands.pending_lifecycle`)."""

    def at_server_start(self) -> None:
        """E.g. timers of what the wing keeps pending set again."""
        ...


#: every optional hook, in the order the shared commands meet them
OPTIONAL_HOOKS: tuple[type, ...] = (RollPreparer, OddsPreparer, OddsChecker, RollKeeper, ExtendedKeeper,
                                    SheetFlagger, PanelActions, PanelTools, StartRestorer)


def offered_by(wing: Any) -> tuple[type, ...]:
    """The optional hooks (`OPTIONAL_HOOKS`) `wing` offers."""
    return tuple(feature for feature in OPTIONAL_HOOKS if isinstance(wing, feature))
