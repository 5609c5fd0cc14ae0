"""
The Whalefall wing: what Whalefall adds to the shared commands, found by
`commands.dice_base.dice_wing`.

- +roll/+check/+odds need nothing of their own (`rules.whalefall.system` reads
  `athletics vs (5,2)`, `4d8 vs (5,2)`); the wing adds their help.
- A failed check where a die met the face is flagged partial. **Ruling**: the flag is shown to
  everyone the roll is shown to (for a public roll, the room), as the outcome
  "failure (partial)" with a note: it is a fact about the dice anyone can read from them, and
  it decides nothing. What decides is the GM's ruling, which only staff make (`+partial`).
  Staff who saw the roll also get a line of their own telling them how to rule on it.
- +odds/contest: refused with a clear message; Whalefall has no contests (docs/whalefall.md: every
  check is against a target number).
- its own command (`WhalefallCmdSet`): +partial, the GM's ruling on a partial check.
"""

from storyteller_dice.rules.display import wrap
from storyteller_dice.rules.errors import DiceError

from ..dice_base import Wing, is_staff, send
from .cmdset import WhalefallCmdSet
from .help import GUIDE, TOPICS


class WhalefallWing(Wing):
    guide, help_topics = GUIDE, TOPICS  # what `help dice` and the help index show (help.py)
    odds_switches = ("contest",)  # only to say that there is none
    roll_help = """\
Examples:
  +roll athletics vs (5,2)      2 dice at 5+ needed from your Athletics dice
  +roll athletics+1 vs (6,3)    a die more for a perk (-1: a die fewer)
  +roll athletics d8 vs (5,2)   the same pool in d8s (a condition or perk)
  +check 4 vs (5,2)             4d10, no sheet
  +check 4d8 vs (5,2)           4d8
  +check 1 vs (5,2)             fails at once: 1 die cannot make 2

Partial: a failed check where a die met the face reads
"failure (partial)". The GM may rule it a partial success or a partial
failure with +partial <code>=success|failure (see +help +partial)."""
    odds_help = """\
  +odds athletics vs (5,2)      your Athletics dice
  +odds 4d8 vs (5,2)            any pool and die size
The chances of success, of a partial failure (a die met the face) and
of a failure with no die at the face, and how many dice meet it."""

    def __init__(self):
        super().__init__("whalefall")

    cmdset = WhalefallCmdSet

    def handle_odds(self, cmd):
        if "contest" in cmd.switches:
            raise DiceError("Whalefall has no contests: every check is against a target number, like "
                            "+odds athletics vs (5,2).")
        return False

    def rolled(self, cmd, request, result, record, receivers):
        code = getattr(receivers, "code", None)
        if code is None or not (record.get("data") or {}).get("partial"):
            return
        staff = [obj for obj in receivers if is_staff(obj)]
        hint = f"  |wGM|n: rule on it with |w+partial {code}=success|n or |w+partial {code}=failure|n."
        send(staff, lambda width: "\n".join(wrap(hint, width)))  # each staff member's width


WING = WhalefallWing()
