"""
V5 Rouse checks (docs/v5.md).

A Rouse check is one plain die: no pool and no Hunger dice. 6+ passes and Hunger stays; 1-5
fails and Hunger rises by 1. Some powers need two checks (`count`); each check is made at the
Hunger the previous one left.

- **At Hunger 5** (docs/v5.md, 'Rulings', V5 core) the Blood cannot be roused: no die is rolled,
  Hunger stays 5, and the check (`RouseCheck.rolled` False, `cannot_rouse` True) says so and
  that a hunger frenzy test at Difficulty 4 is due (`CANNOT_ROUSE`, offering `+frenzy vs 4`),
  which staff may run. For `+rouse 2` whose first check raises Hunger to 5, the second check
  is this case. A check that was not rolled is neither passed nor failed (`RouseResult.failed`
  counts dice that failed; `cannot_rouse` counts the checks that could not be made).
- **Blood Potency reroll**: for a Discipline power of level <= the character's rouse-reroll
  level (`rules.v5.rouse_reroll_level`: BP 0 none, 1-2 level 1, 3-4 level 2, 5-6 level 3,
  7-8 level 4, 9-10 level 5), a failed check is rerolled once and the second die stands.
  **Ruling**: the reroll is always taken (it can only help), and only when the power's level
  is given (`+rouse for <level>`); a Rouse check with no level (waking, Blood Surge, ...)
  is never rerolled.

Faces are consumed in order: for each check its die, then, when that die failed and the
reroll applies, the reroll die; a check at Hunger 5 takes none. `evaluate` takes exactly the
faces a roll would draw.

**Blood Surge** (`+roll/surge`, V5 core): a Rouse check with no Blood Potency reroll, then the
pool gains `rules.v5.surge_dice(blood_potency)` dice (BP 0 +1, 1-2 +2, 3-4 +3, 5-6 +4, 7-8 +5,
9-10 +6), whatever the Rouse die shows; the surged roll is made at the Hunger the Rouse
check leaves (`SurgeResult.hunger_after`: the check comes first). **Ruling**: at Hunger 5 the Blood cannot be roused, so
there is no Blood Surge: `check_surge` refuses it before anything is rolled (the player may
roll without /surge; the refusal names the hunger frenzy test an attempt to rouse calls for).
The surged pool is bounded like every pool (`surged_pool`: over 50 dice is refused, before
the Rouse die is rolled).

**Slaking** (docs/v5.md): Hunger falls no lower than 1 unless staff say the vessel was
drained and killed (`slake(..., killed=True)`, the command's `/kill`), when 0 is allowed.
"""

import re
from dataclasses import dataclass

from .. import v5
from ..engine import read_whole
from ..errors import DiceError
from ..randomness import roll_faces

MAX_CHECKS = 5
MAX_POWER_LEVEL = 5
PASS = 6
BEAST_DEMANDS_BLOOD = "the Beast demands blood: hunger frenzy test"
HUNGER_FRENZY_DIFFICULTY = 4
FRENZY_COMMAND = f"+frenzy vs {HUNGER_FRENZY_DIFFICULTY}"
CANNOT_ROUSE = (f"at Hunger {v5.MAX_HUNGER} the Blood cannot be roused (no die is rolled; Hunger stays "
                f"{v5.MAX_HUNGER}): a hunger frenzy test (Difficulty {HUNGER_FRENZY_DIFFICULTY}) is due "
                f"({FRENZY_COMMAND})")
NO_SURGE = (f"At Hunger {v5.MAX_HUNGER} the Blood cannot be roused, so there is no Blood Surge; "
            f"roll without /surge. Trying to rouse the Blood at Hunger {v5.MAX_HUNGER} calls for a "
            f"hunger frenzy test (Difficulty {HUNGER_FRENZY_DIFFICULTY}, {FRENZY_COMMAND}).")
