"""
Vampire: The Masquerade 5th edition (RULES.md §1, seed 004). The default system.

Counting: each face 6-10 is a success; every pair of 10s, regular or Hunger in any mix, adds
2 more (two 10s make 4 successes, three make 5, four make 8).

Outcome, for a roll against a difficulty (successes needed, 0 and up):

- win: successes >= difficulty and at least one success; margin = successes - difficulty,
  labelled on a win 0 "bare success", 1-2 "solid success", 3+ "exceptional success".
  **Ruling** (RULES.md §1): 0 successes never wins, not even at difficulty 0.
- critical: a win with at least one pair of 10s.
- messy critical: a critical where at least one of the 10s is on a Hunger die.
- bestial failure, rule "official" (V5 core, the default): the roll does not win and at
  least one Hunger die shows 1. Rule "total_failure" (seed 004's words, chosen with the
  setting V5_BESTIAL_FAILURE): 0 successes and at least one Hunger die was rolled.
- total failure: 0 successes, at any difficulty (difficulty 0 included: such a roll does not
  win, so with a Hunger die showing 1 it is also a bestial failure under "official").

Willpower reroll: up to 3 regular dice, never Hunger dice, once per roll; the new faces are
evaluated again as a whole roll. Strategies choose the dice (see `choose_reroll`).

Rouse check: one die, 6+ passes; 1-5 raises Hunger by 1, to at most 5. Blood Potency may
reroll a failed Rouse check once for a power of level <= its rouse-reroll level.
"""

from dataclasses import dataclass, replace

from .errors import DiceError
from .pools import MAX_POOL
from .randomness import roll_faces

KEY = "v5"
TITLE = "Vampire: The Masquerade 5th edition"

MAX_HUNGER = 5
MAX_DIFFICULTY = MAX_POOL * 2
MAX_REROLL = 3
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


class Outcome:
    """
    The outcome words of anything scored like a V5 roll (a roll, a teamwork roll): needs the
    fields win, margin, critical, messy_critical, bestial_failure and total_failure.
    """

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
    difficulty: int
    successes: int
    win: bool
    margin: int
    critical: bool
    messy_critical: bool
    bestial_failure: bool
    total_failure: bool
    bestial_rule: str = "official"
    rerolled: tuple = ()  # indexes into `regular` rerolled by Willpower
    hunger_rating: int | None = None  # the roller's Hunger when rolled (None: faces given)

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
    return sum(1 for face in faces if face >= 6) + 2 * (faces.count(10) // 2)


def _check_faces(faces, what):
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
    Evaluate explicit faces (RULES.md §0 contract).

    Args:
        regular (iterable of int): faces of the regular dice.
        hunger (iterable of int): faces of the Hunger dice.
        difficulty (int): successes needed, 0 and up; 0 successes never wins, even at 0.
        bestial_rule (str): "official" or "total_failure" (see module docstring).

    Returns:
        V5Result
    """
    regular = _check_faces(regular, "Regular die")
    hunger = _check_faces(hunger, "Hunger die")
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


def roll(pool, hunger, difficulty, rng=None, bestial_rule="official"):
    """Roll `pool` dice at a Hunger level against a difficulty."""
    regular_count, hunger_count = split_pool(pool, hunger)
    check_difficulty(difficulty)
    faces = roll_faces(regular_count + hunger_count, rng)
    result = evaluate(faces[:regular_count], faces[regular_count:], difficulty, bestial_rule)
    return replace(result, hunger_rating=hunger)


def rescore(result, difficulty):
    """The same dice judged against another difficulty (a contest, a team's total)."""
    fresh = evaluate(result.regular, result.hunger, difficulty, result.bestial_rule)
    return replace(fresh, rerolled=result.rerolled, hunger_rating=result.hunger_rating)


# ---------------------------------------------------------------- willpower rerolls

REROLL_STRATEGIES = ("failures", "crits", "messy", "best")


def choose_failures(result):
    """Up to 3 regular dice under 6 (they can only gain by a reroll)."""
    picks = [i for i, face in enumerate(result.regular) if face < 6]
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


def choose_reroll(result, strategy):
    """
    The indexes of the regular dice a Willpower strategy rerolls.

    `best` is answered by the exact odds engine when it is available (issue: exact odds);
    the other strategies are simple rules of thumb.
    """
    if strategy == "failures":
        return choose_failures(result)
    if strategy == "crits":
        return choose_crits(result)
    if strategy == "messy":
        return choose_messy(result)
    if strategy == "best":
        from . import v5_odds  # the odds engine is optional for plain rolling

        return v5_odds.best_reroll(result)
    raise DiceError(f"Unknown Willpower strategy '{strategy}': use {', '.join(REROLL_STRATEGIES)} or dice faces.")


def apply_reroll(result, indexes, new_faces):
    """The roll with the regular dice at `indexes` replaced by `new_faces`, evaluated again."""
    indexes = tuple(indexes)
    if result.rerolled:
        raise DiceError("This roll has already been rerolled with Willpower.")
    if not indexes:
        raise DiceError("There are no dice to reroll.")
    if len(indexes) > MAX_REROLL or len(set(indexes)) != len(indexes):
        raise DiceError(f"Willpower rerolls up to {MAX_REROLL} different regular dice.")
    if any(not 0 <= i < len(result.regular) for i in indexes):
        raise DiceError("Only regular dice can be rerolled.")
    new_faces = _check_faces(new_faces, "Rerolled die")
    if len(new_faces) != len(indexes):
        raise DiceError("One new face is needed for each rerolled die.")
    regular = list(result.regular)
    for i, face in zip(indexes, new_faces):
        regular[i] = face
    fresh = evaluate(regular, result.hunger, result.difficulty, result.bestial_rule)
    return replace(fresh, rerolled=tuple(sorted(indexes)), hunger_rating=result.hunger_rating)


def reroll(result, indexes, rng=None):
    """Reroll the regular dice at `indexes` with fresh faces."""
    return apply_reroll(result, indexes, roll_faces(len(tuple(indexes)), rng))


# ---------------------------------------------------------------- rouse checks

ROUSE_REROLL_LEVELS = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)  # by Blood Potency 0-10
MAX_BLOOD_POTENCY = 10


def rouse_reroll_level(blood_potency):
    """Highest Discipline level whose failed Rouse check Blood Potency lets you reroll."""
    if not isinstance(blood_potency, int) or not 0 <= blood_potency <= MAX_BLOOD_POTENCY:
        raise DiceError(f"Blood Potency is from 0 to {MAX_BLOOD_POTENCY}.")
    return ROUSE_REROLL_LEVELS[blood_potency]


# ---------------------------------------------------------------- exact odds


def odds(pool, hunger, difficulty, bestial_rule="official"):
    """Exact chances of a fresh roll (RULES.md §0); computed in `rules.v5_odds`."""
    from . import v5_odds

    return v5_odds.odds(pool, hunger, difficulty, bestial_rule=bestial_rule)
