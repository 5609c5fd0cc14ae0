"""
Seyruun behind the seam (`rules.engine`): the `System` object the shared commands, the display
and the roll log use. The rules live in `rules.seyruun` (docs/seyruun.md); this module
reads what players type, builds the pool from the sheet, and translates results and odds into
the system-neutral shapes.

Syntax:

    +roll <pool> [vs <successes needed>] [/willpower] [/multi <actions>]
    +check <number> [vs <successes needed>]

- The difficulty is the number of successes needed, 1 to 20, as a number or the rules' word
  (`simple` 1, `moderate` 2, `complex` 3, `epic` 4, `legendary` 5). With none the roll is a
  Simple task (1 success) and no target is shown.
- A pool names one Attribute and at most one Skill, Discipline, Path or Racial Power Tree
  (`+roll cha+dominate`), or two Attributes (the rules' initiative, Wits + Dexterity), or an
  Attribute and Willpower (the rules' resistance, Willpower + Resolve). Numbers added are
  external bonuses (merits, allies, equipment), numbers subtracted are penalties
  (`+roll dex+stealth+1-2 vs 2`).
- `/willpower` (the switch or the ending): spend 1 Willpower before rolling for +3 dice.
- `/multi <n>` (the ending; the switch alone means 2): n actions this turn, -2 dice for each
  action beyond the first.
- `/damage` and `/soak` (the switch or the ending): the rules' damage roll, Strength + the
  weapon's base (`+roll/damage str+3`), and its soak roll, Constitution + Endurance + the armour
  (`+roll/soak con+endurance+2`).
- The sheet's wound level is taken off every pool, `+check` too (as V5's Hunger rides on
  `+check`): Light -1, Moderate -2, Severe -3, Crippled -5.

Then the rules of `rules.seyruun`: untrained (Skill 0) -1 die, external bonuses capped at +5
(the note says what was cut), at most 10 dice rolled (the rest is overflow, noted for damage
and secondary effects), a chance die when nothing is left (10 succeeds, 1 is a dramatic botch),
pools above 50 dice refused.

Looks: a 6-9 is marked "success", a 10 "success", "double" and "ten" (it counts two); a 1 is
marked "one" only on a botch (elsewhere a 1 changes nothing, so it is a plain "fail"); a chance
die carries "chance" too. The score is the successes, 10s counted twice. Outcome keys:
`supernatural_brilliance`, `heroic`, `solid`, `just_enough` (wins, by total successes),
`failure`, `botch`, `dramatic_botch` (a chance die's 1).

Costs: `SeyruunSystem.costs(request)` says what a roll spends from the roller's state,
`{"willpower_left": 1}` for `/willpower` (else `{}`); the command layer checks it is there
(`parse` already refuses `/willpower` when the roller's `willpower_left` is 0) and stores the
spending with `SeyruunSheet.pay(values, costs)`, which returns the sheet values to save.

Rulings (beyond those of `rules.seyruun`):

- **Ruling**: the Attributes are the nine of the rules' World of Darkness grid with the rules'
  names: Intelligence, Wits, Resolve / Strength, Dexterity, Constitution / Charisma,
  Manipulation, Composure (the rules roll Constitution for soak and Charisma for persuasion;
  Composure and Resolve give Willpower). The Skills are the ones the rules roll (Athletics,
  Occult, Stealth, Firearms, Archery, Endurance, Intimidation, a weapon Skill as Melee and
  Brawl, deception vs insight, persuasion, crafting) filled out to six a group.
- **Ruling**: the Powers (Disciplines, Paths, Racial Power Trees) are the rules' examples,
  Dominate, Divinity Tree and Elemental Core; a game adds its own with the setting
  `SEYRUUN_POWERS` (a list of names). A Power at 0 cannot be rolled (you do not have it);
  a Skill at 0 is rolled untrained.
- **Ruling**: every number added to a pool is an external bonus and counts toward the +5 cap
  (the player cannot say which are merits and which are circumstances, and the rules cap
  "no single action" above +5). A plain-number pool (`+check 4`, `+roll 4+1`) is just that many
  dice: no Attribute, no untrained penalty, no cap on its numbers.
- **Ruling**: damage and soak are their own roll type, said with `/damage` or `/soak`. The
  shape of the pool cannot tell them apart (`str+3` may be an untrained Strength roll with a
  +3 bonus or a weapon of base 3), so the player says which, as at the table ("I roll
  damage"). They want no Skill, so no untrained die is lost; the numbers added are the weapon
  base or the armour, part of the pool, so the +5 external bonus cap does not cut them (`str+6`
  with Strength 3 rolls 9 dice); numbers subtracted are penalties. A damage roll names
  Strength alone, a soak roll Constitution and at most Endurance besides (a plain number is
  just that many dice, as everywhere). They are not actions of their own, so `/multi` does
  not go with them; the wound level and `/willpower` apply as to any pool.
- **Ruling**: Willpower in a pool (`+roll res+willpower`) counts its maximum, the rating
  (Composure + Resolve); spending points does not weaken a resistance.
- **Ruling**: a wound level is a number on the sheet, 0 none, 1 Light, 2 Moderate, 3 Severe,
  4 Crippled (`+stat wound=2`); `SeyruunSheet.read_value` also reads the names.
- **Ruling**: `/multi <n>` counts all n actions (2 to 10); `/multi 1` is refused as meaningless.
- **Ruling**: the enhanced critical note is added whenever two or more 10s show (win or not),
  for the Storyteller; it is a note, not an outcome, since its effects are narrative.

The odds without a sheet (`odds_inputs`, the website's odds page): dice, successes needed,
`/willpower` (+3 dice), the actions this turn (`/multi <n>`) and the wound level, taken off the
pool as the sheet's is. **Ruling**: the page assumes the Willpower point is there (odds spend
nothing).
"""

