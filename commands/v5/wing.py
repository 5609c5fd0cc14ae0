"""
The V5 wing: what V5 adds to the shared commands, found by `commands.dice_base.dice_wing`.

- +roll/+check: the `/willpower` ending's at-once reroll (refused before rolling when
  Willpower is exhausted; only when the roll did not win: `rules.v5.willpower_ending`),
  Blood Surge (`/surge`: a Rouse check first, no Blood Potency reroll, then +dice by Blood
  Potency; refused at Hunger 5), extended rolls (`/extended`, `/status`, `/stop`), and every
  roll remembered for a later +willpower.
- +odds/reroll: the chances after each Willpower choice for the last roll.
- its own commands (`V5CmdSet`): +rouse, +hunger, +willpower, +contest, +teamwork, +remorse,
  +frenzy; their pending state (challenges, teamwork, the +willpower window).

Besides the shared `Wing`'s hooks it offers hooks no other system needs, which the shared
commands call only on a wing that has them (`commands.wing_features`): `prepare_odds` and
`before_odds` (+odds), `keep` and `extended_keep` (the +willpower window), `sheet_flags`
(frenzy), `panel_actions` and `panel_tools` (the web client's dice panel).
"""

import dataclasses

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import humanity as v5_humanity
from storyteller_dice.rules.v5 import rouse as v5_rouse
from storyteller_dice.rules.display import format_pool, format_reroll
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from . import willpower
from .. import teamwork as shared_teamwork
from ..dice_base import Wing
from ..last_roll import LastRoll, remember_extended, remember_roll
from .help import GUIDE, TOPICS
from .character import in_frenzy
from .cmdset import V5CmdSet
from .contest_odds import contest_odds_command
from .odds import reroll_advice
from .rolls import at_hunger
from .teamwork import RULES as TEAMWORK


class V5Wing(Wing):
    guide, help_topics = GUIDE, TOPICS  # what `help dice` and the help index show (help.py)
    switches = ("surge",)
    odds_switches = ("reroll", "contest")
    roll_help = """\
Blood Surge (V5): +roll/surge <pool> [vs <difficulty>]
  a Rouse check first, then dice by Blood Potency (help rouse).
Extended rolls (V5):
  +roll/extended <pool> vs <target total> [# <comment>]
  +roll/extended [# <comment>]      roll your extended roll again
  +roll/status   or   +roll/stop
Successes add up toward the total (a bestial failure is shown, the total
kept), on your character until a new one or /stop; /private hides them all
(=<name>, ... shows a roll to those named: name them on each roll).
After any roll, +willpower rerolls up to three regular dice and
+odds/reroll shows each choice's chances (help willpower)."""
    odds_help = """\
  +odds/reroll  for your last roll, the chances after each Willpower
                choice (failures, crits, messy, best), before you commit
  +odds/contest <pool> vs <pool> [hunger <m>]   or   vs <character>
                exact contest chances: who wins, the tie (the
                defender's), crits, messy criticals, bestial failures"""

    teamwork = TEAMWORK
    cmdset = V5CmdSet

    def handle_odds(self, cmd):
        run = next((run for switch, run in (("contest", contest_odds_command), ("reroll", reroll_advice))
                    if switch in cmd.switches), None)
        if run is not None:
            run(cmd)
        return run is not None

    def prepare_odds(self, cmd, text, roller):
        """`+odds <pool> ... hunger <n>`: the odds at another Hunger than the caller's."""
        return at_hunger(text, roller)

    def before_odds(self, cmd, request, roller):
        if request.option("willpower"):
            raise DiceError("Odds do not spend Willpower; see +odds/reroll after a roll.")

    def before_roll(self, cmd, request, roller):
        if request.option("willpower") and roller.get("willpower_left", 0) < 1:
            raise DiceError("Your Willpower is exhausted: you cannot reroll with Willpower.")

    def prepare_request(self, cmd, request, roller):
        """`+roll/surge`: refuse what cannot be, then make the Blood Surge's Rouse check."""
        if "surge" not in getattr(cmd, "switches", ()) or cmd.key not in ("+roll", "+check"):
            return request
        hunger_now = roller.get("hunger", 0)
        blood_potency = roller.get("blood_potency", 0)
        v5_rouse.check_surge(hunger_now, blood_potency)
        dice = v5_rouse.surged_pool(request.dice, blood_potency)
        # Every refusal comes before the Rouse die: a refused roll must not cost Hunger.
        self.before_roll(cmd, request, roller)
        surge = v5_rouse.roll_surge(hunger_now, blood_potency, rng=get_rng())
        if surge.hunger_after != hunger_now:
            cmd.caller.set_trait("hunger", surge.hunger_after)
        return dataclasses.replace(request, dice=dice,
                                   extra=request.extra + (("surge", surge), ("hunger", surge.hunger_after)))

    def after_roll(self, cmd, request, result, rng):
        if not request.option("willpower"):
            return result, None, lambda width: []
        # An extended roll's step (`rules.v5.extended`) rerolls its failures even when it won.
        picks, reason = v5.ending_picks(result, accumulating=bool(request.get("extended")))
        if not picks:
            return result, None, lambda width: [f"  |wWillpower|n: {reason}"]
        cmd.caller.spend_willpower()
        rerolled = v5.reroll(result, picks, rng=rng)
        system = cmd.system
        before, after = system.view(result, request), system.view(rerolled, request)
        return rerolled, result, lambda width: [format_reroll(before, after, "Willpower", width=width, detail="failures")]

    def keep(self, cmd, request, result, record, receivers):
        """The +willpower window, in the roll's own commit."""
        remember_roll(cmd.caller, LastRoll(
            result=result, summary=format_pool(record["view"]), difficulty_given=request.target_given,
            private=cmd.private, record=record, entry=receivers.entry, receivers=receivers))

    def extended_keep(self, cmd, state, request, result, record, receivers):
        """An extended roll's latest roll, for a later +willpower (it corrects the total)."""
        remember_extended(cmd, state, result, record["view"], record, receivers)

    def sheet_flags(self, character):
        return frozenset({"frenzy"}) if in_frenzy(character) else frozenset()

    def pending_lines(self, character):
        return shared_teamwork.pending_lines(character, TEAMWORK) + willpower.pending_lines(character)

    def panel_actions(self, character):
        """The Willpower reroll while its window is open (`+willpower`, the best choice)."""
        return willpower.panel_actions(character)

    def panel_tools(self, character):
        """The web panel's buttons for V5's own rolls, each its command's line: a Rouse check,
        Remorse while a test is due (the rule +remorse refuses by), a frenzy test (the panel
        adds the difficulty typed in its target field: `"target": true`)."""
        tools = [{"label": "Rouse check", "command": "+rouse"}]
        values = character.sheet_values
        try:
            v5_humanity.check_remorse(values["humanity"], values["stains"])  # +remorse's own refusals
            tools.append({"label": "Remorse test", "command": "+remorse"})
        except DiceError:
            pass
        tools.append({"label": "Frenzy test", "command": "+frenzy", "target": True})
        return tools


WING = V5Wing("v5")
