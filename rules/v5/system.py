"""
V5 behind the seam (`rules.engine`): the `System` object the shared commands, the display and
the roll log use. The rules themselves live in `rules.v5`, `rules.v5.exact_odds` and `rules.v5.sheet`;
this module only translates between them and the system-neutral shapes.

Syntax: `+roll <pool> [vs <difficulty>]`, with the `/willpower` ending
(`+roll res+occult vs 3/willpower`). The difficulty is the number of successes needed; with
none the roll is judged at difficulty 1 and no margin is shown (docs/v5.md).

Looks: regular dice are marked "success" (6-9) or "ten"; Hunger dice carry "hunger" too, and a
Hunger 1 is marked "one" (the bestial failure's die). The outcome's tones: a critical is a
triumph, a messy critical "mixed" (it wins, but the Beast shows), a bestial failure a disaster.

`+odds` shows each outcome once, so the figures add up to 100%: messy critical, critical
(clean), success (not critical), failure, total failure (not bestial), bestial failure.

Rating rolls, Impairment, Blood Surge and the teamwork reading (docs/v5.md), wired here:
- Rating-only rolls (`+roll willpower`, `+roll humanity`): `v5.is_rating_only(pool)` makes
  every die a regular die; the pool line says why ("no Hunger dice: a rating roll").
- Impaired (Stains beyond the empty Humanity boxes, `V5Sheet.state["impaired"]`): -2 dice to
  every pool (never below 1 die), applied in `parse` so +roll and +odds agree, with
  `v5_sheet.IMPAIRED_NOTE` in every roll's notes.
- Blood Surge: the wing rolls the Rouse check and puts ("surge", SurgeResult) and the Hunger
  after it into the request's `extra`; `roll` uses that Hunger, `view` shows the Rouse die and
  "+N Blood Surge". **Ruling**: the Rouse check comes first, so the surged roll is made at the
  Hunger after it (a failed check adds a Hunger die).
- `V5_TEAMWORK` ("seed" or "core"), read by `configure` and checked by
  `v5_contest.check_teamwork_rule`; the +teamwork command reads `teamwork_rule`.
- `V5Sheet.changes`: setting Stains also deals the overflow's Aggravated Willpower damage
  (`v5_sheet.stain_changes`).

The odds without a sheet (`odds_inputs`, the website's odds page): dice, difficulty, Hunger
(0-5, as `+odds ... hunger <n>` or the sheet's; blank is 0, the page's odds of a pool, not a
new sheet's 1) and Impaired (-2 dice, as the sheet's Stains make it). **Ruling**: the page has
no `/willpower` (odds spend nothing, as `+odds` refuses it) and no rating roll (a pool of
numbers is never one).
"""

import dataclasses
import re
from fractions import Fraction

from .. import v5
from . import contest as v5_contest, contest_odds as v5_contest_odds, extended as v5_extended, exact_odds as v5_odds, rouse as v5_rouse, sheet as v5_sheet
from ..display import BADGE, BADGE_CSS, SUCCESS_CSS, SUCCESS_STYLE
from ..engine import Example, MarkLook
from ..engine import (FLAG, HUNGER, NUMBER, ONE, SUCCESS, TEN, FAIL, REROLLED, Chance, DiceGroup, Die, OddsInput,
                     OddsView, Outcome, RollRequest, RollView, Sheet, SheetSection, System, read_whole, split_vs)
from ..display import escape
from ..errors import DiceError
from ..pools import build_pool, check_total

TONES = {
    "messy_critical": "mixed",
    "critical": "triumph",
    "exceptional": "good",
    "solid": "good",
    "bare": "good",
    "success": "good",
    "bestial_failure": "disaster",
    "total_failure": "dire",
    "failure": "bad",
}
LABELS = dict(v5.OUTCOME_LABELS, success="success")

_WILLPOWER_ENDING = re.compile(r"/\s*(?:willpower|wp)\s*$", re.IGNORECASE)


def split_willpower_ending(text):
    """`dex+stealth vs 3/willpower` -> ("dex+stealth vs 3", True); no ending -> (text, False)."""
    ending = _WILLPOWER_ENDING.search(text)
    return (text[: ending.start()].strip(), True) if ending else (text, False)


