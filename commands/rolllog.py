"""
The roll log in the game: +roll/verify (see commands.rolls) and +rolls.

Storing happens in `commands.dice_base.announce(..., record=...)` and `record_action`; the
queries and the rules of who may see what are in `rolllog.api`, the look in `rolllog.display`.
"""

from rules.errors import DiceError

from .dice_base import DiceCommand, find_character, is_staff, whole_number
from .dice_display import escape


def verify_roll(caller, code):
    """
    +roll/verify <code>: the stored roll, or "There is no such roll." both when the code does
    not exist and when the caller may not see it (so codes cannot be probed).
    """
    from rolllog import api, display

    code = (code or "").strip()
    if not code:
        raise DiceError("Give the code to verify: +roll/verify <code>.")
    entry = api.find_visible(code, caller)
    if entry is None:
        caller.msg(display.NO_SUCH_ROLL)
        return None
    caller.msg(display.format_verify(entry, caller, staff=is_staff(caller)))
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

    Every roll, every later change to a roll (a Willpower reroll, a contest
    answer) and every staff change to Hunger is stored on the roll log with
    a verification code. Staff see the whole log, newest first, 20 entries
    to a page; name a character to see what was rolled by or for them.
    Players see their own rolls (+rolls and +rolls/mine are the same for
    them). +roll/verify <code> shows one entry in full. The log is also on
    the game's website, at /rolls/.

    Examples:
      +rolls
      +rolls Alice
      +rolls Alice=2
      +rolls/private/here
      +rolls/mine
    """

    key = "+rolls"
    aliases = ["rolls"]
    locks = "cmd:all()"
    switch_options = ("mine", "private", "here")
    usage = "+rolls[/mine][/private][/here] [<character>][=<page>]"

    def run(self):
        from rolllog import api, display

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

        entries, total, pages = api.page(query, number)
        number = min(number, pages)
        title = "Roll log" + (f" ({', '.join(filters)})" if filters else "")
        switches = "".join(f"/{s}" for s in self.switches)
        hint = f"{self.cmdstring}{switches}{' ' + name if name else ''}"
        self.msg(display.format_page(entries, total, number, pages, escape(title), escape(hint)))
