"""
Extended rolls, the same in every system: one pool rolled again and again, each roll adding
to a total until it reaches a target. The shared flow (`commands.extended`) keeps one
`ExtendedRoll` per character; a system supplies only its rules (`ExtendedRules`, the
`extended` attribute of its `rules.engine.System`): how the target is written, how each roll is
judged and what a roll adds (`Step`).

**Rulings** (docs/README.md, 'Extended rolls'):
- The target is a total of 1 to `MAX_TARGET` successes in every system (they all had 100).
- A complete extended roll is kept until a new one starts or it is stopped, so `/status`
  still shows it and a reroll of its latest roll (V5's Willpower) can still correct it; it is
  not rolled again.
- Switches a system marks lasting (`ExtendedRules.lasting`: V20's `/spec`) are kept from the
  first roll for every roll; every other switch applies only to the roll it is typed with.

The state is plain data (`to_dict` / `from_dict`), stored on the character: it survives a
restart; a stored value that does not read is refused as damaged (and can still be stopped).
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .errors import DiceError

if TYPE_CHECKING:  # the type of the hints below
    from .engine import RollRequest

MIN_TARGET = 1
MAX_TARGET = 100
DAMAGED = "The stored extended roll is damaged; stop it and start again."


@dataclass(frozen=True)
class Step:
    """
    What one roll does to an extended roll, as its system counts it.

    Args:
        added (int): the successes it adds to the total (less than 0 takes some off; the
            total never goes below 0).
        reset (bool): the total starts over at 0 instead (V20's botch).
        marks (tuple of str): what the roll is counted as ("botch"), tallied over the rolls.
        note (str): said on the roll's progress line (plain text).
    """

    added: int = 0
    reset: bool = False
    marks: tuple = ()
    note: str = ""


class ExtendedRules:
    """
    A system's extended-roll rules (the defaults: successes add up, nothing else counted).

    Attributes:
        target_word (str): `<pool> <word> <target>` (V20: "for", its "vs" is the difficulty).
        syntax (str): how a start is written after `+roll/extended`, for the help and refusals.
        switches (tuple of str): the system's roll switches that go with an extended roll.
        lasting (tuple of str): those of them kept from the first roll for every roll.
        mark_nouns (dict): mark -> (singular, plural), for the tallies (`describe`).
    """

    target_word: str = "vs"
    syntax: str = "<pool> vs <target total>"
    switches: tuple = ()
    lasting: tuple = ()
    mark_nouns: Mapping[str, tuple] = {}

    def request(self, request: "RollRequest") -> "RollRequest":
        """The request each roll is made with (e.g. judged at the system's lowest difficulty)."""
        return request

    def step(self, result: Any) -> Step:
        """The `Step` a roll result makes (the system's result object)."""
        return Step(added=result.successes)


@dataclass(frozen=True)
class ExtendedRoll:
    """
    An extended roll in progress: the pool as typed and the progress toward `target`.

    `before` is the total before the latest roll and `last` that roll's marks, so the latest
    roll can be replaced by a reroll of it (`correct_last`). `run` tells one extended roll from
    the next (a reroll offered for an older one is refused).
    """

    pool: str
    target: int
    total: int = 0
    rolls: int = 0
    before: int = 0
    last: tuple = ()
    marks: tuple = ()  # ((mark, count), ...)
    switches: tuple = ()
    private: bool = False
    numbers_only: bool = False
    run: str = ""

    @property
    def complete(self):
        return self.total >= self.target

    @property
    def remaining(self):
        return max(0, self.target - self.total)

    def count(self, mark):
        return dict(self.marks).get(mark, 0)

    def to_dict(self):
        return {"pool": self.pool, "target": self.target, "total": self.total, "rolls": self.rolls,
                "before": self.before, "last": list(self.last), "marks": [list(pair) for pair in self.marks],
                "switches": list(self.switches), "private": self.private, "numbers_only": self.numbers_only,
                "run": self.run}

    @classmethod
    def from_dict(cls, data):
        """The state stored by `to_dict`; DiceError (`DAMAGED`) when it does not read."""
        if not isinstance(data, dict):
            raise DiceError(DAMAGED)
        try:
            state = cls(pool=_text(data["pool"]), target=_whole(data["target"]), total=_whole(data.get("total", 0)),
                        rolls=_whole(data.get("rolls", 0)), before=_whole(data.get("before", 0)),
                        last=tuple(_text(m) for m in data.get("last", ())),
                        marks=tuple((_text(m), _whole(n)) for m, n in data.get("marks", ())),
                        switches=tuple(_text(s) for s in data.get("switches", ())),
                        private=bool(data.get("private", False)), numbers_only=bool(data.get("numbers_only", False)),
                        run=_text(data.get("run", "")))
        except (KeyError, TypeError, ValueError):
            raise DiceError(DAMAGED) from None
        if not state.pool or not MIN_TARGET <= state.target:
            raise DiceError(DAMAGED)
        return state


def _whole(value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(value)
    return value


def _text(value):
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def check_target(target, maximum=MAX_TARGET):
    if not isinstance(target, int) or isinstance(target, bool) or not MIN_TARGET <= target <= maximum:
        raise DiceError(f"An extended roll's target is a total of {MIN_TARGET} to {maximum} successes.")
    return target


def start(pool, target, switches=(), private=False, numbers_only=False, run=""):
    """A new extended roll of `pool` (the expression as typed) toward `target` successes."""
    pool = " ".join(str(pool).split())
    if not pool:
        raise DiceError("Say what to roll for the extended roll.")
    return ExtendedRoll(pool=pool, target=check_target(target), switches=tuple(switches), private=bool(private),
                        numbers_only=bool(numbers_only), run=run)


def _added(total, step):
    # A step may take successes off (a system's rule); a total never goes below nothing.
    return 0 if step.reset else max(0, total + step.added)


def _tallied(marks, add=(), take=()):
    counts = dict(marks)
    for mark in take:
        counts[mark] = counts.get(mark, 0) - 1
    for mark in add:
        counts[mark] = counts.get(mark, 0) + 1
    return tuple((mark, n) for mark, n in counts.items() if n > 0)


def add(state, step):
    """The state after one more roll."""
    if state.complete:
        raise DiceError(f"That extended roll is already complete ({state.total}/{state.target}); start a new one.")
    return replace(state, total=_added(state.total, step), rolls=state.rolls + 1, before=state.total,
                   last=tuple(step.marks), marks=_tallied(state.marks, step.marks))


def correct_last(state, step):
    """The state once its latest roll was rerolled into one that makes `step` (a Willpower reroll)."""
    if state.rolls < 1:
        raise DiceError("That roll is no longer the latest roll of your extended roll.")
    return replace(state, total=_added(state.before, step), last=tuple(step.marks),
                   marks=_tallied(state.marks, step.marks, state.last))


def rolls_text(count):
    return f"{count} roll{'s' if count != 1 else ''}"


def tallies(state, rules):
    """`1 botch, 2 messy criticals`: the marks counted so far, in the order they first came."""
    nouns = rules.mark_nouns
    return ", ".join(f"{n} {nouns.get(mark, (mark, mark + 's'))[0 if n == 1 else 1]}" for mark, n in state.marks)


def progress(state, rules, step=None):
    """`7/10 after 2 rolls: complete (a botch ...).`: where it stands after a roll (plain text;
    `step`: that roll's, for its note)."""
    text = f"{state.total}/{state.target} after {rolls_text(state.rolls)}"
    if state.complete:
        text += ": complete"
    notes = [note for note in (step.note if step else "", tallies(state, rules)) if note]
    if notes:
        text += f" ({'; '.join(notes)})"
    return text + "."


def describe(state, rules, pool=None):
    """`dex toward 5: 2/5 after 1 roll, 1 botch, complete` (`pool`: the pool as it is to be shown,
    e.g. escaped; by default as typed)."""
    text = f"{state.pool if pool is None else pool} toward {state.target}: {state.total}/{state.target} after {rolls_text(state.rolls)}"
    counted = tallies(state, rules)
    if counted:
        text += f", {counted}"
    return text + (", complete" if state.complete else "")
