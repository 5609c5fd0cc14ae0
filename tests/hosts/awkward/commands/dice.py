"""
The host's own dice commands, older than the package: `+roll`, `+sheet` and `+rouse`, in a
cmdset that happens to be called `DiceCmdSet` too.
"""

from evennia import CmdSet, Command


class CmdHostRoll(Command):
    """The host's roll."""

    key = "+roll"
    locks = "cmd:all()"

    def func(self):
        self.caller.msg(f"Host roll: {self.args.strip()}")


class CmdHostSheet(Command):
    """The host's sheet: its own stats."""

    key = "+sheet"
    locks = "cmd:all()"

    def func(self):
        physical = (self.caller.db.stats or {}).get("attributes", {}).get("physical", {})
        self.caller.msg(f"Host sheet: dexterity={physical.get('dexterity')}")


class CmdHostRouse(Command):
    """The host's rouse check."""

    key = "+rouse"
    locks = "cmd:all()"

    def func(self):
        self.caller.msg("Host rouse.")


class DiceCmdSet(CmdSet):
    key = "HostDice"

    def at_cmdset_creation(self):
        self.add(CmdHostRoll)
        self.add(CmdHostSheet)
        self.add(CmdHostRouse)
