"""
+roll and +check, the same in every dice system: the configured system (`dice_system()`)
parses the roll in its own syntax, rolls it and says how it looks (`RollView`); `rules.display`
draws it at each receiver's width; the roll log stores it (see `commands.dice_base.announce`).

Extended rolls (`/extended`, `/status`, `/stop`) are `commands.extended`, for every system whose
`System.extended` holds its rules. What else a system adds (V5's `/willpower` ending, V20's
`/multi`) comes from its wing (`commands.dice_base.Wing`), so a new system needs no edit here.
"""

from storyteller_dice.rules import display  # display.format_roll read when drawing: tests count the draws
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from .dice_base import system_and_wing, DiceCommand, announce, dice_system, dice_wing, split_comment
from .extended import extended_roll
from .rolllog import verify_roll
from .wing_features import RollKeeper, RollPreparer
# The pieces every roll command shares, named here too (the wings import them from here).
from .roll_parts import (EXTENDED_SWITCHES, MAX_SHARED, named_audience, private_to, roll_record,  # noqa: F401
                         roll_summary, split_shared)

SHARED_SWITCHES = ("private", "verify")

class CmdRoll(DiceCommand):
    """
    Roll a dice pool in this game's dice system.

    Usage:
      +roll <pool> [vs <target>] [# <comment>]
      +roll/private <pool> [vs <target>][=<name>, ...] [# <comment>]
      +roll/verify <code>

    Switches:
      private - shown only to you, those named after = (here and
                connected, at most 10) and staff in the room
      verify  - show the stored roll with that verification code

    Examples:
      +roll/verify ABCD2345   (this game's own examples are below)

    See also: help rolling in detail, help verifying rolls, help +rolls.
    """

    key = "+roll"
    aliases = ["roll"]
    locks = "cmd:all()"
    switch_options = SHARED_SWITCHES
    usage = "+roll <pool> [vs <target>] [# <comment>]"
    verb = "rolls"
    numbers_only = False

    # ------------------------------------------------------------ the system's part

    def system_parts(self):
        return system_and_wing()

    def parse(self):
        system, wing = self.system_parts()
        if system is not None:
            extended = EXTENDED_SWITCHES if system.extended is not None else ()
            extra = tuple(system.roll_switches) + extended + tuple(wing.switches)
            self.switch_options = tuple(dict.fromkeys(SHARED_SWITCHES + extra))
            self.usage = system.check_usage if self.numbers_only else system.roll_usage
        super().parse()

    def get_help(self, caller, cmdset):
        # `help +roll` asks a command object that never parsed: the usage comes from the system.
        text = super().get_help(caller, cmdset)
        system, wing = self.system_parts()
        if system is None:
            return text
        usage = system.check_usage if self.numbers_only else system.roll_usage
        parts = [help_in_this_game(text, system, usage, wing.roll_help)]
        # The system's rules of a roll are a help entry of their own (game/world/help_entries.py),
        # so that this page fits one screen under every system.
        if system.help:
            parts.append(f"How rolls work here: help {system.key}.")
        return "\n\n".join(parts)

    # ------------------------------------------------------------ rolling

    def run(self):
        caller = self.caller
        if "verify" in self.switches:
            verify_roll(caller, self.args)
            return
        if not hasattr(caller, "roller"):
            raise DiceError("Only characters with a sheet can roll.")
        self.system = system = dice_system()
        wing = dice_wing(system)
        if system.extended is not None and set(EXTENDED_SWITCHES) & set(self.switches):
            extended_roll(self, wing)
            return
        if wing.handle_roll(self):
            return
        self.private = private = "private" in self.switches
        args, names = split_shared(self.args)
        self.shared = named_audience(caller, names, private, self.key)
        text, comment = split_comment(args)
        request, roller = self.request(wing, text)
        rng = get_rng()
        first = system.roll(request, roller, rng=rng)
        result, initial, extra = wing.after_roll(self, request, first, rng)
        self.show(wing, request, first, result, initial, extra, comment)

    def request(self, wing, text):
        """The parsed request (as the wing prepares it, checked before rolling) and the roller."""
        system = self.system
        roller = self.caller.roller()
        switches = frozenset(opt for opt in self.switches if opt in system.roll_switches)
        if isinstance(wing, RollPreparer):
            text, roller = wing.prepare_roll(self, text, roller)
        request = system.parse(text, switches, roller=roller, numbers_only=self.numbers_only)
        request = wing.prepare_request(self, request, roller)
        wing.before_roll(self, request, roller)
        return request, roller

    def show(self, wing, request, first, result, initial, extra, comment):
        """Store the roll (with the wing's state) and send it to its audience."""
        caller, system = self.caller, self.system
        shown = system.view(first, request)
        view = system.view(result, request) if result is not first else shown
        shown_to = private_to(caller, self.private, self.shared)
        name, verb = caller.key, self.verb

        def render(width):
            lines = [display.format_roll(shown, name, verb=verb, comment=comment, private_to=shown_to, width=width)]
            lines.extend(extra(width))
            return "\n".join(lines)

        record = self.record(request, result, initial, view, comment)

        def keep(receivers):  # the wing's state kept with the roll, in the roll's own commit
            wing.keep(self, request, result, record, receivers)

        receivers = announce(caller, render, private=self.private, shared_with=self.shared, record=record,
                             keep=keep if isinstance(wing, RollKeeper) else None)
        wing.rolled(self, request, result, record, receivers)

    def record(self, request, result, initial, view, comment):
        record = roll_record(self, self.key.lstrip("+"), request, result, view, comment)
        if initial is not None:
            record["initial"] = self.system.view(initial, request)
        return record


def help_in_this_game(text, system, usage, more=""):
    """A shared command's help, then its syntax in this game's system and the wing's own help."""
    parts = [text.rstrip(), f"In this game ({system.title}):\n  {usage}"]
    if more:
        parts.append(more.rstrip())
    return "\n\n".join(parts)


class CmdCheck(CmdRoll):
    """
    Roll a number of dice (a quick roll, without traits).

    Usage:
      +check <number> [vs <target>] [# <comment>]
      +check/private <number> [vs <target>][=<name>, ...]

    Switches:
      private - as +roll/private
      verify  - show the stored roll with that verification code

    Examples:
      +check 5+2   (like +roll, with a number of dice instead of traits)

    See also: help +roll, help rolling in detail.
    """

    key = "+check"
    aliases = ["check"]
    usage = "+check <number> [vs <target>] [# <comment>]"
    verb = "checks"
    numbers_only = True
