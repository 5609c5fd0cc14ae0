"""
The V5 dice (docs/v5.md): counting, outcomes, rating-only rolls, Willpower rerolls of chosen
dice, the `/willpower` ending and the Blood Potency tables.

The rules and the rulings are written out in `rules.v5`, the system's public face (the contract,
docs/contract.md), which re-exports everything here together with the exact odds of `rules.v5.exact_odds`.
This module is the bottom of the V5 modules: it imports none of them, so the odds engine can
build on it without a circle (`rules.v5` -> `rules.v5.exact_odds` -> here).
"""

from dataclasses import dataclass, replace

from ..errors import DiceError
from ..pools import MAX_POOL
from ..randomness import roll_faces

KEY = "v5"
TITLE = "Vampire: The Masquerade 5th edition"

MAX_HUNGER = 5
MAX_DIFFICULTY = MAX_POOL * 2
MAX_REROLL = 3
SUCCESS_FACE = 6  # a die showing this or more is a success
BESTIAL_RULES = ("official", "total_failure")

OUTCOME_LABELS = {
    "messy_critical": "messy critical",
    "critical": "critical success",
    "exceptional": "exceptional success",
    "solid": "solid success",
    "bare": "bare success",
    "bestial_failure": "bestial failure",
    "total_failure": "total failure",
    "failure": "failure",
}


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """
    Anything scored like a V5 roll (a roll, a teamwork roll): the score and its outcome words.
    The fields are keyword-only, so a subclass's own fields come first when it is built.
    """

    difficulty: int
    successes: int
    win: bool
    margin: int
    critical: bool
    messy_critical: bool
    bestial_failure: bool
    total_failure: bool

    @property
    def outcome(self):
        """The key of the most notable thing about the roll (see OUTCOME_LABELS)."""
        if self.win:
            if self.messy_critical:
                return "messy_critical"
            if self.critical:
                return "critical"
            return margin_grade(self.margin)
        if self.bestial_failure:
            return "bestial_failure"
        if self.total_failure:
            return "total_failure"
        return "failure"

    @property
    def outcome_label(self):
        return OUTCOME_LABELS[self.outcome]

    @property
    def margin_label(self):
        """The margin's label on a win ("bare/solid/exceptional success"), else None."""
        return OUTCOME_LABELS[margin_grade(self.margin)] if self.win else None


@dataclass(frozen=True)
class V5Result(Outcome):
    """The evaluation of one V5 roll. Faces are kept so the roll can be shown and rerolled."""

    regular: tuple
    hunger: tuple
    bestial_rule: str = "official"
    rerolled: tuple = ()  # indexes into `regular` rerolled by Willpower
    hunger_rating: int | None = None  # the roller's Hunger when rolled (None: faces given)
    rating_only: bool = False  # a single Willpower or Humanity rating: no Hunger dice, no reroll

    @property
    def hunger_level(self):
        """The roller's Hunger: more than the Hunger dice when the pool was smaller."""
        return len(self.hunger) if self.hunger_rating is None else self.hunger_rating

    @property
    def pool(self):
        return len(self.regular) + len(self.hunger)

    @property
    def tens(self):
        return self.regular.count(10) + self.hunger.count(10)

def margin_grade(margin):
    """'bare' for 0, 'solid' for 1-2, 'exceptional' for 3+ (only meaningful on a win)."""
    if margin >= 3:
        return "exceptional"
    if margin >= 1:
        return "solid"
    return "bare"


