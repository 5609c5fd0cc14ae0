"""
Whalefall through the shared +roll, +check and +odds, and the wing's +partial (docs/whalefall.md),
with exact dice from FixedFaces.

Char (char1) is staff; Char2 (char2) a plain player; both in room1 and connected.
"""

from django.test import override_settings

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolllog import verify_roll
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.whalefall.partial import CmdPartial
from storyteller_dice.commands.whalefall.wing import WING
from storyteller_dice.rolllog.models import RollEntry

from .table_helpers import Connected, TableTest

SEE_GM = "  GM: rule on it with +partial {code}=success or +partial {code}=failure."


@override_settings(DICE_SYSTEM="whalefall")
class WhalefallTest(Connected, TableTest):
    def setUp(self):
        super(TableTest, self).setUp()  # no V5 traits
        self.connect(self.account2, self.char2)
        self.char2.set_trait("athletics", 3)

    def last_code(self):
        return RollEntry.objects.filter(action=False).latest("id").code


class TestRolls(WhalefallTest):
    def test_gomez_diplomacy_vs_6_2_succeeds(self):
        gomez = self.make_character("Gomez")
        gomez.set_trait("diplomacy", 3)
        self.do(CmdRoll, "diplomacy vs (6,2) # the guard", [3, 7, 9], {
            self.char2: "[Roll] Gomez rolls Diplomacy 3 (3d10), vs (6,2) # the guard\n"
                        "  Dice: 3 7 9  =>  2 dice at 6+: success [code "}, caller=gomez)

    def test_ryuji_2_4_10_vs_5_2_is_flagged_partial_for_the_room(self):
        # The flag is a fact about the dice: the room sees it (see commands/whalefall/wing.py).
        ryuji = self.make_character("Ryuji")
        ryuji.set_trait("athletics", 3)
        out = self.do(CmdRoll, "athletics vs (5,2)", [2, 4, 10], {
            self.char2: "[Roll] Ryuji rolls Athletics 3 (3d10), vs (5,2)\n"
                        "  Dice: 2 4 10  =>  1 die at 5+: failure (partial) (partial: 1 die met 5+, 2\n"
                        "    needed; the GM may rule a partial success or failure) [code "},
            caller=ryuji)
        self.assertNotIn("GM:", out)  # Char2 is a player: no line on how to rule
        entry = RollEntry.objects.get()
        self.assertTrue(entry.data["partial"])
        self.assertEqual(entry.outcome, "failure_partial")

    def test_staff_who_see_a_partial_roll_are_told_how_to_rule(self):
        out = self.do(CmdRoll, "athletics vs (5,2)", [2, 4, 10], {self.char1: "[Roll] Char2 rolls Athletics 3",
                                                                  self.char2: "[Roll] Char2 rolls Athletics 3"},
                      caller=self.char2)
        code = self.last_code()
        self.assertTrue(out[self.char1].endswith(f"[code {code}]|" + SEE_GM.format(code=code)), out)
        self.assertNotIn("GM:", out[self.char2])  # the roller, a player, is not told to rule

    def test_a_staff_roller_sees_the_gm_line(self):
        self.char1.set_trait("athletics", 2)
        out = self.do(CmdRoll, "athletics vs (6,2)", [6, 1], caller=self.char1)
        self.assertIn(SEE_GM.format(code=self.last_code()), out)

    def test_no_gm_line_for_a_success_or_a_plain_failure(self):
        self.char1.set_trait("athletics", 2)
        self.assertNotIn("GM:", self.do(CmdRoll, "athletics vs (6,2)", [6, 7]))
        self.assertNotIn("GM:", self.do(CmdRoll, "athletics vs (6,2)", [1, 2]))

    def test_check_4_vs_5_2(self):
        self.do(CmdCheck, "4 vs (5,2)", [5, 1, 9, 2],
                "[Roll] Char checks 4d10, vs (5,2)\n  Dice: 5 1 9 2  =>  2 dice at 5+: success [code ")

    def test_check_4d8_rolls_d8s(self):
        self.do(CmdCheck, "4d8 vs (5,2)", [8, 1, 2, 3],
                "[Roll] Char checks 4d8, vs (5,2)\n"
                "  Dice (d8): 8 1 2 3  =>  1 die at 5+: failure (partial) (partial: 1 die met")

    def test_skill_in_another_die_size(self):
        self.do(CmdRoll, "athletics d8 vs (5,2)", [5, 6, 1],
                {self.char1: "[Roll] Char2 rolls Athletics 3 (3d8), vs (5,2)\n"
                             "  Dice (d8): 5 6 1  =>  2 dice at 5+: success [code "}, caller=self.char2)

    def test_a_perk_adds_a_die(self):
        self.do(CmdRoll, "athletics+1 vs (5,2)", [1, 1, 1, 1],
                "[Roll] Char2 rolls Athletics 3 + 1 = 4 (4d10), vs (5,2)\n"
                "  Dice: 1 1 1 1  =>  0 dice at 5+: failure [code ", caller=self.char2)

    def test_check_1_vs_5_2_fails_automatically_without_rolling(self):
        # FixedFaces holds no faces: a die rolled would raise.
        self.do(CmdCheck, "1 vs (5,2)", [],
                {self.char2: "[Roll] Char checks 1d10, vs (5,2)\n"
                             "  no dice  =>  automatic failure (fails without rolling: 1 die, fewer than the 2\n"
                             "    needed) [code "})
        entry = RollEntry.objects.get()
        self.assertEqual((entry.outcome, entry.data["automatic"], entry.data["dice"]), ("automatic_failure", True, []))

    def test_untrained_skill_fails_automatically(self):
        out = self.do(CmdRoll, "medicine vs (5,1)", [], "[Roll] Char rolls Medicine 0 (0d10), vs (5,1)\n"
                                                      "  no dice  =>  automatic failure (fails without rolling:")
        self.assertIn("0 dice, fewer than the 1 needed", " ".join(out.split()))

    def test_private_partial_roll_is_shown_to_the_named_and_staff(self):
        out = self.do(CmdRoll, "/private athletics vs (5,2)=Char", [5, 1, 1],
                      {self.char1: "[Private roll] Char2 rolls Athletics 3 (3d10), vs (5,2)\n"
                                   "  Dice: 5 1 1  =>  1 die at 5+: failure (partial) (partial: 1 die met 5+, 2\n"
                                   "    needed; the GM may rule a partial success or failure)\n"
                                   "  (private: shown to Char2, Char, staff) [code "},
                      caller=self.char2)
        self.assertIn("GM: rule on it with +partial", out)
        self.assertTrue(RollEntry.objects.get().private)

    def test_refusals_say_the_syntax(self):
        self.refused(CmdRoll, "athletics", "Say the target number after 'vs' as (face,count)", caller=self.char2)
        self.refused(CmdRoll, "athletics+brawl vs (5,2)", "A Whalefall pool is one skill's level")
        self.refused(CmdRoll, "athletics(climbing) vs (5,2)", "Whalefall has no Specialties")
        self.refused(CmdCheck, "athletics vs (5,2)", "'athletics' is a trait name; only numbers can be used here.")
        self.assertFalse(RollEntry.objects.exists())

    def test_help_gives_the_system_syntax(self):
        cmd = CmdRoll()
        text = cmd.get_help(self.char1, None)
        self.assertIn("In this game (Whalefall):", text)
        self.assertIn("+check 4d8 vs (5,2)", text)
        self.assertIn("+partial <code>=success|failure", text)
        self.assertIn("+odds 4d8 vs (5,2)", CmdOdds().get_help(self.char1, None))


