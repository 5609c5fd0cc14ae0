"""
The toy's wing: its own commands (`+flip`, whose lines start with its own tag; `+contest`,
`+teamwork`), its extras to the shared commands (`+odds/contest`; `/lucky` paid in Nerve on
`+roll`, `+check` and every toss of an extended roll) and its help.
"""

from evennia import CmdSet

from storyteller_dice.commands.contest_odds import distribution_odds
from storyteller_dice.commands.dice_base import DiceCommand, Wing, tell_room
from storyteller_dice.commands import teamwork
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import roll_faces

from . import KEY
from .contest import TIE_WINNER, CmdContest
from .help import GUIDE, ODDS_HELP, ROLL_HELP, TOPICS
from .system import LUCKY
from .teamwork import RULES as TEAMWORK
from .teamwork import CmdTeamwork

TAG = "|w[Flip]|n"


class CmdFlip(DiceCommand):
    """
    Toss one coin for the room to see (nothing stored).

    Usage:
      +flip
    """

    key = "+flip"
    usage = "+flip"

    def run(self):
        face = roll_faces(1, None, sides=2)[0]
        tell_room(self.caller, f"{TAG} {escape(self.caller.key)} flips a coin: {'heads' if face == 2 else 'tails'}.")


class CoinCmdSet(CmdSet):
    key = "CoinCmdSet"

    def at_cmdset_creation(self):
        for command in (CmdFlip, CmdContest, CmdTeamwork):
            self.add(command())


def nerve_needed(request):
    return 1 if request.option(LUCKY) else 0


class CoinWing(Wing):
    cmdset = CoinCmdSet
    guide, help_topics = GUIDE, TOPICS
    roll_help, odds_help = ROLL_HELP, ODDS_HELP
    odds_switches = ("contest",)
    teamwork = TEAMWORK

    def handle_odds(self, cmd):
        if "contest" not in cmd.switches:
            return False
        distribution_odds(cmd, tie_winner=TIE_WINNER)
        return True

    def before_roll(self, cmd, request, roller):
        need, left = nerve_needed(request), roller.get("willpower_left", 0)
        if need > left:
            raise DiceError(cmd.caller.sheet.no_willpower.format(left=left, need=need))

    def rolled(self, cmd, request, result, record, receivers):
        if nerve_needed(request):
            cmd.caller.spend_willpower(nerve_needed(request))

    extended_rolled = rolled  # every toss of an extended roll pays its own /lucky

    def pending_lines(self, character):
        return teamwork.pending_lines(character, TEAMWORK)


WING = CoinWing(KEY)
