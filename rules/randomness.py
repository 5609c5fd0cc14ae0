"""
Where dice faces come from.

Production draws from the operating system (`random.SystemRandom`): nobody can predict or
replay a roll. Tests pass a seeded `random.Random` to the rolling functions, or swap the
default source for a block of code with `seeded()` (used by command tests that need exact
output from a whole command).
"""

import contextlib
import random

_default = random.SystemRandom()


def get_rng():
    """The current default source of randomness."""
    return _default


def roll_faces(count, rng=None, sides=10):
    """`count` faces from 1 to `sides`, as a tuple."""
    rng = rng or _default
    return tuple(rng.randint(1, sides) for _ in range(count))


@contextlib.contextmanager
def seeded(seed_or_rng):
    """Use a seeded source (or a given one) as the default inside the block."""
    global _default
    previous = _default
    _default = seed_or_rng if isinstance(seed_or_rng, random.Random) else random.Random(seed_or_rng)
    try:
        yield _default
    finally:
        _default = previous


class FixedFaces(random.Random):
    """
    A source that returns given faces in order: for tests that need exact dice from a command.

    Faces beyond the list raise, so a test notices when more dice are rolled than it expected.
    """

    def __init__(self, faces):
        super().__init__(0)
        self._faces = list(faces)

    def randint(self, a, b):
        if not self._faces:
            raise AssertionError("FixedFaces ran out of faces")
        face = self._faces.pop(0)
        if not a <= face <= b:
            raise AssertionError(f"face {face} outside {a}..{b}")
        return face

    @property
    def remaining(self):
        return list(self._faces)
