"""
+rouse and +hunger: Rouse checks and the Hunger tracker (docs/v5.md).

Players change their own Hunger only through Rouse checks; staff set it, slake it (feeding)
and make Rouse checks for others. Every change is saved before anyone is told; Rouse checks go
to the roll log through `announce`, staff changes through `record_action`.
"""

import re

from storyteller_dice.rules import v5, v5_rouse
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from ..dice_base import DiceCommand, announce, find_character, is_staff, record_action, send, whole_number
from .character import has_sheet, hunger
from .display import BADGE, escape, fit
from .willpower import NotRerollable, remember_roll

PREFIX = "|w[Rouse]|n"
_FOR = re.compile(r"(?:^|\s)for\s+(?P<level>\S+)\s*$", re.IGNORECASE)


def parse_rouse(text):
    """
    `[<count>] [for <level>]`, `<character>[=<count>] [for <level>]`.

    Returns:
        (character name or None, count, level or None)
    """
    text = text.strip()
    who = None
    if "=" in text:
        who, text = (part.strip() for part in text.split("=", 1))
        if not who:
            raise DiceError("Name the character before '='.")
        if not text:
            raise DiceError("Say how many Rouse checks after '='.")
    level = None
    found = _FOR.search(text)
    if found:
        level = whole_number(found.group("level"), "The power's level must be a whole number from 1 to "
                             f"{v5_rouse.MAX_POWER_LEVEL}", v5_rouse.check_level)
        text = text[: found.start()].strip()
    elif re.match(r"^for$|^for\s|\sfor$", text, re.IGNORECASE):
        raise DiceError("Say the power's level after 'for'.")
    count = 1
    if text:
        # `-1` is a count (a bad one), not a character's name.
        if re.fullmatch(r"[-+]?[0-9]+", text):
            count = whole_number(text.lstrip("+"), "The number of Rouse checks must be a whole number",
                                 v5_rouse.check_count, signed=True)
        elif who is None:
            who = text
        else:
            raise DiceError(f"The number of Rouse checks must be a whole number, not '{escape(text)}'.")
    return who, count, level


def format_rouse(actor, subject, result):
    """The lines everyone sees for Rouse checks."""
    count = len(result.checks)
    what = "a Rouse check" if count == 1 else f"{count} Rouse checks"
    if subject == actor:
        header = f"{PREFIX} {escape(actor.key)} makes {what}"
    else:
        header = f"{PREFIX} {escape(actor.key)} has {escape(subject.key)} make {what}"
    if result.level is not None:
        header += f" for a level {result.level} power"
    header += f" (Hunger {result.hunger_before}"
    if result.level is not None:
        if result.may_reroll:
            header += f"; Blood Potency {result.blood_potency} rerolls a failure"
        else:
            header += f"; Blood Potency {result.blood_potency}: no reroll at this level"
    header += ")"
    lines = [header]
    for number, check in enumerate(result.checks, 1):
        label = "Rouse die" if count == 1 else f"Check {number}"
        if check.cannot_rouse:
            # At Hunger 5 no die is rolled (rules.v5_rouse): the line says so, not "None".
            lines.append(f"  {label}: no die  =>  {BADGE}cannot rouse|n: {v5_rouse.CANNOT_ROUSE}")
            continue
        dice = str(check.face)
        if check.reroll is not None:
            dice += f", Blood Potency reroll: {check.reroll}"
        if check.passed:
            outcome = f"|gpassed|n: Hunger stays {check.hunger_after}"
        else:
            outcome = f"|yfailed|n: Hunger rises to {check.hunger_after}"
        lines.append(f"  {label}: {dice}  =>  {outcome}")
    if count > 1:
        lines.append(f"  Hunger {result.hunger_before} -> {result.hunger_after}")
    return "\n".join(lines)


def rouse_summary(result):
    text = f"{result.passed} passed, {result.failed} failed"
    if result.cannot_rouse:
        text += f", {result.cannot_rouse} not rolled (Hunger {v5.MAX_HUNGER})"
    text += f": Hunger {result.hunger_before} -> {result.hunger_after}"
    if result.beast_demands_blood:
        text += (f"; a hunger frenzy test (Difficulty {v5_rouse.HUNGER_FRENZY_DIFFICULTY}) is due "
                 f"({v5_rouse.FRENZY_COMMAND})")
    return text


