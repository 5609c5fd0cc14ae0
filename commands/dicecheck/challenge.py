"""
The Dice Check: a check against another player's character waits for their answer.

A check against someone's defence (`:EVA <target>`), an opposed check (their dice roll too) and
a damage check (`/damage`: wounds on their sheet) all use the target's sheet. Staff, and a
player against their own characters, roll them at once; otherwise the sheet is used only with
its player's consent (`typeclasses.access`), and the consent is their answer:

    Alice: +roll Athletics (Grapple):Athletics (Grapple) Bob
           -> Bob is asked; nothing is rolled and nothing of Bob's is read
    Bob:   +roll/answer Alice      -> Alice's check is rolled now, as she typed it
           +roll/decline Alice     -> it is dropped, and Alice is told
    Alice: +roll/cancel            -> she withdraws it, and Bob is told

**Rulings**:
- The check is rolled when answered, as the challenger typed it (private, shown to the names
  given, with damage), and shown as the challenger's roll; both must still be in one room. A
  private check is shown to the one who answered too: it rolled their sheet.
- The waiting check is a challenge of the shared flow (`commands.contest`): kept on both
  characters in the database (it survives a reload), waiting 5 minutes (`rules.contest.TIMEOUT`,
  then it expires and both are told), listed when either connects. One waits for a character
  at a time, and each player asks one at a time.
- **One consent per check**: while your check waits, another is refused (in the shared flow's
  words: wait for the answer or withdraw it with `+roll/cancel`), never put in its place: an
  answer is consent to the check the answerer read, so no later check may take it. The
  answerer's line names the check it answers (kind and command as typed), and so does a
  decline. A withdrawn check keeps its place with the one asked until its 5 minutes would have
  run out (`WITHDRAWN` on the challenger): asking them again before then is refused, since an
  answer typed for the withdrawn check could otherwise arrive after the new one was asked.
- `+odds` against another player's sheet has no answer to wait for, and is refused.
"""

import time

from storyteller_dice.rules import contest as shared_rules
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import access

from .. import pending
from ..contest import INCOMING, OUTGOING, challenge_to, clear, live, load_challenge, make_challenge
from ..dice_base import COMMENT, dice_system, find_character, split_comment
from ..rolls import CmdCheck, CmdRoll, split_shared


def consented(cmd, target):
    """Whether `target` answered this very check (`answer` runs it with their consent)."""
    return getattr(cmd, "dicecheck_consent", None) == target


def waiting_target(cmd):
    """
    The character whose sheet this +roll would use without leave (then it waits for their
    answer), or None: no target, allowed, or refused on the usual path (no sheet, names on a
    public roll, an opposed damage check) with the usual words.
    """
    caller = cmd.caller
    args, names = split_shared(cmd.args)
    if names and "private" not in cmd.switches:
        return None
    text, _comment = split_comment(args)
    system = dice_system()
    switches = frozenset(opt for opt in cmd.switches if opt in system.roll_switches)
    request = system.parse(text, switches, roller=caller.roller(), numbers_only=cmd.numbers_only)
    need = request.get("needs_target")
    if not need or (need == "opposed" and request.option("damage")):
        return None
    target = find_character(caller, request.get("target_name"), room_only=True)
    if target == caller or not hasattr(target, "roller"):
        return None
    if access.may_use(caller, target, consent=consented(cmd, target)):
        return None
    cmd.dicecheck_kind = check_kind(request)
    return target


def check_kind(request):
    """What a waiting check is, as the one asked reads it: `damage check against your Hardness`,
    `check against your Evasion`, `opposed check`."""
    need = request.get("needs_target")
    if need == "opposed":
        return "opposed check"
    kind = "damage check" if request.option("damage") else "check"
    return f"{kind} against your {str(need).title()}"


def _fields(caller, command, private):
    """What the waiting check keeps besides its pool: how it is shown and answered."""
    me = escape(caller.key)
    return {"command": command, "key": "+roll", "description": escape(command, 120), "private": private,
            "answer_hint": f"+roll/answer {me} or +roll/decline {me}"}


WITHDRAWN = "dicecheck_withdrawn"  # on the challenger: {target id: when the withdrawn check was asked}


def _withdrawn_left(caller, target):
    """Seconds the check `caller` withdrew from `target` would still have waited (0: none)."""
    held = pending.load(caller, WITHDRAWN)
    asked = held.get(target.id) if isinstance(held, dict) else None
    if not isinstance(asked, (int, float)):
        return 0
    return shared_rules.seconds_left(asked, time.time(), shared_rules.TIMEOUT)


