"""
The toy's extended-roll rules for the shared `+roll/extended` (`commands.extended`): the target
comes after `to` (`+roll/extended luck to 4`); the heads of each toss add up, but a toss with
no head is a slip, which takes 1 off the total (never below 0). `/lucky` goes with an extended
roll and is kept for every toss of it (each toss spends its point of Nerve).
"""

from storyteller_dice.rules import extended

SLIP = "slip"


class CoinExtended(extended.ExtendedRules):
    target_word = "to"
    syntax = "<pool> to <total>"
    switches = ("lucky",)
    lasting = ("lucky",)
    mark_nouns = {SLIP: ("slip", "slips")}

    def step(self, result):
        if not result.heads:
            return extended.Step(added=-1, marks=(SLIP,), note="a slip takes 1 off")
        return extended.Step(added=result.heads)


EXTENDED = CoinExtended()
