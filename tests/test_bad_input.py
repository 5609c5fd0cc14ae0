"""
Bad input, thrown at every dice command with every switch, by a player and by staff.

Each must answer with a message (never a traceback or silence), roll nothing (the dice source
has no faces: a roll would fail the test), store nothing on the roll log and change nothing
on either sheet.
"""

from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.rules.randomness import FixedFaces, seeded

GARBAGE = [
    "", " ", "=", "==", "/", "//", ",", "vs", "vs vs", "vs 3", "dex vs", "dex vs -x", "dex vs 1.5",
    "dex vs 3 vs 4", "dex+", "+", "-", "dex++str", "((", "))", "str(", "str+brawl(", "str+brawl(x",
    "str+brawl()", "#", "# only a comment", "999999999999999999999", "51", "50+1", "dex+" * 30 + "1",
    "x" * 500, "|r|[rred", "\x00\x1b[31mraw", "ä漢字", "nobody", "nobody=1", "Char2/", "/Char2",
    "Char2=", "=5", "Char2=-1", "Char2=99999999999", "Char2=x", "Char2/nosuchtrait=1",
    "dex+stealth vs 3 hunger 9", "5 hunger -1", "5 hunger x", "hunger", "for 0", "for 9",
    "for x", "7 for 2", "-x", "dex vs 3/willpwr", "spec", "spec =x", "spec brawl=", "spec nosuch=x",
    "Nobody vs Nobody", "5 vs nobody", "dex vs Char", "1 2 3 4", "failures crits", "0 0",
    # Digits that are not ASCII: str.isdigit() takes them, int() refuses '²'.
    "²", "٣", "dex vs ²", "dex vs ٣", "Char2=²", "Char2=٣", "5 hunger ²", "for ²", "=²", "Char2/dex=²",
]
# Inputs that are real actions for some commands (they roll or change state by design).
VALID = {
    "+frenzy": {"", "vs 3", "#", "# only a comment"},  # a frenzy test (a difficulty, a comment)
    "+rouse": {""},  # one Rouse check
    "+contest": {"dex vs Char"},  # Char2 challenges Char: a real challenge, stored in the database
    "ooc": {""},  # bare, Evennia's own leave-your-character (tests/test_ooc.py plays it with a session)
}
SHORT = ["", "=", "nobody", "x" * 300, "|r", "-x", "dex vs", "51"]
BOGUS_SWITCHES = ["/nosuch", "/private/nosuch", "/ext/stat"]


def commands():
    from storyteller_dice.commands.default_cmdsets import DiceCmdSet  # needs Evennia initialised

    cmdset = DiceCmdSet()
    cmdset.at_cmdset_creation()
    return list(cmdset.commands)


class BadInputTest(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char2.set_trait("dexterity", 2)
        self.char2.set_trait("hunger", 2)

    def snapshot(self):
        from storyteller_dice.rolllog.models import RollEntry

        state = {}
        for char in (self.char1, self.char2):
            for attr in char.attributes.all():
                state[(char.key, attr.category, attr.key)] = repr(attr.value)
            state[(char.key, "ndb", "last_roll")] = id(char.ndb.last_roll)
        state["log"] = RollEntry.objects.count()
        return state

    def throw(self, cmdclass, args, caller):
        """What went wrong with this input (None when it was refused cleanly)."""
        if args.strip() in VALID.get(cmdclass.key, ()):
            return None
        where = f"{cmdclass.key}{args!r} as {caller.key}"
        before = self.snapshot()
        with seeded(FixedFaces([])):
            try:
                out = self.call(cmdclass(), args, caller=caller)
            except AssertionError as err:  # FixedFaces ran out: something was rolled
                return f"{where} rolled dice ({err})"
            except Exception as err:  # noqa: BLE001 - any exception is the finding
                return f"{where} raised {err!r}"
        if not (out and out.strip()):
            return f"{where}: no answer at all"
        if "Traceback" in out:
            return f"{where}: traceback shown"
        if self.snapshot() != before:
            return f"{where} changed state: {out[:200]!r}"
        return None

    def assert_all_refused(self, cases):
        problems = [problem for problem in (self.throw(*case) for case in cases) if problem]
        self.assertEqual(problems, [], "\n".join(problems))

    def test_every_command_refuses_garbage(self):
        self.assert_all_refused(
            (type(cmd), (" " + args) if args else "", caller)
            for cmd in commands() for caller in (self.char2, self.char1) for args in GARBAGE
        )

    def test_every_switch_refuses_garbage(self):
        self.assert_all_refused(
            (type(cmd), f"{switch} {args}", caller)
            for cmd in commands()
            for switch in [f"/{opt}" for opt in cmd.switch_options] + BOGUS_SWITCHES
            for caller in (self.char2, self.char1)
            for args in SHORT
        )
