"""
The Dice Check behind the seam (`rules.engine`): the `System` object the shared commands, the
display and the roll log use. The rules live in `rules.dicecheck` (docs/dicecheck.md); this
module reads the rules' notation against a sheet and translates results to the neutral shapes.

Syntax, the rules' notation as written (`<what is rolled>:<against what>`):

    +roll STR:3                         Strength check vs TN 3
    +roll Swords (Cut):EVA Rudolf       Swords + the Cut Focus vs Rudolf's Evasion
    +roll Command (Intimidate):GRI Bob  vs Bob's Grit
    +roll Athletics (Grapple):Athletics (Grapple) Bob
                                        opposed: Bob rolls too; his Hits are the TN
    +roll 12d(6+):3                     static: 12 dice at 6+, needs 3 Hits
    +roll Swords (Cut)+2:EVA Rudolf     2 dice more (a modifier; -2 for fewer)
    +roll/damage 6d(6+):2               a damage check: its Effect is the wounds dealt
    +check 12d(6+):3, +check 12:3       static checks only (no sheet)

Pool: Attribute dice + Skill training + Focus + modifiers; an Attribute of level N gives N
dice, and its level sets the threshold (`rules.dicecheck.threshold_for_attribute`). Every Skill
is rolled with its governing Attribute (`SKILLS`); an untrained Skill (0) rolls the Attribute
alone (the rules: "or Attribute if untrained").

**For the command layer (`+roll`, `+odds`)**: a check against a defence (`:EVA <target>`) or an
opposed check (`:Athletics (Grapple) <target>`) needs the target's sheet, which a System never
reads. `parse` then returns a request with `request.get("needs_target")` set (the defence's
name, e.g. "evasion", or "opposed") and `request.get("target_name")` the name as typed; the
command finds that character and calls `SYSTEM.resolve_target(request, target_roller)` (the
target's `Roller`, from `SYSTEM.roller(...)`), which returns the request ready for `roll` and
`odds`. `roll`/`odds` refuse a request still waiting for its target.

Looks: a Hit is marked "success", any other die "fail"; the score is the Hits. Outcome keys,
the same in `view` and `odds`: "success" (good), "failure" (bad), "big_botch" (disaster);
notes give "Effect 2, Degree of Success 2" or "botch margin 1". An opposed check shows the
other side's dice as a second group, labelled with their name.

Rulings (the rules are silent):

- **Ruling**: the rules name only STR among Attributes. The sheet has six, each with a
  three-letter abbreviation: Strength STR, Dexterity DEX, Constitution CON, Intelligence INT,
  Wisdom WIS, Charisma CHA, levels 1-11 (the threshold table's range), default 1.
- **Ruling**: Skills (training 0-10) each have one governing Attribute (`SKILLS`), which
  gives both the Attribute dice and the threshold. The rules' Swords, Command and Athletics
  are there, with Medicine for Esmera's stitching.
- **Ruling**: a Focus is a name under a Skill (`Swords (Cut)`) and adds 1 die when the check
  names it; it needs at least 1 training in its Skill. Naming a Focus you lack is refused; in
  an opposed check the other side's Focus counts only if they have it (not an error).
- **Ruling**: defences are values on the sheet, 0-10: Evasion EVA, Grit GRI and Hardness HAR
  (armour, the TN of a damage check). Wounds are a count 0-10 shown as a track; they do not
  change pools (the rules give no penalty).
- **Ruling**: an Attribute abbreviation on the right (`STR:STR Bob`) is an opposed Attribute
  check; a full name on either side works as well as the abbreviation.
- **Ruling**: a plain number on the left is that many dice at 6+ (the rules: a static check
  uses "usually 6+"), so `+check 12:3` is `12d(6+):3`.
- **Ruling**: a target name with `|` loses it (it is Evennia's markup character).

Contests (`parse_contest`, for +odds/contest): `<your pool>:<their pool>`, where their pool is
dice (`12d(6+)`, or a number: that many dice at 6+, as on the left; modifiers allowed) or one of
a character's traits, named after it as the opposed check has it (`STR:STR Bob`,
`Athletics (Grapple):Athletics (Grapple) Bob`; `resolve_target` reads their sheet). The figures
are `rules.dicecheck.contest_odds`. **Ruling**: under /contest the right side is always a pool,
never a TN (`STR:3` is Strength against 3 dice at 6+), and never a defence (a defence is a TN:
plain +odds answers that).

The odds without a sheet (`odds_inputs`, the website's odds page): static checks only (the dice,
the threshold and the TN, as `+odds 12d(5+):3`; a sheet's traits and someone's defence need the
game). **Ruling**: a threshold left at 6+ never overrides one written in the pool (`12d(5+)`);
another threshold than the pool's is refused, not guessed between. The whole notation typed as
the pool (`12d(6+):3`, no TN) is read as it is.
"""

