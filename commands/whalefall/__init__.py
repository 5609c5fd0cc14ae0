"""The Whalefall wing (`DICE_SYSTEM = "whalefall"`): see `wing.py`."""