def count_successes(faces):
    """Successes of a set of faces: 6+ is one, each pair of 10s adds two."""
    faces = list(faces)
    return sum(1 for face in faces if face >= SUCCESS_FACE) + 2 * (faces.count(10) // 2)


def check_faces(faces, what):
    faces = tuple(faces)
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 10:
            raise DiceError(f"{what} faces must be whole numbers from 1 to 10, not {face!r}.")
    return faces


def check_bestial_rule(rule):
    if rule not in BESTIAL_RULES:
        raise DiceError(f"Unknown bestial failure rule {rule!r}: use one of {', '.join(BESTIAL_RULES)}.")
    return rule


def evaluate(regular, hunger, difficulty, bestial_rule="official"):
    """
    Evaluate explicit faces (docs/contract.md).

    Args:
        regular (iterable of int): faces of the regular dice.
        hunger (iterable of int): faces of the Hunger dice.
        difficulty (int): successes needed, 0 and up; 0 successes never wins, even at 0.
        bestial_rule (str): "official" or "total_failure" (see module docstring).

    Returns:
        V5Result
    """
    regular = check_faces(regular, "Regular die")
    hunger = check_faces(hunger, "Hunger die")
    if len(hunger) > MAX_HUNGER:
        raise DiceError(f"At most {MAX_HUNGER} Hunger dice are rolled.")
    if len(regular) + len(hunger) > MAX_POOL:
        raise DiceError(f"Pools are limited to {MAX_POOL} dice.")
    if not isinstance(difficulty, int) or difficulty < 0:
        raise DiceError("Difficulty must be a whole number of successes, 0 or more.")
    check_bestial_rule(bestial_rule)

    successes = count_successes(regular + hunger)
    win = successes >= max(difficulty, 1)
    tens = regular.count(10) + hunger.count(10)
    critical = win and tens >= 2
    messy = critical and 10 in hunger
    if bestial_rule == "official":
        bestial = not win and 1 in hunger
    else:
        bestial = successes == 0 and len(hunger) > 0
    return V5Result(
        regular=regular,
        hunger=hunger,
        difficulty=difficulty,
        successes=successes,
        win=win,
        margin=successes - difficulty,
        critical=critical,
        messy_critical=messy,
        bestial_failure=bestial,
        total_failure=successes == 0,
        bestial_rule=bestial_rule,
    )


def split_pool(pool, hunger):
    """(regular dice, Hunger dice) for a pool at a Hunger level; a small pool is all Hunger."""
    check_pool(pool)
    check_hunger(hunger)
    hunger_dice = min(pool, hunger)
    return pool - hunger_dice, hunger_dice


def check_pool(pool):
    if not isinstance(pool, int) or pool < 1:
        raise DiceError("A pool is at least 1 die.")
    if pool > MAX_POOL:
        raise DiceError(f"That pool is {pool} dice; pools are limited to {MAX_POOL}.")
    return pool


def check_hunger(hunger):
    if not isinstance(hunger, int) or not 0 <= hunger <= MAX_HUNGER:
        raise DiceError(f"Hunger is from 0 to {MAX_HUNGER}.")
    return hunger


def check_difficulty(difficulty):
    if not isinstance(difficulty, int) or not 0 <= difficulty <= MAX_DIFFICULTY:
        raise DiceError(f"Difficulty is a number of successes from 0 to {MAX_DIFFICULTY}.")
    return difficulty


def roll(pool, hunger, difficulty, rng=None, bestial_rule="official", rating_only=False):
    """
    Roll `pool` dice at a Hunger level against a difficulty.

    With `rating_only` (see `is_rating_only`) every die is a regular die whatever the Hunger,
    the result records the roller's Hunger all the same and is marked not rerollable.
    """
    regular_count, hunger_count = split_pool(pool, 0 if rating_only else hunger)
    check_hunger(hunger)
    check_difficulty(difficulty)
    faces = roll_faces(regular_count + hunger_count, rng)
    result = evaluate(faces[:regular_count], faces[regular_count:], difficulty, bestial_rule)
    return replace(result, hunger_rating=hunger, rating_only=bool(rating_only))


def rescore(result, difficulty):
    """The same dice judged against another difficulty (a contest, a team's total)."""
    fresh = evaluate(result.regular, result.hunger, difficulty, result.bestial_rule)
    return replace(fresh, rerolled=result.rerolled, hunger_rating=result.hunger_rating,
                   rating_only=result.rating_only)


# ---------------------------------------------------------------- rating-only rolls

RATING_ONLY_TRAITS = ("willpower", "humanity")
RATING_ONLY_REFUSAL = ("Willpower does not reroll a Willpower or Humanity test (V5 core); "
                       "no Willpower spent.")


def is_rating_only(pool):
    """
    True when a `rules.pools.Pool` is a single Willpower or Humanity rating (see the module
    docstring's Ruling): exactly one trait part, added, that is one of RATING_ONLY_TRAITS;
    plain numbers may be added or subtracted; no Specialty.
    """
    traits = [part for part in pool.parts if part.trait is not None or part.specialty is not None]
    if len(traits) != 1:
        return False
    part = traits[0]
    return part.sign > 0 and part.trait in RATING_ONLY_TRAITS


def hunger_dice_for(pool, hunger):
    """The Hunger that sets a pool's Hunger dice: 0 for a rating-only pool, else `hunger`."""
    check_hunger(hunger)
    return 0 if is_rating_only(pool) else hunger


def reroll_refusal(result):
    """Why Willpower cannot reroll this roll at all (text), or None when it can."""
    if result.rating_only:
        return RATING_ONLY_REFUSAL
    if result.rerolled:
        return "This roll has already been rerolled with Willpower."
    return None


# ---------------------------------------------------------------- willpower rerolls

REROLL_STRATEGIES = ("failures", "crits", "messy", "best")


def choose_failures(result):
    """Up to 3 regular dice under 6 (they can only gain by a reroll)."""
    picks = [i for i, face in enumerate(result.regular) if face < SUCCESS_FACE]
    return tuple(picks[:MAX_REROLL])


def choose_crits(result):
    """
    With an unpaired 10 showing (regular or Hunger), up to 3 regular non-10s, failures first
    and then the lowest successes, to chase the pair. Nothing when no 10 is unpaired.
    """
    if result.tens % 2 == 0:
        return ()
    order = sorted((face, i) for i, face in enumerate(result.regular) if face != 10)
    return tuple(sorted(i for _, i in order[:MAX_REROLL]))


def choose_messy(result):
    """
    The regular 10s that turn a critical messy, when rerolling them can help: exactly one
    Hunger 10, one to three regular 10s, and the roll still wins with those dice counted as
    failures. Nothing otherwise (two Hunger 10s are messy whatever is rerolled).
    """
    if not result.messy_critical or result.hunger.count(10) != 1:
        return ()
    picks = tuple(i for i, face in enumerate(result.regular) if face == 10)
    if not 1 <= len(picks) <= MAX_REROLL:
        return ()
    kept = [face for i, face in enumerate(result.regular) if i not in picks]
    if count_successes(kept + list(result.hunger)) < result.difficulty:
        return ()
    return picks


def choose_faces(result, faces):
    """The regular dice showing the given faces (a player's explicit choice)."""
    faces = list(faces)
    if not faces:
        raise DiceError("Name at least one die to reroll.")
    if len(faces) > MAX_REROLL:
        raise DiceError(f"Willpower rerolls at most {MAX_REROLL} dice.")
    available = list(enumerate(result.regular))
    picks = []
    for face in faces:
        for position, (i, shown) in enumerate(available):
            if shown == face:
                picks.append(i)
                del available[position]
                break
        else:
            shown = " ".join(str(f) for f in result.regular) or "none"
            raise DiceError(
                f"There is no regular die showing {face} to reroll (regular dice: {shown}); "
                "Hunger dice are never rerolled."
            )
    return tuple(sorted(picks))



def apply_reroll(result, indexes, new_faces):
    """The roll with the regular dice at `indexes` replaced by `new_faces`, evaluated again."""
    indexes = tuple(indexes)
    refusal = reroll_refusal(result)
    if refusal:
        raise DiceError(refusal)
    if not indexes:
        raise DiceError("There are no dice to reroll.")
    if len(indexes) > MAX_REROLL or len(set(indexes)) != len(indexes):
        raise DiceError(f"Willpower rerolls up to {MAX_REROLL} different regular dice.")
    if any(not 0 <= i < len(result.regular) for i in indexes):
        raise DiceError("Only regular dice can be rerolled.")
    new_faces = check_faces(new_faces, "Rerolled die")
    if len(new_faces) != len(indexes):
        raise DiceError("One new face is needed for each rerolled die.")
    regular = list(result.regular)
    for i, face in zip(indexes, new_faces):
        regular[i] = face
    fresh = evaluate(regular, result.hunger, result.difficulty, result.bestial_rule)
    # A rating-only roll never gets here (refused above), so rating_only stays False.
    return replace(fresh, rerolled=tuple(sorted(indexes)), hunger_rating=result.hunger_rating)


def reroll(result, indexes, rng=None):
    """Reroll the regular dice at `indexes` with fresh faces."""
    return apply_reroll(result, indexes, roll_faces(len(tuple(indexes)), rng))


@dataclass(frozen=True)
class WillpowerDecision:
    """What the rules' `/willpower` ending does: reroll `indexes`, or nothing and `reason`."""

    reroll: bool
    indexes: tuple
    reason: str


ENDING_WON = "The roll already wins: nothing is rerolled and no Willpower is spent."
ENDING_NO_FAILURES = "No regular die is under 6: nothing is rerolled and no Willpower is spent."
ENDING_ALL_HUNGER = ("Every die is a Hunger die (Hunger dice are never rerolled): nothing is "
                     "rerolled and no Willpower is spent.")


def willpower_ending(result):
    """
    The decision of the rules' `/willpower` ending for a fresh roll (docs/v5.md, 'Rulings'):
    reroll the `failures` choice only when the roll did not win. Spend Willpower exactly
    when `reroll` is True.
    """
    refusal = reroll_refusal(result)
    if refusal:
        return WillpowerDecision(False, (), refusal)
    if result.win:
        return WillpowerDecision(False, (), ENDING_WON)
    if not result.regular:
        return WillpowerDecision(False, (), ENDING_ALL_HUNGER)
    picks = choose_failures(result)
    if not picks:
        return WillpowerDecision(False, (), ENDING_NO_FAILURES)
    return WillpowerDecision(True, picks, "The roll did not win: Willpower rerolls the regular dice under 6.")


def ending_picks(result, accumulating=False):
    """
    (the dice the `/willpower` ending rerolls, why none when none): `willpower_ending`'s, or for
    a roll that adds to a total (`accumulating`: an extended roll's step) the failures all the
    same, since "it already wins" (at difficulty 1) is no reason to keep such a roll.
    """
    if accumulating:
        picks = choose_failures(result)
        return picks, "" if picks else ENDING_NO_FAILURES
    decision = willpower_ending(result)
    return (decision.indexes if decision.reroll else ()), decision.reason


# ---------------------------------------------------------------- rouse checks

ROUSE_REROLL_LEVELS = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)  # by Blood Potency 0-10
MAX_BLOOD_POTENCY = 10


SURGE_DICE = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)  # Blood Surge bonus by Blood Potency 0-10


def check_blood_potency(blood_potency):
    if (not isinstance(blood_potency, int) or isinstance(blood_potency, bool)
            or not 0 <= blood_potency <= MAX_BLOOD_POTENCY):
        raise DiceError(f"Blood Potency is from 0 to {MAX_BLOOD_POTENCY}.")
    return blood_potency


def rouse_reroll_level(blood_potency):
    """Highest Discipline level whose failed Rouse check Blood Potency lets you reroll."""
    return ROUSE_REROLL_LEVELS[check_blood_potency(blood_potency)]


def surge_dice(blood_potency):
    """Dice a Blood Surge adds (V5 core): BP 0 +1, 1-2 +2, 3-4 +3, 5-6 +4, 7-8 +5, 9-10 +6."""
    return SURGE_DICE[check_blood_potency(blood_potency)]
