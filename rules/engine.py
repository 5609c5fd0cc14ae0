"""
The seam between the dice systems and everything else.

Every game system (V5, V20, Seyruun, Whalefall, The Dice Check) is one `System` object. The
shared commands (`+roll`, `+check`, `+odds`, `+sheet`, `+stat`, `+rolls`), the display and the
roll log talk to that object only, never to a system's own modules, so a system plugs in by
registering itself (`rules.systems`) and nothing shared changes.

What crosses the seam is system-neutral:

- `Roller`: who rolls, what their sheet offers to pools (`rules.pools.TraitTable` or None for
  plain numbers) and the system's own state (V5's Hunger, V20's wound penalty, ...).
- `RollRequest`: a parsed roll, made by `System.parse` from the text the player typed.
- the system's own result object (frozen), made by `System.roll`; only the system reads it.
- `RollView`: how a result looks, made by `System.view`: labelled groups of dice whose faces
  carry *marks* ("hunger", "ten", "cancelled", ...), a score with its noun, an outcome with a
  label and a *tone*, the target as text and notes. The display colours by marks and tones,
  never by system; the roll log stores the view (`RollView.to_dict`) so that any old row can
  be shown again without the system that made it.
- `OddsView`: exact chances (`fractions.Fraction`) of a request, each outcome once, and the
  distribution of the score for a chart.
- `OddsInput`: one thing a system's odds take, described for a page without a character's
  sheet (the website's odds page): the pool, the target, and the system's own (V5's Hunger,
  V20's Specialty, a die size ...). `System.odds_inputs` lists them and `System.odds_args`
  turns their values into what `parse` and `odds` take, as `+odds` has them in the game.

Pure Python, standard library only.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, Any

from .errors import DiceError

if TYPE_CHECKING:  # the type of a hint below (`rules.seam` writes the whole seam out)
    from .pools import TraitTable

# ---------------------------------------------------------------- marks and tones

# A die's marks say what it did; the display gives each mark its look.
SUCCESS = "success"  # counts toward the score (V5 6+, V20 >= difficulty, a hit, met the face)
DOUBLE = "double"  # counts twice (a Seyruun 10, a V20 Specialty 10)
TEN = "ten"  # a 10 (V5: half of a critical pair)
HUNGER = "hunger"  # a V5 Hunger die
ONE = "one"  # a 1 that matters (a V20/Seyruun botch, a V5 Hunger 1)
CANCELS = "cancels"  # a 1 that cancelled a success (V20)
CANCELLED = "cancelled"  # a success cancelled by a 1 (V20)
FAIL = "fail"  # counts nothing
REROLLED = "rerolled"  # rerolled with Willpower
CHANCE = "chance"  # a chance die (Seyruun)
MARKS = (SUCCESS, DOUBLE, TEN, HUNGER, ONE, CANCELS, CANCELLED, FAIL, REROLLED, CHANCE)

# An outcome's tone says how good it is for the roller, from best to worst ("dire": a failure
# worse than a plain one, such as V5's total failure, short of a disaster).
TONES = ("triumph", "good", "mixed", "neutral", "bad", "dire", "disaster")


def plural(count, noun, nouns=None):
    """`1 success`, `3 successes` (`nouns` when the plural is not noun + 's')."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


# ---------------------------------------------------------------- what a roll looks like


@dataclass(frozen=True)
class Die:
    face: int
    marks: frozenset = frozenset()

    def has(self, mark):
        return mark in self.marks


@dataclass(frozen=True)
class DiceGroup:
    """Dice shown together under a label ("Dice", "Hunger", "Chance die")."""

    label: str
    dice: tuple
    sides: int = 10

    @property
    def faces(self):
        return tuple(die.face for die in self.dice)


@dataclass(frozen=True)
class Outcome:
    key: str  # stable, for code and the record: "messy_critical", "botch", "phenomenal" ...
    label: str  # for people: "messy critical"
    tone: str  # one of TONES

    def __post_init__(self):
        if self.tone not in TONES:
            raise ValueError(f"unknown tone {self.tone!r}")