import re
import textwrap
from dataclasses import dataclass, replace

from .. import dicecheck
from ..engine import Example
from ..engine import (FAIL, NUMBER, SUCCESS, Chance, DiceGroup, Die, OddsInput, OddsView, Outcome, RollRequest,
                     RollView, Sheet, SheetSection, System, plural)
from ..errors import DiceError, PoolError
from ..pools import TraitTable, match_name, normalize
from ..pools import clean_specialty

ATTRIBUTES = {
    "body": (("strength", "STR"), ("dexterity", "DEX"), ("constitution", "CON")),
    "mind": (("intelligence", "INT"), ("wisdom", "WIS"), ("charisma", "CHA")),
}
ALL_ATTRIBUTES = tuple(name for group in ATTRIBUTES.values() for name, _ in group)
ATTRIBUTE_ABBREVIATIONS = {abbr: name for group in ATTRIBUTES.values() for name, abbr in group}

# Skill -> governing Attribute, by sheet column.
SKILLS = {
    "arms": {"athletics": "strength", "brawl": "strength", "swords": "strength", "axes": "strength",
             "archery": "dexterity"},
    "craft": {"stealth": "dexterity", "thievery": "dexterity", "medicine": "intelligence",
              "lore": "intelligence", "crafting": "intelligence"},
    "people": {"awareness": "wisdom", "survival": "wisdom", "command": "charisma", "persuasion": "charisma",
               "deception": "charisma"},
}
SKILL_ATTRIBUTE = {skill: attr for group in SKILLS.values() for skill, attr in group.items()}
ALL_SKILLS = tuple(SKILL_ATTRIBUTE)

DEFENCES = (("evasion", "EVA"), ("grit", "GRI"), ("hardness", "HAR"))
ALL_DEFENCES = tuple(name for name, _ in DEFENCES)
DEFENCE_ABBREVIATIONS = {abbr: name for name, abbr in DEFENCES}

WOUNDS = "wounds"
MAX_WOUNDS = 10
MAX_TRAINING = 10
MAX_DEFENCE = 10
MAX_FOCUS_LENGTH = 30
MAX_FOCUSES_PER_SKILL = 5
STATIC_THRESHOLD = 6

ROLLABLE = ALL_ATTRIBUTES + ALL_SKILLS
SETTABLE = ALL_ATTRIBUTES + ALL_SKILLS + ALL_DEFENCES + (WOUNDS,)
ALIASES = {normalize(abbr): name for abbr, name in {**ATTRIBUTE_ABBREVIATIONS, **DEFENCE_ABBREVIATIONS}.items()}

OUTCOMES = {
    "success": Outcome("success", "success", "good"),
    "failure": Outcome("failure", "failure", "bad"),
    "big_botch": Outcome("big_botch", "big botch", "disaster"),
}

_FOCUS_NAME = re.compile(r"[A-Za-z][A-Za-z '\-]*", re.ASCII)
_MODIFIERS = re.compile(r"^(?P<core>.*?)(?P<mods>(?:\s*[+-]\s*[0-9]{1,3})*)\s*$", re.ASCII | re.DOTALL)
_MODIFIER = re.compile(r"([+-])\s*([0-9]{1,3})", re.ASCII)
_NUMBER = re.compile(r"[0-9]{1,4}", re.ASCII)
_NUMBER_THEN_NAME = re.compile(r"([0-9]{1,4})\s+(\S.*)", re.ASCII | re.DOTALL)
_ABBREVIATION_THEN_NAME = re.compile(r"([A-Za-z]{3})(?:\s+(?P<name>[^(\s].*))?", re.ASCII | re.DOTALL)

