"""
What Seyruun players read in the help: the guide of `help dice` (above the commands the shared
help lists), declared by the Seyruun wing (`commands.seyruun.wing`). No `|` but colour codes.
"""

GUIDE = """
Rolling here (Seyruun): a pool of d10s against the successes needed.

|wPool|n: an Attribute plus a Skill, or a Discipline, Path or Racial Power
  Tree in its place (|w+roll dex+stealth vs 2|n); at most 10 dice roll.
|wSuccesses needed|n: 1-20, or simple (1), moderate (2), complex (3),
  epic (4), legendary (5). Each 6-9 is a success, each 10 two.
|wOutcome|n: 1s and no successes are a botch; a win by 2+ is solid, 4+
  heroic, 6+ supernatural brilliance. With no dice left you roll one
  chance die: a 10 succeeds, a 1 is a dramatic botch.
|wWillpower|n: +roll/willpower spends 1 Willpower for +3 dice.
"""

TOPICS = []
