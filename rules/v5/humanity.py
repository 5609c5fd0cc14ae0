"""
V5 Humanity rolls (docs/v5.md, from the V5 core rules): the Remorse test
and the frenzy test. Neither rolls Hunger dice.

**Remorse.** Made when a character has Stains (V5 core: at the end of the session). Pool:
10 - Humanity - Stains (the unmarked Humanity boxes), at least 1 die. Stains may overflow
the empty boxes (0-10 Stains, docs/v5.md: each one that does not fit is Aggravated
Willpower damage and the character is Impaired, `rules.v5.sheet`); the test is then 1 die.
**Ruling**: the Impaired -2 does not apply to the Remorse test, the test that ends it (its
pool is at its minimum of 1 die anyway). Any success: Humanity is
kept. No success: Humanity drops by 1. Either way the Stains are cleared. **Rulings**: no
Stains, no test (it is refused); Humanity 0 is refused too (the character is already lost to
the Beast); a drop to Humanity 0 is reported as such. Remorse dice are not Hunger dice (V5
core) and are not rerolled with Willpower.

**Frenzy.** Pool: Willpower + one third of Humanity, rounded down, at least 1 die, against
the difficulty the Storyteller sets (the trigger). **Rulings**: Willpower means the
*current* Willpower, the boxes not marked by damage (V5 core: Willpower tests roll current
Willpower); no Hunger dice (V5 core: Hunger dice are not used on Willpower or Humanity
tests); the test changes no trait on the sheet (a failure means the character frenzies,
played out with the Storyteller; `+frenzy` marks the character as in frenzy until
`+frenzy/end`, nothing more) and it is not rerolled with Willpower (V5 core: Willpower
does not reroll Willpower tests). Without a stated difficulty the roll only reports its
successes. An Impaired character (Stains beyond Humanity) rolls it with the -2 of every pool
(`penalty`), still at least 1 die.
"""

import re
from dataclasses import dataclass, replace

from .. import v5
from ..engine import read_whole
from ..errors import DiceError
from ..randomness import roll_faces

MAX_HUMANITY = 10
MAX_WILLPOWER = 10


@dataclass(frozen=True)
class RemorseResult:
    roll: v5.V5Result
    humanity_before: int
    stains_before: int
    humanity_after: int
    stains_after: int

    @property
    def kept(self):
        """True when Humanity was kept (any success)."""
        return self.humanity_after == self.humanity_before

    @property
    def lost_to_the_beast(self):
        return self.humanity_after == 0


@dataclass(frozen=True)
class FrenzyResult:
    roll: v5.V5Result
    willpower: int
    humanity: int
    difficulty_given: bool
    penalty: int = 0

    @property
    def humanity_dice(self):
        return self.humanity // 3

    @property
    def resisted(self):
        """True/False against a stated difficulty; None when none was stated."""
        return self.roll.win if self.difficulty_given else None


def _check_humanity(humanity):
    if not isinstance(humanity, int) or isinstance(humanity, bool) or not 0 <= humanity <= MAX_HUMANITY:
        raise DiceError(f"Humanity is from 0 to {MAX_HUMANITY}.")
    return humanity


MAX_STAINS = 10


def _check_stains(stains):
    if not isinstance(stains, int) or isinstance(stains, bool) or not 0 <= stains <= MAX_STAINS:
        raise DiceError(f"Stains are from 0 to {MAX_STAINS}.")
    return stains


def remorse_pool(humanity, stains):
    """Dice for a Remorse test: the empty Humanity boxes, at least 1."""
    _check_humanity(humanity)
    _check_stains(stains)
    return max(1, MAX_HUMANITY - humanity - stains)


def check_remorse(humanity, stains):
    """The Remorse test's pool when one is due; DiceError saying why when none is (no Stains,
    or Humanity 0)."""
    pool = remorse_pool(humanity, stains)
    if stains == 0:
        raise DiceError("No Stains: no Remorse test is needed.")
    if humanity == 0:
        raise DiceError("Humanity 0: the character is already lost to the Beast; no Remorse test.")
    return pool


def evaluate_remorse(faces, humanity, stains):
    """A Remorse test with explicit faces (exactly the pool's dice)."""
    pool = check_remorse(humanity, stains)
    faces = tuple(faces)
    if len(faces) != pool:
        raise DiceError(f"A Remorse test at Humanity {humanity} with {stains} Stains rolls {pool} dice.")
    result = replace(v5.evaluate(faces, (), 1), rating_only=True)
    return RemorseResult(
        roll=result,
        humanity_before=humanity,
        stains_before=stains,
        humanity_after=humanity if result.win else humanity - 1,
        stains_after=0,
    )


def roll_remorse(humanity, stains, rng=None):
    pool = check_remorse(humanity, stains)
    return evaluate_remorse(roll_faces(pool, rng), humanity, stains)


def _check_penalty(penalty):
    if not isinstance(penalty, int) or isinstance(penalty, bool) or penalty < 0:
        raise DiceError("A pool penalty is a whole number of dice, 0 or more.")
    return penalty


def frenzy_pool(willpower, humanity, penalty=0):
    """
    Dice for a frenzy test: current Willpower + Humanity / 3 (rounded down) - `penalty` (the
    Impaired -2, `rules.v5.sheet.impairment`), at least 1.
    """
    if not isinstance(willpower, int) or isinstance(willpower, bool) or not 0 <= willpower <= MAX_WILLPOWER:
        raise DiceError(f"Willpower is from 0 to {MAX_WILLPOWER}.")
    _check_humanity(humanity)
    return max(1, willpower + humanity // 3 - _check_penalty(penalty))


def evaluate_frenzy(faces, willpower, humanity, difficulty=None, penalty=0):
    """
    A frenzy test with explicit faces (exactly the pool's dice).

    Args:
        difficulty (int or None): successes needed to resist; None reports successes only.
        penalty (int): dice off the pool (Impaired: 2).
    """
    pool = frenzy_pool(willpower, humanity, penalty)
    given = difficulty is not None
    difficulty = v5.check_difficulty(difficulty) if given else 1
    faces = tuple(faces)
    if len(faces) != pool:
        raise DiceError(f"A frenzy test at Willpower {willpower} and Humanity {humanity} rolls {pool} dice.")
    roll = replace(v5.evaluate(faces, (), difficulty), rating_only=True)
    return FrenzyResult(roll=roll, willpower=willpower, humanity=humanity, difficulty_given=given,
                        penalty=penalty)


def roll_frenzy(willpower, humanity, difficulty=None, rng=None, penalty=0):
    pool = frenzy_pool(willpower, humanity, penalty)
    if difficulty is not None:
        v5.check_difficulty(difficulty)
    return evaluate_frenzy(roll_faces(pool, rng), willpower, humanity, difficulty, penalty)


_VS = re.compile(r"^(?P<who>.*?)\s*(?:(?:^|\s)vs\.?\s+(?P<difficulty>\S.*))?$", re.IGNORECASE | re.DOTALL)


def parse_frenzy(text):
    """`+frenzy`'s arguments (the comment already split off): `[<character>] [vs <difficulty>]`.

    Returns:
        (the character's name or "", the difficulty or None)
    """
    parsed = _VS.match(text)
    typed = parsed.group("difficulty")
    difficulty = None
    if typed is not None:
        difficulty = read_whole(typed, "The difficulty must be a whole number of successes", v5.check_difficulty)
    return parsed.group("who"), difficulty
