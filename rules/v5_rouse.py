"""
V5 Rouse checks (RULES.md §1).

A Rouse check is one plain die: no pool and no Hunger dice. 6+ passes and Hunger stays; 1-5
fails and Hunger rises by 1, to at most 5. Some powers need two checks (`count`); each check
is made at the Hunger the previous one left.

- **At Hunger 5** a failed check cannot raise Hunger: the check says "the Beast demands blood:
  hunger frenzy test" (V5 core: a hunger frenzy test at difficulty 4). Whether the power
  still works is the Storyteller's call.
- **Blood Potency reroll**: for a Discipline power of level <= the character's rouse-reroll
  level (`rules.v5.rouse_reroll_level`: BP 0 none, 1-2 level 1, 3-4 level 2, 5-6 level 3,
  7-8 level 4, 9-10 level 5), a failed check is rerolled once and the second die stands.
  **Ruling**: the reroll is always taken (it can only help), and only when the power's level
  is given (`+rouse for <level>`); a Rouse check with no level (waking, Blood Surge, ...)
  is never rerolled.

Faces are consumed in order: for each check its die, then, when that die failed and the
reroll applies, the reroll die. `evaluate` takes exactly the faces a roll would draw.
"""

from dataclasses import dataclass

from . import v5
from .errors import DiceError
from .randomness import roll_faces

MAX_CHECKS = 5
MAX_POWER_LEVEL = 5
PASS = 6
BEAST_DEMANDS_BLOOD = "the Beast demands blood: hunger frenzy test"
HUNGER_FRENZY_DIFFICULTY = 4


@dataclass(frozen=True)
class RouseCheck:
    """One Rouse check: its die, the Blood Potency reroll if one was made, and its effect."""

    face: int
    reroll: int | None
    passed: bool
    hunger_before: int
    hunger_after: int

    @property
    def faces(self):
        return (self.face,) if self.reroll is None else (self.face, self.reroll)

    @property
    def beast_demands_blood(self):
        """A failed check at Hunger 5: Hunger cannot rise, a hunger frenzy test is due."""
        return not self.passed and self.hunger_before >= v5.MAX_HUNGER


@dataclass(frozen=True)
class RouseResult:
    """The Rouse checks of one action, in order."""

    checks: tuple
    hunger_before: int
    hunger_after: int
    blood_potency: int
    level: int | None
    reroll_level: int

    @property
    def may_reroll(self):
        """Whether a failed check of this action is rerolled for Blood Potency."""
        return may_reroll(self.blood_potency, self.level)

    @property
    def passed(self):
        return sum(1 for check in self.checks if check.passed)

    @property
    def failed(self):
        return len(self.checks) - self.passed

    @property
    def beast_demands_blood(self):
        return any(check.beast_demands_blood for check in self.checks)

    @property
    def faces(self):
        return tuple(face for check in self.checks for face in check.faces)


def check_count(count):
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CHECKS:
        raise DiceError(f"Make from 1 to {MAX_CHECKS} Rouse checks at a time.")
    return count


def check_level(level):
    if level is None:
        return None
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= MAX_POWER_LEVEL:
        raise DiceError(f"A power's level is from 1 to {MAX_POWER_LEVEL}.")
    return level


def may_reroll(blood_potency, level):
    """True when Blood Potency rerolls a failed Rouse check for a power of this level."""
    if level is None:
        return False
    return level <= v5.rouse_reroll_level(blood_potency)


def _checked(hunger, count, blood_potency, level):
    v5.check_hunger(hunger)
    check_count(count)
    v5.rouse_reroll_level(blood_potency)  # refuses a Blood Potency out of range
    check_level(level)


def _run(draw, hunger, count, blood_potency, level):
    reroll_allowed = may_reroll(blood_potency, level)
    checks = []
    current = hunger
    for _ in range(count):
        face = draw()
        reroll = None
        if face < PASS and reroll_allowed:
            reroll = draw()
        passed = (face if reroll is None else reroll) >= PASS
        after = current if passed else min(v5.MAX_HUNGER, current + 1)
        checks.append(RouseCheck(face=face, reroll=reroll, passed=passed, hunger_before=current,
                                 hunger_after=after))
        current = after
    return RouseResult(
        checks=tuple(checks),
        hunger_before=hunger,
        hunger_after=current,
        blood_potency=blood_potency,
        level=level,
        reroll_level=v5.rouse_reroll_level(blood_potency),
    )


def evaluate(faces, hunger, count=1, blood_potency=0, level=None):
    """
    Evaluate Rouse checks with explicit faces (each check's die, then its reroll if any).

    Args:
        faces (iterable of int): exactly the dice the checks use, in order.
        hunger (int): Hunger before the first check (0-5).
        count (int): how many checks (1-5).
        blood_potency (int): 0-10.
        level (int or None): the power's level (1-5), for the Blood Potency reroll.

    Returns:
        RouseResult

    Raises:
        DiceError: bad parameters, or too few / too many faces for these checks.
    """
    _checked(hunger, count, blood_potency, level)
    faces = v5._check_faces(faces, "Rouse die")
    queue = list(faces)

    def draw():
        if not queue:
            raise DiceError("Too few faces for these Rouse checks.")
        return queue.pop(0)

    result = _run(draw, hunger, count, blood_potency, level)
    if queue:
        raise DiceError("Too many faces for these Rouse checks.")
    return result


def roll(hunger, count=1, blood_potency=0, level=None, rng=None):
    """Make Rouse checks with dice drawn from `rng` (the default source when None)."""
    _checked(hunger, count, blood_potency, level)
    return _run(lambda: roll_faces(1, rng)[0], hunger, count, blood_potency, level)


def slake(hunger, amount):
    """
    Hunger after feeding slakes `amount`: it never goes below 0.

    Raises:
        DiceError: an amount under 1, or Hunger already 0 (nothing to slake).
    """
    v5.check_hunger(hunger)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise DiceError("Slake Hunger by 1 or more.")
    if hunger == 0:
        raise DiceError("Hunger is already 0.")
    return max(0, hunger - amount)
