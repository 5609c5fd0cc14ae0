"""+rouse and +hunger: Rouse checks (own and staff-run), showing, setting, slaking and listing Hunger."""

from unittest import mock

import pytest

from storyteller_dice.commands.v5.hunger import CmdHunger, CmdRouse
from storyteller_dice.rolllog import api as rolllog_api

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestRouse(TableTest):
    def test_pass_keeps_hunger_and_the_room_sees_it(self):
        expected = "[Rouse] Char makes a Rouse check (Hunger 2)\n  Rouse die: 7  =>  passed: Hunger stays 2"
        self.do(CmdRouse, "", [7], {self.char1: expected, self.char2: expected})
        self.assertEqual(self.char1.trait("hunger"), 2)

    def test_failure_raises_hunger(self):
        self.do(CmdRouse, "", [3], "[Rouse] Char makes a Rouse check (Hunger 2)\n"
                "  Rouse die: 3  =>  failed: Hunger rises to 3")
        self.assertEqual(self.char1.trait("hunger"), 3)

    def test_at_hunger_five_the_blood_cannot_be_roused(self):
        # rules.v5.rouse: at Hunger 5 no die is rolled (FixedFaces: none drawn),
        # Hunger stays 5, a hunger frenzy test is due.
        self.char1.set_trait("hunger", 5)
        out = self.do(CmdRouse, "", [], {self.char2: "[Rouse] Char makes a Rouse check (Hunger 5)\n"
                      "  Rouse die: no die  =>  cannot rouse: at Hunger 5 the Blood cannot be roused\n"
                      "    (no die is rolled; Hunger stays 5): a hunger frenzy test (Difficulty 4) is\n"
                      "    due (+frenzy vs 4)"})
        self.assertEqual(self.char1.trait("hunger"), 5)
        self.assertTrue(all(len(line) <= 80 for line in out.split("\n")), out)
        entry = rolllog_api.latest(self.char1, kinds=["rouse"])
        self.assertEqual(entry.summary, "0 passed, 0 failed, 1 not rolled (Hunger 5): Hunger 5 -> 5; "
                         "a hunger frenzy test (Difficulty 4) is due (+frenzy vs 4)")

    def test_the_second_check_meets_hunger_five(self):
        self.char1.set_trait("hunger", 4)
        out = self.do(CmdRouse, "2", [3], None)
        self.assertIn("  Check 1: 3  =>  failed: Hunger rises to 5\n  Check 2: no die  =>  cannot rouse:", out)
        self.assertIn("  Hunger 4 -> 5", out)
        self.assertEqual(self.char1.trait("hunger"), 5)

    def test_two_checks_with_a_blood_potency_reroll(self):
        self.do(CmdRouse, "2 for 1", [3, 4, 5, 6],
                "[Rouse] Char makes 2 Rouse checks for a level 1 power (Hunger 2; Blood Potency 1\n"
                "  rerolls a failure)\n"
                "  Check 1: 3, Blood Potency reroll: 4  =>  failed: Hunger rises to 3\n"
                "  Check 2: 5, Blood Potency reroll: 6  =>  passed: Hunger stays 3\n"
                "  Hunger 2 -> 3")
        self.assertEqual(self.char1.trait("hunger"), 3)

    def test_no_reroll_above_the_blood_potency_level(self):
        self.do(CmdRouse, "for 2", [3],
                "[Rouse] Char makes a Rouse check for a level 2 power (Hunger 2; Blood Potency 1:\n"
                "  no reroll at this level)\n  Rouse die: 3  =>  failed: Hunger rises to 3")
        self.char1.set_trait("blood potency", 3)
        self.do(CmdRouse, "for 2", [1, 9], "[Rouse] Char makes a Rouse check for a level 2 power "
                "(Hunger 3; Blood Potency 3\n  rerolls a failure)\n"
                "  Rouse die: 1, Blood Potency reroll: 9  =>  passed: Hunger stays 3")

    def test_staff_rouse_for_another_character(self):
        expected = ("[Rouse] Char has Char2 make a Rouse check (Hunger 1)\n"
                    "  Rouse die: 2  =>  failed: Hunger rises to 2")
        self.do(CmdRouse, "Char2", [2], {self.char1: expected, self.char2: expected})
        self.assertEqual(self.char2.trait("hunger"), 2)
        self.assertEqual(self.char1.trait("hunger"), 2)
        entry = rolllog_api.latest(self.char2, kinds=["rouse"])
        self.assertEqual(entry.subject, self.char2)
        self.do(CmdRouse, "Char2=2 for 1", [1, 2, 8], "[Rouse] Char has Char2 make 2 Rouse checks for a level 1 "
                "power (Hunger 2; Blood\n  Potency 1 rerolls a failure)")
        self.assertEqual(self.char2.trait("hunger"), 3)

    def test_the_character_is_told_even_elsewhere(self):
        self.char2.location = self.room2
        self.do(CmdRouse, "Char2", [9], {self.char2: "[Rouse] Char has Char2 make a Rouse check (Hunger 1)"})

    def test_hunger_is_saved_before_anyone_is_told(self):
        seen = []
        self.char2.msg = mock.Mock(side_effect=lambda *args, **kwargs: seen.append(self.char2.trait("hunger")))
        try:
            self.do(CmdRouse, "Char2", [1], "[Rouse] Char has Char2")
        finally:
            del self.char2.msg
        self.assertEqual(seen, [2])

    def test_a_player_may_name_themselves(self):
        self.do(CmdRouse, "Char2", [8], "[Rouse] Char2 makes a Rouse check (Hunger 1)", caller=self.char2)

    def test_a_player_never_rouses_someone_else(self):
        self.refused(CmdRouse, "Char", "Only staff make Rouse checks for someone else.", caller=self.char2)
        self.refused(CmdRouse, "Char=2", "Only staff make Rouse checks for someone else.", caller=self.char2)
        self.assertEqual(self.char1.trait("hunger"), 2)

    def test_bad_input_one_line_nothing_rolled(self):
        cases = {
            "0": "Make from 1 to 5 Rouse checks at a time.",
            "6": "Make from 1 to 5 Rouse checks at a time.",
            "for 6": "A power's level is from 1 to 5.",
            "for 0": "A power's level is from 1 to 5.",
            "for x": "The power's level must be a whole number from 1 to 5, not 'x'.",
            "for": "Say the power's level after 'for'.",
            "2 for": "Say the power's level after 'for'.",
            "Char2 for": "Say the power's level after 'for'.",
            "Nobody": "There is no character called 'Nobody'.",
            "Char2=two": "The number of Rouse checks must be a whole number, not 'two'.",
            "=2": "Name the character before '='.",
            "Char2=": "Say how many Rouse checks after '='.",
        }
        for args, message in cases.items():
            self.refused(CmdRouse, args, message)
        self.assertEqual((self.char1.trait("hunger"), self.char2.trait("hunger")), (2, 1))


