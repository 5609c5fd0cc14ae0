"""
+rouse and +hunger: Rouse checks and the Hunger tracker (docs/v5.md). Players change their own
Hunger only through Rouse checks; staff set it, slake it (feeding) and make Rouse checks for
others. Every change is saved before anyone is told, and kept on the roll log.
"""

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import rouse as v5_rouse
from storyteller_dice.rules.display import escape, fitted, format_outcome
from storyteller_dice.rules.engine import RollView
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng
from storyteller_dice.rules.v5.system import SYSTEM as V5

from ..dice_base import DiceCommand, find_character, has_sheet, is_staff, named_or_self, record_action, whole_number
from .character import announce_test, hunger, subject_with_sheet, who_makes

PREFIX = "|w[Rouse]|n"


def _rouse_header(actor, subject, result):
    count = len(result.checks)
    header = f"{PREFIX} {who_makes(actor, subject, 'a Rouse check' if count == 1 else f'{count} Rouse checks')}"
    if result.level is None:
        return f"{header} (Hunger {result.hunger_before})"
    reroll = " rerolls a failure" if result.may_reroll else ": no reroll at this level"
    return (f"{header} for a level {result.level} power (Hunger {result.hunger_before}; "
            f"Blood Potency {result.blood_potency}{reroll})")


def _check_line(label, check):
    """`  Check 1: 3, Blood Potency reroll: 4  =>  failed: Hunger rises to 3` (verdict: a view's)."""
    shown = RollView(system=V5.key, pool="", target="", groups=(), score=None, noun=("passed", "passed"),
                     outcome=V5.rouse_check_outcome(check))
    if check.cannot_rouse:
        # At Hunger 5 no die is rolled (rules.v5.rouse): the line says so, not "None".
        return f"  {label}: no die  =>  {format_outcome(shown)}: {v5_rouse.CANNOT_ROUSE}"
    dice = str(check.face) + (f", Blood Potency reroll: {check.reroll}" if check.reroll is not None else "")
    after = f"Hunger stays {check.hunger_after}" if check.passed else f"Hunger rises to {check.hunger_after}"
    return f"  {label}: {dice}  =>  {format_outcome(shown)}: {after}"


