"""
Input checks shared by the systems' rules (rules.v20, rules.whalefall, rules.dicecheck,
rules.seyruun). Pure; each refusal is a `DiceError` written for the player.
"""

from .errors import DiceError
from .pools import MAX_POOL


def is_int(value):
    """A whole number: an int, but not a bool (True is not a die)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_pool(pool):
    """A pool of 0 to MAX_POOL dice (0: the systems where an empty pool simply fails)."""
    if not is_int(pool) or pool < 0:
        raise DiceError("A pool is a whole number of dice, 0 or more.")
    if pool > MAX_POOL:
        raise DiceError(f"That pool is {pool} dice; pools are limited to {MAX_POOL}.")
    return pool


def check_faces(dice, sides, what):
    """`dice` as a tuple of at most MAX_POOL faces, each a whole number 1..sides; `what` names
    them in the refusal ("d10 faces")."""
    dice = tuple(dice)
    check_pool(len(dice))
    for face in dice:
        if not is_int(face) or not 1 <= face <= sides:
            raise DiceError(f"{what} are whole numbers from 1 to {sides}, not {face!r}.")
    return dice
