"""The Dice Check wing (`DICE_SYSTEM = "dicecheck"`): see `wing.py`."""