@dataclass(frozen=True)
class RollView:
    """
    A result as people see it, in any system.

    Args:
        system (str): the system's key.
        pool (str): the pool as shown, with trait values ("Dexterity 3 + Stealth 2 = 5 dice").
        target (str): the target as text ("vs 3", "difficulty 6", "(5,2)", "7+ vs TN 3"), or "".
        groups (tuple of DiceGroup): the dice, in the order shown.
        score (int or None): successes, hits, net successes (None: nothing counted, e.g. an
            automatic failure without dice).
        noun (tuple of str): the score's noun, singular and plural.
        outcome (Outcome): the verdict.
        notes (tuple of str): further facts in plain words ("margin +1, solid success",
            "Injured: -1 die", "2 dice overflow").
    """

    system: str
    pool: str
    target: str
    groups: tuple
    score: int | None
    noun: tuple
    outcome: Outcome
    notes: tuple = ()

    @property
    def score_text(self):
        if self.score is None:
            return ""
        return plural(self.score, *self.noun)

    @property
    def faces(self):
        return tuple(face for group in self.groups for face in group.faces)

    def to_dict(self):
        """Plain data (JSON-able) for the record."""
        return {
            "system": self.system,
            "pool": self.pool,
            "target": self.target,
            "groups": [
                {"label": g.label, "sides": g.sides,
                 "dice": [[d.face, sorted(d.marks)] for d in g.dice]}
                for g in self.groups
            ],
            "score": self.score,
            "noun": list(self.noun),
            "outcome": {"key": self.outcome.key, "label": self.outcome.label, "tone": self.outcome.tone},
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data):
        groups = tuple(
            DiceGroup(label=g["label"], sides=int(g.get("sides", 10)),
                      dice=tuple(Die(int(face), frozenset(marks)) for face, marks in g["dice"]))
            for g in data.get("groups", ())
        )
        outcome = data["outcome"]
        return cls(
            system=data["system"], pool=data.get("pool", ""), target=data.get("target", ""), groups=groups,
            score=data.get("score"), noun=tuple(data.get("noun", ("success", "successes"))),
            outcome=Outcome(outcome["key"], outcome["label"], outcome["tone"]), notes=tuple(data.get("notes", ())),
        )


# ---------------------------------------------------------------- odds


@dataclass(frozen=True)
class Chance:
    """
    One outcome's exact chance. `scores` (optional): the scores of the distribution this
    outcome is exactly, as (low, high), high None for "and up" (Whalefall's success: every
    count of dice from the count needed); the display then shows it as the sum of the chart's
    rows, so the two agree. None: the outcome is not a range of scores (a V5 messy critical).
    """

    key: str
    label: str
    probability: Fraction
    tone: str = "neutral"
    scores: tuple | None = None


@dataclass(frozen=True)
class OddsView:
    """
    Exact chances of a request.

    Args:
        system (str), pool (str), target (str): as in `RollView`.
        chances (tuple of Chance): each outcome once; together they sum to 1.
        distribution (tuple of (int, Fraction)): the score's distribution, in score order.
        noun (tuple of str): the score's noun.
        notes (tuple of str): what the figures assume.
        breakdown (tuple): optional (title, key, parts): the chance `key` split further into
            `parts` (Chances summing to it; The Dice Check's Degrees of Success of a success),
            shown on one line so that its figures add up to that chance's.
    """

    system: str
    pool: str
    target: str
    chances: tuple
    distribution: tuple
    noun: tuple = ("success", "successes")
    notes: tuple = ()
    breakdown: tuple = ()

    def __post_init__(self):
        if self.chances and sum(c.probability for c in self.chances) != 1:
            raise ValueError("the chances of an OddsView must sum to 1")
        if self.breakdown:
            _, key, parts = self.breakdown
            if sum(c.probability for c in parts) != self.chance(key):
                raise ValueError("a breakdown must sum to the chance it splits")
        if self.distribution and sum(p for _, p in self.distribution) != 1:
            raise ValueError("a distribution must sum to 1")

    def chance(self, key):
        for item in self.chances:
            if item.key == key:
                return item.probability
        raise KeyError(key)


