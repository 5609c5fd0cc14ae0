"""
Pure dice rules for Storyteller-style d10 systems.

Standard library only: nothing here imports Evennia or Django, so every rule can be tested
with explicit faces and reused outside the game. One module per system (`v5`, ...), plus the
shared pieces: `errors`, `randomness`, `pools` (pool expressions) and `systems` (the registry
of game systems chosen by the `DICE_SYSTEM` setting).
"""

