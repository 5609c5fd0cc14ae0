"""
A toy sixth dice system, "Coin", that lives here alone: the proof that a system plugs in with
no edit of a shared file (tests/test_sixth_system.py plays all of it; tests/test_toy_system.py
its rolls). Each part is the shape a real system gives it:

- `system.py`: the rules, a `rules.engine.System` (what it declares: its sheet with its
  Willpower, its words, its example roll, its tag, its die mark and that mark's looks, its
  extended-roll rules);
- `extended.py`: those extended-roll rules (`rules.extended.ExtendedRules`);
- `contest.py`: its `+contest` on the shared challenge flow (`commands.contest.ContestCommand`);
- `teamwork.py`: its teamwork rules for the shared `+teamwork` (`commands.teamwork.TeamworkRules`);
- `wing.py`: its wing (`commands.dice_base.Wing`, named by the system's `wing`): its commands
  (`+flip`, `+contest`, `+teamwork`), `+odds/contest`, what `/lucky` spends, its help;
- `help.py`: what its players read in the help (the guide of `help dice`, a topic of its own).

What a host does to run it is `install()`: register the system (its wing comes with it), then
set `DICE_SYSTEM = "coin"`; or list it in `DICE_EXTRA_SYSTEMS` ("tests.toy_system.system.SYSTEM").
"""

KEY = "coin"


def install():
    """Register the toy's system; return a function that removes it again."""
    from storyteller_dice.rules import systems

    from .system import SYSTEM

    systems.register(SYSTEM)

    def uninstall():
        systems.unregister(KEY)

    return uninstall
