"""
What every dice command shares: the help category, refusing bad input with one clear line,
finding characters, telling who is staff, and sending a roll to its audience.

Commands stay thin: they parse, fetch traits, call `rules`, format (`commands.dice_display`)
and send. No dice logic lives here.
"""

import re

from django.conf import settings
from evennia.commands.default.muxcommand import MuxCommand

from rules.errors import DiceError
from rules.systems import get_system

from .dice_display import escape as _escape
from .dice_display import without_control

HELP_CATEGORY = "Dice"
STAFF_LOCK = "perm(Builder)"


class DiceCommand(MuxCommand):
    """Base for the dice commands (not a command itself)."""

    help_category = HELP_CATEGORY
    usage = ""
    switch_options = ()

    def parse(self):
        # MuxCommand only warns about an unknown switch and runs anyway; a typo in
        # `/private` must not make a roll public, so an unknown switch refuses the command.
        self.bad_switch = None
        # Whatever the client sent, no control character reaches a message, a database query
        # or the roll log.
        self.args = without_control(self.args)
        self.raw_string = without_control(self.raw_string)
        raw = self.args
        if raw and raw[0] == "/":
            given = raw[1:].split(None, 1)[0] if raw[1:].strip() else ""
            for element in filter(None, given.lower().split("/")):
                exact = [opt for opt in self.switch_options if opt == element]
                matches = exact or [opt for opt in self.switch_options if opt.startswith(element)]
                if len(matches) != 1:
                    self.bad_switch = element
                    break
        if self.bad_switch:
            switch_options, self.switch_options = self.switch_options, None
            super().parse()
            self.switch_options = switch_options
        else:
            super().parse()

    def func(self):
        if self.bad_switch is not None:
            known = ", ".join(f"/{opt}" for opt in self.switch_options)
            knows = f"this command knows {known}" if known else "this command has no switches"
            self.refuse(f"Unknown switch /{self.bad_switch} ({knows}).")
            return
        try:
            self.run()
        except DiceError as err:
            self.refuse(str(err))

    def refuse(self, message):
        """One line: what was wrong, then the usage."""
        usage = f" Usage: {self.usage}" if self.usage else ""
        self.msg(f"{message}{usage}")

    def run(self):
        raise NotImplementedError


_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
COMMENT = re.compile(r"(?:^|\s)#")
_HUNGER = re.compile(r"^(?P<pool>.*?)\s*\bhunger\s+(?P<value>\S+)\s*$", re.IGNORECASE | re.DOTALL)


def split_comment(text):
    """`dex+stealth vs 3 # up the wall` -> ("dex+stealth vs 3", "up the wall")."""
    found = COMMENT.search(text)
    if found:
        return text[: found.start()].strip(), text[found.end():].strip()
    return text.strip(), ""


def split_hunger(text):
    """`6 vs 2 hunger 2` -> ("6 vs 2", 2); `6` -> ("6", None). The Hunger goes last."""
    found = _HUNGER.match(text.strip())
    if not found:
        return text.strip(), None
    from rules import v5

    hunger = whole_number(found.group("value"), f"Hunger must be a whole number from 0 to {v5.MAX_HUNGER}",
                          v5.check_hunger)
    pool = found.group("pool").strip()
    if not pool:
        raise DiceError("Say how many dice before 'hunger'.")
    return pool, hunger


def whole_number(typed, message, check=None, signed=False):
    """
    A number the player typed: ASCII digits only (`str.isdigit` also takes '²', which `int`
    refuses), any length (a huge one is just out of range for `check`).

    Args:
        typed (str): what was typed.
        message (str): the refusal, completed with ", not '<typed>'.".
        check (callable, optional): a rules range check that returns the value or raises.
        signed (bool): whether a leading '-' is allowed.
    """
    typed = typed.strip()
    if not _WHOLE_NUMBER.fullmatch(typed) or (typed.startswith("-") and not signed):
        raise DiceError(f"{message}, not '{_escape(typed)}'.")
    digits = typed.lstrip("-")
    value = int(digits) if len(digits) <= 12 else 10**12
    value = -value if typed.startswith("-") else value
    return check(value) if check else value


