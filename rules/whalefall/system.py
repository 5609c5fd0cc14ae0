"""
Whalefall behind the seam (`rules.engine`): the `System` object the shared commands, the
display and the roll log use. The rules live in `rules.whalefall` (docs/whalefall.md); this
module reads what players type, keeps the sheet and translates results to the neutral shapes.

Syntax:

    +roll athletics vs (5,2)        your level in Athletics is the pool of d10s
    +roll athletics d8 vs (5,2)     the same pool in d8s (a condition or perk)
    +roll athletics+1 vs (5,2)      a die more (or fewer: -1) from a condition or perk
    +check 4 vs (5,2)               4d10, no sheet
    +check 4d8 vs (5,2)             4d8

`(5,2)` is the target number: at least 2 dice must show 5 or more. A pool smaller than the
count fails at once, without rolling (no dice are shown and nothing is counted). A failed
check where some die met the face is flagged partial: the GM may rule a partial success or a
partial failure; the flag decides nothing by itself.

Looks: a die that met the face is marked "success", the others "fail". The score is the
number of dice that met the face ("2 dice at 6+"). Outcome keys, the same in `view` and in
`odds`: "success" (good), "failure_partial" (labelled "failure (partial)", tone "mixed": the GM
may soften it), "failure" (bad), "automatic_failure" (bad, no dice).

Rulings (the rules are silent):

- **Ruling**: a target number is required: the GM always sets one (the rules say so), so a roll without
  `vs (face,count)` is refused with the syntax rather than judged against a guess.
- **Ruling**: a pool is one skill's level, plus or minus plain numbers for conditions and
  perks; two skills in one pool are refused (the rules: "the skill related to the action").
  Modifiers that push a pool below 0 leave 0 dice (an automatic failure).
- **Ruling**: skill levels run from 0 (untrained: 0 dice, so every check fails at once) to 10.
- **Ruling**: the rules name no full skill list. The default list below holds every skill the
  seed mentions (Athletics, Diplomacy, bartering -> Barter, business -> Business, the
  CY-series rifle -> Firearms) and a few more for a game inside a leviathan; a game sets its
  own with the `WHALEFALL_SKILLS` setting (a mapping of column title -> skill names, or a list).
- **Ruling**: "failure (partial)" is an outcome key of its own, so the log and `+odds` can
  name it; it is still a failure (`success` is False), only its tone is "mixed".
- **Ruling**: Whalefall has no Specialties besides the levels: `athletics(climbing)` is refused.

The odds without a sheet (`odds_inputs`, the website's odds page): dice, the target number and
the die size (as `+odds 4d8 vs (5,2)`). **Ruling**: the Die size field starts blank, which
means the pool's own size (`4d8`) or else d10; a size typed there that is not the pool's (d10
beside `4d8` included) is refused, not guessed between: a field that showed 10 while the page
counted d8s would be a line nobody could trust.
"""

import re
import textwrap
from dataclasses import dataclass
from fractions import Fraction

from .. import whalefall
from ..engine import Example
from ..engine import (FAIL, NUMBER, SUCCESS, Chance, DiceGroup, Die, OddsInput, OddsView, Outcome, RollRequest,
                     RollView, Sheet, SheetSection, System, plural, split_vs)
from ..errors import DiceError
from ..pools import TraitTable, build_pool, match_name, normalize

MIN_LEVEL = 0
MAX_LEVEL = 10
MAX_SKILL_NAME = 20
MAX_SKILLS = 60

DEFAULT_SKILLS = {
    "body": ("athletics", "brawl", "firearms", "melee", "stealth"),
    "craft": ("engineering", "medicine", "navigation", "salvage", "survival"),
    "people": ("barter", "business", "deception", "diplomacy", "intimidation"),
}

OUTCOMES = {
    "success": Outcome("success", "success", "good"),
    "failure_partial": Outcome("failure_partial", "failure (partial)", "mixed"),
    "failure": Outcome("failure", "failure", "bad"),
    "automatic_failure": Outcome("automatic_failure", "automatic failure", "bad"),
}

# `+odds` names the plain failure apart from the partial one.
ODDS_LABELS = {"failure": "failure (no die met)"}