import re
import textwrap
from dataclasses import dataclass, replace
from fractions import Fraction

from .. import seyruun
from ..display import BADGE, BADGE_CSS
from ..engine import Example, MarkLook
from ..engine import (CHANCE, CHOICE, DOUBLE, FAIL, FLAG, NUMBER, ONE, SUCCESS, TEN, Chance, DiceGroup, Die,
                     OddsInput, OddsView, Outcome, Roller,
                     RollRequest, RollView, Sheet, SheetSection, System, plural, read_whole, split_vs)
from ..errors import DiceError, PoolError
from ..pools import TraitTable, match_name, normalize, parse as parse_terms

# ---------------------------------------------------------------- the sheet's traits

ATTRIBUTES = {
    "mental": ("intelligence", "wits", "resolve"),
    "physical": ("strength", "dexterity", "constitution"),
    "social": ("charisma", "manipulation", "composure"),
}
SKILLS = {
    "mental": ("academics", "awareness", "crafts", "investigation", "medicine", "occult"),
    "physical": ("archery", "athletics", "brawl", "endurance", "firearms", "melee", "stealth", "survival"),
    "social": ("deception", "empathy", "etiquette", "insight", "intimidation", "persuasion"),
}
POWERS = ("dominate", "divinity tree", "elemental core")
ALL_ATTRIBUTES = tuple(name for group in ATTRIBUTES.values() for name in group)
ALL_SKILLS = tuple(name for group in SKILLS.values() for name in group)

WILLPOWER_SPENT = "willpower spent"
WOUND = "wound"
WOUND_LEVELS = ("none", "light", "moderate", "severe", "crippled")  # index = the stored value

# The abbreviations players type; they win over prefix matching (`int` is Intelligence, not
# ambiguous with Intimidation and Investigation; `per` would be unique anyway).
ALIASES = {
    "str": "strength", "dex": "dexterity", "con": "constitution", "cons": "constitution",
    "cha": "charisma", "char": "charisma", "man": "manipulation", "manip": "manipulation",
    "com": "composure", "comp": "composure", "int": "intelligence", "wit": "wits",
    "res": "resolve", "wp": "willpower", "intim": "intimidation", "invest": "investigation",
    "dom": "dominate", "div": "divinity tree", "divinity": "divinity tree",
}

MAX_DOTS = 5
MAX_ACTIONS = 10
MAX_POWER_NAME = 30

# Outcome keys and looks. rules.seyruun calls the top grade "supernatural".
KEYS = {"supernatural": "supernatural_brilliance"}
LABELS = {
    "supernatural_brilliance": "supernatural brilliance",
    "heroic": "heroic",
    "solid": "solid",
    "just_enough": "just enough",
    "failure": "failure",
    "botch": "botch",
    "dramatic_botch": "dramatic botch",
}
TONES = {
    "supernatural_brilliance": "triumph",
    "heroic": "good",
    "solid": "good",
    "just_enough": "good",
    "failure": "bad",
    "botch": "disaster",
    "dramatic_botch": "disaster",
}
# The successes each win label covers (inclusive; None: no upper end).
GRADES = (("supernatural_brilliance", 6, None), ("heroic", 4, 5), ("solid", 2, 3), ("just_enough", 1, 1))

ENHANCED_NOTE = "enhanced critical: two or more 10s - tell the Storyteller"


def _key(result):
    return KEYS.get(result.outcome, result.outcome)


def _dice(count):
    return plural(count, "die", "dice")


# ---------------------------------------------------------------- the sheet