class TestHunger(TableTest):
    def test_show_own(self):
        self.do(CmdHunger, "", [], "Your Hunger is 2.")
        self.do(CmdHunger, "", [], "Your Hunger is 1.", caller=self.char2)
        self.do(CmdHunger, "Char2", [], "Your Hunger is 1.", caller=self.char2)

    def test_staff_see_anyones(self):
        self.do(CmdHunger, "Char2", [], "Char2's Hunger is 1.")

    def test_players_do_not_see_others(self):
        self.refused(CmdHunger, "Char", "Only staff see another character's Hunger.", caller=self.char2)

    def test_staff_set_and_it_is_logged(self):
        self.do(CmdHunger, "Char2=4", [], {self.char1: "Char2's Hunger is now 4 (was 1).",
                                            self.char2: "Char set your Hunger to 4 (was 1)."})
        self.assertEqual(self.char2.trait("hunger"), 4)
        entry = rolllog_api.latest(self.char2, kinds=["hunger"], include_actions=True)
        self.assertTrue(entry.action)
        self.assertEqual((entry.character, entry.subject), (self.char1, self.char2))
        self.assertEqual(entry.summary, "Hunger set to 4 (was 1)")

    def test_staff_set_own(self):
        self.do(CmdHunger, "Char=0", [], "Your Hunger is now 0 (was 2).")

    def test_players_never_change_their_own_hunger(self):
        self.refused(CmdHunger, "Char2=0", "Only staff set Hunger; yours changes through Rouse checks (+rouse) "
                     "and feeding.", caller=self.char2)
        self.refused(CmdHunger, "Char=0", "Only staff set Hunger", caller=self.char2)
        self.refused(CmdHunger, "/slake Char2=1", "Only staff slake Hunger; feeding is run by staff.",
                     caller=self.char2)
        self.refused(CmdHunger, "/room", "Only staff list the Hunger of everyone here.", caller=self.char2)
        self.assertEqual((self.char1.trait("hunger"), self.char2.trait("hunger")), (2, 1))

    def test_set_refusals(self):
        self.refused(CmdHunger, "Char2=6", "Hunger is from 0 to 5.")
        self.refused(CmdHunger, "Char2=x", "The Hunger must be a whole number, not 'x'.")
        self.refused(CmdHunger, "Char2=-1", "The Hunger must be a whole number, not '-1'.")
        self.refused(CmdHunger, "=3", "Name the character before '='.")
        self.refused(CmdHunger, "Nobody=3", "There is no character called 'Nobody'.")
        self.assertEqual(self.char2.trait("hunger"), 1)

    def test_slake(self):
        self.char2.set_trait("hunger", 3)
        self.do(CmdHunger, "/slake Char2=1", [], {self.char1: "Char2's Hunger is slaked by 1: now 2 (was 3).",
                                                   self.char2: "Char slakes your Hunger by 1: now 2 (was 3)."})
        # rules.v5.rouse.slake: feeding stops at 1 ...
        self.do(CmdHunger, "/slake Char2=5", [], "Char2's Hunger is slaked by 5: now 1 (was 2; it stops at 1 "
                "unless the vessel is killed).")
        self.assertEqual(self.char2.trait("hunger"), 1)
        entry = rolllog_api.latest(self.char2, kinds=["slake"], include_actions=True)
        self.assertEqual(entry.summary, "Hunger slaked by 5: 2 -> 1")
        self.refused(CmdHunger, "/slake Char2=1", "Char2's Hunger is already 1: only draining and killing the "
                     "vessel slakes the\n  last point (+hunger/slake/kill).")
        self.assertEqual(self.char2.trait("hunger"), 1)
        # ... unless staff say the vessel was drained and killed.
        self.do(CmdHunger, "/slake/KILL Char2=3", [], "Char2's Hunger is slaked by 3: now 0 (was 1; it cannot go "
                "below 0).")
        self.assertEqual(self.char2.trait("hunger"), 0)
        entry = rolllog_api.latest(self.char2, kinds=["slake"], include_actions=True)
        self.assertEqual(entry.summary, "Hunger slaked by 3 (the vessel killed): 1 -> 0")
        self.refused(CmdHunger, "/slake Char2=1", "Char2's Hunger is already 0.")

    def test_slake_refusals(self):
        self.refused(CmdHunger, "/slake Char2=0", "Slake Hunger by 1 or more.")
        self.refused(CmdHunger, "/slake Char2", "Say by how much: +hunger/slake <character>=<amount>.")
        self.refused(CmdHunger, "/slake Char2=lots", "The amount must be a whole number, not 'lots'.")
        self.refused(CmdHunger, "/slake/room Char2=1", "Use one switch at a time: /slake or /room.")
        self.refused(CmdHunger, "/kill Char2=1", "/kill goes with /slake: +hunger/slake/kill <character>=<amount>.")
        self.refused(CmdHunger, "/room/kill", "/kill goes with /slake")
        self.assertEqual(self.char2.trait("hunger"), 1)

    def test_room_list(self):
        self.do(CmdHunger, "/room", [], "Hunger here (Room):\n  Char   2\n  Char2  1")
        self.refused(CmdHunger, "/room Char2", "/room takes nothing after it.")
