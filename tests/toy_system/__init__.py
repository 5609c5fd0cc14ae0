"""
A toy sixth dice system, "Coin", that lives here alone: the proof that a system plugs in with
no edit of a shared file (tests/test_sixth_system.py; tests/test_toy_system.py plays its rolls).

- `system.py`: the rules, a `rules.engine.System` (what it declares: its sheet, its words, its
  example roll, its tag, its die mark and that mark's looks);
- `wing.py`: its wing (`commands.dice_base.Wing`): a command of its own, `+flip`, and its help;
- `help.py`: what its players read in the help (the guide of `help dice`, a topic of its own).

What a host does to run it is `install()`: register the system and its wing, then set
`DICE_SYSTEM = "coin"`. A further feature of the toy (a contest, an extended roll, teamwork) is
a new file here, declared by the system or the wing.
"""

KEY = "coin"


def install():
    """Register the toy's system and wing; return a function that removes them again."""
    from storyteller_dice.commands import dice_base
    from storyteller_dice.rules import systems

    from .system import SYSTEM
    from .wing import WING

    systems.register(SYSTEM)
    dice_base.register_wing(WING)

    def uninstall():
        dice_base.unregister_wing(KEY)
        systems.unregister(KEY)

    return uninstall
