"""
Builder commands that name things, held to the name rule (typeclasses/names.py).

`@create`, `@dig` and `@open` are Evennia's own too, run once every new name and alias in
their arguments passes the rule (a `:typeclass` that is a character takes the strict rule).

`@name` (`@rename`, `name`) is Evennia's own, run as it is once the new name passes the rule: a
character's or an account's name the strict rule (letters, digits, single spaces, `' - . _`;
no markup, control characters, lock-string characters or tag look-alikes), a room's, exit's or
thing's the text rule. A refused name gets one line saying what is wrong, and nothing changes.
"""

from evennia.accounts.models import AccountDB
from evennia.commands.default.building import CmdCreate as _StockCreate
from evennia.commands.default.building import CmdDig as _StockDig
from evennia.commands.default.building import CmdName as _StockName
from evennia.commands.default.building import CmdOpen as _StockOpen

from storyteller_dice.typeclasses.names import kind_of, kind_of_typeclass, name_problem


RULE_HELP = """
    New names and aliases follow the game's name rule (see help names).
    """


class NewNamesRuled:
    """
    For Evennia's builder commands whose arguments name new objects (`name;alias:typeclass`,
    parsed by ObjManipCommand into `lhs_objs`/`rhs_objs`): each name and alias is checked
    first; the first that breaks the rule is said in one line and nothing is made.
    """

    #: Which sides of `=` name new objects.
    new_name_sides = ("lhs",)

    def func(self):
        problem = self.new_names_problem() if self.args else None
        if problem:
            self.caller.msg(problem)
            return None
        return super().func()  # a generator (a Y/N question) is handed on as it is

    def new_names_problem(self):
        for side in self.new_name_sides:
            for objdef in getattr(self, f"{side}_objs", None) or ():
                kind = kind_of_typeclass(objdef["option"]) if objdef.get("option") else "object"
                names = [(objdef["name"], kind)] + [(alias, "object") for alias in objdef["aliases"]]
                for name, rule in names:
                    problem = name_problem(name, rule) if name else None
                    if problem:
                        return problem
        return None


class CmdCreate(NewNamesRuled, _StockCreate):
    __doc__ = _StockCreate.__doc__ + RULE_HELP


class CmdDig(NewNamesRuled, _StockDig):
    __doc__ = _StockDig.__doc__ + RULE_HELP
    new_name_sides = ("lhs", "rhs")  # the room, then its exits


class CmdOpen(NewNamesRuled, _StockOpen):
    __doc__ = _StockOpen.__doc__ + RULE_HELP


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