# ---------------------------------------------------------------- odds inputs (the web odds page)

TEXT = "text"  # free text (the pool, the target)
NUMBER = "number"  # a whole number from `low` to `high`
FLAG = "flag"  # on or off
CHOICE = "choice"  # one of `choices`
INPUT_KINDS = (TEXT, NUMBER, FLAG, CHOICE)
_OFF = ("", "0", "off", "false", "no")


def choice_key(value):
    """A choice's value as a form sends it back ("" for None)."""
    return "" if value is None else str(value)


def _shown(typed):
    return typed if len(typed) <= 20 else typed[:20] + "..."


@dataclass(frozen=True)
class OddsInput:
    """
    One thing a system's odds take, for a page that has no character's sheet: it draws a field
    of each input and reads what was typed back with `read`.

    Args:
        name (str): the field's name (the query parameter). "pool" and "target" are the texts
            `System.odds_args` puts together for `parse`.
        label (str): for people ("Hunger").
        kind (str): TEXT (at most `high` characters), NUMBER (a whole number `low`..`high`),
            FLAG (on or off) or CHOICE (one of `choices`).
        default: the value when nothing is typed (TEXT "", FLAG False).
        choices (tuple of (value, label)): a CHOICE's values, in order.
        switch (str): a FLAG that is a roll switch ("spec"): on, `odds_args` passes it to `parse`.
        state (str): any other input's `Roller.state` key (default: `name`).
        hint (str): a few words shown with the field ("successes needed, optional").
    """

    name: str
    label: str
    kind: str = TEXT
    low: int = 0
    high: int = 80
    default: object = None
    choices: tuple = ()
    switch: str = ""
    state: str = ""
    hint: str = ""

    def __post_init__(self):
        if self.kind not in INPUT_KINDS:
            raise ValueError(f"unknown input kind {self.kind!r}")

    def read(self, typed):
        """
        The value of what was typed (a str, or None when the field was not sent).

        Raises:
            DiceError: a NUMBER out of range or not a number, a CHOICE that is none of them.
        """
        typed = "" if typed is None else str(typed).strip()
        if self.kind == TEXT:
            return typed[: self.high]
        if self.kind == FLAG:
            return typed.lower() not in _OFF
        if not typed:
            return self.default
        if self.kind == NUMBER:
            message = f"{self.label} must be a whole number from {self.low} to {self.high}, not '{_shown(typed)}'."
            try:
                value = read_whole(typed, "", signed=True)
            except DiceError:
                raise DiceError(message) from None
            if not self.low <= value <= self.high:
                raise DiceError(message)
            return value
        for value, _ in self.choices:
            if typed == choice_key(value):
                return value
        names = ", ".join(label for _, label in self.choices)
        raise DiceError(f"{self.label} must be one of {names}, not '{_shown(typed)}'.")


POOL_INPUT = OddsInput("pool", "Pool", hint="number of dice, e.g. 6")
TARGET_INPUT = OddsInput("target", "Target", high=40, hint="optional")


def read_odds_inputs(inputs, typed):
    """
    The values of `inputs` (tuple of OddsInput) from `typed` (a mapping: field name -> text,
    such as a request's GET), name -> value; DiceError for the first bad one.
    """
    return {item.name: item.read(typed.get(item.name)) for item in inputs}


# ---------------------------------------------------------------- the roller and the request


@dataclass(frozen=True)
class Roller:
    """
    Who rolls, as the rules see them.

    Args:
        name (str): shown in messages.
        traits (rules.pools.TraitTable or None): what pools may name (None: numbers only).
        state (dict): the system's own state of the character ("hunger", "wound_penalty", ...).
    """

    name: str = ""
    traits: object = None
    state: dict = field(default_factory=dict)

    def get(self, key, default=None):
        return self.state.get(key, default)


