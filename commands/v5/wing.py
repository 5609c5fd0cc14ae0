"""
The V5 wing: what V5 adds to the shared commands, found by `commands.dice_base.dice_wing`.

- +roll/+check: the `/willpower` ending's at-once reroll (refused before rolling when
  Willpower is exhausted), extended rolls (`/extended`, `/status`, `/stop`), and every roll
  remembered for a later +willpower.
- +odds/reroll: the chances after each Willpower choice for the last roll.
- its own commands (`V5CmdSet`): +rouse, +hunger, +willpower, +contest, +teamwork, +remorse,
  +frenzy; their pending state (challenges, teamwork, the +willpower window).
"""

from rules import v5
from rules.errors import DiceError

from ..dice_base import Wing
from .character import in_frenzy, spend_willpower
from .display import format_pool

EXTENDED_SWITCHES = frozenset(("extended", "status", "stop"))


class V5Wing(Wing):
    switches = ("extended", "status", "stop")
    odds_switches = ("reroll",)
    roll_help = """\
Extended rolls (V5):
  +roll/extended <pool> vs <target total> [# <comment>]
  +roll/extended [# <comment>]      roll your extended roll again
  +roll/status   or   +roll/stop
Each roll's successes add up toward the target total. The first roll is
made when you start; +roll/extended rolls the same pool again (with your
Hunger at that moment). A bestial failure on a roll is shown on that
roll and the total so far is kept. The extended roll is kept on your
character (even over a restart) until you start a new one after
completing it, or /stop it. Start it with /private to keep all its
rolls private.

After any roll, +willpower rerolls up to three regular dice (see
+help +willpower); +odds/reroll shows the chances of each choice."""
    odds_help = """\
  +odds/reroll  for your last roll, the chances after each Willpower
                choice (failures, crits, messy, best), before you commit"""

    def __init__(self):
        super().__init__("v5")

    @property
    def cmdset(self):
        from .cmdset import V5CmdSet

        return V5CmdSet

    def handle_roll(self, cmd):
        if not EXTENDED_SWITCHES & set(cmd.switches):
            return False
        from .rolls import extended_roll

        extended_roll(cmd)
        return True

    def handle_odds(self, cmd):
        if "reroll" not in cmd.switches:
            return False
        from .odds import reroll_advice

        reroll_advice(cmd)
        return True

    def prepare_odds(self, cmd, text, roller):
        """`+odds <pool> ... hunger <n>`: the odds at another Hunger than the caller's."""
        import dataclasses

        from .rolls import split_hunger

        text, level = split_hunger(text)
        if level is not None:
            roller = dataclasses.replace(roller, state={**roller.state, "hunger": level})
        return text, roller

    def before_odds(self, cmd, request, roller):
        if request.option("willpower"):
            raise DiceError("Odds do not spend Willpower; see +odds/reroll after a roll.")

    def before_roll(self, cmd, request, roller):
        if request.option("willpower") and roller.get("willpower_left", 0) < 1:
            raise DiceError("Your Willpower is exhausted: you cannot reroll with Willpower.")

    def after_roll(self, cmd, request, result, rng):
        if not request.option("willpower"):
            return result, None, lambda width: []
        picks = v5.choose_failures(result)
        if not picks:
            return result, None, lambda width: ["  |wWillpower|n: no regular dice under 6 to reroll; no Willpower spent."]
        spend_willpower(cmd.caller)
        rerolled = v5.reroll(result, picks, rng=rng)
        from rules.display import format_reroll

        system = cmd.system
        before, after = system.view(result, request), system.view(rerolled, request)
        return rerolled, result, lambda width: [format_reroll(before, after, "Willpower", width=width, detail="failures")]

    def rolled(self, cmd, request, result, record, receivers):
        from .willpower import LastRoll, audience, remember_roll

        given = request.target_given
        summary = format_pool(request.pool, result.pool, result.hunger_level, result.difficulty, given)
        remember_roll(cmd.caller, LastRoll(
            result=result, summary=summary, difficulty_given=given, private=cmd.private, record=record,
            entry=getattr(receivers, "entry", None),
            receivers=receivers if receivers is not None else audience(cmd.caller, cmd.private, cmd.shared)))

    def sheet_flags(self, character):
        return frozenset({"frenzy"}) if in_frenzy(character) else frozenset()

    def pending_lines(self, character):
        from . import contest, teamwork, willpower

        return contest.pending_lines(character) + teamwork.pending_lines(character) + willpower.pending_lines(character)

    def at_server_start(self):
        from . import contest

        contest.restore_challenges()


WING = V5Wing()
