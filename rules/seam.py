"""
The seam a dice system plugs into, written as code: what the shared parts call on a system,
as `typing.Protocol`s. `rules.engine.System` and `rules.engine.Sheet` are base classes that
satisfy them (a system subclasses them and fills in its rules); these protocols say what any
object standing in their place must offer, with the types, so that a checker (or a reader)
sees the whole contract in one page. The command-side half (the wing, teamwork and contest
rules) is `commands.seam`.

Every shared feature's rules are reached from the `System` one way, by an attribute:

- the sheet: `System.sheet` (`SheetProtocol`);
- Willpower: the sheet's (`WillpowerProtocol`, part of `SheetProtocol`): which trait a spent
  point moves, which way, the refusal; `willpower_rules(system)` is None when there is none;
- extended rolls: `System.extended` (`ExtendedRulesProtocol`, a `rules.extended.ExtendedRules`),
  or None;
- everything that needs the game (its commands, teamwork, contests, `+odds/contest`):
  `System.wing`, where its wing is ("module:ATTRIBUTE"; `rules.systems.wing_of`), whose
  attributes carry the rest (`commands.seam.features_of`).

Runtime-checkable: `isinstance(obj, SystemProtocol)` checks that the names are there (not their
types). tests/test_seam_protocols.py holds the five systems and the toy system to them, and the
protocols to the base classes' signatures. Pure Python, standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, Protocol, runtime_checkable

from .engine import Example, MarkLook, OddsInput, OddsView, Roller, RollRequest, RollView, SheetSection
from .extended import Step
from .pools import TraitTable

#: a character's sheet values as stored: trait -> whole number
Values = Mapping[str, int]
#: a character's Specialties (or Foci) as stored: skill -> names
Specialties = Mapping[str, tuple[str, ...]]


@runtime_checkable
class WillpowerProtocol(Protocol):
    """Willpower, spent one way in every system (`DiceCharacterMixin.spend_willpower`)."""

    willpower_trait: str | None  # the trait a spent point moves; None: no Willpower
    willpower_step: int  # +1 when spent points are marked, -1 when points left come off
    no_willpower: str  # the refusal, with `{need}` and `{left}`

    def willpower_left(self, values: Values) -> int: ...

    def spend_willpower(self, values: Values, amount: int = 1) -> dict[str, int]: ...


@runtime_checkable
class SheetProtocol(WillpowerProtocol, Protocol):
    """A system's character sheet (`rules.engine.Sheet`): its traits, ranges and layout."""

    staff_only: frozenset[str]
    specialty_words: tuple[str, str]
    specialty_keywords: tuple[str, ...]
    layout_flags: frozenset[str]

    def defaults(self) -> dict[str, int]: ...

    def clamp(self, values: Values) -> dict[str, int]: ...

    def match(self, typed: str) -> str: ...

    def check_value(self, trait: str, value: int, values: Values) -> int: ...

    def changes(self, trait: str, value: int, values: Values) -> dict[str, int]: ...

    def read_value(self, trait: str, typed: str) -> int: ...

    def check_specialty(self, skill: str, specialty: str, values: Values, owned: Specialties) -> str: ...

    def traits(self, values: Values, specialties: Specialties) -> TraitTable: ...

    def state(self, values: Values) -> dict[str, Any]: ...

    def vitals(self, values: Values) -> dict[str, Any]: ...

    def layout(self, values: Values, specialties: Specialties,
               flags: frozenset[str] = frozenset()) -> tuple[SheetSection, ...]: ...

    def help(self) -> str: ...


@runtime_checkable
class ExtendedRulesProtocol(Protocol):
    """A system's extended-roll rules (`rules.extended.ExtendedRules`); the flow is shared."""

    target_word: str
    syntax: str
    switches: tuple[str, ...]
    lasting: tuple[str, ...]
    mark_nouns: Mapping[str, tuple[str, str]]

    def request(self, request: RollRequest) -> RollRequest: ...

    def step(self, result: Any) -> Step: ...


@runtime_checkable
class SystemProtocol(Protocol):
    """A dice system as the shared parts see it (`rules.engine.System`)."""

    key: str
    title: str
    roll_switches: tuple[str, ...]
    roll_usage: str
    check_usage: str
    help: str
    short: str
    blurb: str
    slogan: str
    example: Example
    tags: tuple[str, ...]
    mark_looks: tuple[MarkLook, ...]
    wing: str
    sheet: SheetProtocol
    extended: ExtendedRulesProtocol | None
    odds_inputs: tuple[OddsInput, ...]

    @property
    def name(self) -> str: ...

    @property
    def odds_usage(self) -> str: ...

    def configure(self, settings: Mapping[str, Any]) -> SystemProtocol: ...

    def roller(self, name: str, values: Values, specialties: Specialties) -> Roller: ...

    def parse(self, text: str, switches: frozenset[str] = frozenset(), roller: Roller | None = None,
              numbers_only: bool = False) -> RollRequest: ...

    def roll(self, request: RollRequest, roller: Roller | None = None, rng: Random | None = None) -> Any: ...

    def view(self, result: Any, request: RollRequest | None = None) -> RollView: ...

    def record(self, result: Any, request: RollRequest | None = None) -> dict[str, Any]: ...

    def odds(self, request: RollRequest, roller: Roller | None = None) -> OddsView: ...

    def odds_args(self, values: Mapping[str, Any]) -> tuple[str, frozenset[str], Roller]: ...

    def odds_of(self, values: Mapping[str, Any]) -> OddsView: ...


def willpower_rules(system: SystemProtocol) -> WillpowerProtocol | None:
    """The system's Willpower rules (its sheet's), or None when its sheet has no Willpower."""
    sheet = system.sheet
    return sheet if sheet is not None and sheet.willpower_trait is not None else None


def extended_rules(system: SystemProtocol) -> ExtendedRulesProtocol | None:
    """The system's extended-roll rules, or None: it has no extended rolls."""
    return system.extended

