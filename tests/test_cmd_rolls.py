"""+roll and +check, with exact dice from FixedFaces."""

import pytest

from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.rules.randomness import FixedFaces, seeded

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class RollTestBase(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("stealth", 2)
        self.char1.set_trait("hunger", 2)

    def roll(self, args, faces, expected=None, cmd=CmdRoll, **kwargs):
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd(), args, expected, **kwargs)
        assert source.remaining == [], f"unused faces {source.remaining}"
        return out


class TestRoll(RollTestBase):
    def test_room_sees_messy_critical_with_margin(self):
        out = self.roll(
            "dex+stealth vs 3",
            [2, 6, 10, 1, 10],
            {
                self.char2: "[Roll] Char rolls Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 2, vs 3\n"
                "  Dice: 2 6 10  Hunger: 1 10  =>  5 successes: messy critical (margin +2, solid\n"
                "    success) [code ",
            },
        )
        self.assertIn("messy critical", out)

    def test_roller_sees_the_same_line(self):
        self.roll(
            "dex+stealth vs 3",
            [2, 6, 7, 1, 5],
            "[Roll] Char rolls Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 2, vs 3\n"
            "  Dice: 2 6 7  Hunger: 1 5  =>  2 successes: bestial failure (margin -1)",
        )

    def test_total_failure_and_no_difficulty(self):
        self.char1.set_trait("hunger", 0)
        self.roll(
            "dex",
            [1, 2, 3],
            "[Roll] Char rolls Dexterity 3 (3 dice), Hunger 0\n"
            "  Dice: 1 2 3  =>  0 successes: total failure",
        )

    def test_success_without_difficulty_has_no_margin(self):
        self.roll("dex", [7, 2, 10],
                  "[Roll] Char rolls Dexterity 3 (3 dice), Hunger 2\n"
                  "  Dice: 7  Hunger: 2 10  =>  2 successes: success")

    def test_specialty_and_modifiers_and_comment(self):
        self.char1.set_trait("hunger", 1)
        self.char1.set_trait("brawl", 2)
        self.char1.add_specialty("brawl", "Grappling")
        self.roll(
            "str + brawl(grap) - 1 vs 2 # |rpins him|n\nFAKE",
            [6, 7, 8],
            "[Roll] Char rolls Strength 1 + Brawl 2 + Grappling specialty 1 - 1 = 3 (3 dice),\n"
            "  Hunger 1, vs 2 # |rpins him|n FAKE\n"
            "  Dice: 6 7  Hunger: 8  =>  3 successes: solid success (margin +1)\n"
            "    [code ",
        )

    def test_control_characters_never_reach_the_room_or_the_log(self):
        from storyteller_dice.rolllog.models import RollEntry

        self.char1.set_trait("hunger", 0)
        self.roll("dex vs 1 # in\x00to\x1b[31m the\rdark", [6, 2, 3],
                  "[Roll] Char rolls Dexterity 3 (3 dice), Hunger 0, vs 1 # in to [31m the dark\n")
        entry = RollEntry.objects.get()
        for stored in (entry.comment, entry.command, entry.text):
            self.assertFalse(set(stored) & {"\x00", "\x1b", "\r"}, repr(stored))
        self.assertEqual(entry.comment, "in to [31m the dark")

    def test_pool_never_below_one_die(self):
        self.roll("dex-10 vs 1", [6],
                  "[Roll] Char rolls Dexterity 3 - 10 = -7 (rolled as 1) (1 die), Hunger 2, vs 1")

    def test_willpower_suffix_rerolls_failures_and_spends(self):
        self.char1.set_trait("hunger", 1)
        self.roll(
            "dex+stealth vs 3/willpower",
            [1, 2, 6, 3, 7, 10, 10, 8],
            "[Roll] Char rolls Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 1, vs 3\n"
            "  Dice: 1 2 6 3  Hunger: 7  =>  2 successes: failure (margin -1)\n"
            "  Willpower (failures): rerolled 1 2 3 -> 10 10 8\n"
            "  Dice: 10 10 6 8  Hunger: 7  =>  7 successes: critical success (margin +4,\n"
            "    exceptional success) [code ",
        )
        self.assertEqual(self.char1.trait("willpower superficial"), 1)

    def test_willpower_switch_with_nothing_to_reroll_spends_nothing(self):
        self.char1.set_trait("hunger", 0)
        out = self.roll("/willpower dex vs 1", [6, 7, 8])
        # docs/v5.md, 'Rulings': on a win the /willpower ending spends nothing.
        self.assertIn("Willpower: The roll already wins: nothing is rerolled and no Willpower is spent.", out)
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_willpower_exhausted_refused_before_rolling(self):
        self.char1.set_trait("willpower superficial", 2)
        self.roll("dex vs 2/willpower", [],
                  "Your Willpower is exhausted: you cannot reroll with Willpower.\nUsage: +roll")

    def test_private_roll_goes_to_roller_and_staff_only(self):
        self.char1.permissions.remove("Developer")
        self.account.permissions.remove("Developer")
        out = self.roll("/private dex vs 1", [6, 7, 8], {self.char1: "[Private roll] Char rolls"})
        self.assertIn("(private: shown to Char, staff)", out)
        # char2 (a player) saw nothing: the mock records no message for it.
        out = self.roll("/private dex vs 1", [6, 7, 8], {self.char2: ""})
        self.assertEqual(out, "")

    def test_private_roll_reaches_staff_in_the_room(self):
        out = self.roll("/private dex vs 1", [6], {self.char1: "[Private roll] Char2 rolls"},
                        caller=self.char2)
        self.assertIn("(private: shown to Char2, staff)", out)

    def test_unknown_switch_refused(self):
        out = self.roll("/privte dex vs 1", [], "Unknown switch /privte (this command knows /private, /verify, /willpower,\n"
                                                     "  /extended, /status, /stop, /surge).\nUsage: +roll")
        self.assertIn("Usage: +roll", out)

    def test_bad_input_one_line_nothing_rolled(self):
        cases = {
            "": "Say what to roll",
            "st+dex": "'st' is ambiguous: it could be Stamina, Stealth, Streetwise, Strength.",
            "dex+sneak": "There is no trait called 'sneak'.",
            "dex vs hard": "The difficulty must be a whole number of successes, not 'hard'.",
            "vs 3": "Say what to roll before 'vs'.",
            "40+11": "That pool is 51 dice; pools are limited to 50.",
            "str+brawl(boxing)": "You have no Brawl Specialty.",
            "dex vs 999": "Difficulty is a number of successes from 0 to 100.",
        }
        for args, expected in cases.items():
            out = self.roll(args, [], expected)
            message, usage = out.rsplit("\n", 1)
            self.assertNotIn("Usage", message)
            self.assertEqual(usage, "Usage: +roll <pool> [vs <difficulty>] [# <comment>]")


class TestCheck(RollTestBase):
    def test_check_rolls_a_number_with_hunger(self):
        self.roll(
            "5 vs 2",
            [6, 2, 3, 9, 1],
            "[Roll] Char checks 5 dice, Hunger 2, vs 2\n"
            "  Dice: 6 2 3  Hunger: 9 1  =>  2 successes: bare success (margin +0)",
            cmd=CmdCheck,
        )

    def test_check_refuses_traits(self):
        self.roll("dex vs 2", [], "'dex' is a trait name; only numbers can be used here.\nUsage: +check",
                  cmd=CmdCheck)
