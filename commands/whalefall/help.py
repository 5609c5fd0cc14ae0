"""
What Whalefall players read in the help: the guide of `help dice` (above the commands the
shared help lists), declared by the Whalefall wing (`commands.whalefall.wing`). No `|` but
colour codes.
"""

GUIDE = """
Rolling here (Whalefall): your skill's d10s against a target number.

|wPool|n: your level in the skill (|w+roll athletics vs (5,2)|n), or a
  number of dice (|w+check 4 vs (5,2)|n).
|wTarget number|n (face,count): at least <count> dice showing <face> or
  more succeed. A condition or perk may change the die: d8, d12.
|wPartial|n: a failed check where a die met the face is flagged partial;
  the GM rules it a partial success or a partial failure.
"""

TOPICS = []
