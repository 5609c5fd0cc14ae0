"""The toy's wing: its own command (`+flip`, whose lines start with its own tag) and its help."""

from evennia import CmdSet

from storyteller_dice.commands.dice_base import DiceCommand, Wing, tell_room
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.randomness import roll_faces

from . import KEY
from .help import GUIDE, TOPICS

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
        self.add(CmdFlip())


class CoinWing(Wing):
    cmdset = CoinCmdSet
    guide, help_topics = GUIDE, TOPICS


WING = CoinWing(KEY)