class SeyruunSheet(Sheet):
    """
    Attributes 1-5 (default 1), Skills 0-5, Powers 0-5 (0: not known), Willpower spent
    0 to Composure + Resolve, wound level 0-4.
    """

    # Willpower is Composure + Resolve; a spent point is counted up in 'willpower spent'.
    willpower_trait = WILLPOWER_SPENT
    no_willpower = "You have {left} Willpower left; this needs {need}."

    def __init__(self, powers=POWERS):
        names = []
        for name in powers:
            cleaned = " ".join(str(name).lower().split())
            if not cleaned or len(cleaned) > MAX_POWER_NAME or not all(ch.isalpha() or ch in " '" for ch in cleaned):
                raise DiceError(f"'{name}' is not a usable Power name (letters, spaces and ' only).")
            if normalize(cleaned) in {normalize(n) for n in ALL_ATTRIBUTES + ALL_SKILLS + tuple(names)} | {
                    "willpower", "willpowerspent", "wound"}:
                raise DiceError(f"The Power '{name}' has the name of another trait.")
            names.append(cleaned)
        self.powers = tuple(names)

    # -- what exists

    def kind_of(self, trait):
        """'attribute', 'skill', 'power', 'rating' (Willpower in a pool) or 'tracker'."""
        if trait in ALL_ATTRIBUTES:
            return "attribute"
        if trait in ALL_SKILLS:
            return "skill"
        if trait in self.powers:
            return "power"
        if trait == "willpower":
            return "rating"
        if trait in (WILLPOWER_SPENT, WOUND):
            return "tracker"
        raise DiceError(f"There is no trait called '{trait}'.")

    def settable(self):
        return ALL_ATTRIBUTES + ALL_SKILLS + self.powers + (WILLPOWER_SPENT, WOUND)

    def defaults(self):
        return {trait: 1 if trait in ALL_ATTRIBUTES else 0 for trait in self.settable()}

    def limits(self, trait, values):
        kind = self.kind_of(trait)
        if kind == "attribute":
            return 1, MAX_DOTS
        if trait == WOUND:
            return 0, len(WOUND_LEVELS) - 1
        if trait == WILLPOWER_SPENT:
            return 0, willpower_max(values)
        return 0, MAX_DOTS

    def clamp(self, values):
        merged = self.defaults()
        merged.update({k: v for k, v in values.items() if k in merged})
        # Attributes first: the Willpower track's size depends on Composure and Resolve.
        for trait in sorted(merged, key=lambda t: t == WILLPOWER_SPENT):
            value = merged[trait]
            if not isinstance(value, int) or isinstance(value, bool):
                value = self.defaults()[trait]
            low, high = self.limits(trait, merged)
            merged[trait] = min(max(value, low), high)
        return merged

    def match(self, typed):
        key = normalize(typed)
        if key in ("willpower", "wp"):
            raise DiceError("Willpower's maximum is Composure + Resolve; set the points spent with "
                            "'willpower spent' (e.g. +stat willpower spent=1).")
        if key in ("wounds", "woundlevel", "wounded"):
            return WOUND
        return match_name(typed, self.settable(), ALIASES)

    def check_value(self, trait, value, values):
        low, high = self.limits(trait, self.clamp(values))
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            detail = ""
            if trait == WOUND:
                detail = " (0 none, 1 Light, 2 Moderate, 3 Severe, 4 Crippled)"
            elif trait == WILLPOWER_SPENT:
                detail = " (Willpower is Composure + Resolve)"
            raise DiceError(f"{trait.title()} must be from {low} to {high}{detail}.")
        return value

    def read_value(self, trait, typed):
        """A value as typed: a whole number, or for the wound level its name (`moderate`)."""
        if trait == WOUND and normalize(typed) in WOUND_LEVELS:
            return WOUND_LEVELS.index(normalize(typed))
        return read_whole(typed, f"{trait.title()} takes a whole number")

    def traits(self, values, specialties):
        values = self.clamp(values)
        rollable = {name: values[name] for name in ALL_ATTRIBUTES + ALL_SKILLS + self.powers}
        rollable["willpower"] = willpower_max(values)
        return TraitTable(values=rollable, specialties={}, aliases=ALIASES, specialty_traits=frozenset())

    def state(self, values):
        values = self.clamp(values)
        level = WOUND_LEVELS[values[WOUND]]
        maximum = willpower_max(values)
        return {
            "wound": None if level == "none" else level,
            "wound_penalty": seyruun.WOUND_PENALTIES.get(level, 0),
            "willpower_max": maximum,
            "willpower_left": maximum - values[WILLPOWER_SPENT],
        }

    def vitals(self, values):
        """Willpower left of Composure + Resolve; the wound level (0-4), its name and penalty."""
        values = self.clamp(values)
        maximum = willpower_max(values)
        level = WOUND_LEVELS[values[WOUND]]
        return {
            "willpower": {"current": maximum - values[WILLPOWER_SPENT], "max": maximum},
            "wound": {"current": values[WOUND], "max": len(WOUND_LEVELS) - 1, "level": level,
                      "penalty": seyruun.WOUND_PENALTIES.get(level, 0)},
        }

    def pay(self, values, costs):
        """The sheet values after paying `costs` (from `SeyruunSystem.costs`); DiceError if short."""
        values = self.clamp(values)
        spend = costs.get("willpower_left", 0)
        unknown = set(costs) - {"willpower_left"}
        if unknown:
            raise DiceError(f"Nothing on a Seyruun sheet pays {', '.join(sorted(unknown))}.")
        values.update(self.spend_willpower(values, spend))
        return values

    def layout(self, values, specialties, flags=frozenset()):
        values = self.clamp(values)
        sections = []
        for heading, groups in (("Attributes", ATTRIBUTES), ("Skills", SKILLS)):
            rows = tuple((group.title(), tuple((name.title(), values[name]) for name in names))
                         for group, names in groups.items())
            sections.append(SheetSection("columns", heading, rows=rows))
        known = [f"{name.title()} {values[name]}" for name in self.powers if values[name]]
        sections.append(SheetSection("line", "Powers", text=", ".join(known) or "none"))
        maximum, spent = willpower_max(values), values[WILLPOWER_SPENT]
        sections.append(SheetSection("track", "Willpower", boxes="/" * spent + "." * (maximum - spent),
                                     text=f"{maximum - spent}/{maximum} left (Composure + Resolve)"))
        level = WOUND_LEVELS[values[WOUND]]
        penalty = seyruun.WOUND_PENALTIES.get(level, 0)
        sections.append(SheetSection("line", "Wound", text=(f"{level.title()}: -{_dice(penalty)} on every pool"
                                                            if penalty else "none")))
        return tuple(sections)

    def help(self):
        text = (
            "Seyruun sheet: Attributes 1-5 (" + ", ".join(a.title() for a in ALL_ATTRIBUTES) + "); "
            "Skills 0-5 (" + ", ".join(s.title() for s in ALL_SKILLS) + "); "
            "Powers 0-5, the Disciplines, Paths and Racial Power Trees (" + ", ".join(p.title() for p in self.powers)
            + "), used in place of a Skill. Willpower is Composure + Resolve: set the points spent with "
            "'willpower spent'. Wound: 0 none, 1 Light (-1 die), 2 Moderate (-2), 3 Severe (-3), 4 Crippled (-5), "
            "taken off every pool (+stat wound=2)."
        )
        return "\n".join(textwrap.wrap(text, 72))