@dataclass(frozen=True)
class RollRequest:
    """
    A parsed roll, ready to roll or to compute odds for.

    Args:
        system (str): the system's key.
        text (str): what the player typed for the pool and target (for the record).
        pool (object): the system's resolved pool (e.g. `rules.pools.Pool`), or None.
        dice (int): dice to roll (after modifiers the system applies; its caps apply later).
        target (object): the system's target (a difficulty, a `(face, count)`, a TN ...).
        target_given (bool): whether the player stated one (else the system's default).
        options (frozenset of str): switches that change the roll ("willpower", "spec" ...).
        extra (tuple of (str, object)): anything else the system parsed.
    """

    system: str
    text: str
    pool: object
    dice: int
    target: object = None
    target_given: bool = False
    options: frozenset = frozenset()
    extra: tuple = ()

    def option(self, name):
        return name in self.options

    def get(self, key, default=None):
        return dict(self.extra).get(key, default)


# ---------------------------------------------------------------- sheets


@dataclass(frozen=True)
class SheetSection:
    """
    One part of a sheet as shown by `+sheet`.

    Args:
        kind (str): "columns" (groups of traits side by side: `rows` is a tuple of
            (group title, ((trait label, value), ...)) per column), "line" (`text` after the
            title), or "track" (`boxes`: a string of box marks, `text` the summary after them).
        title (str): the section's heading or label.
    """

    kind: str
    title: str
    rows: tuple = ()
    text: str = ""
    boxes: str = ""