EXAMPLES = "like STR:3, Swords (Cut):EVA <target> or 12d(6+):3"
_TYPED_THRESHOLD = re.compile(r"[dD]\s*\(\s*([0-9]{1,4})\s*\+\s*\)", re.ASCII)
_DICE_SIDE = re.compile(r"[0-9]{1,4}(?:\s*[dD]\s*\(\s*[0-9]{1,4}\s*\+\s*\))?(?:\s*[+-]\s*[0-9]{1,3})*", re.ASCII)
CONTEST_EXAMPLES = "like STR:STR <name> or Swords (Cut):12d(6+)"
_LEADING_NUMBER = re.compile(r"\s*([0-9]{1,4})(?![0-9]|\s*[dD])(.*)", re.ASCII | re.DOTALL)


def limits(trait):
    """(minimum, maximum) of a settable trait."""
    if trait in ALL_ATTRIBUTES:
        return 1, dicecheck.MAX_ATTRIBUTE
    if trait in ALL_SKILLS:
        return 0, MAX_TRAINING
    if trait in ALL_DEFENCES:
        return 0, MAX_DEFENCE
    if trait == WOUNDS:
        return 0, MAX_WOUNDS
    raise DiceError(f"There is no trait called '{trait}'.")


def _label(trait):
    abbr = {**{v: k for k, v in ATTRIBUTE_ABBREVIATIONS.items()}, **{v: k for k, v in DEFENCE_ABBREVIATIONS.items()}}
    return f"{trait.title()} ({abbr[trait]})" if trait in abbr else trait.title()


class DiceCheckSheet(Sheet):
    """
    Attributes 1-11, Skills with training and Focuses, defences, wounds. A Focus is this
    system's Specialty: `+stat focus <skill>=<focus>` (the shared `spec` still works).
    """

    specialty_words = ("Focus", "Focuses")
    specialty_keywords = ("focus", "focuses", "foci", "spec", "specialty", "specialties")

    def defaults(self):
        return {trait: limits(trait)[0] for trait in SETTABLE}

    def clamp(self, values):
        merged = self.defaults()
        for trait in SETTABLE:
            value = values.get(trait)
            if isinstance(value, int) and not isinstance(value, bool):
                low, high = limits(trait)
                merged[trait] = min(max(value, low), high)
        return merged

    def match(self, typed):
        return match_name(typed, SETTABLE, ALIASES)

    def check_value(self, trait, value, values):
        low, high = limits(trait)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise DiceError(f"{trait.title()} must be from {low} to {high}.")
        return value

    def check_specialty(self, skill, specialty, values, owned):
        """A Focus under a Skill."""
        if skill not in ALL_SKILLS:
            raise DiceError(f"Only Skills have Focuses; {skill.title()} is not a Skill.")
        if values.get(skill, 0) < 1:
            raise DiceError(f"A Focus needs at least 1 training in {skill.title()}.")
        return clean_specialty(specialty, owned, skill.title(), MAX_FOCUS_LENGTH, MAX_FOCUSES_PER_SKILL,
                               word="Focus", words="Focuses", allowed=_FOCUS_NAME.fullmatch,
                               allowed_text="start with a letter and use letters, spaces, ' and - only")

    def traits(self, values, specialties):
        values = self.clamp(values)
        return TraitTable(values=values,
                          specialties={skill: tuple(names) for skill, names in specialties.items()},
                          aliases=ALIASES, specialty_traits=frozenset(ALL_SKILLS))

    def state(self, values):
        return {"wounds": self.clamp(values)[WOUNDS]}

    def vitals(self, values):
        """Wounds taken, of the most a character can take."""
        return {"wounds": {"current": self.clamp(values)[WOUNDS], "max": MAX_WOUNDS}}

    def layout(self, values, specialties, flags=frozenset()):
        values = self.clamp(values)
        sections = [
            SheetSection("columns", "Attributes", rows=tuple(
                (title.title(), tuple((name.title(), values[name]) for name, _ in group))
                for title, group in ATTRIBUTES.items())),
            SheetSection("line", "Thresholds", text="  ".join(
                f"{abbr} {dicecheck.threshold_for_attribute(values[name])}+"
                for abbr, name in ATTRIBUTE_ABBREVIATIONS.items())),
            SheetSection("columns", "Skills", rows=tuple(
                (title.title(), tuple((name.title(), values[name]) for name in group))
                for title, group in SKILLS.items())),
        ]
        listed = [f"{skill.title()} ({name})" for skill in ALL_SKILLS for name in specialties.get(skill, ())]
        sections.append(SheetSection("line", "Focuses", text=", ".join(listed) or "none"))
        sections.append(SheetSection("line", "Defences",
                                     text="   ".join(f"{_label(name)} {values[name]}" for name in ALL_DEFENCES)))
        wounds = values[WOUNDS]
        sections.append(SheetSection("track", "Wounds", boxes="X" * wounds + "." * (MAX_WOUNDS - wounds),
                                     text=f"{wounds}/{MAX_WOUNDS}"))
        return tuple(sections)

    def help(self):
        skills = ", ".join(f"{skill.title()} ({ATTRIBUTE_NAMES_SHORT[attr]})"
                           for skill, attr in SKILL_ATTRIBUTE.items())
        return (f"The Dice Check: Attributes 1-{dicecheck.MAX_ATTRIBUTE} (STR DEX CON INT WIS CHA), Skills\n"
                f"0-{MAX_TRAINING} with Focuses, defences 0-{MAX_DEFENCE} (EVA GRI HAR), wounds 0-{MAX_WOUNDS}.\n"
                + textwrap.fill(f"Skills, with the Attribute they roll with: {skills}.", width=72))