def team(pools):
    """
    A team roll (`rules.seyruun.team_pool`'s rule for built pools): the highest pool leads (the
    first listed on equal pools) with +1 die per other member; those dice are external bonuses,
    so they count toward the +5 cap (a plain-number pool has no cap, as everywhere).

    Returns:
        (int, SeyruunPool): the leader's index and its pool with the assistants.
    """
    pools = tuple(pools)
    if len(pools) < 2:
        raise DiceError("A team roll needs at least two characters.")
    leader = max(range(len(pools)), key=lambda i: (pools[i].total, -i))
    pool, helpers = pools[leader], len(pools) - 1
    parts = pool.parts + ((f"{helpers} assistant{'s' if helpers != 1 else ''}", None, 1),)
    if pool.attribute is None:
        return leader, replace(pool, parts=parts, total=seyruun.check_pool_size(pool.total + helpers))
    offered = pool.bonus + pool.bonus_cut + helpers
    bonus = min(offered, seyruun.MAX_BONUS)
    total = seyruun.check_pool_size(pool.total - pool.bonus + bonus)
    return leader, replace(pool, parts=parts, total=total, bonus=bonus, bonus_cut=offered - bonus)


def willpower_max(values):
    return seyruun.willpower_max(values["composure"], values["resolve"])


# ---------------------------------------------------------------- the built pool