class Sheet:
    """
    A system's character sheet: which traits exist, their ranges and what they derive. Pure;
    the typeclass stores the values (a dict trait -> int) and Specialties (skill -> names).
    """

    #: traits a player may never set on their own sheet (V5: Hunger), even before approval
    staff_only = frozenset()
    #: the system's own word for a name kept under a trait (a V5 Specialty, a Dice Check
    #: Focus), singular and plural, as every line about one says it
    specialty_words = ("Specialty", "Specialties")
    #: what `+stat <word> <trait>=<name>` accepts as that word (the first is the one shown)
    specialty_keywords = ("spec", "specialty", "specialties")
    #: the sheet flags (kept on the character, set by the system's commands) that `layout`
    #: shows, so a page that is not a command (the website's) lays the sheet out the same
    layout_flags = frozenset()

    def defaults(self) -> dict[str, int]:
        """Every settable trait with its starting value."""
        raise NotImplementedError

    def clamp(self, values: Mapping[str, int]) -> dict[str, int]:
        """The values read back in range (a full dict, defaults filled in)."""
        merged = dict(self.defaults())
        merged.update(values)
        return merged

    def match(self, typed: str) -> str:
        """The canonical name of a settable trait typed by a player; DiceError if none."""
        raise NotImplementedError

    def check_value(self, trait: str, value: int, values: Mapping[str, int]) -> int:
        """Refuse a value out of range with DiceError; return it."""
        raise NotImplementedError

    def changes(self, trait: str, value: int, values: Mapping[str, int]) -> dict[str, int]:
        """
        Optional: every trait change `+stat <trait>=<value>` makes, in the order to apply them
        (trait -> value; `trait` itself first). The default changes that trait alone; a sheet
        may add consequences (V5: Stains past the empty Humanity boxes damage Willpower).
        """
        return {trait: value}

    def read_value(self, trait: str, typed: str) -> int:
        """
        Optional: a value as a player typed it for `+stat <trait>=<typed>`. The default reads
        a whole number (a leading '-' allowed; the range is `check_value`'s); a sheet may also
        read words (Seyruun's wound level `moderate`). Refuse with DiceError.
        """
        return read_whole(typed, "The value must be a whole number", signed=True)

    def check_specialty(self, skill: str, specialty: str, values: Mapping[str, int], owned: Mapping[str, Any]) -> str:
        """Refuse a Specialty that cannot be added; return its cleaned name."""
        raise DiceError("This game has no Specialties.")

    def traits(self, values: Mapping[str, int], specialties: Mapping[str, Any]) -> "TraitTable":
        """The `rules.pools.TraitTable` the sheet offers to pools."""
        raise NotImplementedError

    def state(self, values: Mapping[str, int]) -> dict[str, Any]:
        """The system state a roll needs from the sheet (see `Roller.state`)."""
        return {}

    # -- Willpower: one way to spend it, for every system that has it. The sheet names the
    # trait a spent point is marked on and which way it moves (+1: damage or points spent are
    # marked; -1: points left are taken off); `state(values)["willpower_left"]` says how many
    # may still be spent. None: the sheet has no Willpower.
    willpower_trait = None
    willpower_step = 1
    #: the refusal when too little is left (`{need}`, `{left}`: points), in the system's words
    no_willpower = "There is no Willpower left to spend."

    def willpower_left(self, values: Mapping[str, int]) -> int:
        """The Willpower points that may still be spent."""
        return int(self.state(values).get("willpower_left", 0) or 0)

    def spend_willpower(self, values: Mapping[str, int], amount: int = 1) -> dict[str, int]:
        """
        The trait changes ({trait: new value}) that spend `amount` Willpower.

        Raises:
            DiceError: the sheet has no Willpower, or less than `amount` is left (nothing spent).
        """
        if self.willpower_trait is None:
            raise DiceError("This game's sheet has no Willpower to spend.")
        values = self.clamp(values)
        left = self.willpower_left(values)
        if left < amount:
            raise DiceError(self.no_willpower.format(need=amount, left=left))
        return {self.willpower_trait: values[self.willpower_trait] + self.willpower_step * amount}

    def vitals(self, values: Mapping[str, int]) -> dict[str, Any]:
        """
        Optional: the gauges a MUD client shows (sent as GMCP `Char.Vitals` on login and after
        every sheet change). Plain JSON-able data, keyed by lower-case names: a number, or
        {"current": n, "max": m} for a track a client draws as a bar, or a small dict of
        numbers and words (V20's health level). The default, {}, sends nothing: a sheet with
        nothing that rises and falls in play (Whalefall's skills) has no vitals.
        """
        return {}

    def layout(self, values: Mapping[str, int], specialties: Mapping[str, Any],
               flags: frozenset = frozenset()) -> tuple[SheetSection, ...]:
        """The sheet's sections (tuple of SheetSection), in order, for `+sheet`."""
        raise NotImplementedError

    def help(self) -> str:
        """The `+stat` help's system part: which traits there are and their ranges."""
        return ""


# ---------------------------------------------------------------- what a system declares


@dataclass(frozen=True)
class MarkLook:
    """
    How a die with every one of `marks` looks, for a mark a system adds (V5's "hunger", V20's
    "cancelled", ...): the shared looks (`rules.display`) cover the shared marks, and a
    system's own come first (a combination before its parts).

    Args:
        marks (frozenset of str): the marks a die must all have.
        telnet (str): Evennia markup put in front of the face (`|r`, `|[400|w`).
        css (str): CSS declarations for the roll log's pages (`color: #c00000;`), readable at
            WCAG AA on the page's white.
        label (bool): a group's label takes `telnet` too when every die of it has the marks
            (the "Hunger:" of V5's Hunger dice).
    """

    marks: frozenset
    telnet: str = ""
    css: str = ""
    label: bool = False


@dataclass(frozen=True)
class Example:
    """
    A typical roll of the system, as a player types it: what its help and the game's first
    room show, and what tests play through the shared commands.

    Args:
        typed (str): what follows the command ("dex+stealth vs 3").
        command (str): "+roll" or "+check" (numbers only).
        stats (dict): traits set with `+stat` first ({"dex": 3}).
        state (dict): traits set directly on the sheet (staff-only ones: {"hunger": 2}).
    """

    typed: str
    command: str = "+roll"
    stats: dict = field(default_factory=dict)
    state: dict = field(default_factory=dict)

    @property
    def line(self):
        return f"{self.command} {self.typed}"


