"""What the toy's players read in the help: the guide of `help dice` and a topic of its own."""

GUIDE = """
Rolling here (Coin): toss coins and count the heads.

|wPool|n: your Luck (|w+roll luck vs 2|n) or a number of coins (|w+check 3|n).
|wHeads needed|n: the number after vs (1 when none is given). Each 2 is
  a head, shown as a crowned head.
"""

TOPICS = [
    {
        "key": "coins",
        "aliases": ["heads", "tails"],
        "text": """
            A coin has two faces: 1 is tails, 2 is heads. Heads count; tails do
            not. +flip tosses one coin with no pool and no record.
        """,
    },
]
