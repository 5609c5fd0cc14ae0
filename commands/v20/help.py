"""
What V20 players read in the help: the guide of `help dice` (above the commands the shared
help lists), declared by the V20 wing (`commands.v20.wing`). No `|` but colour codes.
"""

GUIDE = """
Rolling here (V20): a pool of d10s, each die against a difficulty.

|wPool|n: Attribute + Ability (|w+roll dex+brawl vs 6|n), plus or minus
  dice; your wound penalty comes off every pool.
|wDifficulty|n: the face each die needs, 2 to 10 (6 when none is given).
  Each die at or over it is a success; each 1 cancels one success.
|wOutcome|n: net successes 1 marginal, 2 moderate, 3 complete, 4
  exceptional, 5+ phenomenal. None left is a failure; none left and a 1
  left over is a |wbotch|n.
|wWillpower|n: +roll/willpower spends 1 Willpower for 1 success that no
  1 can cancel.
"""

TOPICS = []
