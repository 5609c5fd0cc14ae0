"""
Errors raised by the rules for bad input.

Every message is written for the player: commands show it as it is, with the usage line.
"""


class DiceError(ValueError):
    """Input the rules refuse; the message says what was wrong."""


class PoolError(DiceError):
    """A pool expression that cannot be parsed or resolved against a sheet."""


class PoolTooLarge(PoolError):
    """A pool above the hard bound (docs/contract.md)."""
