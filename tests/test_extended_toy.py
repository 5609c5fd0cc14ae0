"""
A sixth system's extended rolls edit no shared file: a toy system ("Stones") and its wing,
defined here alone and registered for the test (`rules.systems.register`,
`commands.dice_base.register_wing`), supply only their extended-roll rules, and the shared
`+roll/extended`, `/status`, `/stop` (`commands.extended`) play them: the messages, the
refusals, the state kept over a restart, the record.

The toy: a pool of d6 (numbers or Grit 0-5); a 5 or 6 is a success. Its extended rule: a roll
with no success that shows a 1 is a slip, which takes 1 off the total (never below 0); the
target comes after `to` (`+roll/extended 4 to 6`), and `/steady` is a switch of its own that
goes with an extended roll and is kept for every roll (one die more).
"""

import pathlib
from dataclasses import dataclass

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import dice_base, extended, pending
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from rules import extended as rules_extended
from rules import systems
from rules.engine import FAIL, SUCCESS, DiceGroup, Die, Outcome, RollRequest, RollView, Sheet, System
from rules.errors import DiceError
from rules.pools import TraitTable, build_pool, match_name
from rules.randomness import FixedFaces, roll_faces, seeded

ROOT = pathlib.Path(__file__).resolve().parent.parent


class StonesSheet(Sheet):
    def defaults(self):
        return {"grit": 0}

    def match(self, typed):
        return match_name(typed, ("grit",))

    def check_value(self, trait, value, values):
        return value

    def traits(self, values, specialties):
        return TraitTable(values={"grit": values["grit"]}, specialties={}, aliases={}, specialty_traits=frozenset())

    def state(self, values):
        return {}


@dataclass(frozen=True)
class StonesRoll:
    faces: tuple

    @property
    def successes(self):
        return sum(1 for face in self.faces if face >= 5)

    @property
    def slip(self):
        return not self.successes and 1 in self.faces


class StonesExtended(rules_extended.ExtendedRules):
    target_word = "to"
    syntax = "<pool> to <total>"
    switches = ("steady",)
    lasting = ("steady",)
    mark_nouns = {"slip": ("slip", "slips")}

    def step(self, result):
        if result.slip:
            return rules_extended.Step(added=-1, marks=("slip",), note="a slip takes 1 off")
        return rules_extended.Step(added=result.successes)


class StonesSystem(System):
    key = "stones"
    title = "Stones"
    roll_switches = ("steady",)
    roll_usage = "+roll <pool> [# <comment>]"
    check_usage = "+check <number> [# <comment>]"
    sheet = StonesSheet()
    extended = StonesExtended()

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        pool = build_pool(text, None if numbers_only or roller is None else roller.traits)
        steady = "steady" in switches
        return RollRequest(system=self.key, text=text, pool=pool, dice=pool.dice + steady,
                           options=frozenset({"steady"} if steady else ()))

    def roll(self, request, roller=None, rng=None):
        return StonesRoll(tuple(roll_faces(request.dice, rng, sides=6)))

    def view(self, result, request=None):
        dice = tuple(Die(face, frozenset({SUCCESS if face >= 5 else FAIL})) for face in result.faces)
        outcome = Outcome("success", "success", "good") if result.successes else Outcome("failure", "failure", "bad")
        return RollView(system=self.key, pool=f"{len(result.faces)} stones", target="",
                        groups=(DiceGroup("Stones", dice, sides=6),), score=result.successes,
                        noun=("success", "successes"), outcome=outcome)


class StonesWing(dice_base.Wing):
    """Only what an extended roll asks of a wing: here, counting what its rolls paid."""

    def extended_rolled(self, cmd, request, result, record, receivers):
        cmd.caller.ndb.stones_paid = (cmd.caller.ndb.stones_paid or 0) + 1


