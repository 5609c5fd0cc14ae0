"""What the toy's players read in the help: the guide of `help dice`, a topic of its own, and
its parts of `help +roll` and `help +odds`."""

GUIDE = """
Rolling here (Coin): toss coins and count the heads.

|wPool|n: your Luck (|w+roll luck vs 2|n) or a number of coins (|w+check 3|n).
|wHeads needed|n: the number after vs (1 when none is given). Each 2 is
  a head, shown as a crowned head. |w/lucky|n: one coin more, for 1 Nerve.
|wTogether|n: +contest (more heads wins; a tie is the defender's),
  +roll/extended <pool> to <total>, +teamwork (every member's heads add up).
"""

TOPICS = [
    {
        "key": "coins",
        "aliases": ["heads", "tails"],
        "text": """
            A coin has two faces: 1 is tails, 2 is heads. Heads count; tails do
            not. +flip tosses one coin with no pool and no record.

            Nerve (0-3) is what you spend: 1 for /lucky, and the leader's 1 for
            each team toss. With none left the toss is refused.
        """,
    },
]

ROLL_HELP = """\
Extended rolls (Coin):
  +roll/extended <pool> to <total> [# <comment>]
  +roll/extended      toss your extended roll again
  +roll/status   or   +roll/stop
The heads add up toward the total; a toss with no head is a slip and
takes 1 off. /lucky, given when it starts, goes with every toss."""

ODDS_HELP = """\
  +odds/contest <your pool> vs <their pool>
                a contest's exact chances: more heads wins, a tie
                goes to the defender."""
