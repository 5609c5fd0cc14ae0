"""
The roll log in the game: +roll/verify (see commands.rolls) and +rolls.

Storing happens in `commands.dice_base.announce(..., record=...)` and `record_action`; the
queries and the rules of who may see what are in `rolllog.api`, the look in `rolllog.display`.

Both fit the caller's screen: lines are made at the client's width (NAWS; 80 when unknown,
never more than 80 for +rolls, whose rows are two lines an entry), and a list taller than the
client's screen goes through Evennia's pager, with its prompt fitted to the screen too
(`commands.pager`).
"""

from storyteller_dice.rolllog import api, display
from storyteller_dice.rules.errors import DiceError

from . import dice_base, pager
from .dice_base import DiceCommand, find_character, is_staff, whole_number

PAGE_SIZE = 15  # entries on a +rolls page: 2 lines each, 33 lines with the title
DEFAULT_WIDTH = 80
DEFAULT_HEIGHT = 45  # Evennia's CLIENT_DEFAULT_HEIGHT


def _flag(obj, name, default):
    """The lowest value of a protocol flag (SCREENWIDTH, SCREENHEIGHT) over `obj`'s sessions."""
    values = []
    try:
        sessions = obj.sessions.get()
    except AttributeError:
        sessions = []
    for session in sessions:
        value = getattr(session, "protocol_flags", {}).get(name, {0: default})
        value = value.get(0, default) if isinstance(value, dict) else value
        if isinstance(value, int) and value > 0:
            values.append(value)
    return min(values) if values else default


def screen_width(obj, most=DEFAULT_WIDTH):
    """The caller's client width (`dice_base.width_of` when it is there), at most `most`."""
    width_of = getattr(dice_base, "width_of", None)
    width = width_of(obj) if width_of else _flag(obj, "SCREENWIDTH", DEFAULT_WIDTH)
    return max(40, min(most, int(width or DEFAULT_WIDTH)))


def send_paged(caller, text):
    """Send `text`; through Evennia's pager when it is taller than the caller's screen."""
    height = max(4, _flag(caller, "SCREENHEIGHT", DEFAULT_HEIGHT) - 4)
    if text.count("\n") + 1 > height:
        try:
            has_session = bool(caller.sessions.get())
        except AttributeError:
            has_session = False
        if has_session:
            pager.msg(caller, text, exit_on_lastpage=True)
            return
    caller.msg(text)


def verify_roll(caller, code):
    """
    +roll/verify <code>: the stored roll, or "There is no such roll." both when the code does
    not exist and when the caller may not see it (so codes cannot be probed).
    """
    code = (code or "").strip()
    if not code:
        raise DiceError("Give the code to verify: +roll/verify <code>.")
    entry = api.find_visible(code, caller)
    if entry is None:
        caller.msg(display.NO_SUCH_ROLL)
        return None
    caller.msg(display.format_verify(entry, caller, staff=is_staff(caller), width=screen_width(caller)))
    return entry


class CmdRolls(DiceCommand):
    """
    Look through the roll log.

    Usage:
      +rolls[/private][/here] [<character>][=<page>]     (staff)
      +rolls/mine[/private][/here] [=<page>]

    Switches:
      mine    - your own rolls: made by or for this character
      private - only private rolls
      here    - only what happened in this room

    Staff see the whole log, newest first, 15 entries a page; players see
    their own rolls. +roll/verify <code> shows one entry in full.

    Examples:
      +rolls
      +rolls Alice
      +rolls Alice=2
      +rolls/private/here
      +rolls/mine

    See also: help the roll log, help verifying rolls.
    """

    key = "+rolls"
    aliases = ["rolls"]
    locks = "cmd:all()"
    switch_options = ("mine", "private", "here")
    usage = "+rolls[/mine][/private][/here] [<character>][=<page>]"

    def run(self):
        caller = self.caller
        staff = is_staff(caller)
        name, number = self.lhs.strip(), 1
        if self.rhs is not None:
            number = whole_number(self.rhs, "The page must be a whole number from 1")
            if number < 1:
                raise DiceError(f"The page must be a whole number from 1, not '{number}'.")
        mine = "mine" in self.switches or not staff
        if name and mine:
            if not staff:
                raise DiceError("Only staff can look at other characters' rolls; +rolls/mine shows yours.")
            raise DiceError("Use /mine or name a character, not both.")

        filters = []
        query = api.search()
        if mine:
            query = api.search(character=caller)
            filters.append("yours")
        elif name:
            try:
                target = find_character(caller, name)
            except DiceError:
                # A character that no longer exists is still on the log under its name.
                named = api.search_names(name)
                if named is None:
                    raise
                query, label = named
            else:
                query, label = api.search(character=target), target.key
            filters.append(label)
        if "private" in self.switches:
            query = api.search(private_only=True, query=query)
            filters.append("private")
        if "here" in self.switches:
            if not caller.location:
                raise DiceError("You are nowhere: /here needs a room.")
            query = api.search(room=caller.location, query=query)
            filters.append(f"in {caller.location.key}")

        entries, total, pages = api.page(query, number, size=PAGE_SIZE)
        number = min(number, pages)
        title = "Roll log" + (f" ({', '.join(filters)})" if filters else "")
        switches = "".join(f"/{s}" for s in self.switches)
        hint = f"{self.cmdstring}{switches}{' ' + name if name else ''}"
        send_paged(caller, display.format_page(entries, total, number, pages, display.escape(title),
                                               display.escape(hint), width=screen_width(caller)))
