"""
What Dice Check players read in the help: the guide of `help dice` (above the commands the
shared help lists), declared by the Dice Check's wing (`commands.dicecheck.wing`). No `|` but
colour codes.
"""

GUIDE = """
Rolling here (The Dice Check): Attribute dice against a TN of Hits.

|wPool|n: Attribute dice + Skill training + Focus (|w+roll STR:3|n, or
  |w+roll Swords (Cut):EVA <target>|n against a target's Evasion).
|wHits|n: each die at the threshold your Attribute gives (1: 10+, 2: 9+,
  3-4: 7+, 5-7: 6+, 8-11: 5+) is a Hit.
|wOutcome|n: Hits >= TN succeed, and the Effect is Hits - TN; fewer
  fail, and a botch margin (TN - Hits) of 3 or more is a big botch.
|wAgainst someone|n here, their sheet gives the TN; another player's
  character answers with +roll/answer <name> (or +roll/decline <name>).
"""

TOPICS = []
