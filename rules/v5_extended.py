"""
V5 extended rolls (docs/v5.md): repeated rolls of one pool accumulate successes toward a
target total.

- Each roll is an ordinary V5 roll at difficulty 1: a roll with no success makes no progress
  and, with a Hunger 1 showing, is a bestial failure. **Ruling** (docs/v5.md, 'Extended rolls'): a bestial
  failure is reported on the roll that made it and the accumulated total is kept; what else
  it costs is the Storyteller's call. A messy critical is likewise reported on its roll.
- The extended roll is complete once the total reaches the target; the state is kept (so a
  Willpower reroll of the last roll can still correct it) until a new one starts or it is
  stopped.
- A Willpower reroll of an extended roll's latest roll replaces that roll's successes in the
  total (`correct_last_roll`).

The state is a small frozen value with `to_dict` / `from_dict`, so the game can store it on
the character (it survives a server restart).
"""

from dataclasses import asdict, dataclass, replace

from . import v5
from .errors import DiceError

ROLL_DIFFICULTY = 1
MIN_TARGET = 1
MAX_TARGET = v5.MAX_DIFFICULTY


@dataclass(frozen=True)
class ExtendedState:
    """An extended roll in progress: the pool as typed, the target and the progress."""

    pool: str
    target: int
    total: int = 0
    rolls: int = 0
    last: int = 0  # successes of the latest roll
    bestial_failures: int = 0
    messy_criticals: int = 0

    @property
    def complete(self):
        return self.total >= self.target

    @property
    def remaining(self):
        return max(0, self.target - self.total)

    def to_dict(self):
        return asdict(self)

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict):
            raise DiceError("The stored extended roll is damaged; stop it and start again.")
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        try:
            return cls(**known)
        except TypeError:
            raise DiceError("The stored extended roll is damaged; stop it and start again.") from None


def check_target(target):
    if not isinstance(target, int) or isinstance(target, bool) or not MIN_TARGET <= target <= MAX_TARGET:
        raise DiceError(f"An extended roll's target is a total of {MIN_TARGET} to {MAX_TARGET} successes.")
    return target


def start(pool, target):
    """A new extended roll of `pool` (the expression as typed) toward `target` successes."""
    pool = " ".join(str(pool).split())
    if not pool:
        raise DiceError("Say what to roll for the extended roll.")
    return ExtendedState(pool=pool, target=check_target(target))


def add_roll(state, result):
    """The state after one more roll (a V5Result)."""
    if state.complete:
        raise DiceError(
            f"That extended roll is already complete ({state.total}/{state.target}); start a new one."
        )
    return replace(
        state,
        total=state.total + result.successes,
        rolls=state.rolls + 1,
        last=result.successes,
        bestial_failures=state.bestial_failures + int(result.bestial_failure),
        messy_criticals=state.messy_criticals + int(result.messy_critical),
    )


def correct_last_roll(state, before, after):
    """The state once the latest roll `before` was rerolled into `after` (Willpower)."""
    if state.rolls < 1 or state.last != before.successes:
        raise DiceError("That roll is no longer the latest roll of your extended roll.")
    return replace(
        state,
        total=state.total - before.successes + after.successes,
        last=after.successes,
        bestial_failures=state.bestial_failures - int(before.bestial_failure) + int(after.bestial_failure),
        messy_criticals=state.messy_criticals - int(before.messy_critical) + int(after.messy_critical),
    )


def evaluate(regular, hunger, bestial_rule="official"):
    """One extended roll's faces, evaluated as an extended roll evaluates them."""
    return v5.evaluate(regular, hunger, ROLL_DIFFICULTY, bestial_rule)


def roll(pool, hunger, rng=None, bestial_rule="official"):
    """One extended roll of `pool` dice at a Hunger level."""
    return v5.roll(pool, hunger, ROLL_DIFFICULTY, rng=rng, bestial_rule=bestial_rule)
