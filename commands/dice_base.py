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
MAX_NAME = 80  # longer than any character's name: refused without a search
STAFF_LOCK = "perm(Builder)"


class DiceCommand(MuxCommand):
    """Base for the dice commands (not a command itself)."""

    help_category = HELP_CATEGORY
    usage = ""
    switch_options = ()

    def parse(self):
        # Switches are matched here, without case, and `self.switches` holds the full names
        # that matched (`/PRIV` is `private`): the commands test them by name, so a switch
        # matched one way and applied another would make `+roll/Priv` public. MuxCommand's own
        # matching only warns about an unknown switch and runs anyway (a typo in `/private`
        # must not make a roll public), and warns once per empty `/`: it is not used.
        self.bad_switch = None
        # Whatever the client sent, no control character reaches a message, a database query
        # or the roll log.
        self.args = without_control(self.args)
        self.raw_string = without_control(self.raw_string)
        switch_options, self.switch_options = self.switch_options, None
        try:
            super().parse()
        finally:
            self.switch_options = switch_options
        options = [opt.lower() for opt in switch_options or ()]
        matched = []
        for element in self.switches:
            typed = element.lower()
            exact = [opt for opt in options if opt == typed]
            matches = exact or [opt for opt in options if typed and opt.startswith(typed)]
            if len(matches) != 1:
                self.bad_switch = (element, matches)
                break
            if matches[0] not in matched:
                matched.append(matches[0])
        self.switches = matched

    def func(self):
        if self.bad_switch is not None:
            self.refuse(self.switch_refusal(*self.bad_switch))
            return
        try:
            self.run()
        except DiceError as err:
            self.refuse(refusal_text(err))

    def switch_refusal(self, typed, matches):
        options = [opt.lower() for opt in self.switch_options or ()]
        if len(matches) > 1:
            return f"Switch /{_escape(typed)} could be " + " or ".join(f"/{opt}" for opt in matches) + "."
        known = ", ".join(f"/{opt}" for opt in options)
        knows = f"this command knows {known}" if known else "this command has no switches"
        if not typed:
            return f"Put a switch name after '/' ({knows})."
        return f"Unknown switch /{_escape(typed)} ({knows})."

    def refuse(self, message):
        """One line: what was wrong, then the usage."""
        usage = f" Usage: {self.usage}" if self.usage else ""
        self.msg(f"{message}{usage}")

    def run(self):
        raise NotImplementedError


def refusal_text(err):
    """
    A refusal's text, inert. `rules/` is pure Python and quotes what was typed as it is
    (`I can't read '|r...' in the pool`), so its messages are escaped here; the commands'
    own messages escape the player text they quote (and may carry markup of ours).
    """
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_globals.get("__name__", "") if tb is not None else ""
    text = str(err)
    return _escape(text) if where == "rules" or where.startswith("rules.") else text


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
    # Leading zeros first: `00000000000003` is 3. Past 12 digits a number is only "too big"
    # (10**12 stands for it), so `int` never works on a 4,000-digit string.
    digits = typed.lstrip("-").lstrip("0") or "0"
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

    name = " ".join(name.split())
    if not name:
        raise DiceError("Name a character.")
    if len(name) > MAX_NAME:
        raise DiceError(f"There is no character called '{_escape(name, 40)}'.")
    if room_only and caller.location:
        # The room's characters are in memory: matching their names there costs no query
        # (a search is a few ms each; a private roll may name ten). Aliases and Evennia's
        # other search forms still work through the search below when nothing matched.
        here = [obj for obj in caller.location.contents if isinstance(obj, Character)]
        lowered = name.lower()
        candidates = ([obj for obj in here if obj.key.lower() == lowered]
                      or [obj for obj in here if obj.key.lower().startswith(lowered)])
        if not candidates:
            candidates = caller.search(name, quiet=True, typeclass=Character)
    elif room_only:
        candidates = caller.search(name, quiet=True, typeclass=Character)
    else:
        candidates = caller.search(name, global_search=True, quiet=True, typeclass=Character)
    candidates = [obj for obj in candidates if isinstance(obj, Character)]
    exact = [obj for obj in candidates if obj.key.lower() == name.lower()]
    if len(exact) == 1 or len(candidates) == 1:
        return exact[0] if exact else candidates[0]
    where = " here" if room_only else ""
    if not candidates:
        raise DiceError(f"There is no character called '{_escape(name)}'{where}.")
    listed = ", ".join(sorted(_escape(obj.key) for obj in candidates))
    raise DiceError(f"'{_escape(name)}' could be several characters: {listed}.")


def staff_in_room(caller):
    location = caller.location
    if not location:
        return []
    return [obj for obj in location.contents if obj.has_account and is_staff(obj)]


def send(receivers, text, from_obj=None):
    """
    The one way out for every message of ours that carries player text (see
    `commands.dice_display`): each receiver gets exactly `text`, by its own `msg()`.

    Not `msg_contents`: it runs the `$func()` parser and `str.format_map` on the text for
    each receiver, so `$randint(1,10)` in a comment would differ per viewer, `{you}` would
    be filled in, and `{` would raise after the roll was stored. Nothing here can fail on what
    the text says, so a roll stored before it is sent is a roll that was seen.

    Args:
        receivers (iterable): objects to tell (ones without a session just get nothing).
        text (str): the finished message, player text already escaped.
        from_obj: the sender, passed on to `msg()` (its `at_msg_send` hook).

    Returns:
        list: the receivers, once each, in order.
    """
    told = []
    for obj in receivers:
        if obj is None or obj in told:
            continue
        told.append(obj)
        obj.msg(text, from_obj=from_obj)
    return told


def room_audience(caller):
    """Everyone in the caller's room (the caller alone when it is nowhere)."""
    location = caller.location
    return list(location.contents) if location else [caller]


def tell_room(caller, text):
    """A message to the caller's room (or the caller alone, nowhere), through `send`."""
    return send(room_audience(caller), text, from_obj=caller)


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
        receivers = Announced(room_audience(caller))
    if record is not None:
        from rolllog import api as rolllog_api

        entry = rolllog_api.store_roll(caller, record, private=private or not location,
                                       receivers=receivers, shared_with=shared_with, text=text)
        receivers.entry, receivers.code = entry, entry.code
        text = entry.text
    receivers.text = text
    send(receivers, text, from_obj=caller)
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
