"""
Whalefall (docs/whalefall.md).

Pool: the character's level in the skill, that many dice. Dice are d10 unless a condition or
perk changes the die size, so the number of sides is a parameter everywhere (`sides=10`).

Target number `(face, count)`, written `(5,2)`: the check succeeds when at least `count` dice
show `face` or more. In the functions below `target` is the face and `needed` the count. A
pool smaller than `count` fails automatically, without rolling (`check` / `roll` return such a
result with no dice).

Partial: a failed check where at least one die met the face is flagged `partial`, so the GM
may rule a partial success or a partial failure (the rules: Ryuji's 2, 4, 10 against (5,2)). The
flag decides nothing by itself: `success` stays False.

Rulings (the rules are silent):

- **Ruling**: a target count is at least 1 (a check that needs no dice is no check) and at
  most 50, the largest pool; the face is from 1 to the die's sides.
- **Ruling**: dice have from 2 to 100 sides (every real die size, d2 to d100).
- **Ruling**: a pool of 0 dice is allowed (no levels in the skill); like any pool smaller than
  the count, it fails automatically.
- **Ruling**: an automatic failure is never `partial`: no die was rolled, so none met the face.
  `evaluate` judges the faces it is given; fewer faces than the count simply cannot succeed,
  and its result is not marked automatic (dice were rolled).
"""

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from ..checks import check_faces, check_pool, is_int
from ..errors import DiceError
from ..pools import MAX_POOL
from ..randomness import roll_faces

KEY = "whalefall"
TITLE = "Whalefall"

DEFAULT_SIDES = 10
MIN_SIDES = 2
MAX_SIDES = 100


@dataclass(frozen=True)
class WhalefallResult:
    """One check: the faces (empty for an automatic failure) and what they mean."""

    dice: tuple
    target: int
    needed: int
    sides: int
    meeting: int  # how many dice showed the target face or more
    success: bool
    partial: bool
    automatic: bool = False  # failed without rolling: the pool was smaller than the count

    @property
    def pool(self):
        return len(self.dice)

    @property
    def meeting_faces(self):
        """The faces that met the target, in the order rolled."""
        return tuple(face for face in self.dice if face >= self.target)

    @property
    def notation(self):
        """The target number as the rules write it: `(5,2)`."""
        return f"({self.target},{self.needed})"


def check_sides(sides):
    if not is_int(sides) or not MIN_SIDES <= sides <= MAX_SIDES:
        raise DiceError(f"Dice have from {MIN_SIDES} to {MAX_SIDES} sides.")
    return sides


def check_target(target, needed, sides=DEFAULT_SIDES):
    """Refuse a target number outside (1..sides, 1..50)."""
    check_sides(sides)
    if not is_int(target) or not 1 <= target <= sides:
        raise DiceError(f"The face to reach is from 1 to {sides} on a d{sides}.")
    if not is_int(needed) or not 1 <= needed <= MAX_POOL:
        raise DiceError(f"The number of dice needed is from 1 to {MAX_POOL}.")
    return target, needed


def evaluate(dice, target, needed, sides=DEFAULT_SIDES):
    """
    Judge explicit faces against a target number (docs/contract.md).

    Args:
        dice (iterable of int): the faces rolled, each 1..sides.
        target (int): the face a die must show or beat.
        needed (int): how many dice must do so.
        sides (int): the die size (10 unless a condition or perk says otherwise).

    Returns:
        WhalefallResult
    """
    check_target(target, needed, sides)
    dice = check_faces(dice, sides, f"Faces on a d{sides}")
    meeting = sum(1 for face in dice if face >= target)
    success = meeting >= needed
    return WhalefallResult(
        dice=dice,
        target=target,
        needed=needed,
        sides=sides,
        meeting=meeting,
        success=success,
        partial=not success and meeting > 0,
    )


def automatic_failure(pool, target, needed, sides=DEFAULT_SIDES):
    """The result of a pool too small for the count: failed, no dice, not partial."""
    check_target(target, needed, sides)
    check_pool(pool)
    if pool >= needed:
        raise DiceError(f"A pool of {pool} can reach {needed} dice: roll it.")
    return WhalefallResult(
        dice=(),
        target=target,
        needed=needed,
        sides=sides,
        meeting=0,
        success=False,
        partial=False,
        automatic=True,
    )


def roll(pool, target, needed, rng=None, sides=DEFAULT_SIDES):
    """
    Make a check: roll the whole pool, or fail at once without rolling when the pool is
    smaller than the count.
    """
    check_target(target, needed, sides)
    check_pool(pool)
    if pool < needed:
        return automatic_failure(pool, target, needed, sides)
    return evaluate(roll_faces(pool, rng, sides), target, needed, sides)


check = roll  # the rules' word: "a Diplomacy check"


def _meeting_counts(pool, target, sides):
    """Ways for exactly k of `pool` dice to meet the face, k = 0..pool (binomial counting)."""
    hit = sides - target + 1
    miss = target - 1
    return [math.comb(pool, k) * hit**k * miss ** (pool - k) for k in range(pool + 1)]


def odds(pool, target, needed, sides=DEFAULT_SIDES):
    """
    Exact chances of a check, counted (never simulated).

    Returns a dict:
        success (Fraction): the check succeeds.
        partial (Fraction): it fails with at least one die meeting the face.
        distribution (dict): dice meeting the face -> Fraction, only possible counts; an
            automatic failure is {0: 1} (no dice are rolled).
    """
    check_target(target, needed, sides)
    check_pool(pool)
    if pool < needed:
        return {"success": Fraction(0), "partial": Fraction(0), "distribution": {0: Fraction(1)}}
    counts = _meeting_counts(pool, target, sides)
    total = sides**pool
    return {
        "success": Fraction(sum(counts[needed:]), total),
        "partial": Fraction(sum(counts[1:needed]), total),
        "distribution": {k: Fraction(n, total) for k, n in enumerate(counts) if n},
    }


# ---------------------------------------------------------------- notation

_TARGET = re.compile(r"\s*\(?\s*([0-9]{1,4})\s*,\s*([0-9]{1,4})\s*\)?\s*", re.ASCII)
_DICE = re.compile(r"\s*([0-9]{1,4})\s*(?:[dD]\s*([0-9]{1,4}))?\s*", re.ASCII)


def parse_target(text, sides=DEFAULT_SIDES):
    """
    `(5,2)` -> (5, 2): (face, count). Spaces are allowed and the parentheses may be left out
    (`5,2`), but not only one of them.

    Raises:
        DiceError: for anything else, or a face or count out of range.
    """
    match = _TARGET.fullmatch(text) if isinstance(text, str) else None
    if not match or match.group().count("(") != match.group().count(")"):
        raise DiceError("Write the target number as (face,count), like (5,2): at least 2 dice showing 5 or more.")
    return check_target(int(match.group(1)), int(match.group(2)), sides)


def parse_dice(text):
    """
    `4d8` -> (4, 8): (dice, sides). A plain number is that many d10s (`4` -> (4, 10)).

    Raises:
        DiceError: for anything else, a pool above 50 or an impossible die.
    """
    match = _DICE.fullmatch(text) if isinstance(text, str) else None
    if not match:
        raise DiceError("Write the dice as <count>d<sides>, like 4d10 or 4d8 (a plain number means d10s).")
    sides = DEFAULT_SIDES if match.group(2) is None else int(match.group(2))
    return check_pool(int(match.group(1))), check_sides(sides)
