"""
V5's rules for the shared extended rolls (`rules.extended`, docs/v5.md 'Extended rolls'):
repeated rolls of one pool accumulate successes toward a target total.

- Each roll is an ordinary V5 roll at difficulty 1 (the target is the total's): a roll with no
  success makes no progress and, with a Hunger 1 showing, is a bestial failure. **Ruling**: a
  bestial failure is reported on the roll that made it and the accumulated total is kept; what
  else it costs is the Storyteller's call. A messy critical is shown on its roll as on any.
- `/willpower` goes with it: the failures are rerolled even when the roll already succeeds
  (`extended` in the request tells the wing: every success adds to the total).
- A Willpower reroll of the latest roll replaces that roll's successes in the total
  (`rules.extended.correct_last`).
"""

import dataclasses

from .. import v5
from ..extended import ExtendedRules, Step

ROLL_DIFFICULTY = 1
BESTIAL_NOTE = "bestial failure on this roll: the total is kept"


class V5Extended(ExtendedRules):
    target_word = "vs"
    syntax = "<pool> vs <target total>"
    switches = ("willpower",)

    def request(self, request):
        return dataclasses.replace(request, target=ROLL_DIFFICULTY, target_given=False,
                                   extra=request.extra + (("extended", True),))

    def step(self, result):
        return Step(added=result.successes, note=BESTIAL_NOTE if result.bestial_failure else "")


RULES = V5Extended()


def evaluate(regular, hunger, bestial_rule="official"):
    """One extended roll's faces, evaluated as an extended roll evaluates them."""
    return v5.evaluate(regular, hunger, ROLL_DIFFICULTY, bestial_rule)