class TestOdds(WhalefallTest):
    def test_skill_odds_are_exact(self):
        # 3 dice at 5+ (p = 3/5): 2 or more 81/125, exactly 1 36/125, none 8/125.
        self.call(CmdOdds(), "athletics vs (5,2)",
                  "[Odds] Athletics 3 (3d10), vs (5,2)\n"
                  "  success               64.8%\n"
                  "  failure (partial)     28.8%\n"
                  "  failure (no die met)   6.4%\n"
                  "  expected dice at 5+: 1.80", caller=self.char2)

    def test_d8_odds(self):
        # 4d8 at 5+: p = 1/2 each: success 11/16, partial 4/16, none 1/16. The chart's two
        # 6.25% rows show 6.2% alike (the tenth left cannot go to both), so the success, the
        # sum of its rows 2 to 4, is 68.7%.
        out = self.call(CmdOdds(), "4d8 vs (5,2)", "[Odds] 4d8, vs (5,2)\n  success               68.7%\n"
                                                   "  failure (partial)     25.0%\n  failure (no die met)   6.2%")
        self.assertIn("Dice at 5+:", out)

    def test_one_chance_one_number_and_equal_chances_equal(self):
        # 4 dice at 5+ (p = 3/5): none 2.56%, 1 15.36%, 2 and 3 34.56% each, 4 12.96%.
        self.char2.set_trait("athletics", 4)
        self.call(CmdOdds(), "athletics vs (5,2)",
                  "[Odds] Athletics 4 (4d10), vs (5,2)\n"
                  "  success               82.1%\n"
                  "  failure (partial)     15.3%\n"
                  "  failure (no die met)   2.6%\n"
                  "  expected dice at 5+: 2.40\n"
                  "  Dice at 5+:\n"
                  "  0   2.6% ###\n"
                  "  1  15.3% ##################\n"
                  "  2  34.6% " + "#" * 40 + "\n"
                  "  3  34.6% " + "#" * 40 + "\n"
                  "  4  12.9% ###############", caller=self.char2)

    def test_automatic_failure_odds(self):
        self.call(CmdOdds(), "1 vs (5,2)", "[Odds] 1d10, vs (5,2)\n  automatic failure  100.0%\n"
                                           "  fails without rolling: 1 die, fewer than the 2 needed")


