"""
The Dice Check wing: what The Dice Check adds to the shared commands, found by
`commands.dice_base.dice_wing`.

- A check against a defence (`+roll Swords (Cut):EVA Rudolf`, `:GRI`, `:HAR`) or an opposed
  check (`+roll Athletics (Grapple):Athletics (Grapple) Rudolf`) needs the target's sheet,
  which `rules.dicecheck.system` never reads: `prepare_request` finds the target in the room
  and has the system resolve the request (`SYSTEM.resolve_target`). The same for +odds.
- +odds/contest: the exact chances of an opposed check as a contest
  (`commands.dicecheck.contest_odds`).
- A damage check (`+roll/damage 6d(6+):HAR Rudolf`): its Effect is wounds, applied to the
  target's sheet after the roll is stored, said under the roll and put on the roll log (a
  "wounds" entry whose parent is the roll).

The Dice Check has no commands of its own (`cmdset` None): every check is a +roll.

Rulings:
- **Ruling**: the target must be a character in the room (as for a private roll's names), and
  not the roller: a check against your own defence or an opposed check with yourself is refused.
- **Ruling** (who may use the target's sheet, `typeclasses.access`): a check against someone's
  defence or an opposed check reads their sheet, and a damage check changes it, so staff (the
  Storyteller) and a player against their own characters roll them at once; against another
  player's character the check waits for that player's answer (`+roll/answer <name>`, or
  `/decline`: `commands.dicecheck.challenge`), since naming someone is not their consent, and
  the rules' "anyone may deal wounds" let one player fill another's track from across the
  room. +odds against another player's sheet is refused (there is no answer to wait for).
- **Ruling** (one consent per check): while a check of yours waits, another is refused (the
  shared flow's words: wait for the answer or withdraw it with `+roll/cancel`), never put in
  its place, and `+roll/answer <name>` names the check it answers (its kind and the command as
  typed). A withdrawn check keeps its place with that character until its 5 minutes would have
  run out: an answer typed for it can never roll another check.
- **Ruling**: wounds from a damage check are applied at once and stop at the track's end (10);
  the line says so, the roll log keeps the roll and the change, and staff may set wounds back
  with +stat. The wounded character is always told, also when the check was private and they
  were not shown it (or were away: they read it when they connect).
- **Ruling**: a damage check is rolled against a TN or a defence (Hardness, usually), not
  opposed: `/damage` with an opposed check is refused before any die is rolled.
- **Ruling**: a damage check against a plain TN (`+roll/damage 6d(6+):2`) names no one, so its
  wounds are said and not applied.
"""


from storyteller_dice.rules.dicecheck import system as dicecheck_system
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import access

from .. import pending
from ..dice_base import Wing, dice_system, find_character, record_action
from . import challenge
from .contest_odds import contest_odds_command
from .help import GUIDE, TOPICS

NOT_YOURS = ("{name}'s sheet is their player's: give the TN as a number (like {example}), "
             "or roll the check for them to answer.")
WOUNDED = "{who}'s damage check{code} gives you {wounds} wounds: {before} -> {after} of {most}."