_ALL_DICE = re.compile(r"\s*[0-9]+\s*[dD]\s*[0-9]+\s*", re.ASCII)
_DIE_SIZE = re.compile(r"\s+[dD]\s*([0-9]{1,4})\s*$", re.ASCII)
_TYPED_SIZE = re.compile(r"[dD]\s*([0-9]{1,4})\s*$", re.ASCII)
_SKILL_NAME = re.compile(r"[a-z][a-z '\-]*[a-z]|[a-z]", re.ASCII)

TARGET_NEEDED = ("Say the target number after 'vs' as (face,count), like athletics vs (5,2): "
                 "at least 2 dice showing 5 or more.")


def read_skills(configured):
    """
    The skill columns from the `WHALEFALL_SKILLS` setting: a mapping of column title -> names,
    or a plain list (one column, "Skills"). Names are stored lower case.

    Raises:
        DiceError: a malformed list (at server start, so the game's owner sees it).
    """
    if isinstance(configured, dict):
        columns = configured.items()
    elif isinstance(configured, (list, tuple)):
        columns = (("skills", configured),)
    else:
        raise DiceError("WHALEFALL_SKILLS is a mapping of column title -> skill names, or a list of names.")
    result, seen = {}, set()
    for title, names in columns:
        if not isinstance(title, str) or not title.strip() or isinstance(names, str):
            raise DiceError("WHALEFALL_SKILLS: each column has a title and a list of skill names.")
        cleaned = []
        for name in names:
            name = " ".join(str(name).lower().split())
            if len(name) > MAX_SKILL_NAME or not _SKILL_NAME.fullmatch(name):
                raise DiceError(f"WHALEFALL_SKILLS: '{name}' is not a skill name "
                                f"(letters, spaces, ' and -, at most {MAX_SKILL_NAME} characters).")
            if normalize(name) in seen:
                raise DiceError(f"WHALEFALL_SKILLS: '{name}' is listed twice.")
            seen.add(normalize(name))
            cleaned.append(name)
        result[title.strip().lower()] = tuple(cleaned)
    if not seen or len(seen) > MAX_SKILLS:
        raise DiceError(f"WHALEFALL_SKILLS lists from 1 to {MAX_SKILLS} skills.")
    return result


class WhalefallSheet(Sheet):
    """Skills with levels of specialization; the level is the pool."""

    def __init__(self, skills=None):
        self.columns = read_skills(DEFAULT_SKILLS if skills is None else skills)
        self.skills = tuple(name for names in self.columns.values() for name in names)

    def defaults(self):
        return {skill: MIN_LEVEL for skill in self.skills}

    def clamp(self, values):
        merged = self.defaults()
        for skill in self.skills:
            value = values.get(skill, MIN_LEVEL)
            if isinstance(value, int) and not isinstance(value, bool):
                merged[skill] = min(max(value, MIN_LEVEL), MAX_LEVEL)
        return merged

    def match(self, typed):
        return match_name(typed, self.skills, what="skill")

    def check_value(self, trait, value, values):
        if trait not in self.skills:
            raise DiceError(f"There is no skill called '{trait}'.")
        if not isinstance(value, int) or isinstance(value, bool) or not MIN_LEVEL <= value <= MAX_LEVEL:
            raise DiceError(f"{trait.title()} must be from {MIN_LEVEL} to {MAX_LEVEL} levels.")
        return value

    def check_specialty(self, skill, specialty, values, owned):
        raise DiceError("Whalefall has no Specialties: your level in a skill is its pool.")

    def traits(self, values, specialties):
        values = self.clamp(values)
        return TraitTable(values={skill: values[skill] for skill in self.skills}, specialties={},
                          aliases={}, specialty_traits=frozenset())

    def layout(self, values, specialties, flags=frozenset()):
        values = self.clamp(values)
        rows = tuple((title.title(), tuple((name.title(), values[name]) for name in names))
                     for title, names in self.columns.items())
        return (SheetSection("columns", "Skills", rows=rows),)

    def help(self):
        return (f"Whalefall: each skill has a level of specialization from {MIN_LEVEL} to {MAX_LEVEL};\n"
                "the level is the number of dice you roll for it.\n"
                + textwrap.fill("Skills: " + ", ".join(name.title() for name in self.skills) + ".", width=72))


