"""+willpower: rerolling the last roll (plain, private, contest, teamwork), strategies and refusals."""

import pytest

from storyteller_dice.commands.v5.contest import CmdContest
from storyteller_dice.commands.v5.humanity import CmdFrenzy, CmdRemorse
from storyteller_dice.commands.v5.hunger import CmdRouse
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.v5.teamwork import CmdTeamwork
from storyteller_dice.commands.v5.willpower import REROLL_WINDOW, CmdWillpower, last_roll, remember_roll

from evennia.utils import create

from .table_helpers import Connected, TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestWillpowerOnRolls(Connected, TableTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("resolve", 2)  # Willpower 3

    def roll_failure(self):
        # Char: 5 dice at Hunger 2 against 3: regular 1 2 6, Hunger 3 7: 2 successes.
        self.do(CmdRoll, "dex+athletics vs 3", [1, 2, 6, 3, 7])

    def test_failures_reroll_goes_to_the_room_and_costs_one_willpower(self):
        self.roll_failure()
        expected = ("[Roll] Char spends Willpower to reroll: Dexterity 3 + Athletics 2 = 5 (5 dice),\n"
                    "  Hunger 2, vs 3\n"
                    "  Willpower (failures): rerolled 1 2 -> 10 10\n"
                    "  Dice: 10 10 6  Hunger: 3 7  =>  6 successes: critical success (margin +3,\n"
                    "    exceptional success) [code ")
        self.do(CmdWillpower, "", [10, 10], {self.char1: expected, self.char2: expected})
        self.assertEqual(self.char1.trait("willpower superficial"), 1)
        self.assertEqual(self.char1.trait("hunger"), 2)

    def test_once_per_roll(self):
        self.roll_failure()
        self.do(CmdWillpower, "", [6, 6])
        self.refused(CmdWillpower, "", "Your last roll has already been rerolled with Willpower (once per roll).")
        self.assertEqual(self.char1.trait("willpower superficial"), 1)

    def test_a_roll_rerolled_by_the_willpower_switch_counts(self):
        self.do(CmdRoll, "dex+athletics vs 3/willpower", [1, 2, 6, 3, 7, 6, 6])
        self.refused(CmdWillpower, "", "Your last roll has already been rerolled with Willpower")

    def test_exhausted_willpower_is_refused(self):
        self.roll_failure()
        self.char1.set_trait("willpower superficial", 3)
        self.refused(CmdWillpower, "", "Your Willpower is exhausted: there is no Willpower left to spend.")

    def test_only_within_ten_minutes(self):
        self.roll_failure()
        last = last_roll(self.char1)
        last.time -= REROLL_WINDOW + 1
        remember_roll(self.char1, last)
        self.refused(CmdWillpower, "", "Your last roll was more than 10 minutes ago")
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_no_roll_yet(self):
        self.refused(CmdWillpower, "", "You have no recent roll to reroll.")

    def test_named_faces_never_hunger_dice(self):
        self.roll_failure()
        self.refused(CmdWillpower, "3", "There is no regular die showing 3 to reroll (regular dice: 1 2 6); "
                     "Hunger dice\n  are never rerolled.")
        self.refused(CmdWillpower, "1 2 6 6", "Willpower rerolls at most 3 dice.")
        self.do(CmdWillpower, "2, 6", [7, 8], {self.char2: "[Roll] Char spends Willpower to reroll: "
                "Dexterity 3 + Athletics 2 = 5 (5 dice),\n  Hunger 2, vs 3\n"
                "  Willpower (dice 2 6): rerolled 2 6 -> 7 8\n"
                "  Dice: 1 7 8  Hunger: 3 7  =>  3 successes: bare success (margin +0)"})

    def test_positions_name_the_dice_left_to_right(self):
        # Regular 2 5 2: the faces `2` would take the first 2; the second one is named by position.
        self.do(CmdRoll, "dex+athletics vs 3", [2, 5, 2, 3, 7])
        expected = ("[Roll] Char spends Willpower to reroll: Dexterity 3 + Athletics 2 = 5 (5 dice),\n"
                    "  Hunger 2, vs 3\n"
                    "  Willpower (dice 5 2): rerolled 5 2 -> 8 9\n"
                    "  Dice: 2 8 9  Hunger: 3 7  =>  3 successes: bare success (margin +0)")
        self.do(CmdWillpower, "/position 3, 2", [8, 9], {self.char1: expected, self.char2: expected})
        self.assertEqual(self.char1.trait("willpower superficial"), 1)
        entry = last_roll(self.char1).result
        self.assertEqual((entry.regular, entry.rerolled), ((2, 8, 9), (1, 2)))

    def test_bad_positions_spend_nothing(self):
        self.roll_failure()  # regular 1 2 6, Hunger 3 7
        for args, message in [
            ("/position", "Name the dice to reroll by their positions in Dice:, from 1 to 3 (like\n"
                          "  +willpower/position 1 3); no Willpower spent."),
            ("/position crits", "Name the dice to reroll by their positions in Dice:"),
            ("/position 1 -2", "Name the dice to reroll by their positions in Dice:"),
            ("/position 0", "There is no regular die at position 0 (regular dice: 1 2 6, positions 1 to 3);\n"
                            "  Hunger dice are never rerolled."),
            ("/position 4", "There is no regular die at position 4"),
            ("/position 2 2", "Name each die once; no Willpower spent."),
            ("/position 1 2 3 1", "Willpower rerolls at most 3 dice."),
        ]:
            self.refused(CmdWillpower, args, message)
        self.assertEqual(self.char1.trait("willpower superficial"), 0)
        self.do(CmdWillpower, "/pos 3", [10], "[Roll] Char spends Willpower to reroll: Dexterity 3 + Athletics 2 = "
                "5 (5 dice),\n  Hunger 2, vs 3\n  Willpower (dice 6): rerolled 6 -> 10\n"
                "  Dice: 1 2 10  Hunger: 3 7  =>  2 successes: failure (margin -1)\n    [code ")
        self.assertEqual(self.char1.trait("willpower superficial"), 1)

    def test_positions_of_an_all_hunger_roll(self):
        self.char1.set_trait("hunger", 5)
        self.do(CmdRoll, "dex vs 2", [1, 2, 3])
        self.refused(CmdWillpower, "/position 1", "That roll has no regular dice (all are Hunger dice); "
                     "no Willpower spent.")

    def test_crits_strategy(self):
        self.do(CmdRoll, "com+res vs 2", [10, 2, 7, 6, 3], caller=self.char2)
        # A sure win: crits warns with the exact chances and spends nothing until confirmed.
        self.do(CmdWillpower, "crits", [], "This roll already wins. Chasing a critical rerolls 3 dice: chance to "
                "still win\n  87.5%, critical 27.1%, messy critical 0.0%. Nothing spent yet: to reroll all\n  the "
                "same, +willpower/confirm crits.", caller=self.char2)
        self.assertEqual(self.char2.trait("willpower superficial"), 0)
        self.do(CmdWillpower, "/confirm crits", [10, 1, 1], "[Roll] Char2 spends Willpower to reroll: "
                "Composure 2 + Resolve 3 = 5 (5 dice),\n  Hunger 1, vs 2\n"
                "  Willpower (crits): rerolled 2 7 6 -> 10 1 1\n"
                "  Dice: 10 10 1 1  Hunger: 3  =>  4 successes: critical success (margin +2,\n"
                "    solid success) [code ",
                caller=self.char2)

    def test_messy_strategy(self):
        self.do(CmdRoll, "com+res vs 3", [10, 7, 8, 6, 10], caller=self.char2)
        self.do(CmdWillpower, "mess", [6], "[Roll] Char2 spends Willpower to reroll: "
                "Composure 2 + Resolve 3 = 5 (5 dice),\n  Hunger 1, vs 3\n"
                "  Willpower (messy): rerolled 10 -> 6\n"
                "  Dice: 6 7 8 6  Hunger: 10  =>  5 successes: solid success (margin +2)",
                caller=self.char2)

    def test_a_strategy_that_finds_nothing_spends_nothing(self):
        self.do(CmdRoll, "com+res vs 1", [6, 7, 8, 9, 2], caller=self.char2)
        self.refused(CmdWillpower, "failures", "The failures strategy finds no regular dice under 6; "
                     "no Willpower spent.", caller=self.char2)
        self.refused(CmdWillpower, "messy", "The messy strategy finds no regular 10s", caller=self.char2)
        self.refused(CmdWillpower, "crits", "The crits strategy finds no unpaired 10", caller=self.char2)
        self.refused(CmdWillpower, "best", "No reroll raises the chance to win or lowers the chance of a messy "
                     "critical\n  here; no Willpower spent.", caller=self.char2)
        self.refused(CmdWillpower, "luck", "Unknown Willpower choice 'luck': use failures, crits, messy, best",
                     caller=self.char2)
        self.assertEqual(self.char2.trait("willpower superficial"), 0)

    def test_all_hunger_dice_cannot_be_rerolled(self):
        self.char1.set_trait("hunger", 5)
        self.do(CmdRoll, "dex vs 2", [1, 2, 3])
        self.refused(CmdWillpower, "", "That roll has no regular dice (all are Hunger dice); no Willpower spent.")

    def test_private_roll_reroll_goes_to_the_same_receivers(self):
        char3 = self.make_character("Char3")
        char4 = self.make_character("Char4")
        # Char3 is played (a private roll reaches only connected characters).
        self.connect(create.create_account("Player3", email="p3@example.com", password="player3-password"), char3)
        self.do(CmdRoll, "/private com vs 2=Char3", [2, 7], caller=self.char2)
        out = self.do(CmdWillpower, "", [8], {
            self.char2: "[Private roll] Char2 spends Willpower to reroll: Composure 2 (2 dice), Hunger 1,\n  vs 2\n"
            "  Willpower (failures): rerolled 2 -> 8",
            char3: "[Private roll] Char2 spends Willpower",
            self.char1: "[Private roll] Char2 spends Willpower",  # staff in the room
            char4: "",
        }, caller=self.char2)
        self.assertEqual(out[char4], "")

    def test_rouse_remorse_and_frenzy_are_not_rerolled(self):
        self.do(CmdRouse, "", [2])
        self.refused(CmdWillpower, "", "A Rouse check is not rerolled with Willpower (Blood Potency rerolls it")
        self.char1.set_trait("stains", 1)
        self.do(CmdRemorse, "", [2, 3])
        self.refused(CmdWillpower, "", "A Remorse test is not rerolled with Willpower.")
        self.do(CmdFrenzy, "vs 2", [2, 3, 4, 5, 1])
        self.refused(CmdWillpower, "", "A frenzy test is not rerolled with Willpower.")
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_best_on_a_win_avoids_a_messy_critical(self):
        # 4 successes + messy pair vs 3: rerolling the regular 10 keeps the win for sure and
        # may lose the messy critical; `best` prefers it to keeping the roll.
        self.do(CmdRoll, "dex+athletics vs 3", [10, 7, 8, 6, 10])
        self.do(CmdWillpower, "best", [9], "[Roll] Char spends Willpower to reroll: "
                "Dexterity 3 + Athletics 2 = 5 (5 dice),\n  Hunger 2, vs 3\n"
                "  Willpower (best): rerolled 10 -> 9\n"
                "  Dice: 9 7 8  Hunger: 6 10  =>  5 successes: solid success (margin +2)")

    def test_best_picks_the_dice_for_the_best_chance_to_win(self):
        # Written last on purpose: `best` is answered by rules.v5.exact_odds.best_reroll.
        self.do(CmdRoll, "dex+athletics vs 4", [1, 2, 3, 7, 8])
        self.do(CmdWillpower, "best", [6, 6, 6], "[Roll] Char spends Willpower to reroll: "
                "Dexterity 3 + Athletics 2 = 5 (5 dice),\n  Hunger 2, vs 4\n"
                "  Willpower (best): rerolled 1 2 3 -> 6 6 6\n"
                "  Dice: 6 6 6  Hunger: 7 8  =>  5 successes: solid success (margin +1)")


class TestWillpowerOnContestsAndTeams(TableTest):
    def test_contest_side_reroll_changes_the_winner(self):
        self.do(CmdContest, "dex+athletics vs 3", [2, 3, 6, 1, 1, 6, 7, 2])
        expected = ("[Roll] Char spends Willpower to reroll: their dice in the contest with\n"
                    "  Opposition (staff: Char)\n"
                    "  Willpower (failures): rerolled 2 3 -> 8 9\n"
                    "  Dice: 8 9 6  Hunger: 1 1  =>  3 successes\n"
                    "  => Char wins by 1 (3 to 2).")
        self.do(CmdWillpower, "", [8, 9], {self.char1: expected, self.char2: expected})

    def test_both_sides_of_a_challenge_may_reroll_once(self):
        from unittest import mock

        from storyteller_dice.commands import contest as contest_module

        with mock.patch.object(contest_module, "delay"):
            self.do(CmdContest, "dex+athletics vs Char2", [])
        # Char: 1 2 6 + Hunger 3 7 = 2; Char2: 1 6 2 3 + Hunger 4 = 1.
        self.do(CmdContest, "/answer com+res", [1, 2, 6, 3, 7, 1, 6, 2, 3, 4], caller=self.char2)
        self.do(CmdWillpower, "", [9, 9, 9], "[Roll] Char2 spends Willpower to reroll: their dice in the "
                "contest with Char\n  Willpower (failures): rerolled 1 2 3 -> 9 9 9\n"
                "  Dice: 9 6 9 9  Hunger: 4  =>  4 successes\n  => Char2 wins by 2 (4 to 2).", caller=self.char2)
        self.do(CmdWillpower, "", [10, 10], "[Roll] Char spends Willpower to reroll: their dice in the contest "
                "with Char2\n  Willpower (failures): rerolled 1 2 -> 10 10\n"
                "  Dice: 10 10 6  Hunger: 3 7  =>  6 successes: critical success\n  => Char wins by 2 (6 to 4).")
        self.refused(CmdWillpower, "", "Your last roll has already been rerolled", caller=self.char2)

    def challenge_answered(self, faces):
        from unittest import mock

        from storyteller_dice.commands import contest as contest_module

        with mock.patch.object(contest_module, "delay"):
            self.do(CmdContest, "dex+athletics vs Char2", [])
        self.do(CmdContest, "/answer com+res", faces, caller=self.char2)

    def test_a_reroll_that_turns_the_contest_reports_the_other_sides_bestial_failure(self):
        # Char: 6 7 8 + Hunger 1 2 = 3, wins against Char2's 1 (no bestial failure: Char won).
        self.challenge_answered([6, 7, 8, 1, 2, 6, 2, 2, 2, 3])
        # Char2's reroll wins the contest: Char now loses with a Hunger 1, a bestial failure.
        self.do(CmdWillpower, "", [6, 6, 6], "[Roll] Char2 spends Willpower to reroll: their dice in the "
                "contest with Char\n  Willpower (failures): rerolled 2 2 2 -> 6 6 6\n"
                "  Dice: 6 6 6 6  Hunger: 3  =>  4 successes\n"
                "  Char now: 3 successes: bestial failure\n"
                "  => Char2 wins by 1 (4 to 3).", caller=self.char2)

    def test_a_reroll_that_turns_the_contest_voids_the_other_sides_messy_critical(self):
        # Char: 10 6 2 + Hunger 10 3 = 5, a messy critical win against Char2's 1.
        self.challenge_answered([10, 6, 2, 10, 3, 6, 2, 2, 2, 3])
        self.do(CmdWillpower, "", [10, 10, 6], "[Roll] Char2 spends Willpower to reroll: their dice in the "
                "contest with Char\n  Willpower (failures): rerolled 2 2 2 -> 10 10 6\n"
                "  Dice: 6 10 10 6  Hunger: 3  =>  6 successes: critical success\n"
                "  Char now: 5 successes: no longer a messy critical\n"
                "  => Char2 wins by 1 (6 to 5).", caller=self.char2)

    def test_npc_contest_rolled_by_staff_is_not_rerolled(self):
        self.do(CmdContest, "2 hunger 0 vs 2", [1, 2, 3, 4])
        self.refused(CmdWillpower, "", "That contest was an NPC's roll")

    def test_teamwork_helper_reroll_updates_the_total(self):
        self.do(CmdTeamwork, "dex+athletics vs 5", [])
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        self.do(CmdTeamwork, "/roll", [2, 6, 3, 2, 4, 6, 2, 2, 2, 6])
        expected = ("[Roll] Char2 spends Willpower to reroll: their dice in Char's teamwork roll\n"
                    "  Willpower (failures): rerolled 2 2 2 -> 7 8 9\n"
                    "  Dice: 6 7 8 9  Hunger: 6  =>  5 successes\n"
                    "  => Total 6 successes: solid success (margin +1)")
        self.do(CmdWillpower, "", [7, 8, 9], {self.char1: expected, self.char2: expected}, caller=self.char2)
        self.do(CmdWillpower, "", [10, 10], "[Roll] Char spends Willpower to reroll: their dice in their "
                "teamwork roll\n  Willpower (failures): rerolled 2 3 -> 10 10\n"
                "  Dice: 10 6 10  Hunger: 2 4  =>  5 successes\n"
                "  => Total 10 successes: critical success (margin +5, exceptional success)")
