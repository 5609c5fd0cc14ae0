"""
What the V5 wing's own rolls (+rouse, +remorse, +frenzy) keep on the roll log: the record's one
shape, a view (`V5System.rouse_view`, `remorse_view`, `frenzy_view`) of what the room saw,
and the lines drawn from those views by the shared display.
"""

import pytest

from storyteller_dice.commands.v5.humanity import CmdFrenzy, CmdRemorse
from storyteller_dice.commands.v5.hunger import CmdRouse
from storyteller_dice.rolllog import api as rolllog_api
from storyteller_dice.rolllog import display
from storyteller_dice.rules.display import strip_markup

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestWingRecords(TableTest):
    def test_a_rouse_check_is_stored_as_its_view(self):
        self.do(CmdRouse, "2 for 1", [3, 4, 5, 6])
        entry = rolllog_api.latest(self.char1, kinds=["rouse"])
        self.assertEqual(entry.view["pool"], "Rouse check")
        self.assertEqual(entry.view["groups"], [{"label": "Dice", "sides": 10, "dice": [
            [3, ["fail"]], [4, ["fail"]], [5, ["fail"]], [6, ["success"]]]}])
        self.assertEqual((entry.view["score"], entry.view["noun"]), (1, ["passed", "passed"]))
        self.assertEqual(entry.view["outcome"], {"key": "rouse", "label": "1 passed, 1 failed: Hunger 2 -> 3",
                                                 "tone": "neutral"})
        self.assertEqual((entry.outcome, entry.score, entry.dice), ("rouse", 1, 4))
        self.assertEqual(entry.summary, "1 passed, 1 failed: Hunger 2 -> 3")
        self.assertEqual(entry.data, {"system": "v5", "faces": [3, 4, 5, 6], "passed": 1})
        self.assertEqual(entry.details["hunger_after"], 3)

    def test_a_rouse_check_at_hunger_five_keeps_no_dice(self):
        self.char1.set_trait("hunger", 5)
        self.do(CmdRouse, "", [])
        entry = rolllog_api.latest(self.char1, kinds=["rouse"])
        self.assertEqual((entry.view["groups"], entry.dice, entry.score), ([], None, 0))

    def test_a_remorse_test_is_stored_as_the_room_saw_it(self):
        self.char1.set_trait("humanity", 7)
        self.char1.set_trait("stains", 2)
        self.do(CmdRemorse, "", [8])
        entry = rolllog_api.latest(self.char1, kinds=["remorse"])
        self.assertEqual(entry.view["pool"], "Humanity 7, Stains 2 (1 die, no Hunger dice)")
        self.assertEqual((entry.view["target"], entry.view["notes"]), ("", []))
        self.assertEqual(entry.view["outcome"], {"key": "humanity_kept", "label": "Humanity kept at 7",
                                                 "tone": "good"})
        self.assertEqual(display.what(entry), "Humanity 7, Stains 2 (1 die, no Hunger dice) => "
                         "Humanity kept at 7; Stains cleared")
        # The line the room saw is the view drawn, with the Stains cleared after the verdict.
        self.assertIn("  Dice: 8  =>  1 success: Humanity kept at 7; Stains cleared.", strip_markup(entry.text))

    def test_a_lost_remorse_test_and_the_beast(self):
        self.char1.set_trait("humanity", 1)
        self.char1.set_trait("stains", 1)
        self.do(CmdRemorse, "", [1] * 8)
        entry = rolllog_api.latest(self.char1, kinds=["remorse"])
        self.assertEqual(entry.view["outcome"]["key"], "humanity_lost")
        self.assertEqual(entry.view["outcome"]["tone"], "disaster")
        self.assertIn("0 successes: |[400|wHumanity drops to 0|n: the Beast has\n    won; Stains cleared.", entry.text)

    def test_a_frenzy_test_for_someone_else_keeps_its_subject_and_margin(self):
        self.do(CmdFrenzy, "Char2 vs 2 # the torch", [6, 6, 1, 1, 1, 1, 1])
        entry = rolllog_api.latest(self.char2, kinds=["frenzy"])
        self.assertEqual(entry.subject, self.char2)
        self.assertEqual(entry.view["pool"], "Willpower 5 + Humanity 7 / 3 (2) = 7 (7 dice, no Hunger dice)")
        self.assertEqual((entry.view["target"], entry.view["notes"]), ("vs 2", ["margin +0"]))
        self.assertEqual((entry.outcome, entry.score, entry.comment), ("bare", 2, "the torch"))
        self.assertEqual(entry.data["regular"], [6, 6, 1, 1, 1, 1, 1])
        self.assertEqual(display.what(entry), "Willpower 5 + Humanity 7 / 3 (2) = 7 (7 dice, no Hunger dice), "
                         "vs 2 => 2 successes: bare success (margin +0)")
