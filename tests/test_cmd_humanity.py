"""+remorse and +frenzy: sheet updates, staff-run tests, refusals."""

from unittest import mock

import pytest

from storyteller_dice.commands.sheet import CmdSheet
from storyteller_dice.commands.v5.humanity import CmdFrenzy, CmdRemorse

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestRemorse(TableTest):
    def test_a_success_keeps_humanity_and_clears_stains(self):
        self.char1.set_trait("stains", 2)
        expected = ("[Remorse] Char makes a Remorse test: Humanity 7, Stains 2 (1 die, no Hunger\n"
                    "  dice)\n"
                    "  Dice: 8  =>  1 success: Humanity kept at 7; Stains cleared.")
        self.do(CmdRemorse, "", [8], {self.char1: expected, self.char2: expected})
        self.assertEqual((self.char1.trait("humanity"), self.char1.trait("stains")), (7, 0))

    def test_no_success_lowers_humanity_and_clears_stains(self):
        self.char1.set_trait("humanity", 5)
        self.char1.set_trait("stains", 2)
        self.do(CmdRemorse, "", [1, 2, 5], "[Remorse] Char makes a Remorse test: Humanity 5, Stains 2 "
                "(3 dice, no Hunger\n  dice)\n  Dice: 1 2 5  =>  0 successes: Humanity drops to 4; Stains cleared.\n"
                "    [code ")
        self.assertEqual((self.char1.trait("humanity"), self.char1.trait("stains")), (4, 0))

    def test_hunger_dice_are_never_rolled(self):
        self.char1.set_trait("hunger", 5)
        self.char1.set_trait("humanity", 6)
        self.char1.set_trait("stains", 1)
        out = self.do(CmdRemorse, "", [1, 1, 1])
        self.assertIn("  Dice: 1 1 1  =>  0 successes", out)
        self.assertNotIn("Hunger:", out)

    def test_drop_to_zero(self):
        self.char1.set_trait("humanity", 1)
        self.char1.set_trait("stains", 1)
        self.do(CmdRemorse, "", [1] * 8, "[Remorse] Char makes a Remorse test: Humanity 1, Stains 1 (8 dice, "
                "no Hunger\n  dice)\n  Dice: 1 1 1 1 1 1 1 1  =>  0 successes: Humanity drops to 0: the Beast has\n"
                "    won; Stains cleared. [code ")
        self.assertEqual(self.char1.trait("humanity"), 0)

    def test_staff_run_it_for_another_and_the_sheet_is_saved_first(self):
        self.char2.set_trait("stains", 1)
        seen = []
        self.char2.msg = mock.Mock(side_effect=lambda *a, **k: seen.append(
            (self.char2.trait("humanity"), self.char2.trait("stains"))))
        try:
            self.do(CmdRemorse, "Char2", [3, 4], "[Remorse] Char has Char2 make a Remorse test: Humanity 7, "
                    "Stains 1 (2 dice, no\n  Hunger dice)\n  Dice: 3 4  =>  0 successes: Humanity drops to 6")
        finally:
            del self.char2.msg
        self.assertEqual(seen, [(6, 0)])

    def test_refusals(self):
        self.refused(CmdRemorse, "", "No Stains: no Remorse test is needed.")
        self.refused(CmdRemorse, "Char2", "Char2: No Stains: no Remorse test is needed.")
        self.char1.set_trait("stains", 1)
        self.refused(CmdRemorse, "Char", "Only staff make Remorse tests for someone else.", caller=self.char2)
        self.refused(CmdRemorse, "Nobody", "There is no character called 'Nobody'.")
        self.char2.set_trait("humanity", 0)
        self.char2.set_trait("stains", 2)
        self.refused(CmdRemorse, "", "Humanity 0: the character is already lost to the Beast", caller=self.char2)
        self.assertEqual((self.char1.trait("humanity"), self.char1.trait("stains")), (7, 1))


