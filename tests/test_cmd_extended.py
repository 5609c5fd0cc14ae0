"""+roll/extended (and +check/extended), /status, /stop; the state on the character; Willpower."""

import pytest

from storyteller_dice.commands import extended, pending, pending_lifecycle
from storyteller_dice.commands.last_roll import LAST_ROLL
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.v5.willpower import CmdWillpower

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

# The Willpower reroll of `+roll/extended dex+athletics vs 10` rolled 1 2 6 3 7, then 10 10.
REROLLED = ("[Roll] Char spends Willpower to reroll: extended roll 1 of Dexterity 3 +\n  Athletics 2 = 5 (5 dice), "
            "Hunger 2\n  Willpower (failures): rerolled 1 2 -> 10 10\n"
            "  Dice: 10 10 6  Hunger: 3 7  =>  6 successes: critical success\n  Extended: 6/10 after 1 roll.")


class TestExtended(TableTest):
    def state(self, character=None):
        state = extended.load(character or self.char1)
        return state.to_dict() if state else None

    def start(self):
        expected = ("[Roll] Char starts an extended roll toward 5 (roll 1): Dexterity 3 (3 dice),\n"
                    "  Hunger 2 # research\n"
                    "  Dice: 6  Hunger: 7 1  =>  2 successes: success\n"
                    "  Extended: 2/5 after 1 roll.")
        self.do(CmdRoll, "/extended dex vs 5 # research", [6, 7, 1], {self.char1: expected, self.char2: expected})

    def test_rolls_accumulate_to_the_target(self):
        self.start()
        self.do(CmdRoll, "/extended", [6, 10, 10], {self.char2: "[Roll] Char continues an extended roll toward 5 "
                "(roll 2): Dexterity 3 (3 dice),\n  Hunger 2\n"
                "  Dice: 6  Hunger: 10 10  =>  5 successes: messy critical\n"
                "  Extended: 7/5 after 2 rolls: complete."})
        self.assertEqual((self.state()["total"], self.state()["rolls"]), (7, 2))
        self.refused(CmdRoll, "/extended", "Your extended roll is complete (7/5); start a new one")
        self.do(CmdRoll, "/extended dex vs 3", [6, 6, 6], "[Roll] Char starts an extended roll toward 3 (roll 1)")

    def test_a_bestial_failure_is_reported_and_the_total_kept(self):
        self.start()
        self.do(CmdRoll, "/extended", [2, 3, 1], "[Roll] Char continues an extended roll toward 5 (roll 2): "
                "Dexterity 3 (3 dice),\n  Hunger 2\n  Dice: 2  Hunger: 3 1  =>  0 successes: bestial failure\n"
                "  Extended: 2/5 after 2 rolls (bestial failure on this roll: the total is kept).\n"
                "    [code ")
        self.assertEqual(self.state()["total"], 2)

    def test_each_roll_uses_the_current_hunger_and_sheet(self):
        self.start()
        self.char1.set_trait("hunger", 0)
        self.char1.set_trait("dexterity", 4)
        self.do(CmdRoll, "/extended", [6, 6, 6, 6], "[Roll] Char continues an extended roll toward 5 (roll 2): "
                "Dexterity 4 (4 dice),\n  Hunger 0")

    def test_the_state_is_stored_in_the_database(self):
        self.start()
        self.assertTrue(self.char1.db_attributes.filter(db_key="extended_roll", db_category=pending.PENDING).exists())
        self.char1.nattributes.clear()  # what a restart loses
        self.do(CmdRoll, "/status", [], "Your extended roll: dex toward 5: 2/5 after 1 roll.")
        self.do(CmdRoll, "/extended", [6, 6, 6], "[Roll] Char continues an extended roll toward 5 (roll 2)")

    def test_status_and_stop(self):
        self.start()
        self.do(CmdRoll, "/extended/status", [], "Your extended roll: dex toward 5: 2/5 after 1 roll.")
        self.do(CmdRoll, "/stop", [], "You stop your extended roll of dex toward 5: 2/5 after 1 roll.")
        self.assertIsNone(self.state())
        self.refused(CmdRoll, "/status", "You have no extended roll: start one with +roll/extended <pool> vs <target\n"
                     "  total>.")
        self.refused(CmdRoll, "/stop", "You have no extended roll: start one with +roll/extended <pool> vs <target\n"
                     "  total>.")

    def test_a_damaged_stored_extended_roll_can_be_stopped(self):
        # The refusal says to stop it: /stop must then work, and a new one can start.
        pending.save(self.char1, "extended_roll", {"pool": "dex"})
        self.refused(CmdRoll, "/extended", "The stored extended roll is damaged; stop it and start again.")
        self.do(CmdRoll, "/stop", [], "You stop your damaged extended roll.")
        self.assertIsNone(self.state())
        self.do(CmdRoll, "/extended dex vs 5", [6, 7, 8], "[Roll] Char starts an extended roll toward 5 (roll 1)")

    def test_private_extended_roll(self):
        self.do(CmdRoll, "/extended/private dex vs 5", [6, 7, 8], {
            self.char1: "[Private roll] Char starts an extended roll toward 5 (roll 1)", self.char2: ""})
        self.do(CmdRoll, "/extended", [6, 7, 8], {
            self.char1: "[Private roll] Char continues an extended roll toward 5 (roll 2)", self.char2: ""})
        self.do(CmdRoll, "/extended dex vs 9", [6, 7, 8], "[Roll] Char starts an extended roll toward 9")
        self.refused(CmdRoll, "/extended/private", "This extended roll is public; /private only applies when "
                     "starting one.")

    def test_check_extended_rolls_numbers(self):
        self.do(CmdCheck, "/extended 4 vs 3", [6, 2, 7, 1], "[Roll] Char starts an extended roll toward 3 (roll 1): "
                "4 dice, Hunger 2\n  Dice: 6 2  Hunger: 7 1  =>  2 successes: success\n  Extended: 2/3 after 1 roll.")
        self.do(CmdCheck, "/extended", [6, 2, 7, 1], "[Roll] Char continues an extended roll toward 3 (roll 2): "
                "4 dice, Hunger 2")

    def test_willpower_switch_rerolls_before_the_total(self):
        self.do(CmdRoll, "/extended/willpower dex+athletics vs 10", [1, 2, 6, 3, 7, 10, 10], "[Roll] Char starts "
                "an extended roll toward 10 (roll 1): Dexterity 3 + Athletics\n  2 = 5 (5 dice), Hunger 2\n"
                "  Dice: 1 2 6  Hunger: 3 7  =>  2 successes: success\n"
                "  Willpower (failures): rerolled 1 2 -> 10 10\n"
                "  Dice: 10 10 6  Hunger: 3 7  =>  6 successes: critical success\n"
                "  Extended: 6/10 after 1 roll.")
        self.assertEqual(self.char1.trait("willpower superficial"), 1)

    def test_willpower_reroll_corrects_the_total(self):
        self.do(CmdRoll, "/extended dex+athletics vs 10", [1, 2, 6, 3, 7])
        self.do(CmdWillpower, "", [10, 10], {self.char2: REROLLED})
        self.assertEqual(self.state()["total"], 6)

    def test_willpower_refused_once_the_extended_roll_moved_on(self):
        self.start()
        self.do(CmdRoll, "/stop", [])
        self.refused(CmdWillpower, "", "That extended roll was stopped or rolled again")
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_refusals_change_nothing(self):
        self.refused(CmdRoll, "/extended", "You have no extended roll: start one with +roll/extended")
        self.refused(CmdRoll, "/extended dex", "Say the total to reach: +roll/extended <pool> vs <target total>.")
        self.refused(CmdRoll, "/extended dex vs 0", "An extended roll's target is a total of 1 to 100 successes.")
        self.refused(CmdRoll, "/extended dex+sneak vs 5", "There is no trait called 'sneak'.")
        self.refused(CmdRoll, "/extended vs 5", "Say what to roll before 'vs'.")
        self.assertIsNone(self.state())
        self.start()
        self.refused(CmdRoll, "/extended dex vs 9", "You already have an extended roll going (dex toward 5: 2/5 "
                     "after 1 roll); roll\n  it with /extended or drop it with /stop.")
        self.refused(CmdRoll, "/status dex", "/status and /stop take nothing after them.")
        self.refused(CmdRoll, "/status/stop", "Use /status or /stop, not both.")
        self.refused(CmdRoll, "/stop/private", "/status and /stop take no other switch.")
        self.assertEqual(self.state()["target"], 5)

    def test_each_roll_is_parsed_as_any_roll_impairment_and_all(self):
        self.char1.set_trait("stains", 4)  # Humanity 7: one Stain beyond the empty boxes
        out = self.do(CmdRoll, "/extended dex vs 5", [6])
        flat = out.replace("\n    ", " ").replace("\n  ", " ")
        self.assertIn("starts an extended roll toward 5 (roll 1): Dexterity 3 - 2 Impaired (1 die), Hunger 2", flat)

    def test_a_switch_that_does_not_go_with_it_is_refused(self):
        self.refused(CmdRoll, "/extended/surge dex vs 5", "/surge does not go with /extended: roll that on its own.")
        self.assertIsNone(self.state())
        self.assertEqual(self.char1.trait("hunger"), 2)

    def test_an_open_one_is_told_on_connecting(self):
        self.start()
        self.assertEqual(pending_lifecycle.pending_lines(self.char1)[:1], [
            "Your extended roll is open: dex toward 5: 2/5 after 1 roll (+roll/extended rolls it again, "
            "+roll/stop drops it)."])
        self.do(CmdRoll, "/extended", [6, 6, 6])
        self.assertFalse([line for line in pending_lifecycle.pending_lines(self.char1) if "extended roll is open" in line])