class V5Sheet(Sheet):
    """The V5 sheet of `rules.v5.sheet`."""

    staff_only = frozenset({"hunger"})
    layout_flags = frozenset({"frenzy"})
    # Spending Willpower marks a box of Superficial damage (V5 core p.158).
    willpower_trait = "willpower superficial"
    no_willpower = "Your Willpower is exhausted: there is no Willpower left to spend."

    def defaults(self):
        return {trait: v5_sheet.default_value(trait) for trait in v5_sheet.settable_traits()}

    def clamp(self, values):
        return v5_sheet.clamp_all(values)

    def match(self, typed):
        return v5_sheet.match_settable(typed)

    def check_value(self, trait, value, values):
        return v5_sheet.check_value(trait, value, values)

    def check_specialty(self, skill, specialty, values, owned):
        return v5_sheet.check_specialty(skill, specialty, values, owned)

    def traits(self, values, specialties):
        return v5_sheet.trait_table(values, specialties)

    def state(self, values):
        values = v5_sheet.clamp_all(values)
        willpower_max = v5_sheet.willpower_max(values)
        return {
            "hunger": values["hunger"],
            "blood_potency": values["blood potency"],
            "humanity": values["humanity"],
            "willpower_max": willpower_max,
            "willpower_left": willpower_max - values["willpower superficial"] - values["willpower aggravated"],
            "stains": values["stains"],
            "impaired": v5_sheet.impaired(values),
        }

    def changes(self, trait, value, values):
        """Setting Stains past the empty Humanity boxes also damages Willpower (docs/v5.md)."""
        if trait == "stains":
            return v5_sheet.stain_changes(values, value)
        return {trait: value}

    def vitals(self, values):
        """Hunger, Willpower and Health left of their boxes, Humanity, Stains, Blood Potency."""
        values = v5_sheet.clamp_all(values)
        tracks = {}
        for track, maximum in (("willpower", v5_sheet.willpower_max(values)),
                               ("health", v5_sheet.health_max(values))):
            superficial, aggravated = values[f"{track} superficial"], values[f"{track} aggravated"]
            tracks[track] = {"current": maximum - superficial - aggravated, "max": maximum,
                             "superficial": superficial, "aggravated": aggravated}
        return {"hunger": values["hunger"], **tracks, "humanity": values["humanity"],
                "stains": values["stains"], "blood_potency": values["blood potency"]}

    def layout(self, values, specialties, flags=frozenset()):
        values = v5_sheet.clamp_all(values)
        sections = []
        for heading, groups in (("Attributes", v5_sheet.ATTRIBUTES), ("Skills", v5_sheet.SKILLS)):
            rows = tuple((group.title(), tuple((name.title(), values[name]) for name in names))
                         for group, names in groups.items())
            sections.append(SheetSection("columns", heading, rows=rows))
        listed = [f"{skill.title()} ({name})" for skill in v5_sheet.ALL_SKILLS for name in specialties.get(skill, ())]
        if listed:
            sections.append(SheetSection("line", "Specialties", text=", ".join(listed)))
        known = [f"{name.title()} {values[name]}" for name in v5_sheet.DISCIPLINES if values[name]]
        sections.append(SheetSection("line", "Disciplines", text=", ".join(known) or "none"))
        blood = (f"{values['hunger']}   Humanity {values['humanity']} (Stains {values['stains']})   "
                 f"Blood Potency {values['blood potency']}")
        if "frenzy" in flags:
            blood += "   IN FRENZY"
        sections.append(SheetSection("line", "Hunger", text=blood))
        for track, maximum in (("willpower", v5_sheet.willpower_max(values)),
                               ("health", v5_sheet.health_max(values))):
            superficial, aggravated = values[f"{track} superficial"], values[f"{track} aggravated"]
            boxes = "X" * aggravated + "/" * superficial + "." * (maximum - aggravated - superficial)
            sections.append(SheetSection(
                "track", track.title(), boxes=boxes,
                text=(f"{maximum - superficial - aggravated}/{maximum} left "
                      f"(Superficial {superficial}, Aggravated {aggravated})")))
        return tuple(sections)