class TestPartial(WhalefallTest):
    def partial_roll(self):
        self.do(CmdRoll, "athletics vs (5,2)", [2, 4, 10], caller=self.char2)
        return self.last_code()

    def test_staff_rule_a_partial_failure_and_the_rolls_audience_is_told(self):
        code = self.partial_roll()
        out = self.call(CmdPartial(), f"{code.lower()}=failure",
                        {self.char2: f"[Partial] Char rules Char2's check ({code}) a partial failure. [code ",
                         self.char1: f"[Partial] Char rules Char2's check ({code}) a partial failure. [code "})
        ruling = RollEntry.objects.get(action=True)
        self.assertEqual((ruling.kind, ruling.parent.code, ruling.details["ruling"]), ("partial", code, "failure"))
        self.assertEqual(ruling.subject, self.char2)
        self.assertFalse(ruling.private)
        self.assertEqual(ruling.summary, f"partial failure for {code}")
        self.assertIn(f"[code {ruling.code}]", out[self.char2])
        # +roll/verify of the roll shows the ruling with it.
        self.char1.msg = lambda *args, **kwargs: self.shown.append(args[0] if args else kwargs.get("text"))
        self.shown = []
        verify_roll(self.char1, code)
        self.assertIn("partial failure", " ".join(str(text) for text in self.shown))

    def test_a_partial_success(self):
        code = self.partial_roll()
        self.call(CmdPartial(), f"{code}=Success", f"[Partial] Char rules Char2's check ({code}) a partial success.")

    def test_a_private_rolls_ruling_stays_private(self):
        self.do(CmdRoll, "/private athletics vs (5,2)", [2, 4, 10], caller=self.char2)
        code = self.last_code()
        self.call(CmdPartial(), f"{code}=success", {self.char2: "[Partial] Char rules Char2's check"})
        self.assertTrue(RollEntry.objects.get(action=True).private)

    def test_twice_is_refused(self):
        code = self.partial_roll()
        self.call(CmdPartial(), f"{code}=success")
        first = RollEntry.objects.get(action=True).code
        self.refused(CmdPartial, f"{code}=failure",
                     f"The roll {code} was already ruled a partial success by Char ({first}).")
        self.assertEqual(RollEntry.objects.filter(action=True).count(), 1)

    def test_a_roll_not_flagged_partial_is_refused(self):
        self.do(CmdRoll, "athletics vs (5,2)", [5, 6, 1], caller=self.char2)
        code = self.last_code()
        self.refused(CmdPartial, f"{code}=success", f"The roll {code} was not flagged partial")
        self.do(CmdCheck, "1 vs (5,2)", [])
        code = self.last_code()
        self.refused(CmdPartial, f"{code}=success", f"The roll {code} was not flagged partial")
        self.assertFalse(RollEntry.objects.filter(action=True).exists())

    def test_no_such_roll(self):
        self.call(CmdPartial(), "ZZZZ2345=success", "There is no such roll.")
        self.assertEqual(self.call(CmdPartial(), "nonsense=failure"), "There is no such roll.")

    def test_players_cannot_rule(self):
        code = self.partial_roll()
        self.refused(CmdPartial, f"{code}=success", "Only staff rule on a partial check.", caller=self.char2)

    def test_the_ruling_must_be_success_or_failure(self):
        code = self.partial_roll()
        self.refused(CmdPartial, f"{code}=maybe", "Rule it a partial success or a partial failure")
        self.refused(CmdPartial, code, "Rule it a partial success or a partial failure")
        self.refused(CmdPartial, "=success", "Give the code of the roll to rule on.")

    def test_help(self):
        doc = CmdPartial.__doc__
        for part in ("Usage:", "+partial <code>=success", "Examples:"):
            self.assertIn(part, doc)
        self.assertEqual(CmdPartial.help_category.lower(), "dice")


class TestWing(WhalefallTest):
    def test_the_wing_is_found_and_brings_partial(self):
        from storyteller_dice.commands.dice_base import dice_wing
        from storyteller_dice.commands.whalefall.cmdset import WhalefallCmdSet

        self.assertIs(dice_wing(), WING)
        self.assertIs(WING.cmdset, WhalefallCmdSet)
        keys = {cmd.key for cmd in WhalefallCmdSet().commands}
        self.assertEqual(keys, {"+partial"})

    def test_the_shared_hook_changes_nothing_by_default(self):
        from storyteller_dice.commands.dice_base import Wing
        from storyteller_dice.rules.whalefall.system import SYSTEM

        request = SYSTEM.parse("4 vs (5,2)", numbers_only=True)
        self.assertIs(Wing("toy").prepare_request(None, request, None), request)
        self.assertIs(WING.prepare_request(None, request, None), request)