class CmdRouse(DiceCommand):
    """
    Make a Rouse check: one die, and Hunger rises on a failure.

    Usage:
      +rouse [<count>] [for <level>]
      +rouse <character>[=<count>] [for <level>]     (staff)

    One die per check, no Hunger dice: 6 or more passes; 1-5 fails and your
    Hunger rises by 1. Some powers need two checks (+rouse 2), each made at
    the Hunger the one before left. At Hunger 5 the Blood cannot be roused:
    no die is rolled, Hunger stays 5, and a hunger frenzy test (Difficulty
    4, +frenzy vs 4) is due, which staff may run.

    Name the power's level with 'for <level>': when it is within your Blood
    Potency's reach (Blood Potency 1-2: level 1, 3-4: level 2, 5-6: level
    3, 7-8: level 4, 9-10: level 5), a failed check is rerolled once. Without
    a level there is no reroll.

    The room sees the check and the Hunger change, which is saved first.
    Staff make Rouse checks for another character; that character is told
    even when elsewhere. Willpower does not reroll Rouse checks.

    Examples:
      +rouse
      +rouse 2
      +rouse for 1
      +rouse 2 for 3
      +rouse Alice
      +rouse Alice=2 for 1
    """

    key = "+rouse"
    aliases = ["rouse"]
    locks = "cmd:all()"
    usage = "+rouse [<count>] [for <level>]  or (staff) +rouse <character>[=<count>] [for <level>]"

    def run(self):
        caller = self.caller
        who, count, level = parse_rouse(self.args)
        target = caller
        if who is not None:
            target = find_character(caller, who)
            if target != caller and not is_staff(caller):
                raise DiceError("Only staff make Rouse checks for someone else.")
        if not hasattr(target, "set_trait"):
            raise DiceError(f"{escape(target.key)} has no character sheet." if target != caller
                            else "Only characters with a sheet make Rouse checks.")
        result = v5_rouse.roll(hunger(target), count, target.trait("blood potency"), level, rng=get_rng())
        if result.hunger_after != result.hunger_before:
            target.set_trait("hunger", result.hunger_after)  # saved before anyone is told
        shown = format_rouse(caller, target, result)
        text = lambda width: fit(shown, width)  # noqa: E731 - each receiver at its own width
        record = {
            "kind": "rouse",
            "command": self.raw_string.strip(),
            "result": result,
            "regular": list(result.faces),
            "hunger": [],
            "successes": result.passed,
            "summary": rouse_summary(result),
            "details": {"count": count, "level": level, "blood_potency": result.blood_potency,
                        "hunger_before": result.hunger_before, "hunger_after": result.hunger_after,
                        "beast_demands_blood": result.beast_demands_blood},
        }
        if target != caller:
            record["subject"] = target
        receivers = announce(caller, text, record=record)
        if target != caller and (receivers is None or target not in receivers):
            send([target], getattr(receivers, "text", None) or text(80), from_obj=caller)
        if target == caller:
            remember_roll(caller, NotRerollable(
                "A Rouse check is not rerolled with Willpower (Blood Potency rerolls it, for powers "
                "within its level)."))