ATTRIBUTE_NAMES_SHORT = {name: abbr for abbr, name in ATTRIBUTE_ABBREVIATIONS.items()}


@dataclass(frozen=True)
class CheckPool:
    """The dice of one side, resolved: how many, at which threshold, and how it reads."""

    dice: int
    threshold: int
    text: str


@dataclass(frozen=True)
class DiceCheckRoll:
    """A rolled check, with what it was rolled against (the system's own result object)."""

    check: object  # rules.dicecheck.CheckResult, the active side
    pool_text: str
    target_text: str
    other: object = None  # the other side's CheckResult in an opposed check
    other_name: str = ""


def _clean_name(name):
    return " ".join(str(name or "").replace("|", "").split())


def _pool_text(parts, modifiers, dice, threshold):
    """
    `Strength 4 + Swords 4 + Cut 1 = 9d(7+)`, `12d(6+) + 2 = 14d(6+)`; a static pool alone
    reads `12d(6+)`. `parts` are (label, value) pairs; a value of None shows the label alone.
    """
    notation = f"{dice}d({threshold}+)"
    if len(parts) == 1 and parts[0][1] is None and not modifiers:
        return notation
    pieces = [label if value is None else f"{label} {value}" for label, value in parts]
    text = " + ".join(pieces)
    for modifier in modifiers:
        text += f" {'-' if modifier < 0 else '+'} {abs(modifier)}"
    return f"{text} = {notation}"


def _with_extra(request, drop=(), **changes):
    extra = {k: v for k, v in request.extra if k not in drop and k not in changes}
    extra.update(changes)
    return tuple(extra.items())


