"""
+odds: exact chances before you roll, in every dice system: the configured system parses the
pool as +roll would and answers with an `OddsView` (fractions, by counting); `rules.display`
draws it at the caller's width.

Every system's odds are fast enough for the game's single reactor thread at the largest pool
(see the bench/ scripts). What a system adds (V5's `/reroll`, `hunger <n>`) comes from its
wing (`commands.dice_base.Wing`).
"""

from storyteller_dice.rules.display import format_odds

from .dice_base import system_and_wing, DiceCommand, dice_system, dice_wing, split_comment, width_of
from .rolls import help_in_this_game


def odds_usage(system):
    """The system's +roll syntax as +odds takes it (nothing is rolled: no comment)."""
    return system.roll_usage.replace("+roll", "+odds", 1).replace(" [# <comment>]", "")


def percent(probability):
    """One decimal; never rounds a possible outcome to 0% or an uncertain one to 100%."""
    value = float(probability) * 100
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 <= value < 100 and probability != 1:
        return ">99.9%"
    return f"{value:.1f}%"


class CmdOdds(DiceCommand):
    """
    Show the exact chances of a roll before you make it.

    Usage:
      +odds <pool> [vs <target>]

    The exact chance (by counting, not simulation) of each outcome of the
    roll, each once, adding up to 100%. Traits come from your sheet, as
    for +roll. Nothing is rolled.

    See also: help +roll.
    """

    key = "+odds"
    aliases = ["odds"]
    locks = "cmd:all()"
    usage = "+odds <pool> [vs <target>]"
    switch_options = ()

    def system_parts(self):
        return system_and_wing()

    def parse(self):
        system, wing = self.system_parts()
        if system is not None:
            # The system's own roll switches change the odds too (V20 /spec and /willpower);
            # the wing's are its own +odds extras (V5 /reroll, /contest).
            self.switch_options = tuple(wing.odds_switches) + tuple(
                name for name in system.roll_switches if name not in wing.odds_switches)
            self.usage = odds_usage(system)
        super().parse()

    def get_help(self, caller, cmdset):
        text = super().get_help(caller, cmdset)
        system, wing = self.system_parts()
        if system is None:
            return text
        # `help +odds` asks a command object that never parsed: the usage comes from the system.
        return help_in_this_game(text, system, odds_usage(system), wing.odds_help)

    def run(self):
        self.system = dice_system()
        if dice_wing(self.system).handle_odds(self):
            return
        self.msg(format_odds(self.odds_view(), width=width_of(self.caller)))

    def odds_view(self):
        """The `OddsView` of the pool in `self.args` for the caller (DiceError when refused);
        also what the web client's dice panel shows (`commands.panel`)."""
        caller = self.caller
        system = self.system = dice_system()
        wing = dice_wing(system)
        text, _ = split_comment(self.args)
        roller = caller.roller() if hasattr(caller, "roller") else system.roller(caller.key, {}, {})
        text, roller = wing.prepare_odds(self, text, roller)
        options = frozenset(name for name in self.switches if name in system.roll_switches)
        request = system.parse(text, options, roller=roller)
        request = wing.prepare_request(self, request, roller)
        wing.before_odds(self, request, roller)
        return system.odds(request, roller)