@dataclass(frozen=True)
class SeyruunPool:
    """
    A pool as built for one roll: what it is made of and what is rolled.

    Args:
        parts (tuple of (label, value, sign)): what the player named, in order (value None: a
            plain number, shown bare).
        total (int): the pool after every modifier, before the cap (0 or less: a chance die).
        attribute (int or None): the base Attribute (for contests); None for a plain number.
        untrained, bonus_cut, willpower, wound, wound_penalty, actions: the modifiers applied.
    """

    parts: tuple
    total: int
    attribute: int | None = None
    untrained: bool = False
    bonus: int = 0
    bonus_cut: int = 0
    willpower: bool = False
    wound: str | None = None
    wound_penalty: int = 0
    actions: int = 1
    kind: str | None = None  # "damage" or "soak" (`FORMULAS`), None for any other roll

    @property
    def chance(self):
        return self.total <= 0

    @property
    def rolled(self):
        return 1 if self.chance else min(self.total, seyruun.MAX_ROLLED)

    @property
    def overflow(self):
        return max(0, self.total - seyruun.MAX_ROLLED)

    @property
    def multi_penalty(self):
        return seyruun.MULTI_ACTION_PENALTY * (self.actions - 1)

    def describe(self):
        """`Dexterity 3 + Stealth 3 + 1 = 7 dice`, with every modifier as a term."""
        terms = []
        for label, value, sign in self.parts:
            shown = label if value is None else f"{label} {value}"
            terms.append(("-" if sign < 0 else "+", shown))
        if self.untrained:
            terms.append(("-", "untrained 1"))
        if self.bonus_cut:
            terms.append(("-", f"bonus cut {self.bonus_cut}"))
        if self.willpower:
            terms.append(("+", f"Willpower {seyruun.WILLPOWER_DICE}"))
        if self.wound_penalty:
            terms.append(("-", f"{self.wound.title()} wound {self.wound_penalty}"))
        if self.multi_penalty:
            terms.append(("-", f"multi-action {self.multi_penalty}"))
        text = ("-" if terms[0][0] == "-" else "") + terms[0][1]
        for sign, shown in terms[1:]:
            text += f" {sign} {shown}"
        if len(terms) > 1:
            text += f" = {self.total}"
        if self.chance:
            return f"{text}: a chance die"
        text += " die" if self.total == 1 else " dice"
        if self.overflow:
            text += f" ({seyruun.MAX_ROLLED} rolled)"
        return text

    def notes(self):
        """What changed the pool beyond plain addition, in words for the player."""
        notes = [FORMULAS[self.kind][3]] if self.kind else []
        if self.untrained:
            notes.append("untrained: -1 die")
        if self.bonus_cut:
            notes.append(f"external bonuses +{self.bonus + self.bonus_cut} capped at +{seyruun.MAX_BONUS} "
                         f"({_dice(self.bonus_cut)} cut)")
        if self.willpower:
            notes.append(f"1 Willpower spent: +{seyruun.WILLPOWER_DICE} dice")
        if self.wound_penalty:
            notes.append(f"{self.wound.title()} wound: -{_dice(self.wound_penalty)}")
        if self.multi_penalty:
            notes.append(f"{self.actions} actions: -{_dice(self.multi_penalty)}")
        if self.chance:
            notes.append("chance die: 10 succeeds, 1 is a dramatic botch")
        if self.overflow:
            notes.append(f"{_dice(self.overflow)} overflow (for damage and secondary effects)")
        return tuple(notes)


@dataclass(frozen=True)
class SeyruunRoll:
    """A rolled request: the `rules.seyruun` result and the pool it came from."""

    result: seyruun.SeyruunResult
    pool: SeyruunPool
    target_given: bool = True

    @property
    def outcome(self):
        return _key(self.result)

    @property
    def win(self):
        return self.result.win

    @property
    def successes(self):
        return self.result.successes


# ---------------------------------------------------------------- reading what players type

_ENDING = re.compile(r"/\s*(?P<word>willpower|wp|multi|damage|soak)(?:\s+(?P<n>[^/\s]+))?\s*$", re.IGNORECASE)

# The roll types whose pool is its own formula (see the damage and soak ruling): the traits
# each may name, the label of the numbers it adds, and how its note reads.
FORMULAS = {
    "damage": (("strength",), (), "weapon base", "damage roll: Strength + weapon base"),
    "soak": (("constitution",), ("endurance",), "armour", "soak roll: Constitution + Endurance + armour"),
}


def _read_actions(typed):
    def check(value):
        if not 2 <= value <= MAX_ACTIONS:
            raise DiceError(f"Multi-action counts your actions this turn, from 2 to {MAX_ACTIONS}, not {value}.")
        return value

    return read_whole(typed, "Say how many actions you take this turn as a whole number", check)


def read_difficulty(typed):
    """Successes needed: a whole number 1-20 or the rules' word (`moderate`)."""
    word = normalize(typed)
    if word in seyruun.DIFFICULTIES:
        return seyruun.DIFFICULTIES[word]
    return read_whole(typed, "The difficulty is the number of successes needed (1 to 20) or a word like "
                             "'moderate'", seyruun.check_difficulty)


def _formula(options):
    """The roll type a request's switches name ("damage", "soak" or None); refuses a clash."""
    kinds = [kind for kind in FORMULAS if kind in options]
    if len(kinds) > 1:
        raise DiceError("A roll is either damage or soak: use /damage or /soak, not both.")
    if kinds and "multi" in options:
        raise DiceError(f"A {kinds[0]} roll is not an action of its own: /multi does not go with /{kinds[0]}.")
    return kinds[0] if kinds else None


