"""The Seyruun wing (`DICE_SYSTEM = "seyruun"`): see `commands.seyruun.wing`."""
