"""
Builder commands that name things, held to the name rule (typeclasses/names.py).

`@name` (`@rename`, `name`) is Evennia's own, run as it is once the new name passes the rule: a
character's or an account's name the strict rule (letters, digits, single spaces, `' - . _`;
no markup, control characters, lock-string characters or tag look-alikes), a room's, exit's or
thing's the text rule. A refused name gets one line saying what is wrong, and nothing changes.
"""

from evennia.commands.default.building import CmdName as _StockName

from typeclasses.names import kind_of, name_problem


class CmdName(_StockName):
    """
    change the name and/or aliases of an object

    Usage:
      name <obj> = <newname>;alias1;alias2

    Rename an object to something new. Use *obj to rename an account.
    Names follow the game's name rule: a character's or account's name
    holds letters, digits, single spaces and ' - . _ only (see
    help names); other objects may hold any printable text but no
    markup (|, {, }).
    """

    def func(self):
        problem = self.name_problem()
        if problem:
            self.caller.msg(problem)
            return
        super().func()

    def name_problem(self):
        """Why the new name (or an alias) cannot be used, or None (the stock command then runs,
        and says itself what else is wrong: no such object, no right to edit it...)."""
        if not self.args or not self.lhs_objs or not self.rhs:
            return None
        objname = self.lhs_objs[0]["name"]
        if objname.startswith("*"):
            newname = self.rhs.strip()
            return name_problem(newname, "account") or self.account_taken(objname[1:], newname)
        target = self.caller.search(objname, quiet=True)
        if len(target) != 1:
            return None
        target = target[0]
        kind = kind_of(target)
        newname = self.rhs_objs[0]["name"] if self.rhs_objs else self.rhs
        aliases = self.rhs_objs[0]["aliases"] if self.rhs_objs else []
        for name, rule in [(newname, kind)] + [(alias, "object") for alias in aliases]:
            if name:
                problem = name_problem(name, rule)
                if problem:
                    return problem
        if kind == "character" and newname:
            return self.taken(target, newname)
        return None

    @staticmethod
    def account_taken(oldname, newname):
        """The stock command renames an account without Evennia's check that the name is free."""
        from evennia.accounts.models import AccountDB

        others = AccountDB.objects.filter(username__iexact=newname).exclude(username__iexact=oldname.strip())
        if others.exists():
            return f"The account name '{newname}' is already taken."
        return None

    @staticmethod
    def taken(target, newname):
        """Evennia refuses a new character whose name another character has; so does a rename."""
        others = type(target).objects.filter_family(db_key__iexact=newname).exclude(id=target.id)
        if others.exists():
            return f"A character named '{newname}' already exists."
        return None