class V5System(System):
    key = v5.KEY
    title = v5.TITLE
    roll_switches = ("willpower",)
    roll_usage = "+roll <pool> [vs <difficulty>] [# <comment>]"
    check_usage = "+check <number> [vs <difficulty>] [# <comment>]"
    # What players read of this system (`System`: the help, the first room, the home page and
    # the connect screen), and the looks of its Hunger dice.
    short = "V5"
    blurb = "Vampire: The Masquerade 5th edition: Hunger dice, messy criticals and bestial failures."
    slogan = "Hunger dice, messy criticals and an honest record"
    example = Example("dex+stealth vs 3", stats={"dex": 3}, state={"stealth": 2, "hunger": 2})
    tags = ("Rouse", "Hunger", "Slake", "Remorse", "Frenzy")
    mark_looks = (
        MarkLook(frozenset({HUNGER, TEN}), BADGE, BADGE_CSS),
        MarkLook(frozenset({HUNGER, ONE}), BADGE, BADGE_CSS),
        MarkLook(frozenset({HUNGER, SUCCESS}), SUCCESS_STYLE, SUCCESS_CSS),
        MarkLook(frozenset({HUNGER}), "|r", "color: #c00000;", label=True),
    )
    sheet = V5Sheet()
    extended = v5_extended.RULES
    help = """\
V5: your pool adds Attributes, Skills, Disciplines and numbers; a
Specialty you have adds one die: str+brawl(grappling). The difficulty
is the number of successes needed (none: any success is a success).
Your Hunger says how many of the dice are Hunger dice. 0 successes
never wins, not even at difficulty 0 (a total failure).
  /willpower (or the ending /willpower): after rolling, spend 1
  Willpower to reroll up to three regular dice under 6, only when the
  roll did not win."""

    odds_inputs = (
        OddsInput("pool", "Dice", hint="e.g. 6"),
        OddsInput("target", "Difficulty", high=40, hint="successes needed; blank: any success"),
        OddsInput("hunger", "Hunger", kind=NUMBER, low=0, high=v5.MAX_HUNGER, default=0),
        OddsInput("impaired", "Impaired", kind=FLAG, hint=f"Stains beyond Humanity: -{v5_sheet.IMPAIRED_PENALTY} dice"),
    )

    #: +teamwork's help for each teamwork reading: (its name, how helpers help)
    teamwork_readings = {
        "seed": ("seed", "every helper rolls their own pool with their own Hunger\n"
                 "  dice; their successes are added to the leader's and the total is\n"
                 "  compared with the difficulty. Critical, messy critical and bestial\n"
                 "  failure come from the leader's dice only. Joining again changes\n"
                 "  your pool; each of you may +willpower your own dice."),
        "core": ("core, V5 p.122", "helpers do not roll. The leader's pool needs\n"
                 "  exactly one Skill; each helper with at least one dot in it adds\n"
                 "  one die (+teamwork/join <leader>; no dot, no joining). The leader\n"
                 "  rolls once, with their Hunger, and may +willpower it."),
    }

    def __init__(self, bestial_rule="official", teamwork_rule="seed"):
        self.bestial_rule = v5.check_bestial_rule(bestial_rule)
        self.teamwork_rule = v5_contest.check_teamwork_rule(teamwork_rule)

    def configure(self, settings):
        return type(self)(bestial_rule=settings.get("V5_BESTIAL_FAILURE", "official"),
                          teamwork_rule=settings.get("V5_TEAMWORK", "seed"))

    # -- rolling

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        text, ending = split_willpower_ending(text)
        options = {"willpower"} if ending or "willpower" in switches else set()
        pool_text, target_text = split_vs(text)
        difficulty = None
        if target_text is not None:
            difficulty = read_whole(target_text, "The difficulty must be a whole number of successes",
                                    v5.check_difficulty)
        traits = None if numbers_only or roller is None else roller.traits
        pool = build_pool(pool_text, traits, bounded=False)
        dice, extra = pool.dice, ()
        if roller is not None and roller.get("impaired"):
            dice = max(1, dice - v5_sheet.IMPAIRED_PENALTY)
            extra = (("impaired", True),)
        check_total(dice)  # the 50-dice limit counts the pool after Impairment
        return RollRequest(system=self.key, text=text, pool=pool, dice=dice,
                           target=1 if difficulty is None else difficulty, target_given=difficulty is not None,
                           options=frozenset(options), extra=extra)

    def _hunger(self, roller, request=None):
        if request is not None and request.get("hunger") is not None:
            return request.get("hunger")
        return roller.get("hunger", 0) if roller is not None else 0

    @staticmethod
    def rating_only(request):
        pool = request.pool if request is not None else None
        return hasattr(pool, "parts") and v5.is_rating_only(pool)

    def roll(self, request, roller=None, rng=None):
        return v5.roll(request.dice, self._hunger(roller, request), request.target, rng=rng,
                       bestial_rule=self.bestial_rule, rating_only=self.rating_only(request))

    # -- looks

    # -- Willpower: which dice a +willpower reroll takes

    _FACES = re.compile(r"^\d+(?:[\s,]+\d+)*$")

    def willpower_choice(self, text):
        """
        `+willpower`'s words: a strategy name (unique prefix) or dice faces; nothing is `failures`.

        Returns:
            (label, strategy or None, faces or None)
        """
        text = text.strip().lower()
        if not text:
            return "failures", "failures", None
        if self._FACES.match(text):
            faces = [int(face) for face in re.split(r"[\s,]+", text)]
            return "dice " + " ".join(str(face) for face in faces), None, faces
        matches = [name for name in v5.REROLL_STRATEGIES if name.startswith(text)]
        if len(matches) != 1:
            raise DiceError(f"Unknown Willpower choice '{escape(text)}': use {', '.join(v5.REROLL_STRATEGIES)} "
                            "or the faces of the dice to reroll (like 2 3).")
        return matches[0], matches[0], None

    @staticmethod
    def willpower_dice(result, strategy, faces, judged_alone=True):
        """
        The regular dice to reroll; DiceError when none or when the strategy cannot help
        (`v5_odds.refusal`: nothing raises the chance to win or lowers the chance of a messy
        critical), and nothing is spent then. A player's own faces are never second-guessed.
        """
        if faces is not None:
            return v5.choose_faces(result, faces)
        if not result.regular:
            raise DiceError("That roll has no regular dice (all are Hunger dice); no Willpower spent.")
        picks, refusal = v5_odds.willpower_choice(result, strategy, judged_alone)
        if refusal:
            raise DiceError(refusal)
        return picks

    def outcome_key(self, result, target_given=True):
        key = result.outcome
        if not target_given and key in ("bare", "solid", "exceptional"):
            return "success"
        return key

    def pool_text(self, pool, dice, hunger, rating_only=False, surge=0, impaired=False):
        text = pool.describe() if pool is not None else str(dice)
        if impaired:
            text += f" - {v5_sheet.IMPAIRED_PENALTY} Impaired"
        if surge:
            text += f" + {surge} Blood Surge"
        if pool is None or len(pool.parts) > 1 or pool.parts[0].trait or pool.total < 1 or surge or impaired:
            text += f" ({dice} {'die' if dice == 1 else 'dice'})"
        else:
            text += " die" if dice == 1 else " dice"
        if rating_only:
            return f"{text}, no Hunger dice: a rating roll"
        return f"{text}, Hunger {hunger}"

    @staticmethod
    def surge_note(surge):
        rouse = surge.rouse
        faces = " ".join(str(face) for face in rouse.faces)
        if rouse.hunger_after > rouse.hunger_before:
            after = f"Hunger rises to {rouse.hunger_after}"
        else:
            after = f"Hunger stays {rouse.hunger_after}"
        return f"Blood Surge: Rouse die {faces}, {after}; +{surge.dice} dice"

    def view(self, result, request=None):
        given = request.target_given if request is not None else True
        regular = tuple(Die(face, _regular_marks(face, i in result.rerolled)) for i, face in enumerate(result.regular))
        hunger = tuple(Die(face, _hunger_marks(face)) for face in result.hunger)
        groups = [DiceGroup("Dice", regular)] if regular else []
        if hunger:
            groups.append(DiceGroup("Hunger", hunger))
        surge = request.get("surge") if request is not None else None
        impaired = bool(request is not None and request.get("impaired"))
        pool = self.pool_text(request.pool if request is not None else None, result.pool,
                              result.hunger_rating if result.rating_only else result.hunger_level,
                              rating_only=result.rating_only, surge=surge.dice if surge is not None else 0,
                              impaired=impaired)
        view = self.outcome_view(result, given, pool=pool, groups=groups)
        notes = ([self.surge_note(surge)] if surge is not None else []) + ([v5_sheet.IMPAIRED_NOTE] if impaired else [])
        return dataclasses.replace(view, notes=view.notes + tuple(notes)) if notes else view

    def outcome_view(self, result, target_given=True, pool="", groups=()):
        """
        The view of an outcome (a `v5.Outcome`: a roll, or a team's total, which has no dice of
        its own), with the pool and dice given: the score, the verdict and the margin.
        """
        key = self.outcome_key(result, target_given)
        notes = ()
        if target_given:
            sign = "+" if result.margin >= 0 else ""
            note = f"margin {sign}{result.margin}"
            if result.win and result.margin_label != LABELS[key]:
                note += f", {result.margin_label}"
            notes = (note,)
        return RollView(system=self.key, pool=pool, target=f"vs {result.difficulty}" if target_given else "",
                        groups=tuple(groups), score=result.successes, noun=("success", "successes"),
                        outcome=Outcome(key, LABELS[key], TONES[key]), notes=notes)

    def record(self, result, request=None):
        return {
            "system": self.key,
            "view": self.view(result, request).to_dict(),
            "regular": list(result.regular),
            "hunger": list(result.hunger),
            "difficulty": result.difficulty,
            "hunger_rating": result.hunger_level,
            "bestial_rule": result.bestial_rule,
            "rerolled": list(result.rerolled),
            "rating_only": bool(result.rating_only),
        }

    # -- the wing's own rolls: Rouse checks, Remorse and frenzy tests (commands/v5/hunger.py, humanity.py)

    def rouse_view(self, result, summary):
        """
        The Rouse checks of one action as the record keeps them: every die rolled (a Blood
        Potency reroll too) in one group, marked by whether it passed, the checks passed as the
        score and `summary` ("1 passed, 0 failed: Hunger 2 -> 2") as the outcome's words.
        """
        dice = tuple(Die(face, _rouse_marks(face)) for face in result.faces)
        return RollView(system=self.key, pool="Rouse check", target="",
                        groups=(DiceGroup("Dice", dice),) if dice else (), score=result.passed,
                        noun=("passed", "passed"), outcome=Outcome("rouse", summary, "neutral"))

    def rouse_record(self, result):
        """The record's part of a +rouse (`rolllog.api.store_roll`): system, view, summary, data."""
        summary = v5_rouse.summary(result)
        return {"system": self.key, "view": self.rouse_view(result, summary), "summary": summary,
                "data": {"system": self.key, "faces": list(result.faces), "passed": result.passed}}

    @staticmethod
    def rouse_check_outcome(check):
        """One check's verdict, toned as the room sees it: passed, failed, or no die (Hunger 5)."""
        if check.cannot_rouse:
            return Outcome("cannot_rouse", "cannot rouse", TONES["bestial_failure"])
        return Outcome("passed", "passed", "good") if check.passed else Outcome("failed", "failed", "bad")

    def remorse_view(self, result):
        """A Remorse test (`rules.v5.humanity.RemorseResult`): its dice and successes, and as its
        outcome the verdict (Humanity kept, lower, or lost to the Beast)."""
        if result.kept:
            outcome = Outcome("humanity_kept", f"Humanity kept at {result.humanity_after}", "good")
        elif result.lost_to_the_beast:
            outcome = Outcome("humanity_lost", "Humanity drops to 0", "disaster")
        else:
            outcome = Outcome("humanity_drops", f"Humanity drops to {result.humanity_after}", "bad")
        pool = f"Humanity {result.humanity_before}, Stains {result.stains_before} ({_test_dice(result.roll.pool)})"
        return dataclasses.replace(self._test_view(result.roll, False), pool=pool, outcome=outcome, notes=())

    def frenzy_view(self, result):
        """A frenzy test (`rules.v5.humanity.FrenzyResult`): `Willpower 3 + Humanity 7 / 3 (2) - 2
        Impaired = 3 (3 dice, no Hunger dice)`, vs the difficulty when one was stated."""
        penalty, total = result.penalty, result.willpower + result.humanity_dice - result.penalty
        pool = (f"Willpower {result.willpower} + Humanity {result.humanity} / 3 ({result.humanity_dice})"
                + (f" - {penalty} Impaired" if penalty else "") + f" = {total}"
                + (" (rolled as 1)" if total < 1 else "") + f" ({_test_dice(result.roll.pool)})")
        return dataclasses.replace(self._test_view(result.roll, result.difficulty_given), pool=pool)

    def _test_view(self, roll, target_given):
        return self.view(roll, RollRequest(system=self.key, text="", pool=None, dice=roll.pool,
                                           target=roll.difficulty, target_given=target_given))

    # -- odds

    def odds(self, request, roller=None):
        rating_only = self.rating_only(request)
        hunger = self._hunger(roller, request)
        shown_hunger = hunger
        if rating_only:
            hunger = 0
        chances = v5_odds.odds(request.dice, hunger, request.target, bestial_rule=self.bestial_rule)
        regular_n, hunger_n = v5.split_pool(request.dice, hunger)
        if self.bestial_rule == "official":
            # 0 successes without a Hunger 1: every regular die 1-5, every Hunger die 2-5.
            plain_total = Fraction(1, 2) ** regular_n * Fraction(2, 5) ** hunger_n
        else:
            plain_total = chances["total_failure"] if hunger_n == 0 else Fraction(0)
        messy = chances["messy_critical"]
        clean = chances["critical"] - messy
        success = chances["win"] - chances["critical"]
        bestial = chances["bestial_failure"]
        failure = 1 - chances["win"] - bestial - plain_total
        items = (
            Chance("messy_critical", LABELS["messy_critical"], messy, TONES["messy_critical"]),
            Chance("critical", LABELS["critical"], clean, TONES["critical"]),
            Chance("success", "success (not critical)", success, TONES["success"]),
            Chance("failure", LABELS["failure"], failure, TONES["failure"]),
            Chance("total_failure", LABELS["total_failure"], plain_total, TONES["total_failure"]),
            Chance("bestial_failure", LABELS["bestial_failure"], bestial, TONES["bestial_failure"]),
        )
        return OddsView(
            system=self.key,
            pool=self.pool_text(request.pool, request.dice, shown_hunger, rating_only=rating_only,
                                impaired=bool(request.get("impaired"))),
            target=f"vs {request.target}" if request.target_given else "",
            chances=items,
            distribution=v5_contest_odds.side_distribution(request.dice, hunger),
            notes=(f"expected successes {float(chances['expected_successes']):.2f}",)
            + ((v5_sheet.IMPAIRED_NOTE,) if request.get("impaired") else ()),
        )


def _regular_marks(face, rerolled=False):
    marks = {TEN, SUCCESS} if face == 10 else {SUCCESS} if face >= v5.SUCCESS_FACE else {FAIL}
    if rerolled:
        marks.add(REROLLED)
    return frozenset(marks)


def _test_dice(count):
    return f"{count} {'die' if count == 1 else 'dice'}, no Hunger dice"


def _rouse_marks(face):
    return frozenset({SUCCESS} if face >= v5.SUCCESS_FACE else {FAIL})


def _hunger_marks(face):
    marks = {HUNGER}
    marks |= {TEN, SUCCESS} if face == 10 else {SUCCESS} if face >= v5.SUCCESS_FACE else {ONE} if face == 1 else {FAIL}
    return frozenset(marks)


SYSTEM = V5System()