class DiceCheckWing(Wing):
    guide, help_topics = GUIDE, TOPICS  # what `help dice` and the help index show (help.py)
    switches = ("answer", "decline", "cancel")
    odds_switches = ("contest",)
    contest_odds = staticmethod(contest_odds_command)
    roll_help = """\
Against someone in the room (their sheet gives the TN):
  +roll Swords (Cut):EVA <target>       vs their Evasion
  +roll Command (Intimidate):GRI <target>   vs their Grit
  +roll Athletics (Grapple):Athletics (Grapple) <target>   opposed:
        they roll it too, and their Hits are your TN
  +roll/damage 6d(6+):HAR <target>      vs their Hardness: the Effect
        is applied to them as wounds
Another player's character answers (consent) with +roll/answer <you>
  or /decline within 5 minutes. One check of yours waits at a time;
  +roll/cancel withdraws it (that character: again after 5 minutes).
  Staff need no answer.
Without a sheet: +check 12d(6+):3, +check 12:3 (12 dice at 6+)."""
    odds_help = """\
  +odds STR:3, +odds 12d(6+):3, +odds Swords (Cut):EVA <target>,
  +odds Athletics (Grapple):Athletics (Grapple) <target> (opposed: both
  sides' dice are counted): success, failure, big botch, and each
  Degree of Success. A target's sheet: staff, or your own characters.
  +odds/contest <pool>:<their pool> <character>, or <pool>:12d(6+)
        the opposed check as a contest: you win, tie (yours: their Hits
        are your TN), they win, your big botch. A character's sheet:
        staff, or your own characters."""

    def __init__(self):
        super().__init__("dicecheck")

    def handle_roll(self, cmd):
        if "answer" in cmd.switches:
            challenge.answer(cmd)
            return True
        if "decline" in cmd.switches:
            challenge.decline(cmd)
            return True
        if "cancel" in cmd.switches:
            challenge.cancel(cmd)
            return True
        target = challenge.waiting_target(cmd)
        if target is None:
            return False
        challenge.ask(cmd, target)
        return True

    def prepare_request(self, cmd, request, roller):
        cmd.dicecheck_target = None
        cmd.dicecheck_wounds = None
        need = request.get("needs_target")
        if not need:
            return request
        if need == "opposed" and request.option("damage"):
            raise DiceError("A damage check is rolled against a TN or a defence, like "
                            "/damage 6d(6+):HAR <target>, not opposed.")
        caller = cmd.caller
        target = find_character(caller, request.get("target_name"), room_only=True)
        if target == caller:
            raise DiceError("Name someone else: you cannot check against yourself.")
        left = " ".join(str(request.text or "").split(":")[0].split()) or "STR"
        access.require(caller, target, NOT_YOURS.format(name=escape(target.key), example=escape(f"{left}:3")),
                       consent=challenge.consented(cmd, target))
        if not hasattr(target, "roller"):
            raise DiceError(f"{escape(target.key)} has no sheet to roll against.")
        cmd.dicecheck_target = target
        return dice_system().resolve_target(request, target.roller(), name=target.key)

    def after_roll(self, cmd, request, result, rng):
        if not request.option("damage"):
            return result, None, lambda width: []
        wounds = result.check.wounds
        target = getattr(cmd, "dicecheck_target", None)
        if not wounds:
            return result, None, lambda width: []
        if target is None:
            line = "  |wWounds|n: no target named, so none are applied."
            return result, None, lambda width: [line]
        before = target.sheet_values[dicecheck_system.WOUNDS]
        after = min(before + wounds, dicecheck_system.MAX_WOUNDS)
        cmd.dicecheck_wounds = (target, before, after, wounds)
        full = " (the track is full)" if after == dicecheck_system.MAX_WOUNDS else ""
        line = (f"  |wWounds|n: {escape(target.key)} takes {wounds}: "
                f"{before} -> {after} of {dicecheck_system.MAX_WOUNDS}{full}.")
        return result, None, lambda width: [line]

    def rolled(self, cmd, request, result, record, receivers):
        applied = getattr(cmd, "dicecheck_wounds", None)
        if not applied:
            return
        target, before, after, wounds = applied
        target.set_trait(dicecheck_system.WOUNDS, after)
        entry = getattr(receivers, "entry", None)
        told = [obj for obj in receivers if hasattr(obj, "roller")]
        code = f" [code {entry.code}]" if entry else ""
        access.tell_changed(target, WOUNDED.format(who=escape(cmd.caller.key), code=code, wounds=wounds, before=before,
                                                   after=after, most=dicecheck_system.MAX_WOUNDS),
                            told=[obj for obj in told if pending.connected(obj)], notify=pending.notify)
        record_action(cmd.caller, target, "wounds",
                      f"Wounds {before} -> {after} ({wounds} dealt by {entry.code if entry else 'a damage check'})",
                      command=cmd.raw_string.strip(), private=bool(getattr(cmd, "private", False)),
                      receivers=told, parent=entry,
                      details={"before": before, "after": after, "dealt": wounds})


WING = DiceCheckWing()