class SeyruunSystem(System):
    key = seyruun.KEY
    title = seyruun.TITLE
    roll_switches = ("willpower", "multi", "damage", "soak")
    roll_usage = "+roll <pool> [vs <successes>] [/willpower] [/multi <actions>] [# <comment>]"
    check_usage = "+check <number> [vs <successes>] [# <comment>]"
    # What players read of this system (`System`: the help, the first room, the home page and
    # the connect screen), and the looks of its chance die.
    blurb = ("Seyruun: an Attribute and a Skill against the successes needed; a 10 counts twice, "
             "and with no dice left you roll a chance die.")
    slogan = "Chance dice, heroic successes and an honest record"
    example = Example("dex+stealth vs 2", stats={"dex": 3}, state={"stealth": 2})
    tags = ("Resist",)
    mark_looks = (
        MarkLook(frozenset({CHANCE, TEN}), "|g"),
        MarkLook(frozenset({CHANCE, ONE}), BADGE, BADGE_CSS),
        MarkLook(frozenset({CHANCE}), "|c", "font-style: italic;", label=True),
    )
    extended = seyruun.EXTENDED
    help = """\
Seyruun: your pool is an Attribute plus a Skill, or a Discipline, Path
or Racial Power Tree in its place (+roll cha+dominate). No Skill dots:
the Attribute alone, -1 die. Numbers added are external bonuses, at most
+5 an action; numbers subtracted are penalties. Your wound is taken off
every pool. At most 10 dice are rolled: the rest is overflow, for damage
and secondary effects. With no dice left you roll a chance die: 10
succeeds, 1 is a dramatic botch.
The difficulty is the successes needed: 1-20, or simple (1), moderate
(2), complex (3), epic (4), legendary (5); none means simple. 6-9 is a
success, 10 is two. 1s and no successes: a botch. On a win: 1 just
enough, 2+ solid, 4+ heroic, 6+ supernatural brilliance. Two or more
10s: an enhanced critical, for the Storyteller.
  /willpower (or the ending /willpower): spend 1 Willpower before
  rolling for +3 dice.
  /multi <n> (an ending; the switch alone is 2): n actions this turn,
  -2 dice for each beyond the first.
  /damage: a damage roll, Strength + the weapon's base (str+3);
  /soak: Constitution + Endurance + the armour (con+endurance+2).
  The weapon base or armour is part of the pool (no +5 cap) and no
  untrained die is lost; /multi does not go with them.
Examples: +roll dex+stealth+1 vs 2   +roll/willpower 4 vs 2
  +roll str+brawl vs moderate/multi 2   +check 0 vs 1   +roll/damage str+3"""

    odds_inputs = (
        OddsInput("pool", "Dice", hint="e.g. 6"),
        OddsInput("target", "Successes needed", high=40,
                  hint="1 to 20, or simple, moderate, complex, epic, legendary; blank: simple"),
        OddsInput("willpower", "Willpower", kind=FLAG, switch="willpower", hint=f"+{seyruun.WILLPOWER_DICE} dice"),
        OddsInput("actions", "Actions this turn", kind=NUMBER, low=1, high=MAX_ACTIONS, default=1,
                  hint=f"-{seyruun.MULTI_ACTION_PENALTY} dice for each beyond the first"),
        OddsInput("wound", "Wound", kind=CHOICE, default=0, choices=tuple(
            (index, level.capitalize() if not seyruun.WOUND_PENALTIES.get(level) else
             f"{level.capitalize()} (-{seyruun.WOUND_PENALTIES[level]})") for index, level in enumerate(WOUND_LEVELS))),
    )

    def __init__(self, powers=POWERS):
        self.sheet = SeyruunSheet(powers)

    def odds_args(self, values):
        """The actions are the `/multi <n>` ending; the wound level is the sheet's, as its state has it."""
        text, switches, roller = super().odds_args(values)
        actions = roller.get("actions", 1)
        if actions > 1:
            text = f"{text}/multi {actions}"
        state = self.sheet.state({WOUND: roller.get("wound", 0)})
        return text, switches, Roller(state={key: state[key] for key in ("wound", "wound_penalty")})

    def configure(self, settings):
        powers = settings.get("SEYRUUN_POWERS", POWERS)
        if isinstance(powers, str):
            raise DiceError("SEYRUUN_POWERS must be a list of Power names, not one string.")
        return type(self)(powers=tuple(powers))

    # -- rolling

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        options = {name for name in self.roll_switches if name in switches}
        actions = 2 if "multi" in options else 1
        text = text.strip()
        while True:
            ending = _ENDING.search(text)
            if not ending:
                break
            word = ending.group("word").lower()
            if word == "multi":
                options.add("multi")
                actions = _read_actions(ending.group("n")) if ending.group("n") else 2
            elif ending.group("n"):
                if word in FORMULAS:
                    raise DiceError(f"'/{word}' takes no number: put the {FORMULAS[word][2]} in the pool "
                                    f"(+roll/{word} {'str+3' if word == 'damage' else 'con+endurance+2'}).")
                raise DiceError(f"'/{word}' takes no number: spending 1 Willpower always adds "
                                f"{seyruun.WILLPOWER_DICE} dice.")
            else:
                options.add("willpower" if word in ("willpower", "wp") else word)
            text = text[: ending.start()].strip()
        kind = _formula(options)
        if "willpower" in options and roller is not None and roller.get("willpower_left", 1) < 1:
            raise DiceError("You have no Willpower left to spend.")
        pool_text, target_text = split_vs(text)
        difficulty = None if target_text is None else read_difficulty(target_text)
        traits = None if numbers_only or roller is None else roller.traits
        wound = roller.get("wound") if roller is not None else None
        pool = self.build(pool_text, traits, willpower="willpower" in options, actions=actions, wound=wound, kind=kind)
        extra = (("actions", actions),) if actions > 1 else ()
        return RollRequest(system=self.key, text=text, pool=pool, dice=pool.total,
                           target=seyruun.MIN_DIFFICULTY if difficulty is None else difficulty,
                           target_given=difficulty is not None, options=frozenset(options), extra=extra)

    def build(self, expression, traits=None, willpower=False, actions=1, wound=None, kind=None):
        """
        The `SeyruunPool` of a pool expression (`traits`: a TraitTable, None for numbers only;
        `kind`: "damage" or "soak" for those roll types, see `FORMULAS`).
        """
        terms = parse_terms(expression)
        named, parts, bonuses, penalties = [], [], [], []
        for term in terms:
            if term.specialty is not None:
                raise PoolError("Seyruun has no Specialties: drop the parentheses.")
            if term.number is not None:
                (bonuses if term.sign > 0 else penalties).append(term.number)
                parts.append((str(term.number), None, term.sign))
                continue
            if traits is None:
                raise PoolError(f"'{term.name}' is a trait name; only numbers can be used here.")
            trait = traits.match(term.name)
            if term.sign < 0:
                raise PoolError(f"{trait.title()} cannot be subtracted: a pool adds its traits.")
            named.append(trait)
            parts.append((trait.title(), traits.values[trait], 1))
        wound_penalty = seyruun.WOUND_PENALTIES.get(wound, 0)
        penalty = wound_penalty + seyruun.MULTI_ACTION_PENALTY * (actions - 1)
        common = dict(willpower=willpower, wound=wound if wound_penalty else None,
                      wound_penalty=wound_penalty, actions=actions, kind=kind)
        if kind and named:
            # The numbers added to a damage or soak pool are its weapon base or armour: say so.
            parts = [(FORMULAS[kind][2], int(label), 1) if value is None and sign > 0 else (label, value, sign)
                     for label, value, sign in parts]
        if not named or kind:
            values = [traits.values[trait] for trait in self._formula_traits(kind, named)] if named else []
            total = sum(values) + sum(bonuses) - sum(penalties) + seyruun.WILLPOWER_DICE * willpower - penalty
            attribute = values[0] if values else None
            return SeyruunPool(parts=tuple(parts), total=seyruun.check_pool_size(total), attribute=attribute, **common)
        attribute, skill = self._slots(named, traits)
        built = seyruun.build_pool(attribute, skill, bonuses=bonuses, penalties=penalties, willpower=willpower,
                                   extra_actions=actions - 1, wound=wound if wound_penalty else None)
        return SeyruunPool(parts=tuple(parts), total=built.total, attribute=attribute, untrained=built.untrained,
                           bonus=built.bonus, bonus_cut=built.bonus_cut, **common)

    @staticmethod
    def _formula_traits(kind, named):
        """The traits of a damage or soak pool, checked against its formula (`FORMULAS`)."""
        first, then, label, _ = FORMULAS[kind]
        if named[0] not in first or len(named) > 1 + len(then) or any(t not in then for t in named[1:]):
            wanted = " + ".join(t.title() for t in first + then)
            raise PoolError(f"A {kind} roll is {wanted} + the {label}, not "
                            f"{' + '.join(t.title() for t in named)} (e.g. +roll/{kind} "
                            f"{'str+3' if kind == 'damage' else 'con+endurance+2'}).")
        return named

    def _slots(self, named, traits):
        """(Attribute, Skill) values of the named traits: an Attribute and one more at most."""
        kinds = [self._kind(trait) for trait in named]
        if "attribute" not in kinds:
            raise PoolError(f"A Seyruun pool starts from an Attribute: add one to {named[0].title()} "
                            "(e.g. dex+stealth).")
        if len(named) > 2:
            raise PoolError("A Seyruun pool is an Attribute and one Skill or Power (or a second Attribute).")
        first = kinds.index("attribute")
        attribute = traits.values[named[first]]
        if len(named) == 1:
            return attribute, None
        other = named[1 - first]
        value = traits.values[other]
        if self._kind(other) == "power" and value < 1:
            raise PoolError(f"You have no dots in {other.title()}, so you cannot use it.")
        return attribute, value

    def _kind(self, trait):
        try:
            return self.sheet.kind_of(trait)
        except DiceError:
            return "skill"  # a trait another sheet offered: it stands in the Skill's place

    def costs(self, request):
        """What rolling `request` spends from the roller's state (see `SeyruunSheet.pay`)."""
        return {"willpower_left": 1} if request.option("willpower") else {}

    def roll(self, request, roller=None, rng=None):
        result = seyruun.roll(request.dice, request.target, rng=rng)
        return SeyruunRoll(result=result, pool=self._pool(request), target_given=request.target_given)

    def _pool(self, request):
        if isinstance(request.pool, SeyruunPool):
            return request.pool
        return SeyruunPool(parts=((str(request.dice), None, 1),), total=request.dice)

    # -- looks

    def view(self, result, request=None):
        roll, pool = result.result, result.pool
        key = _key(roll)
        if roll.chance:
            groups = (DiceGroup("Chance die", tuple(Die(f, _chance_marks(f)) for f in roll.dice)),)
        else:
            groups = (DiceGroup("Dice", tuple(Die(f, _marks(f, roll.botch)) for f in roll.dice)),)
        notes = pool.notes()
        if roll.enhanced_critical:
            notes += (ENHANCED_NOTE,)
        return RollView(
            system=self.key,
            pool=pool.describe(),
            target=f"vs {roll.difficulty}" if result.target_given else "",
            groups=groups,
            score=roll.successes,
            noun=("success", "successes"),
            outcome=Outcome(key, LABELS[key], TONES[key]),
            notes=notes,
        )

    def record(self, result, request=None):
        roll, pool = result.result, result.pool
        return {
            "system": self.key,
            "view": self.view(result, request).to_dict(),
            "dice": list(roll.dice),
            "difficulty": roll.difficulty,
            "difficulty_given": result.target_given,
            "successes": roll.successes,
            "outcome": _key(roll),
            "chance": roll.chance,
            "enhanced_critical": roll.enhanced_critical,
            "pool": pool.total,
            "overflow": roll.overflow,
            "attribute": pool.attribute,
            "untrained": pool.untrained,
            "bonus_cut": pool.bonus_cut,
            "willpower": pool.willpower,
            "wound": pool.wound,
            "actions": pool.actions,
            "kind": pool.kind,
        }

    # -- odds

    def odds(self, request, roller=None):
        pool, difficulty = self._pool(request), request.target
        figures = seyruun.odds(request.dice, difficulty)
        dist = figures["distribution"]
        top = max(dist)
        items = []
        for key, low, high in GRADES:
            low = max(low, difficulty)
            high = top if high is None else min(high, top)
            if low > high:
                continue
            chance = sum((p for s, p in dist.items() if low <= s <= high), Fraction(0))
            span = str(low) if low == high else f"{low}+" if key == GRADES[0][0] else f"{low}-{high}"
            items.append(Chance(key, f"{LABELS[key]} ({span} {'success' if span == '1' else 'successes'})",
                                chance, TONES[key], (low, high)))
        botch_key = "dramatic_botch" if pool.chance else "botch"
        items.append(Chance("failure", LABELS["failure"], figures["failure"], TONES["failure"]))
        items.append(Chance(botch_key, LABELS[botch_key], figures["botch"], TONES[botch_key]))
        notes = pool.notes() + (f"expected successes {float(figures['expected_successes']):.2f}",)
        if figures["enhanced_critical"]:
            notes += (f"enhanced critical (two or more 10s) {float(figures['enhanced_critical']) * 100:.1f}%",)
        return OddsView(
            system=self.key,
            pool=pool.describe(),
            target=f"vs {difficulty}" if request.target_given else "",
            chances=tuple(items),
            distribution=tuple(dist.items()),
            noun=("success", "successes"),
            notes=notes,
        )


def _marks(face, botch):
    if face == 10:
        return frozenset({SUCCESS, DOUBLE, TEN})
    if face >= 6:
        return frozenset({SUCCESS})
    if face == 1 and botch:
        return frozenset({ONE})
    return frozenset({FAIL})


def _chance_marks(face):
    if face == 10:
        return frozenset({CHANCE, SUCCESS, TEN})  # a 10, but it counts one
    return frozenset({CHANCE, ONE if face == 1 else FAIL})


SYSTEM = SeyruunSystem()