class DiceCheckSystem(System):
    key = dicecheck.KEY
    title = dicecheck.TITLE
    roll_switches = ("damage",)
    roll_usage = "+roll <pool>:<TN> [<target>] [# <comment>]"
    check_usage = "+check <dice>d(<X>+):<TN> [# <comment>]"
    # What players read of this system (`System`: the help, the first room, the home page and
    # the connect screen).
    blurb = ("The Dice Check: Attribute dice, each a Hit at its threshold, against a target number; "
             "the Effect says how well.")
    slogan = "Hits, Effects, big botches and an honest record"
    example = Example("12d(6+):3", stats={"str": 3})
    sheet = DiceCheckSheet()
    help = """\
The Dice Check: roll Attribute dice + Skill training + Focus; each die
at the threshold (from the Attribute: 1 -> 10+, 2 -> 9+, 3-4 -> 7+,
5-7 -> 6+, 8-11 -> 5+) is a Hit. Hits >= TN: success, Effect = Hits -
TN, Degree of Success 1 (Effect 0-1), 2 (2-3), 3 (4-7), 4 (8-15)...
Hits < TN: failure, botch margin = TN - Hits; 3 or more: big botch.
  +roll STR:3                      Strength vs TN 3
  +roll Swords (Cut):EVA <target>  vs the target's Evasion (GRI: Grit)
  +roll Athletics (Grapple):Athletics (Grapple) <target>   opposed
  +roll 12d(6+):3                  static: 12 dice at 6+, 3 Hits needed
  +roll Swords (Cut)+2:EVA <target>  with 2 dice more
  /damage: a damage check; its Effect is the wounds dealt."""

    odds_inputs = (
        OddsInput("pool", "Dice", hint="e.g. 12, or 12d(5+)"),
        OddsInput("target", "TN", high=40, hint="Hits needed, e.g. 3"),
        OddsInput("threshold", "Threshold", kind=NUMBER, low=1, high=dicecheck.SIDES, default=STATIC_THRESHOLD,
                  hint="the face a die needs for a Hit (6: 6+)"),
    )

    def odds_args(self, values):
        """A static check `<dice>d(<threshold>+):<TN>` (see the module docstring)."""
        _, switches, roller = super().odds_args(values)
        pool, target = (values.get("pool") or "").strip(), (values.get("target") or "").strip()
        threshold = values.get("threshold") or STATIC_THRESHOLD
        if not target:
            if ":" in pool:
                return pool, switches, roller
            raise DiceError("Give the TN, the Hits needed (e.g. 3).")
        typed = _TYPED_THRESHOLD.search(pool)
        if typed and threshold != STATIC_THRESHOLD and int(typed.group(1)) != threshold:
            raise DiceError(f"The pool says {int(typed.group(1))}+ and the threshold {threshold}+: give one.")
        number = _LEADING_NUMBER.fullmatch(pool)
        if not typed and number and threshold != STATIC_THRESHOLD:
            pool = f"{number.group(1)}d({threshold}+){number.group(2)}"
        return f"{pool}:{target}", switches, roller

    # -- reading the notation

    def _canonical(self, side):
        """The trait a Side of `dicecheck.parse` names: an Attribute, a Skill or a defence."""
        if side.kind in ("attribute", "defence"):
            if side.name in ATTRIBUTE_ABBREVIATIONS:
                return ATTRIBUTE_ABBREVIATIONS[side.name]
            if side.name in DEFENCE_ABBREVIATIONS:
                return DEFENCE_ABBREVIATIONS[side.name]
        try:
            return match_name(side.name, ROLLABLE + ALL_DEFENCES, ALIASES)
        except PoolError:
            raise DiceError(
                f"There is no Attribute, Skill or defence called '{side.name}' (Attributes: "
                f"{' '.join(ATTRIBUTE_ABBREVIATIONS)}; defences: {' '.join(DEFENCE_ABBREVIATIONS)}).") from None

    def _split_right(self, right):
        """`EVA Rudolf` -> ("EVA", "Rudolf"): the notation, then the target's name (or None)."""
        right = right.strip()
        if _NUMBER.fullmatch(right):
            return right, None
        number = _NUMBER_THEN_NAME.fullmatch(right)
        if number:
            return number.group(1), number.group(2)
        found = _ABBREVIATION_THEN_NAME.fullmatch(right)
        if found:
            return found.group(1), found.group("name")
        if ")" in right:
            end = right.rindex(")") + 1
            return right[:end].strip(), right[end:].strip() or None
        words = right.split()
        for count in range(len(words), 0, -1):
            try:
                match_name(" ".join(words[:count]), ROLLABLE + ALL_DEFENCES, ALIASES)
            except PoolError:
                continue
            return " ".join(words[:count]), " ".join(words[count:]) or None
        return right, None

    def side_pool(self, trait, focus, table, modifiers=(), strict=True, whose="You"):
        """
        A side's `CheckPool` from a sheet (`rules.pools.TraitTable`).

        Args:
            strict (bool): refuse a Focus the sheet lacks (else it adds nothing).
        """
        values = table.values
        if trait in ALL_DEFENCES:
            raise DiceError(f"{trait.title()} is a defence: it is a TN, not a pool.")
        if trait in ALL_ATTRIBUTES:
            if focus:
                raise DiceError(f"{trait.title()} is an Attribute: Focuses belong to Skills.")
            level = values[trait]
            parts = [(trait.title(), level)]
            training = focus_dice = 0
        else:
            attribute = SKILL_ATTRIBUTE[trait]
            level, training = values[attribute], values[trait]
            parts = [(attribute.title(), level), (trait.title(), training)]
            focus_dice = 0
            if focus:
                owned = table.specialties.get(trait, ())
                try:
                    name = match_name(focus, owned, what=f"{trait.title()} Focus")
                except PoolError:
                    if strict:
                        mine = f" ({'yours' if whose == 'You' else 'theirs'}: {', '.join(owned)})" if owned else ""
                        raise DiceError(f"{whose} have no {trait.title()} Focus '{focus}'{mine}.") from None
                    name = None
                if name:
                    focus_dice = 1
                    parts.append((name, 1))
        threshold = dicecheck.threshold_for_attribute(level)
        dice = dicecheck.build_pool(level, training, focus_dice, modifiers)
        return CheckPool(dice=dice, threshold=threshold, text=_pool_text(parts, modifiers, dice, threshold))

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        text = " ".join(text.split())
        if not text:
            raise DiceError(f"Say what to check, {EXAMPLES}.")
        if text.count(":") != 1:
            raise DiceError(f"Write a check as <pool>:<TN> with one colon, {EXAMPLES}.")
        left, right = (part.strip() for part in text.split(":"))
        found = _MODIFIERS.match(left)
        left, modifiers = found.group("core").strip(), tuple(
            int(digits) * (-1 if sign == "-" else 1) for sign, digits in _MODIFIER.findall(found.group("mods")))
        if _NUMBER.fullmatch(left):
            left = f"{left}d({STATIC_THRESHOLD}+)"
        right, name = self._split_right(right)
        notation = dicecheck.parse(f"{left}:{right}")
        options = frozenset({"damage"} & set(switches))

        pool = self._pool_of(notation.left, modifiers, None if numbers_only or roller is None else roller.traits)
        extra = {"threshold": pool.threshold, **self._against(notation.right, name, left, right)}
        return RollRequest(system=self.key, text=text, pool=pool, dice=pool.dice, target=extra.pop("tn"),
                           target_given=True, options=options, extra=tuple(extra.items()))

    def _pool_of(self, side, modifiers, table):
        """What is rolled: a static pool as written, or a trait (and Focus) read from `table`."""
        if side.kind == "static":
            dice = dicecheck.build_pool(side.dice, 0, 0, modifiers)
            base = f"{side.dice}d({side.threshold}+)"
            return CheckPool(dice=dice, threshold=side.threshold,
                             text=_pool_text(((base, None),), modifiers, dice, side.threshold))
        trait = self._canonical(side)
        if table is None:
            raise DiceError(f"'{side.name}' is on a sheet; only static checks like 12d(6+):3 "
                            "can be rolled here.")
        return self.side_pool(trait, side.focus, table, modifiers)

    def _against(self, side, name, left, right):
        """
        Against what: {"tn": a number or None, "target_text", and for a trait the target's name
        and what `resolve_target` reads from their sheet}.
        """
        if side.kind == "number":
            if name:
                raise DiceError(f"A TN of {side.value} needs no target: drop '{name}'.")
            return {"tn": side.value, "target_text": f"vs TN {side.value}"}
        against = self._canonical(side)
        if side.focus and against not in ALL_SKILLS:
            raise DiceError(f"{against.title()} has no Focus.")
        what = (f"{against.title()} ({side.focus})" if side.focus else against.title())
        if not name:
            raise DiceError(f"Name whose {what} you roll against: {left}:{right} "
                            f"<target>, or give the TN as a number, like {left}:2.")
        found = {"tn": None, "target_name": _clean_name(name)}
        if against in ALL_DEFENCES:
            found["needs_target"] = against
        else:
            found["needs_target"] = "opposed"
            found["opposed"] = (against, side.focus)
        found["target_text"] = f"vs {found['target_name']}'s {what}"
        return found

    def resolve_target(self, request, target_roller, name=None):
        """
        The request with its target read from the target's sheet (see the module docstring).

        Args:
            request (RollRequest): from `parse`; returned as it is if it needs no target.
            target_roller (Roller): the target character's, from `self.roller(...)`.
            name (str, optional): the target's name as shown (default: the name typed).
        """
        need = request.get("needs_target")
        if not need:
            return request
        shown = _clean_name(name or request.get("target_name") or target_roller.name)
        table = target_roller.traits if target_roller is not None else None
        if table is None:
            raise DiceError(f"{shown} has no sheet to roll against.")
        drop = ("needs_target",)
        if need == "opposed":
            trait, focus = request.get("opposed")
            other = self.side_pool(trait, focus, table, strict=False, whose=shown)
            what = f"{trait.title()} ({focus})" if focus else trait.title()
            extra = _with_extra(request, drop, other=other, other_name=shown,
                                target_text=f"vs {shown}'s {what}, {other.dice}d({other.threshold}+)")
            return replace(request, target=None, extra=extra)
        tn = dicecheck.check_tn(table.values[need])
        extra = _with_extra(request, drop, target_text=f"vs {shown}'s {need.title()} {tn}")
        return replace(request, target=tn, extra=extra)

    def parse_contest(self, text, roller=None):
        """
        +odds/contest's `<your pool>:<their pool>` (see "Contests" in the module docstring).

        Returns:
            RollRequest: your side, as `parse` gives an opposed check: with "other" (their
            `CheckPool`) when their pool is dice, or waiting for their sheet
            (`needs_target` "opposed", `target_name`: for `resolve_target`).

        Raises:
            DiceError: anything that is not such a contest.
        """
        text = " ".join(text.split())
        if text.count(":") != 1:
            raise DiceError(f"Write a contest as <your pool>:<their pool> with one colon, {CONTEST_EXAMPLES}.")
        left, right = (part.strip() for part in text.split(":"))
        if not left or not right:
            raise DiceError(f"Both sides of the colon are needed, {CONTEST_EXAMPLES}.")
        if _DICE_SIDE.fullmatch(right):
            mine = self.parse(f"{left}:0", roller=roller)
            theirs = self.parse(f"{right}:0", numbers_only=True).pool
            return replace(mine, target=None,
                           extra=_with_extra(mine, other=theirs, other_name="", target_text=f"vs {theirs.text}"))
        notation, name = self._split_right(right)
        if _DICE_SIDE.fullmatch(notation):
            raise DiceError(f"Their dice ({notation}) belong to no one: drop '{name}'.")
        if not name:
            raise DiceError(f"Name whose {notation} you roll against: {left}:{notation} <name>, "
                            f"or give their dice, like {left}:12d(6+).")
        request = self.parse(text, roller=roller)
        if request.get("needs_target") != "opposed":
            raise DiceError(f"A contest is against their pool, not their {request.get('needs_target').title()}: "
                            f"{CONTEST_EXAMPLES} (plain +odds checks against a defence).")
        return request

    def _ready(self, request):
        if request.get("needs_target"):
            raise DiceError(f"Name the target first: {request.get('target_text') or 'the check'} needs their sheet.")

    def roll(self, request, roller=None, rng=None):
        self._ready(request)
        other = request.get("other")
        if other is not None:
            result = dicecheck.opposed(request.dice, request.pool.threshold, other.dice, other.threshold, rng=rng)
            return DiceCheckRoll(check=result.active, pool_text=request.pool.text,
                                 target_text=request.get("target_text"), other=result.other,
                                 other_name=request.get("other_name", ""))
        check = dicecheck.roll(request.dice, request.pool.threshold, request.target, rng=rng,
                               damage=request.option("damage"))
        return DiceCheckRoll(check=check, pool_text=request.pool.text, target_text=request.get("target_text"))

    # -- looks

    @staticmethod
    def outcome_key(check):
        if check.success:
            return "success"
        return "big_botch" if check.big_botch else "failure"

    @staticmethod
    def _dice(check):
        return tuple(Die(face, frozenset({SUCCESS if face >= check.threshold else FAIL})) for face in check.dice)

    def view(self, result, request=None):
        check = result.check
        key = self.outcome_key(check)
        groups = [DiceGroup("Dice", self._dice(check))]
        notes = []
        if check.success:
            note = f"Effect {check.effect}, Degree of Success {check.dos}"
            if check.damage:
                note += f": {plural(check.wounds, 'wound')}"
            notes.append(note)
        else:
            notes.append(f"botch margin {check.botch_margin}")
        if result.other is not None:
            label = result.other_name or "Opposed"
            groups.append(DiceGroup(label, self._dice(result.other)))
            notes.append(f"{label}: {plural(result.other.hits, 'hit')} at {result.other.threshold}+, the TN")
        return RollView(system=self.key, pool=result.pool_text, target=result.target_text, groups=tuple(groups),
                        score=check.hits, noun=("hit", "hits"), outcome=OUTCOMES[key], notes=tuple(notes))

    def record(self, result, request=None):
        check = result.check
        data = {
            "system": self.key,
            "view": self.view(result, request).to_dict(),
            "dice": list(check.dice),
            "threshold": check.threshold,
            "tn": check.tn,
            "hits": check.hits,
            "success": check.success,
            "effect": check.effect,
            "botch_margin": check.botch_margin,
            "big_botch": check.big_botch,
            "dos": check.dos,
            "damage": check.damage,
            "wounds": check.wounds,
        }
        if result.other is not None:
            data["other"] = {"name": result.other_name, "dice": list(result.other.dice),
                             "threshold": result.other.threshold, "hits": result.other.hits}
        return data

    # -- odds

    def odds(self, request, roller=None):
        self._ready(request)
        other = request.get("other")
        threshold = request.pool.threshold
        if other is not None:
            exact = dicecheck.opposed_odds(request.dice, threshold, other.dice, other.threshold)
        else:
            exact = dicecheck.odds(request.dice, threshold, request.target)
        success, big_botch = exact["success"], exact["big_botch"]
        tn = None if other is not None else request.target
        chances = tuple(
            Chance(key, OUTCOMES[key].label, probability, OUTCOMES[key].tone, _hits_range(key, tn))
            for key, probability in (("success", success), ("failure", 1 - success - big_botch),
                                     ("big_botch", big_botch)))
        # The Degrees of Success split the success; the display rounds them with it and the chart.
        degrees = tuple(Chance(f"dos_{degree}", f"DoS {degree}", p, "good", _dos_range(degree, tn))
                        for degree, p in sorted(exact["dos"].items()) if degree)
        return OddsView(system=self.key, pool=request.pool.text, target=request.get("target_text"),
                        chances=chances, distribution=tuple(sorted(exact["hits"].items())), noun=("hit", "hits"),
                        breakdown=("by Degree of Success", "success", degrees) if degrees else ())


def _hits_range(key, tn):
    """
    The Hits an outcome of a check against a fixed TN covers, as the display's `Chance.scores`
    (so the outcome lines and the chart of Hits agree); None in an opposed check, where the
    other side's Hits decide.
    """
    if tn is None:
        return None
    low_failure = max(0, tn - dicecheck.BIG_BOTCH + 1)
    return {"success": (tn, None), "failure": (low_failure, tn - 1), "big_botch": (0, tn - dicecheck.BIG_BOTCH)}[key]


def _dos_range(degree, tn):
    """The Hits a Degree of Success covers against a fixed TN (Effect 0-1 is DoS 1, 2-3 DoS 2, ...)."""
    if tn is None:
        return None
    low = 0 if degree == 1 else 2 ** (degree - 1)
    return tn + low, tn + 2 ** degree - 1


SYSTEM = DiceCheckSystem()