def format_rouse(actor, subject, result):
    """The lines everyone sees for Rouse checks."""
    count = len(result.checks)
    lines = [_rouse_header(actor, subject, result)]
    lines += [_check_line("Rouse die" if count == 1 else f"Check {number}", check)
              for number, check in enumerate(result.checks, 1)]
    if count > 1:
        lines.append(f"  Hunger {result.hunger_before} -> {result.hunger_after}")
    return "\n".join(lines)


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
        who, count, level = v5_rouse.parse(self.args)
        caller = self.caller
        target = subject_with_sheet(caller, who or "", "Rouse checks", "Only characters with a sheet make Rouse checks.")
        result = v5_rouse.roll(hunger(target), count, target.trait("blood potency"), level, rng=get_rng())
        if result.hunger_after != result.hunger_before:
            target.set_trait("hunger", result.hunger_after)  # saved before anyone is told
        text = fitted(format_rouse(caller, target, result))
        record = {
            "kind": "rouse", "command": self.raw_string.strip(), **V5.rouse_record(result),
            "details": {"count": count, "level": level, "blood_potency": result.blood_potency,
                        "hunger_before": result.hunger_before, "hunger_after": result.hunger_after,
                        "beast_demands_blood": result.beast_demands_blood},
        }
        announce_test(caller, target, text, record, "A Rouse check is not rerolled with Willpower (Blood Potency "
                      "rerolls it, for powers within its level).")


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
        switches = set(self.switches)
        if "kill" in switches and "slake" not in switches:
            raise DiceError("/kill goes with /slake: +hunger/slake/kill <character>=<amount>.")
        if len(switches - {"kill"}) > 1:
            raise DiceError("Use one switch at a time: /slake or /room.")
        if "room" in switches:
            self.list_room()
        elif "slake" in switches:
            self.slake()
        elif self.rhs is not None:
            self.set_hunger()
        else:
            target = named_or_self(self.caller, self.args, "Only staff see another character's Hunger.")
            if not has_sheet(target):
                raise DiceError(f"{escape(target.key)} has no character sheet.")
            self.msg(f"{self._whose(target)} Hunger is {hunger(target)}.")

    def _whose(self, target):
        return "Your" if target == self.caller else f"{escape(target.key)}'s"

    def _staff_target(self, refusal, what):
        """The character before '=' and the whole number after it, for staff only."""
        if not is_staff(self.caller):
            raise DiceError(refusal)
        if not self.lhs.strip():
            raise DiceError("Name the character before '='.")
        value = whole_number(self.rhs or "", f"The {what} must be a whole number")
        target = find_character(self.caller, self.lhs)
        if not hasattr(target, "set_trait"):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        return target, value

    def _changed(self, target, kind, description, yours, theirs):
        """The staff change on the roll log, then told to staff (`yours`) and the character."""
        record_action(self.caller, target, kind, description, command=self.raw_string.strip(),
                      details={"hunger": hunger(target)})
        self.msg(f"{self._whose(target)} Hunger {yours}")
        if target != self.caller:
            target.msg(f"{escape(self.caller.key)} {theirs}")

    def set_hunger(self):
        target, value = self._staff_target("Only staff set Hunger; yours changes through Rouse checks (+rouse) "
                                           "and feeding.", "Hunger")
        if value > v5.MAX_HUNGER:
            raise DiceError(f"Hunger is from 0 to {v5.MAX_HUNGER}.")
        old = target.set_trait("hunger", value)
        self._changed(target, "hunger", f"Hunger set to {value} (was {old})", f"is now {value} (was {old}).",
                      f"set your Hunger to {value} (was {old}).")

    def slake(self):
        if self.rhs is None and is_staff(self.caller):
            raise DiceError("Say by how much: +hunger/slake <character>=<amount>.")
        target, amount = self._staff_target("Only staff slake Hunger; feeding is run by staff.", "amount")
        killed = "kill" in self.switches
        old = self._slakeable(target, amount, killed)
        new = v5_rouse.slake(old, amount, killed=killed)
        target.set_trait("hunger", new)
        note = ""
        if old - amount < (0 if killed else v5_rouse.SLAKE_FLOOR):
            note = "; it cannot go below 0" if killed else "; it stops at 1 unless the vessel is killed"
        slaked = f"by {amount}: now {new} (was {old}{note})."
        self._changed(target, "slake", f"Hunger slaked by {amount}{' (the vessel killed)' if killed else ''}: "
                      f"{old} -> {new}", f"is slaked {slaked}", f"slakes your Hunger {slaked}")

    @staticmethod
    def _slakeable(target, amount, killed):
        """The target's Hunger, when `amount` may slake it (the refusals name the character)."""
        # Bounded like every typed number: more than the highest Hunger slakes nothing more.
        if amount > v5.MAX_HUNGER:
            raise DiceError(f"Slake Hunger by 1 to {v5.MAX_HUNGER}.")
        old = hunger(target)
        if old == 0:
            raise DiceError(f"{escape(target.key)}'s Hunger is already 0.")
        if amount < 1:
            raise DiceError("Slake Hunger by 1 or more.")
        if old <= v5_rouse.SLAKE_FLOOR and not killed:
            raise DiceError(f"{escape(target.key)}'s Hunger is already {v5_rouse.SLAKE_FLOOR}: only draining "
                            "and killing the vessel slakes the last point (+hunger/slake/kill).")
        return old

    def list_room(self):
        if not is_staff(self.caller):
            raise DiceError("Only staff list the Hunger of everyone here.")
        if self.args.strip():
            raise DiceError("/room takes nothing after it.")
        location = self.caller.location
        characters = sorted((obj for obj in (location.contents if location else []) if has_sheet(obj)),
                            key=lambda obj: obj.key.lower())
        if not characters:
            self.msg("No one here has a character sheet.")
            return
        width = max(len(obj.key) for obj in characters)
        lines = [f"|wHunger here ({escape(location.key)}):|n"]
        lines += [f"  {escape(obj.key).ljust(width)}  {hunger(obj)}" for obj in characters]
        self.msg("\n".join(lines))