class TestFrenzy(TableTest):
    def test_resisting(self):
        expected = ("[Frenzy] Char makes a frenzy test: Willpower 2 + Humanity 7 / 3 (2) = 4 (4 dice,\n"
                    "  no Hunger dice), vs 3 # the torch\n"
                    "  Dice: 6 7 8 1  =>  3 successes: bare success (margin +0)\n"
                    "  => Char resists the frenzy.")
        self.do(CmdFrenzy, "vs 3 # the torch", [6, 7, 8, 1], {self.char1: expected, self.char2: expected})

    def test_frenzying_marks_the_sheet_until_ended(self):
        before = self.char1.sheet_values
        self.do(CmdFrenzy, "vs 3", [6, 2, 2, 1], "[Frenzy] Char makes a frenzy test: Willpower 2 + Humanity 7 / 3 "
                "(2) = 4 (4 dice,\n  no Hunger dice), vs 3\n  Dice: 6 2 2 1  =>  1 success: failure (margin -2)\n"
                "  => Char frenzies: the Beast takes over. (+frenzy/end when it is over)\n"
                "    [code ")
        self.assertEqual(self.char1.sheet_values, before)  # no trait changes, only the state
        self.assertTrue(self.char1.flag("frenzy"))
        self.assertIn("IN FRENZY", self.call(CmdSheet(), ""))
        self.do(CmdFrenzy, "/end", [], {self.char2: "[Frenzy] Char comes out of frenzy."})
        self.assertFalse(self.char1.flag("frenzy"))
        self.assertNotIn("IN FRENZY", self.call(CmdSheet(), ""))
        self.refused(CmdFrenzy, "/end", "You are not in frenzy.")

    def test_ending_someone_elses_frenzy_is_for_staff(self):
        self.char1.set_flag("frenzy", True)
        self.refused(CmdFrenzy, "/end Char", "Only staff end someone else's frenzy.", caller=self.char2)
        self.assertTrue(self.char1.flag("frenzy"))
        self.char2.set_flag("frenzy", True)
        self.do(CmdFrenzy, "/end Char2", [], {self.char2: "[Frenzy] Char2 comes out of frenzy. (ended by Char)"})
        self.assertFalse(self.char2.flag("frenzy"))

    def test_current_willpower_counts(self):
        self.char1.set_trait("willpower superficial", 1)
        self.do(CmdFrenzy, "vs 1", [6, 2, 2], "[Frenzy] Char makes a frenzy test: Willpower 1 + Humanity 7 / 3 (2) = 3")

    def test_at_least_one_die(self):
        self.char1.set_trait("willpower superficial", 2)
        self.char1.set_trait("humanity", 2)
        self.do(CmdFrenzy, "vs 1", [9], "[Frenzy] Char makes a frenzy test: Willpower 0 + Humanity 2 / 3 (0) = 0 "
                "(rolled\n  as 1) (1 die, no Hunger dice), vs 1")

    def test_without_a_difficulty_only_successes(self):
        out = self.do(CmdFrenzy, "", [6, 2, 2, 1], "[Frenzy] Char makes a frenzy test: Willpower 2 + Humanity 7 / 3 "
                      "(2) = 4 (4 dice,\n  no Hunger dice)\n  Dice: 6 2 2 1  =>  1 success: success [code ")
        self.assertNotIn("=> Char", out)

    def test_no_hunger_dice(self):
        self.char1.set_trait("hunger", 5)
        out = self.do(CmdFrenzy, "vs 2", [1, 1, 1, 1])
        self.assertNotIn("Hunger:", out)
        self.assertIn("0 successes: total failure", out)

    def test_staff_run_it_for_another(self):
        self.do(CmdFrenzy, "Char2 vs 2", [6, 6, 1, 1, 1, 1, 1], {
            self.char2: "[Frenzy] Char has Char2 make a frenzy test: Willpower 5 + Humanity 7 / 3 (2) = 7\n"
            "  (7 dice, no Hunger dice), vs 2\n  Dice: 6 6 1 1 1 1 1  =>  2 successes: bare success (margin +0)\n"
            "  => Char2 resists the frenzy."})

    def test_refusals(self):
        self.refused(CmdFrenzy, "Char vs 2", "Only staff make frenzy tests for someone else.", caller=self.char2)
        self.refused(CmdFrenzy, "vs hard", "The difficulty must be a whole number of successes, not 'hard'.")
        self.refused(CmdFrenzy, "vs 999", "Difficulty is a number of successes from 0 to 100.")
        self.refused(CmdFrenzy, "Nobody vs 2", "There is no character called 'Nobody'.")