SLAKE_FLOOR = 1
_FOR = re.compile(r"(?:^|\s)for\s+(?P<level>\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class RouseCheck:
    """
    One Rouse check: its die, the Blood Potency reroll if one was made, and its effect. A check
    at Hunger 5 rolls nothing: face None, not passed, Hunger stays 5.
    """

    face: int | None
    reroll: int | None
    passed: bool
    hunger_before: int
    hunger_after: int

    @property
    def rolled(self):
        return self.face is not None

    @property
    def cannot_rouse(self):
        """At Hunger 5 the Blood cannot be roused: no die, a hunger frenzy test is due."""
        return not self.rolled

    @property
    def faces(self):
        if not self.rolled:
            return ()
        return (self.face,) if self.reroll is None else (self.face, self.reroll)

    @property
    def beast_demands_blood(self):
        """The same as `cannot_rouse` (the older name): a hunger frenzy test is due."""
        return self.cannot_rouse


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
        """Checks whose die failed (a check that could not be made at Hunger 5 is not one)."""
        return sum(1 for check in self.checks if check.rolled and not check.passed)

    @property
    def cannot_rouse(self):
        """How many checks could not be made (Hunger 5: no die rolled)."""
        return sum(1 for check in self.checks if check.cannot_rouse)

    @property
    def beast_demands_blood(self):
        """True when any check met Hunger 5: a hunger frenzy test (Difficulty 4) is due."""
        return self.cannot_rouse > 0

    @property
    def frenzy_difficulty(self):
        """The hunger frenzy test's difficulty when one is due, else None."""
        return HUNGER_FRENZY_DIFFICULTY if self.beast_demands_blood else None

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
        if current >= v5.MAX_HUNGER:
            checks.append(RouseCheck(face=None, reroll=None, passed=False, hunger_before=current,
                                     hunger_after=current))
            continue
        face = draw()
        reroll = None
        if face < PASS and reroll_allowed:
            reroll = draw()
        passed = (face if reroll is None else reroll) >= PASS
        after = current if passed else current + 1
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
    faces = v5.check_faces(faces, "Rouse die")
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


def slake(hunger, amount, killed=False):
    """
    Hunger after feeding slakes `amount`: it stops at 1 (`SLAKE_FLOOR`) unless the vessel was
    drained and killed (`killed`, staff's call), when it may reach 0.

    Raises:
        DiceError: an amount under 1, Hunger already 0, or Hunger already 1 without a kill.
    """
    v5.check_hunger(hunger)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise DiceError("Slake Hunger by 1 or more.")
    if hunger == 0:
        raise DiceError("Hunger is already 0.")
    floor = 0 if killed else SLAKE_FLOOR
    if hunger <= floor:
        raise DiceError(f"Hunger is already {SLAKE_FLOOR}: only draining and killing the vessel slakes "
                        "the last point (staff: /kill).")
    return max(floor, hunger - amount)


# ---------------------------------------------------------------- Blood Surge


@dataclass(frozen=True)
class SurgeResult:
    """A Blood Surge: its Rouse check (never rerolled for Blood Potency) and the dice it adds."""

    rouse: RouseResult
    dice: int

    @property
    def hunger_after(self):
        return self.rouse.hunger_after


def can_rouse(hunger):
    """False at Hunger 5, where the Blood cannot be roused."""
    return v5.check_hunger(hunger) < v5.MAX_HUNGER


def check_surge(hunger, blood_potency):
    """Refuse a Blood Surge that cannot happen (Hunger 5: `NO_SURGE`); returns the dice it adds."""
    dice = v5.surge_dice(blood_potency)
    if not can_rouse(hunger):
        raise DiceError(NO_SURGE)
    return dice


def surged_pool(dice, blood_potency):
    """A pool's dice with the Blood Surge added, refused above 50 (rules.pools.MAX_POOL)."""
    total = dice + v5.surge_dice(blood_potency)
    return v5.check_pool(total)


def evaluate_surge(faces, hunger, blood_potency):
    """A Blood Surge with its Rouse die given (`faces`: exactly one face)."""
    dice = check_surge(hunger, blood_potency)
    return SurgeResult(rouse=evaluate(faces, hunger, 1, blood_potency), dice=dice)


def roll_surge(hunger, blood_potency, rng=None):
    """Make a Blood Surge's Rouse check with a die from `rng`."""
    dice = check_surge(hunger, blood_potency)
    return SurgeResult(rouse=roll(hunger, 1, blood_potency, rng=rng), dice=dice)


# ---------------------------------------------------------------- +rouse


def parse(text):
    """
    The arguments of `+rouse`: `[<count>] [for <level>]`, `<character>[=<count>] [for <level>]`.

    Returns:
        (character name or None, count, level or None)
    """
    text = text.strip()
    who = None
    if "=" in text:
        who, text = (part.strip() for part in text.split("=", 1))
        if not who:
            raise DiceError("Name the character before '='.")
        if not text:
            raise DiceError("Say how many Rouse checks after '='.")
    level = None
    found = _FOR.search(text)
    if found:
        level = read_whole(found.group("level"), "The power's level must be a whole number from 1 to "
                           f"{MAX_POWER_LEVEL}", check_level)
        text = text[: found.start()].strip()
    elif re.search(r"^for$|^for\s|\sfor$", text, re.IGNORECASE):
        # `2 for` and `Alice for` too: a trailing `for` is a level left out, not part of a name.
        raise DiceError("Say the power's level after 'for'.")
    count = 1
    if text:
        # `-1` is a count (a bad one), not a character's name; after '=' only a count stands, and
        # `read_whole` refuses anything else quoting it cut short.
        if who is None and not re.fullmatch(r"[-+]?[0-9]+", text):
            who = text
        else:
            plus = re.fullmatch(r"\+([0-9]+)", text)  # `+2` is 2; `++2` is quoted as typed
            count = read_whole(plus.group(1) if plus else text, "The number of Rouse checks must be a "
                               "whole number", check_count, signed=True)
    return who, count, level


def summary(result):
    """The checks in plain words, for the record: `1 passed, 0 failed: Hunger 2 -> 2`."""
    text = f"{result.passed} passed, {result.failed} failed"
    if result.cannot_rouse:
        text += f", {result.cannot_rouse} not rolled (Hunger {v5.MAX_HUNGER})"
    text += f": Hunger {result.hunger_before} -> {result.hunger_after}"
    if result.beast_demands_blood:
        text += (f"; a hunger frenzy test (Difficulty {HUNGER_FRENZY_DIFFICULTY}) is due "
                 f"({FRENZY_COMMAND})")
    return text
