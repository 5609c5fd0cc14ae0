"""
The toy's contest on the shared challenge flow (`commands.contest`): it supplies only its rules,
how a side is read and rolled and who wins. Each side tosses its own pool; more heads wins and
a tie goes to the defender (the one challenged). Its odds are the shared
`commands.contest_odds.distribution_odds`, with the same tie rule.
"""

from storyteller_dice.commands.contest import ContestCommand, challenger_side, rolled_side
from storyteller_dice.commands.dice_base import dice_system
from storyteller_dice.rules.contest import Outcome
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.randomness import get_rng

TIE_WINNER = "defender"


def parse_side(text, character):
    """A side's request: `text` read from `character`'s sheet as it is now (a side takes no switch)."""
    return dice_system().parse(text, frozenset(), roller=character.roller())


def verdict(labels, scores):
    """More heads wins; a tie goes to the defender (the second side)."""
    (challenger, defender), (a, d) = labels, scores
    winner = challenger if a > d else defender
    said = f"{escape(winner)} wins, {a} to {d}" + (" (a tie: the defender's)." if a == d else ".")
    return said, {"winner": "challenger" if a > d else "defender", "heads": [a, d]}


def outcome(sides):
    """Both (label, request) sides tossed with one source of randomness: the shared flow's Outcome."""
    system, rng = dice_system(), get_rng()
    rolled = tuple(rolled_side(label, system.roll(request, rng=rng), request) for label, request in sides)
    said, data = verdict([side.label for side in rolled], [side.view.score for side in rolled])
    return Outcome(rolled, said, said, data)


class CmdContest(ContestCommand):
    """
    Toss against another character: more heads wins, a tie goes to the one challenged.

    Usage:
      +contest <pool> vs <character> [# <comment>]
      +contest/answer <pool>
      +contest/decline
      +contest/cancel

    Switches:
      private - shown only to the two of you and staff here
      answer  - answer the challenge made to you, with your pool
      decline - refuse the challenge made to you
      cancel  - withdraw the challenge you made

    The challenge waits 5 minutes for its answer. +odds/contest <pool> vs <pool>
    gives the chances.
    """

    key = "+contest"
    usage = "+contest <pool> vs <character>, +contest/answer <pool>"
    other = "a character here"
    other_example = "a character here to challenge"

    def read_side(self, text):
        request = parse_side(text, self.caller)
        return text, escape(request.pool.describe())

    def read_answer(self, challenge, text):
        return parse_side(super().read_answer(challenge, text), self.caller)

    def roll_contest(self, challenge, answer):
        mine = challenger_side(challenge, parse_side)
        return outcome([(challenge.challenger.key, mine), (self.caller.key, answer)])
