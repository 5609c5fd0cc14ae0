"""
The Seyruun wing: what Seyruun adds to the shared commands, found by
`commands.dice_base.dice_wing` when `DICE_SYSTEM = "seyruun"`.

- +roll/+check: `/willpower` (the switch or the ending) is refused before rolling when no
  Willpower is left and spent (`SeyruunSheet.pay`) once the roll is stored; every roll is kept
  for a Willpower reroll; `+roll/reroll` (ask the Storyteller for a Willpower reroll) is the
  wing's. Extended rolls (`/extended`, `/status`, `/stop`) are the shared `commands.extended`
  with Seyruun's rules (`rules.seyruun.SeyruunExtended`); the wing pays their /willpower.
- +odds/contest: the exact chances of a contested roll (`commands.seyruun.contest_odds`).
- its own commands (`SeyruunCmdSet`): +contest, +resist, +teamwork, and staff's +reroll
  (`+reroll/approve <name>` grants a requested reroll, `/deny` refuses it).

**Rulings**:
- Extended: `+roll/extended <pool> vs <target total>` starts (and makes the first roll);
  `+roll/extended` rolls the same pool again, read from the sheet as it is now (wound and all;
  `/willpower` may be added to any roll). Each roll is judged on its own at Simple (1 success)
  for its outcome; its successes add to the total (`rules.seyruun.SeyruunExtended`: a botch
  adds nothing and is counted). The target total is 1 to 100. A complete extended roll stays shown
  by /status until a new one starts; /stop drops it. Started /private, all its rolls are private.
- Reroll: only the caller's own last +roll or +check (not an extended, contest, team or
  resisted roll), once, when it failed (or botched); asking needs 1 Willpower left but spends
  nothing; one request at a time, and a new roll withdraws it (the request is for the roll the
  player chose to stand on; once they roll again, that roll is no longer the one in play). The
  withdrawal is said, right after the new roll, to the player and to the staff who were told of
  the request or are in the room, so nobody waits on, or grants, a request that is gone. Staff grant with
  `+reroll/approve <name>` (the shared `+approve` is the sheet's approval, so the staff side
  has its own command); only then is the Willpower spent and every die rerolled
  (`rules.seyruun.reroll`), shown to the roll's audience (a public roll: the roller's room; a
  private one: the same names, and staff there) and recorded with the original roll as parent.
"""

from .cmdset import SeyruunCmdSet
from ..dice_base import Wing
from .help import GUIDE, TOPICS
from .contest_odds import contest_odds_command
from .common import LAST_ROLL, REROLL_REQUEST, can_pay, clear_state, load_state, pay, save_state
from .reroll import pending_lines as reroll_lines, request_reroll, tell_withdrawn
from .teamwork import RULES as TEAMWORK

WING_SWITCHES = ("reroll",)


class SeyruunWing(Wing):
    guide, help_topics = GUIDE, TOPICS  # what `help dice` and the help index show (help.py)
    switches = WING_SWITCHES
    teamwork = TEAMWORK
    odds_switches = ("contest",)
    contest_odds = staticmethod(contest_odds_command)
    odds_help = """\
  +odds/contest <your pool> vs <their pool>[=<character>]
  +odds/contest <your pool> vs <character>
                a contested roll's exact chances, as +contest rolls it:
                who wins (more successes), the tie and who takes it
                (the defender, unless your base Attribute is higher),
                each side's botch. A character's sheet: staff, or your
                own characters."""
    roll_help = """\
Extended rolls (Seyruun):
  +roll/extended <pool> vs <target total> [# <comment>]
  +roll/extended      roll your extended roll again
  +roll/status   or   +roll/stop
Each roll's successes add up toward the target total (a botch adds
nothing). The extended roll is kept on your character, over a restart.

A failed roll can be rerolled with Willpower if staff approve it:
+roll/reroll asks for your last roll, +reroll/approve <name> grants it
(nothing is spent before); a new roll withdraws the request (all told).

Other Seyruun rolls: +contest, +resist, +teamwork (see their help)."""

    def __init__(self, key="seyruun"):
        super().__init__(key)

    cmdset = SeyruunCmdSet

    def handle_roll(self, cmd):
        switches = set(cmd.switches)
        if "reroll" in switches:
            request_reroll(cmd)
            return True
        return False

    def before_roll(self, cmd, request, roller):
        can_pay(roller, cmd.system.costs(request))

    def rolled(self, cmd, request, result, record, receivers):
        caller = cmd.caller
        pay(caller, cmd.system.costs(request))
        entry = getattr(receivers, "entry", None)
        remember_roll(caller, result, code=entry.code if entry is not None else None,
                      private=cmd.private, shared=cmd.shared, comment=record.get("comment", ""))

    def extended_rolled(self, cmd, request, result, record, receivers):
        """An extended roll's step pays what it spends (/willpower); it is no roll to reroll."""
        pay(cmd.caller, cmd.system.costs(request))

    def pending_lines(self, character):
        return reroll_lines(character)


def remember_roll(character, result, code, private=False, shared=(), comment=""):
    """Keep the caller's last roll for a Willpower reroll (a new roll withdraws a request, saying so)."""
    withdrawn = load_state(character, REROLL_REQUEST)
    clear_state(character, REROLL_REQUEST)
    save_state(character, LAST_ROLL, {
        "roll": result, "code": code, "private": bool(private), "shared": list(shared), "comment": comment,
    })
    if withdrawn:
        tell_withdrawn(character, withdrawn)


WING = SeyruunWing("seyruun")