def ask(cmd, target):
    """
    Keep the check as a challenge to `target` and tell both. Refused while the caller has a
    check (or a challenge) waiting, in the shared flow's words, and while a check they withdrew
    from `target` would still be waiting: an answer typed for one check never rolls another.
    """
    caller = cmd.caller
    typed = " ".join(cmd.raw_string.split())
    name, me = escape(target.key), escape(caller.key)
    left = _withdrawn_left(caller, target)
    if left and not live(load_challenge(caller, OUTGOING)):
        raise DiceError(f"You withdrew a check against {name}: ask them again in {pending.minutes(left)}.")
    if not live(load_challenge(caller, OUTGOING)) and live(load_challenge(target, INCOMING)):
        raise DiceError(f"{name} has another check to answer; try again later.")
    make_challenge(caller, target, {"args": cmd.args, "switches": list(cmd.switches),
                                    "numbers_only": bool(cmd.numbers_only),
                                    "kind": getattr(cmd, "dicecheck_kind", "check")},
                   **_fields(caller, typed, "private" in cmd.switches))
    cmd.msg(f"{name}'s sheet is their player's: your check is rolled when they answer it "
            f"(+roll/answer {me}, within 5 minutes).")
    pending.notify(target, f"{me} asks to roll against your sheet: {escape(typed, 120)}\n"
                           f"  Let it roll with +roll/answer {me}, or +roll/decline {me}.")


def _held_from(cmd, how):
    """The waiting check from the one `cmd` names (both still here); it no longer waits."""
    caller = cmd.caller
    name = cmd.args.strip()
    if not name:
        raise DiceError(f"Name who asked: +roll/{how} <name>.")
    held = live(load_challenge(caller, INCOMING))
    challenger = held.challenger if held and held.key == "+roll" else None
    if challenger is None or name.lower() not in (challenger.key.lower(), f"#{challenger.id}"):
        raise DiceError(f"No check from '{escape(name, 40)}' waits for your answer.")
    challenge_to(caller)  # void (and both told) when they are no longer in one place
    clear(held)
    return challenger, held


def _shown_to(args, who):
    """A private roll's text with `who` added to the names it is shown to (before any comment)."""
    found = COMMENT.search(args)
    head, tail = (args[:found.start()], args[found.start():]) if found else (args, "")
    head = head.rstrip() + (", " if "=" in head else "=") + who.key
    return head + tail


def _named(challenger, held):
    """The check as its answer or decline names it: `Carol's damage check against your Hardness:
    +roll/damage 20d(2+):HAR Alice`."""
    kind = held.pool.get("kind") if isinstance(held.pool, dict) else None
    kind = kind if isinstance(kind, str) and kind else "check"
    return f"{escape(challenger.key)}'s {escape(kind, 60)}: {escape(held.command, 120)}"


def answer(cmd):
    """`+roll/answer <name>`: roll their check now, with the answerer's consent; the answerer's
    line names the check it answers (its kind and the command as typed)."""
    challenger, held = _held_from(cmd, "answer")
    cmd.msg(f"You answer {_named(challenger, held)}")
    stored = held.pool
    roll = (CmdCheck if stored.get("numbers_only") else CmdRoll)()
    roll.caller = roll.obj = challenger
    roll.account, roll.session = getattr(challenger, "account", None), None
    roll.cmdstring, roll.args, roll.switches = roll.key, stored.get("args", ""), list(stored.get("switches") or ())
    if "private" in roll.switches:
        roll.args = _shown_to(roll.args, cmd.caller)
    roll.raw_string = held.command
    roll.dicecheck_consent = cmd.caller
    roll.run()


def decline(cmd):
    challenger, held = _held_from(cmd, "decline")
    cmd.msg(f"You decline {_named(challenger, held)}")
    pending.notify(challenger, f"{escape(cmd.caller.key)} declines your check: {escape(held.command, 120)}")


def cancel(cmd):
    """`+roll/cancel`: withdraw your own waiting check; the one asked is told. Until its 5
    minutes would have run out, you ask that character no other check (`ask`)."""
    caller = cmd.caller
    if cmd.args.strip():
        raise DiceError("/cancel takes nothing after it.")
    mine = live(load_challenge(caller, OUTGOING))
    if mine is None:
        raise DiceError("You have no check waiting for an answer.")
    if mine.key != "+roll":
        raise DiceError(f"Your challenge to {escape(mine.defender.key)} is withdrawn with {mine.key}/cancel.")
    clear(mine)
    held = pending.load(caller, WITHDRAWN)
    held = {key: when for key, when in (held.items() if isinstance(held, dict) else ())
            if isinstance(when, (int, float)) and shared_rules.seconds_left(when, time.time(), shared_rules.TIMEOUT)}
    held[mine.defender.id] = float(mine.created)
    pending.save(caller, WITHDRAWN, held)
    cmd.msg(f"You withdraw your check against {escape(mine.defender.key)}: {escape(mine.command, 120)}")
    pending.notify(mine.defender, f"{escape(caller.key)} withdraws their check: {escape(mine.command, 120)}")
