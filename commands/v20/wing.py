"""
The V20 wing: what Classic Storyteller adds to the shared commands, found by
`commands.dice_base.dice_wing`.

- +roll/+check: `/willpower` and `/ignorepain` spend temporary Willpower (`System.costs`):
  refused before any die is rolled when too little is left, spent once the roll is stored
  (as V5 does). `/retry` reads the failed attempts at the same action (`action_key`) from the
  character and every roll updates them (`failures_after`). `/multi` (split actions, `*` for
  Celerity) is the wing's own roll (`commands.v20.rolls`); extended actions (`/extended`,
  `/status`, `/stop`) are the shared `commands.extended`, with V20's rules (`rules.v20`).
- +odds/contest: the exact chances of a resisted action (`commands.v20.contest_odds`).
- its own commands (`V20CmdSet`): +damage, +heal, +contest.

**Rulings**: every +roll of an action counts toward its retries (a failure adds one, a
success clears the count), whether or not it was rolled with /retry; /retry is the player's
word that this attempt is a retry, and only then the penalty applies. +check counts as an
action of its own ("5 dice").

`prepare_roll` (the `/retry` count) is a hook only V20 offers (`commands.wing_features`); +odds
has no such hook here, so odds spend nothing and count no earlier attempts (raise the
difficulty instead: docs/v20.md).
"""

import dataclasses

from storyteller_dice.rules.v20 import system as v20_system
from storyteller_dice.rules.errors import DiceError

from .cmdset import V20CmdSet
from .contest_odds import contest_odds_command
from .rolls import multi_roll
from ..dice_base import Wing
from .help import GUIDE, TOPICS
from . import character as v20_character

OWN_SWITCHES = ("multi",)


class V20Wing(Wing):
    guide, help_topics = GUIDE, TOPICS  # what `help dice` and the help index show (help.py)
    switches = OWN_SWITCHES
    odds_switches = ("contest",)
    contest_odds = staticmethod(contest_odds_command)
    odds_help = """\
  +odds/contest <pool> [vs <diff>] = <dice> [vs <diff>]
  +odds/contest <pool> [vs <diff>] = <character>[: <pool> [vs <diff>]]
                a resisted action's exact chances, sides as +contest
                writes them: who wins (more net successes), the tie
                (nobody wins) and each side's botch. A character's
                sheet: staff, or your own characters."""
    roll_help = """\
Multiple actions (V20):
  +roll/multi <pool>[ vs <diff>], <pool>[ vs <diff>][, ...] [= <split>]
The smallest pool is split among the actions (evenly, earlier first, or
as given after '=': '= 2 1'); *<pool> is a Celerity action, rolled whole.
  +roll/multi/private dex+firearms vs 6, wits+dominate vs 7 = 2 1 = Bob
/spec, /ignorepain, /private work with /multi; /willpower, /auto, /retry not.
Extended actions (V20):
  +roll/extended <pool> [vs <diff>] for <total> [# <comment>]
  +roll/extended [# <comment>]  (the same pool again);  +roll/status, /stop
Net successes add up toward the total; a botch resets it to 0. /private
keeps them all private; name the audience on each roll: +roll/extended =Bob
See also: help +damage, help +heal, help +contest."""

    def __init__(self, key="v20"):
        super().__init__(key)

    cmdset = V20CmdSet

    def handle_roll(self, cmd):
        if "multi" not in cmd.switches:
            return False
        multi_roll(cmd)
        return True

    def prepare_roll(self, cmd, text, roller):
        """/retry: the failed attempts at this action so far go into the roller's state."""
        if "retry" not in cmd.switches:
            return text, roller
        probe = cmd.system.parse(text, frozenset(), roller=roller, numbers_only=cmd.numbers_only)
        count = v20_character.retry_count(cmd.caller, v20_system.action_key(probe))
        return text, dataclasses.replace(roller, state={**roller.state, "retry_failures": count})

    def before_roll(self, cmd, request, roller):
        for trait, points in cmd.system.costs(request).items():
            have = roller.get("willpower_left", 0) if trait == v20_system.WILLPOWER_LEFT else 0
            if have < points:
                raise DiceError(f"Your Willpower is exhausted: that roll needs {points} temporary Willpower "
                                f"and you have {have} left.")

    def rolled(self, cmd, request, result, record, receivers):
        caller = cmd.caller
        v20_character.pay(caller, cmd.system.costs(request))
        key = v20_system.action_key(request)
        earlier = v20_character.retry_count(caller, key)
        v20_character.set_retry_count(caller, key, v20_system.failures_after(earlier, result))

WING = V20Wing("v20")
