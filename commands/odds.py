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
from .wing_features import OddsChecker, OddsPreparer


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
        """The `OddsView` of the pool in `self.args` for the caller (DiceError when refused)."""
        self.system = dice_system()
        return odds_of(self.caller, self.args, self.switches, asked=self)


class OddsAsked:
    """
    What the wing's odds hooks (`Wing.prepare_request`; `prepare_odds`, `before_odds` where it
    offers them: `commands.wing_features`) are
    handed as `cmd` when the odds are asked outside `+odds` (the web client's dice panel): the
    same names a bare `+odds <text>` has, and room for what a hook keeps on it.
    """

    key = "+odds"

    def __init__(self, caller, text, switches=(), session=None):
        self.caller, self.session = caller, session
        self.account = getattr(session, "account", None)
        self.cmdstring, self.args, self.switches = "+odds", text, list(switches)
        self.raw_string = f"+odds {text}"
        self.system = dice_system()


def odds_of(character, text, switches=(), session=None, asked=None):
    """
    The `OddsView` of the pool `text` for `character` (DiceError when refused), exactly as
    `+odds <text>` answers it: what `+odds` shows and what the web client's dice panel shows
    (`commands.panel`). `switches` are +odds' own (the system's roll switches among them count);
    `asked` is the command the wing's hooks see (`+odds` itself, or an `OddsAsked`).
    """
    asked = asked if asked is not None else OddsAsked(character, text, switches, session)
    system = dice_system()
    wing = dice_wing(system)
    text, _ = split_comment(text)
    roller = character.roller() if hasattr(character, "roller") else system.roller(character.key, {}, {})
    if isinstance(wing, OddsPreparer):
        text, roller = wing.prepare_odds(asked, text, roller)
    options = frozenset(name for name in switches if name in system.roll_switches)
    request = system.parse(text, options, roller=roller)
    request = wing.prepare_request(asked, request, roller)
    if isinstance(wing, OddsChecker):
        wing.before_odds(asked, request, roller)
    return system.odds(request, roller)