# ---------------------------------------------------------------- the interface


class System:
    """
    A dice system as the shared commands see it. Subclasses set the class attributes and
    implement the methods; everything they take and give is described in this module.

    Class attributes:
        key (str): the `DICE_SYSTEM` setting's value ("v5").
        title (str): the system's name for people.
        roll_switches (tuple of str): switches of the shared `+roll`/`+check` that belong to
            this system (the shared ones are private and verify).
        roll_usage (str): the syntax line of `+roll` in this system.
        help (str): the system's part of the `+roll` help (syntax, switches, examples).

    What players read of the system (the help, the first room, the home page, the connect
    screen), declared here so that nothing shared names a system:
        short (str): its short name ("V5"; the title by default).
        blurb (str): one sentence on what its dice do, for people new to the game.
        slogan (str): the game's slogan under this system.
        example (Example): a typical roll.
        tags (tuple of str): the tags its own lines start with (`[Rouse]`), beyond the
            shared ones (`typeclasses.speech_text`): a player's speech naming one is marked.
        mark_looks (tuple of MarkLook): how dice with its own marks look (a mark is any
            word; `MARKS` are the ones the five systems use).
        wing (str): where its wing is ("module:ATTRIBUTE", e.g. "my_game.dice.wing:WING"),
            its commands and its extras to the shared ones (`commands.dice_base.Wing`); "" for
            none. The package's own five are named by the registry
            (`rules.systems.PACKAGE_WINGS`); `rules.systems.wing_of` reads both.
    """

    key = ""
    title = ""
    roll_switches = ()
    roll_usage = "+roll <pool>"
    check_usage = "+check <number>"
    help = ""
    short = ""
    blurb = ""
    slogan = ""
    example = Example("3", command="+check")
    tags = ()
    mark_looks = ()
    wing = ""

    @property
    def name(self) -> str:
        """What players call the system ("V5"): `short`, else the title."""
        return self.short or self.title

    @property
    def odds_usage(self) -> str:
        """The syntax line of `+odds`: `+roll`'s, without the comment."""
        return self.roll_usage.replace("+roll", "+odds", 1).replace(" [# <comment>]", "")

    def configure(self, settings: Mapping[str, Any]) -> "System":
        """Take the game's settings (a mapping); return self. Refuse bad values with DiceError."""
        return self

    #: the system's `Sheet`
    sheet: Sheet | None = None

    #: the system's extended-roll rules (`rules.extended.ExtendedRules`), or None: no
    #: extended rolls (`commands.extended` runs them the same for every system)
    extended: Any = None  # a rules.extended.ExtendedRules (rules.seam.ExtendedRulesProtocol)

    def roller(self, name: str, values: Mapping[str, int], specialties: Mapping[str, Any]) -> Roller:
        """The `Roller` of a character with these sheet values and Specialties."""
        values = self.sheet.clamp(values)
        return Roller(name=name, traits=self.sheet.traits(values, specialties), state=self.sheet.state(values))

    # -- rolling
    def parse(self, text: str, switches: frozenset = frozenset(), roller: Roller | None = None,
              numbers_only: bool = False) -> RollRequest:
        """A `RollRequest` from what the player typed (no comment, no names); DiceError if bad."""
        raise NotImplementedError

    def roll(self, request: RollRequest, roller: Roller | None = None, rng: Random | None = None) -> Any:
        """Roll the request; return the system's result object."""
        raise NotImplementedError

    def view(self, result: Any, request: RollRequest | None = None) -> RollView:
        """The `RollView` of a result (`request`: the roll's request, for the pool as typed)."""
        raise NotImplementedError

    def record(self, result: Any, request: RollRequest | None = None) -> dict[str, Any]:
        """What the roll log stores of a result: plain data (JSON-able), including `view`."""
        return {"system": self.key, "view": self.view(result, request).to_dict()}

    def odds(self, request: RollRequest, roller: Roller | None = None) -> OddsView:
        """The `OddsView` of a request."""
        raise NotImplementedError

    # -- odds without a sheet (the website's odds page)

    #: what the odds take (tuple of `OddsInput`): the pool and target texts, then the
    #: system's own inputs; each system describes its own
    odds_inputs = (POOL_INPUT, TARGET_INPUT)

    def odds_args(self, values: Mapping[str, Any]) -> tuple[str, frozenset, Roller]:
        """
        What `parse` and `odds` take for these input values (from `read_odds_inputs`), as
        `+odds` has them for a character whose sheet and switches say the same:
        (text, switches, roller). `parse` then runs with `numbers_only=True`.

        The default: the text is "<pool> vs <target>" (the pool alone without a target); a
        FLAG with a `switch` turns that switch on; every other input (not a text) sets
        `Roller.state[input.state or input.name]`. A system whose inputs say more (a die size
        written into the pool) adds to this.
        """
        pool, target = values.get("pool") or "", values.get("target") or ""
        text = f"{pool} vs {target}" if target else pool
        switches, state = set(), {}
        for item in self.odds_inputs:
            if item.kind == TEXT:
                continue
            value = values.get(item.name, item.default)
            if item.switch:
                if value:
                    switches.add(item.switch)
            else:
                state[item.state or item.name] = value
        return text, frozenset(switches), Roller(state=state)

    def odds_of(self, values: Mapping[str, Any]) -> OddsView:
        """The `OddsView` of input values (see `odds_args`); DiceError when the rules refuse them."""
        text, switches, roller = self.odds_args(values)
        return self.odds(self.parse(text, switches, roller=roller, numbers_only=True), roller)