@override_settings(DICE_SYSTEM="stones")
class TestToyExtended(EvenniaCommandTest):
    def setUp(self):
        systems.register(StonesSystem())
        dice_base.register_wing(StonesWing("stones"))
        self.addCleanup(systems.unregister, "stones")
        self.addCleanup(dice_base.unregister_wing, "stones")
        super().setUp()
        self.char1.set_trait("grit", 3)

    def roll(self, args, faces, expected=None, cmd=CmdRoll, **kwargs):
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd(), args, expected, **kwargs)
        self.assertEqual(source.remaining, [])
        return out

    def refused(self, args, message, cmd=CmdRoll):
        out = self.roll(args, [], cmd=cmd)
        self.assertTrue(out.replace("\n  ", " ").startswith(message), out)
        self.assertIn("\nUsage: +", out)

    def test_start_continue_status_stop(self):
        out = self.roll("/extended grit to 4 # the wall", [5, 6, 2], {self.char2: (
            "[Roll] Char starts an extended roll toward 4 (roll 1): 3 stones # the wall\n"
            "  Stones (d6): 5 6 2  =>  2 successes: success\n"
            "  Extended: 2/4 after 1 roll. [code ")})
        self.assertIn("Extended: 2/4 after 1 roll.", out)
        self.roll("/extended", [1, 2, 3], "[Roll] Char continues an extended roll toward 4 (roll 2): 3 stones\n"
                  "  Stones (d6): 1 2 3  =>  0 successes: failure\n"
                  "  Extended: 1/4 after 2 rolls (a slip takes 1 off; 1 slip).")
        self.call(CmdRoll(), "/status", "Your extended roll: grit toward 4: 1/4 after 2 rolls, 1 slip.")
        self.assertEqual(self.char1.ndb.stones_paid, 2)
        self.roll("/extended", [5, 5, 6], "[Roll] Char continues an extended roll toward 4 (roll 3): 3 stones\n"
                  "  Stones (d6): 5 5 6  =>  3 successes: success\n"
                  "  Extended: 4/4 after 3 rolls: complete (1 slip).")
        self.refused("/extended", "Your extended roll is complete (4/4); start a new one with +roll/extended "
                     "<pool> to <total>.")
        self.call(CmdRoll(), "/stop", "You stop your extended roll of grit toward 4: 4/4 after 3 rolls, 1 slip,\n"
                  "  complete.")
        self.assertIsNone(extended.load(self.char1))

    def test_the_shared_refusals(self):
        no_roll = "You have no extended roll: start one with +roll/extended <pool> to <total>."
        for args in ("/extended", "/status", "/stop"):
            self.refused(args, no_roll)
        self.refused("/extended grit", "Say the total to reach: +roll/extended <pool> to <total>.")
        self.refused("/extended to 3", "Say what to roll before 'to'.")
        self.refused("/extended grit to 0", "An extended roll's target is a total of 1 to 100 successes.")
        self.refused("/extended grit to x", "The target total is a whole number of successes, not 'x'.")
        self.refused("/extended 3 to 4=Char2", "To show a roll only to some characters, roll privately")
        self.assertIsNone(extended.load(self.char1))
        self.roll("/extended 2 to 9", [2, 2])
        self.refused("/extended 3 to 4", "You already have an extended roll going (2 toward 9: 0/9 after 1 roll); "
                     "roll it with /extended or drop it with /stop.")
        self.refused("/extended/private", "This extended roll is public; /private only applies when starting one.")
        self.refused("/status/stop", "Use /status or /stop, not both.")
        self.refused("/status 3", "/status and /stop take nothing after them.")
        self.refused("/stop/steady", "/status and /stop take no other switch.")
        self.assertEqual(extended.load(self.char1).rolls, 1)

    def test_check_and_a_lasting_switch(self):
        self.roll("/extended/steady 2 to 5", [5, 2, 2], cmd=CmdCheck)
        state = extended.load(self.char1)
        self.assertEqual((state.switches, state.numbers_only, state.pool), (("steady",), True, "2"))
        self.roll("/extended", [5, 5, 2], "[Roll] Char continues an extended roll toward 5 (roll 2): 3 stones",
                  cmd=CmdCheck)

    def test_private_rolls_stay_private(self):
        self.roll("/extended/private grit to 9", [2, 2, 2], {
            self.char1: "[Private roll] Char starts an extended roll toward 9 (roll 1)", self.char2: ""})
        self.roll("/extended", [2, 2, 2], {
            self.char1: "[Private roll] Char continues an extended roll toward 9 (roll 2)", self.char2: ""})

    def test_kept_over_a_restart_and_told_on_connecting(self):
        self.roll("/extended grit to 6", [5, 2, 2])
        self.assertTrue(self.char1.db_attributes.filter(db_key=extended.STATE, db_category=pending.PENDING).exists())
        self.char1.attributes.reset_cache()  # what a restart loses
        self.char1.nattributes.clear()
        self.assertEqual(pending.pending_lines(self.char1), [
            "Your extended roll is open: grit toward 6: 1/6 after 1 roll (+roll/extended rolls it again, "
            "+roll/stop drops it)."])
        self.roll("/extended", [6, 6, 6], "[Roll] Char continues an extended roll toward 6 (roll 2)")
        self.assertEqual(extended.load(self.char1).total, 4)

    def test_a_damaged_state_is_refused_and_can_be_stopped(self):
        pending.save(self.char1, extended.STATE, {"pool": "grit"})
        self.refused("/extended", "The stored extended roll is damaged; stop it and start again.")
        self.call(CmdRoll(), "/stop", "You stop your damaged extended roll.")
        self.roll("/extended grit to 2", [5, 5, 2])

    def test_the_record(self):
        from storyteller_dice.rolllog.models import RollEntry

        self.roll("/extended grit to 5", [5, 1, 2])
        entry = RollEntry.objects.get()
        self.assertEqual((entry.system, entry.kind, entry.score, entry.outcome), ("stones", "extended", 1, "success"))
        self.assertEqual(entry.data["extended"], {"target": 5, "total": 1, "rolls": 1, "complete": False})
        self.assertEqual(entry.summary, "1 success: success; extended 1 of 5")

    def test_a_system_without_extended_rolls_has_no_such_switch(self):
        systems.register(_without_extended())
        out = self.roll("/extended 3 to 4", [])
        self.assertTrue(out.startswith("Unknown switch /extended"), out)

    def test_no_shared_file_names_the_toy(self):
        named = [str(path.relative_to(ROOT)) for folder in ("rules", "commands", "typeclasses", "rolllog", "game")
                 for path in (ROOT / folder).rglob("*.py") if "stones" in path.read_text().lower()]
        self.assertEqual(named, [])


def _without_extended():
    system = StonesSystem()
    system.extended = None
    system.roll_switches = ()
    return system