def is_staff(obj):
    """Builder or above (through the account when puppeted)."""
    return bool(obj) and obj.locks.check_lockstring(obj, f"staff:{STAFF_LOCK}")


def dice_system():
    return get_system(getattr(settings, "DICE_SYSTEM", "v5"))


def bestial_rule():
    return getattr(settings, "V5_BESTIAL_FAILURE", "official")


def find_character(caller, name, room_only=False):
    """
    The one character called `name` (in the caller's room, or anywhere).

    Raises:
        DiceError: none, or more than one.
    """
    from typeclasses.characters import Character

    name = name.strip()
    if not name:
        raise DiceError("Name a character.")
    if room_only:
        candidates = caller.search(name, quiet=True, typeclass=Character)
    else:
        candidates = caller.search(name, global_search=True, quiet=True, typeclass=Character)
    candidates = [obj for obj in candidates if isinstance(obj, Character)]
    exact = [obj for obj in candidates if obj.key.lower() == name.lower()]
    if len(exact) == 1 or len(candidates) == 1:
        return exact[0] if exact else candidates[0]
    where = " here" if room_only else ""
    if not candidates:
        raise DiceError(f"There is no character called '{name}'{where}.")
    listed = ", ".join(sorted(obj.key for obj in candidates))
    raise DiceError(f"'{name}' could be several characters: {listed}.")


def staff_in_room(caller):
    location = caller.location
    if not location:
        return []
    return [obj for obj in location.contents if obj.has_account and is_staff(obj)]


class Announced(list):
    """
    What `announce` returns: the list of receivers (as before), plus `entry` (the stored
    `rolllog.models.RollEntry`, or None when nothing was recorded), `code` and `text` (what
    was sent, with the code).
    """

    entry = None
    code = None
    text = ""


def announce(caller, text, private=False, shared_with=(), record=None):
    """
    Store a roll, then send it to its audience; return the receivers (see `Announced`).

    Public: everyone in the room. Private: the roller, the characters it is shared with and
    staff in the room.

    `record` (dict or None) describes the roll for the roll log: keys such as `kind`
    ("roll", "check", "rouse", ...), `command` (as typed), `pool` (a Pool or text with trait
    values), `result` (a rules result: faces, difficulty, successes, outcome are read from it),
    or `regular`, `hunger` (faces), `difficulty`, `outcome`, `summary`; `subject` (the
    character rolled for, when staff roll for someone else), `parent` (the entry or code of
    the roll this one changes: a willpower reroll, a contest answer). Full list:
    `rolllog.api`. It is stored before anyone is told, and the text gets the entry's
    verification code at the end of its last line (`[code ABCD2345]`).
    """
    location = caller.location
    if private or not location:
        receivers = Announced([caller])
        for obj in list(shared_with) + staff_in_room(caller):
            if obj not in receivers:
                receivers.append(obj)
    else:
        receivers = Announced(location.contents)
    if record is not None:
        from rolllog import api as rolllog_api

        entry = rolllog_api.store_roll(caller, record, private=private or not location,
                                       receivers=receivers, shared_with=shared_with, text=text)
        receivers.entry, receivers.code = entry, entry.code
        text = entry.text
    receivers.text = text
    if private or not location:
        for obj in receivers:
            obj.msg(text, from_obj=caller)
    else:
        location.msg_contents(text, from_obj=caller)
    return receivers


def record_action(actor, subject, kind, description, **kwargs):
    """
    Put a staff action that is not a roll (Hunger set, slaked, ...) on the roll log.

    Sends nothing; returns the stored entry (its `code` can be shown). Keyword arguments:
    `command`, `private` (default True: the actor, the subject and staff may see it),
    `receivers`, `room`, `parent`, `details`, `text` (see `rolllog.api.record_action`).
    """
    from rolllog import api as rolllog_api

    return rolllog_api.record_action(actor, subject, kind, description, **kwargs)