@dataclass(frozen=True)
class WhalefallRoll:
    """A rolled (or automatically failed) check, with the pool as it was asked for."""

    check: object  # rules.whalefall.WhalefallResult
    pool: int  # dice in the pool (an automatic failure rolls none of them)
    pool_text: str


class WhalefallSystem(System):
    key = whalefall.KEY
    title = whalefall.TITLE
    roll_switches = ()
    roll_usage = "+roll <skill>[+/-<n>] [d<sides>] vs (<face>,<count>) [# <comment>]"
    check_usage = "+check <n>[d<sides>] vs (<face>,<count>) [# <comment>]"
    # What players read of this system (`System`: the help, the first room, the home page and
    # the connect screen).
    blurb = ("Whalefall: your skill's dice against a target number (face, count), and a partial "
             "success or failure for the GM to rule.")
    slogan = "Faces, counts, partial successes and an honest record"
    example = Example("4 vs (5,2)", command="+check", stats={"athletics": 3})
    tags = ("Partial",)
    help = """\
Whalefall: your level in the skill is your pool of d10s. The target
number (face,count) asks for at least <count> dice showing <face> or
more: +roll athletics vs (5,2). A condition or perk may change the die:
+roll athletics d8 vs (5,2), +check 4d8 vs (5,2). A pool smaller than
the count fails at once, without rolling. A failed check where a die
met the face is flagged partial: the GM may rule a partial success or
a partial failure."""

    odds_inputs = (
        OddsInput("pool", "Dice", hint="e.g. 4, or 4d8"),
        OddsInput("target", "Target number", high=40, hint="(face,count), like (5,2)"),
        OddsInput("sides", "Die size", kind=NUMBER, low=whalefall.MIN_SIDES, high=whalefall.MAX_SIDES,
                  hint=f"sides of each die; blank: the pool's, or {whalefall.DEFAULT_SIDES}"),
    )

    def __init__(self, skills=None):
        self.sheet = WhalefallSheet(skills)

    def odds_args(self, values):
        """The die size goes into the pool, as `4d8` (see the module docstring)."""
        text, switches, roller = super().odds_args(values)
        sides = values.get("sides")
        pool = (values.get("pool") or "").strip()
        typed = _TYPED_SIZE.search(pool)
        if typed and sides is not None and int(typed.group(1)) != sides:
            raise DiceError(f"The pool says d{int(typed.group(1))} and the die size d{sides}: give one.")
        if not typed and sides not in (None, whalefall.DEFAULT_SIDES) and pool:
            pool = f"{pool}d{sides}" if re.fullmatch(r"[0-9]+", pool) else f"{pool} d{sides}"
            target = values.get("target") or ""
            text = f"{pool} vs {target}" if target else pool
        return text, switches, roller

    def configure(self, settings):
        skills = settings.get("WHALEFALL_SKILLS")
        return self if skills is None else type(self)(skills=skills)

    # -- rolling

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        text = text.strip()
        pool_text, target_text = split_vs(text)
        if target_text is None:
            raise DiceError(TARGET_NEEDED)
        if "(" in pool_text:
            raise DiceError("Whalefall has no Specialties: your level in a skill is its pool.")
        sides = whalefall.DEFAULT_SIDES
        if _ALL_DICE.fullmatch(pool_text):
            count, sides = whalefall.parse_dice(pool_text)
            pool_text = str(count)
        else:
            size = _DIE_SIZE.search(pool_text)
            if size:
                sides = whalefall.check_sides(int(size.group(1)))
                pool_text = pool_text[: size.start()]
        face, count = whalefall.parse_target(target_text, sides)
        traits = None if numbers_only or roller is None else roller.traits
        pool = build_pool(pool_text, traits)
        if len(pool.traits) > 1:
            raise DiceError("A Whalefall pool is one skill's level (plus or minus dice for a condition "
                            "or perk), not several skills.")
        dice = whalefall.check_pool(max(0, pool.total))
        return RollRequest(system=self.key, text=text, pool=pool, dice=dice, target=(face, count),
                           target_given=True, extra=(("sides", sides),))

    def roll(self, request, roller=None, rng=None):
        face, count = request.target
        sides = request.get("sides", whalefall.DEFAULT_SIDES)
        check = whalefall.roll(request.dice, face, count, rng=rng, sides=sides)
        return WhalefallRoll(check=check, pool=request.dice, pool_text=self.pool_text(request))

    # -- looks

    def pool_text(self, request):
        sides = request.get("sides", whalefall.DEFAULT_SIDES)
        dice = f"{request.dice}d{sides}"
        pool = request.pool
        if pool is None or (len(pool.parts) == 1 and pool.parts[0].trait is None and pool.total >= 0):
            return dice
        text = pool.describe().replace(" (rolled as 1)", "")
        return f"{text} ({dice})"

    @staticmethod
    def outcome_key(check):
        if check.automatic:
            return "automatic_failure"
        if check.success:
            return "success"
        return "failure_partial" if check.partial else "failure"

    @staticmethod
    def noun(face):
        return (f"die at {face}+", f"dice at {face}+")

    @staticmethod
    def target_text(face, count):
        return f"vs ({face},{count})"

    def view(self, result, request=None):
        check = result.check
        key = self.outcome_key(check)
        groups, score, notes = (), None, ()
        if check.automatic:
            notes = (f"fails without rolling: {plural(result.pool, 'die', 'dice')}, "
                     f"fewer than the {check.needed} needed",)
        else:
            dice = tuple(Die(face, frozenset({SUCCESS if face >= check.target else FAIL})) for face in check.dice)
            groups = (DiceGroup("Dice", dice, sides=check.sides),)
            score = check.meeting
            if check.partial:
                notes = (f"partial: {plural(check.meeting, 'die', 'dice')} met {check.target}+, "
                         f"{check.needed} needed; the GM may rule a partial success or failure",)
        return RollView(system=self.key, pool=result.pool_text, target=self.target_text(check.target, check.needed),
                        groups=groups, score=score, noun=self.noun(check.target), outcome=OUTCOMES[key], notes=notes)

    def record(self, result, request=None):
        check = result.check
        return {
            "system": self.key,
            "view": self.view(result, request).to_dict(),
            "dice": list(check.dice),
            "pool": result.pool,
            "target": check.target,
            "needed": check.needed,
            "sides": check.sides,
            "meeting": check.meeting,
            "success": check.success,
            "partial": check.partial,
            "automatic": check.automatic,
        }

    # -- odds

    def odds(self, request, roller=None):
        face, count = request.target
        sides = request.get("sides", whalefall.DEFAULT_SIDES)
        exact = whalefall.odds(request.dice, face, count, sides)
        common = dict(system=self.key, pool=self.pool_text(request), target=self.target_text(face, count),
                      noun=self.noun(face))
        if request.dice < count:
            chance = Chance("automatic_failure", OUTCOMES["automatic_failure"].label, Fraction(1), "bad")
            return OddsView(chances=(chance,), distribution=(),
                            notes=(f"fails without rolling: {plural(request.dice, 'die', 'dice')}, "
                                   f"fewer than the {count} needed",), **common)
        success, partial = exact["success"], exact["partial"]
        # Each outcome is a range of the chart's scores (dice that met the face): the display
        # shows it as the sum of those rows, so the lines and the chart agree.
        chances = tuple(
            Chance(key, ODDS_LABELS.get(key, OUTCOMES[key].label), probability, OUTCOMES[key].tone, scores)
            for key, probability, scores in (("success", success, (count, None)),
                                             ("failure_partial", partial, (1, count - 1)),
                                             ("failure", 1 - success - partial, (0, 0)))
        )
        distribution = tuple(sorted(exact["distribution"].items()))
        expected = sum(k * p for k, p in distribution)
        return OddsView(chances=chances, distribution=distribution,
                        notes=(f"expected dice at {face}+: {float(expected):.2f}",), **common)


SYSTEM = WhalefallSystem()