class CmdHunger(DiceCommand):
    """
    Show Hunger; staff set it, slake it, or list the room's.

    Usage:
      +hunger
      +hunger <character>                 (staff)
      +hunger <character>=<value>         (staff)
      +hunger/slake <character>=<amount>  (staff)
      +hunger/slake/kill <character>=<amount>  (staff)
      +hunger/room                        (staff)

    Switches:
      slake - lower a character's Hunger by an amount (feeding); it stops at 1
      kill  - with /slake: the vessel was drained and killed, so Hunger may
              reach 0
      room  - list the Hunger of every character here

    Hunger is 0 to 5: that many dice of each pool are Hunger dice. Players
    see their own Hunger; it rises through Rouse checks (+rouse) and falls
    when staff slake it. Staff set or slake anyone's Hunger; the character
    is told, and the change is kept on the roll log.

    Examples:
      +hunger
      +hunger Alice
      +hunger Alice=3
      +hunger/slake Alice=2
      +hunger/room
    """

    key = "+hunger"
    aliases = ["hunger"]
    locks = "cmd:all()"
    switch_options = ("slake", "room", "kill")
    usage = ("+hunger [<character>] or (staff) +hunger <character>=<value>, "
             "+hunger/slake[/kill] <character>=<amount>, +hunger/room")

    def run(self):
        caller = self.caller
        staff = is_staff(caller)
        switches = set(self.switches)
        if "kill" in switches and "slake" not in switches:
            raise DiceError("/kill goes with /slake: +hunger/slake/kill <character>=<amount>.")
        if len(switches - {"kill"}) > 1:
            raise DiceError("Use one switch at a time: /slake or /room.")
        if "room" in switches:
            if not staff:
                raise DiceError("Only staff list the Hunger of everyone here.")
            if self.args.strip():
                raise DiceError("/room takes nothing after it.")
            self.list_room()
            return
        if "slake" in switches:
            if not staff:
                raise DiceError("Only staff slake Hunger; feeding is run by staff.")
            self.slake()
            return
        if self.rhs is not None:
            if not staff:
                raise DiceError("Only staff set Hunger; yours changes through Rouse checks (+rouse) and feeding.")
            self.set_hunger()
            return
        target = caller
        if self.args.strip():
            target = find_character(caller, self.args)
            if target != caller and not staff:
                raise DiceError("Only staff see another character's Hunger.")
        if not has_sheet(target):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        whose = "Your" if target == caller else f"{escape(target.key)}'s"
        self.msg(f"{whose} Hunger is {hunger(target)}.")

    def _target_and_number(self, what):
        if not self.lhs.strip():
            raise DiceError("Name the character before '='.")
        value = whole_number(self.rhs or "", f"The {what} must be a whole number")
        target = find_character(self.caller, self.lhs)
        if not hasattr(target, "set_trait"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        return target, value

    def _record(self, target, kind, description):
        record_action(self.caller, target, kind, description, command=self.raw_string.strip(),
                      details={"hunger": hunger(target)})

    def _tell(self, target, mine, theirs):
        self.msg(mine)
        if target != self.caller:
            target.msg(theirs)

    def set_hunger(self):
        caller = self.caller
        target, value = self._target_and_number("Hunger")
        if value > v5.MAX_HUNGER:
            raise DiceError(f"Hunger is from 0 to {v5.MAX_HUNGER}.")
        old = target.set_trait("hunger", value)
        self._record(target, "hunger", f"Hunger set to {value} (was {old})")
        whose = "Your" if target == caller else f"{escape(target.key)}'s"
        self._tell(target, f"{whose} Hunger is now {value} (was {old}).",
                   f"{escape(caller.key)} set your Hunger to {value} (was {old}).")

    def slake(self):
        caller = self.caller
        if self.rhs is None:
            raise DiceError("Say by how much: +hunger/slake <character>=<amount>.")
        target, amount = self._target_and_number("amount")
        # Bounded like every typed number: more than the highest Hunger slakes nothing more.
        if amount > v5.MAX_HUNGER:
            raise DiceError(f"Slake Hunger by 1 to {v5.MAX_HUNGER}.")
        old = hunger(target)
        if old == 0:
            raise DiceError(f"{escape(target.key)}'s Hunger is already 0.")
        killed = "kill" in self.switches
        if amount < 1:
            raise DiceError("Slake Hunger by 1 or more.")
        if old <= v5_rouse.SLAKE_FLOOR and not killed:
            raise DiceError(f"{escape(target.key)}'s Hunger is already {v5_rouse.SLAKE_FLOOR}: only draining "
                            "and killing the vessel slakes the last point (+hunger/slake/kill).")
        new = v5_rouse.slake(old, amount, killed=killed)
        target.set_trait("hunger", new)
        floor = 0 if killed else v5_rouse.SLAKE_FLOOR
        note = ""
        if old - amount < floor:
            note = "; it cannot go below 0" if killed else "; it stops at 1 unless the vessel is killed"
        killing = " (the vessel killed)" if killed else ""
        self._record(target, "slake", f"Hunger slaked by {amount}{killing}: {old} -> {new}")
        whose = "Your" if target == caller else f"{escape(target.key)}'s"
        self._tell(target, f"{whose} Hunger is slaked by {amount}: now {new} (was {old}{note}).",
                   f"{escape(caller.key)} slakes your Hunger by {amount}: now {new} (was {old}{note}).")

    def list_room(self):
        caller = self.caller
        location = caller.location
        characters = sorted((obj for obj in (location.contents if location else []) if has_sheet(obj)),
                            key=lambda obj: obj.key.lower())
        if not characters:
            self.msg("No one here has a character sheet.")
            return
        width = max(len(obj.key) for obj in characters)
        lines = [f"|wHunger here ({escape(location.key)}):|n"]
        lines += [f"  {escape(obj.key).ljust(width)}  {hunger(obj)}" for obj in characters]
        self.msg("\n".join(lines))