# ---------------------------------------------------------------- reading what players type

_VS = re.compile(r"^(?P<pool>.*?)\s+vs\.?\s+(?P<target>\S.*)$", re.IGNORECASE | re.DOTALL)
_VS_ONLY = re.compile(r"^vs\.?(?:\s+|$)", re.IGNORECASE)
_WHOLE = re.compile(r"-?[0-9]+")
MAX_DIGITS = 12


def split_vs(text):
    """
    `dex+stealth vs 3` -> ("dex+stealth", "3"); `dex+stealth` -> ("dex+stealth", None).
    The last word "vs" does not count as a separator inside a pool name.

    Raises:
        DiceError: nothing before "vs".
    """
    text = text.strip()
    if _VS_ONLY.match(text):
        raise DiceError("Say what to roll before 'vs'.")
    found = _VS.match(text)
    if not found:
        return text, None
    return found.group("pool").strip(), found.group("target").strip()


def _cut(typed):
    return typed if len(typed) <= 20 else typed[:20] + "..."


def read_whole(typed, message, check=None, signed=False, shown=_cut):
    """
    A whole number a player typed: ASCII digits only (`str.isdigit` also takes '²'), leading
    zeros read as the number they are, any length (a huge one is just out of range for `check`).

    Args:
        typed (str): what was typed.
        message (str): the refusal, completed with ", not '<typed>'.".
        check (callable, optional): a range check that returns the value or raises DiceError.
        signed (bool): whether a leading '-' is allowed.
        shown (callable): `typed` as the refusal quotes it (the commands pass their escape, for
            a line that is markup; the rules' own cut keeps plain text short).
    """
    typed = typed.strip()
    if not _WHOLE.fullmatch(typed) or (typed.startswith("-") and not signed):
        raise DiceError(f"{message}, not '{shown(typed)}'.")
    digits = typed.lstrip("-").lstrip("0") or "0"
    value = int(digits) if len(digits) <= MAX_DIGITS else 10**MAX_DIGITS
    value = -value if typed.startswith("-") else value
    return check(value) if check else value


def check_system(system):
    """Refuse an object that is not a usable System (a registry entry gone wrong)."""
    if not isinstance(system, System) or not system.key or not system.title:
        raise DiceError(f"{system!r} is not a dice system.")
    return system
