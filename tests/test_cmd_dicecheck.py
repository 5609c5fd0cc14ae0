"""
The Dice Check through the shared +roll, +check and +odds, with the wing's target resolution
and damage (docs/dicecheck.md), with exact dice from FixedFaces.

Char (char1) is staff; Char2 (char2) a plain player; both in room1 and connected.
"""

from fractions import Fraction

from django.test import override_settings

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules import dicecheck
from storyteller_dice.rules.engine import RollRequest

from .table_helpers import Connected, TableTest


@override_settings(DICE_SYSTEM="dicecheck")
class DiceCheckTest(Connected, TableTest):
    def setUp(self):
        super(TableTest, self).setUp()  # no V5 traits
        self.connect(self.account2, self.char2)
        self.char1.set_trait("strength", 4)
        self.char2.set_trait("evasion", 2)
        self.char2.set_trait("grit", 3)
        self.char2.set_trait("hardness", 1)


class TestRolls(DiceCheckTest):
    def test_strength_4_rolls_at_7_plus(self):
        self.do(CmdRoll, "STR:3", [7, 8, 9, 6],
                {self.char2: "[Roll] Char rolls Strength 4 = 4d(7+), vs TN 3\n"
                             "  Dice: 7 8 9 6  =>  3 hits: success (Effect 0, Degree of Success 1)\n"
                             "    [code "})
        entry = RollEntry.objects.get()
        self.assertEqual((entry.data["threshold"], entry.data["hits"], entry.outcome), (7, 3, "success"))

    def test_esmera_11d_6_plus_vs_4_has_7_hits_effect_3_dos_2(self):
        esmera = self.make_character("Esmera")
        self.do(CmdRoll, "11d(6+):4 # stitching", [1, 2, 2, 4, 6, 6, 7, 8, 9, 9, 10],
                {self.char2: "[Roll] Esmera rolls 11d(6+), vs TN 4 # stitching\n"
                             "  Dice: 1 2 2 4 6 6 7 8 9 9 10  =>  7 hits: success (Effect 3, Degree of Success\n"
                             "    2) [code "}, caller=esmera)

    def test_rudolf_9d_7_plus_vs_evasion_2_has_4_hits_effect_2(self):
        rudolf = self.make_character("Rudolf")
        rudolf.set_trait("strength", 4)
        rudolf.set_trait("swords", 4)
        rudolf.add_specialty("swords", "Cut")
        enemy = self.make_character("Enemy")
        enemy.set_trait("evasion", 2)
        rudolf.permissions.add("Builder")  # the Storyteller runs both NPCs (typeclasses.access)
        self.do(CmdRoll, "Swords (Cut):EVA Enemy", [2, 4, 4, 5, 6, 7, 7, 9, 10],
                {self.char2: "[Roll] Rudolf rolls Strength 4 + Swords 4 + Cut 1 = 9d(7+), vs Enemy's Evasion 2\n"
                             "  Dice: 2 4 4 5 6 7 7 9 10  =>  4 hits: success (Effect 2, Degree of Success 2)\n"
                             "    [code "}, caller=rudolf)
        self.assertEqual(RollEntry.objects.get().data["tn"], 2)

    def test_big_botch_and_botch_margin(self):
        self.do(CmdRoll, "12d(6+):3", [1] * 12, "[Roll] Char rolls 12d(6+), vs TN 3\n"
                                                "  Dice: 1 1 1 1 1 1 1 1 1 1 1 1  =>  0 hits: big botch (botch margin 3)")
        self.do(CmdCheck, "12:3", [6, 7] + [1] * 10, "[Roll] Char checks 12d(6+), vs TN 3\n"
                                                     "  Dice: 6 7 1 1 1 1 1 1 1 1 1 1  =>  2 hits: failure (botch margin 1)")

    def test_grit_of_a_target_is_the_tn(self):
        self.char1.set_trait("charisma", 3)
        self.char1.set_trait("command", 2)
        self.char1.add_specialty("command", "Intimidate")
        self.do(CmdRoll, "Command (Intimidate):GRI char2", [7, 7, 7, 1, 1, 1],
                {self.char2: "[Roll] Char rolls Charisma 3 + Command 2 + Intimidate 1 = 6d(7+), vs Char2's\n"
                             "  Grit 3\n  Dice: 7 7 7 1 1 1  =>  3 hits: success (Effect 0, Degree of Success 1)"})

    def test_opposed_the_target_rolls_too_and_both_sides_show(self):
        self.char1.set_trait("athletics", 2)
        self.char1.add_specialty("athletics", "Grapple")
        self.char2.set_trait("strength", 2)
        self.char2.set_trait("athletics", 1)
        self.char2.add_specialty("athletics", "Grapple")
        # Char: 4 + 2 + 1 = 7d(7+); Char2: 2 + 1 + 1 = 4d(9+), rolled after Char's dice.
        self.do(CmdRoll, "Athletics (Grapple):Athletics (Grapple) Char2", [7, 8, 9, 1, 2, 3, 4, 9, 10, 1, 1],
                {self.char2: "[Roll] Char rolls Strength 4 + Athletics 2 + Grapple 1 = 7d(7+), vs Char2's\n"
                             "  Athletics (Grapple), 4d(9+)\n"
                             "  Dice: 7 8 9 1 2 3 4  Char2: 9 10 1 1  =>  3 hits: success (Effect 1, Degree of\n"
                             "    Success 1; Char2: 2 hits at 9+, the TN) [code "})
        data = RollEntry.objects.get().data
        self.assertEqual((data["tn"], data["other"]), (2, {"name": "Char2", "dice": [9, 10, 1, 1], "threshold": 9,
                                                           "hits": 2}))

    def test_opposed_the_other_sides_missing_focus_adds_nothing(self):
        self.char1.set_trait("athletics", 1)
        self.char1.add_specialty("athletics", "Grapple")
        # Char2: Strength 1 (10+), Athletics 0, no Grapple: 1 die.
        out = self.do(CmdRoll, "Athletics (Grapple):Athletics (Grapple) Char2", [7] * 6 + [10])
        self.assertIn("vs Char2's Athletics (Grapple), 1d(10+)", " ".join(out.split()))

    def test_private_roll_against_a_target(self):
        out = self.do(CmdRoll, "/private STR:EVA Char2", [7, 7, 1, 1],
                      {self.char1: "[Private roll] Char rolls Strength 4 = 4d(7+), vs Char2's Evasion 2"})
        self.assertIn("(private: shown to Char, staff)", out)
        self.assertTrue(RollEntry.objects.get().private)


class TestDamage(DiceCheckTest):
    def test_damage_effect_becomes_wounds_on_the_targets_sheet(self):
        self.do(CmdRoll, "/damage 6d(6+):HAR Char2", [6, 6, 6, 6, 1, 1],
                {self.char2: "[Roll] Char rolls 6d(6+), vs Char2's Hardness 1\n"
                             "  Dice: 6 6 6 6 1 1  =>  4 hits: success (Effect 3, Degree of Success 2: 3\n"
                             "    wounds)\n"
                             "  Wounds: Char2 takes 3: 0 -> 3 of 10. [code "})
        self.assertEqual(self.char2.sheet_values["wounds"], 3)
        roll = RollEntry.objects.get(action=False)
        change = RollEntry.objects.get(action=True)
        self.assertEqual(roll.data["wounds"], 3)
        self.assertEqual((change.kind, change.parent, change.subject, change.details),
                         ("wounds", roll, self.char2, {"before": 0, "after": 3, "dealt": 3}))
        self.assertEqual(change.summary, f"Wounds 0 -> 3 (3 dealt by {roll.code})")

    def test_wounds_stop_at_the_end_of_the_track(self):
        self.char2.set_trait("wounds", 9)
        out = self.do(CmdRoll, "/damage 4d(6+):HAR Char2", [6, 6, 6, 6])
        self.assertIn("Wounds: Char2 takes 3: 9 -> 10 of 10 (the track is full).", out)
        self.assertEqual(self.char2.sheet_values["wounds"], 10)

    def test_a_failed_damage_check_deals_none(self):
        self.do(CmdRoll, "/damage 2d(6+):HAR Char2", [1, 1], "[Roll] Char rolls 2d(6+), vs Char2's Hardness 1\n"
                                                             "  Dice: 1 1  =>  0 hits: failure (botch margin 1)")
        self.assertEqual(self.char2.sheet_values["wounds"], 0)
        self.assertFalse(RollEntry.objects.filter(action=True).exists())

    def test_damage_against_a_plain_tn_names_no_one(self):
        out = self.do(CmdRoll, "/damage 6d(6+):2", [6, 6, 6, 6, 1, 1])
        self.assertIn("Wounds: no target named, so none are applied.", out)
        self.assertFalse(RollEntry.objects.filter(action=True).exists())

    def test_damage_is_not_opposed(self):
        self.refused(CmdRoll, "/damage STR:STR Char2", "A damage check is rolled against a TN or a defence")


class TestRefusals(DiceCheckTest):
    def test_the_target_must_be_here_and_someone_else(self):
        self.refused(CmdRoll, "STR:EVA Char", "Name someone else: you cannot check against yourself.")
        self.refused(CmdRoll, "STR:EVA Nobody", "There is no character called 'Nobody' here.")
        self.char2.location = self.room2
        self.refused(CmdRoll, "STR:EVA Char2", "There is no character called 'Char2' here.")
        self.assertFalse(RollEntry.objects.exists())

    def test_a_defence_needs_a_target_and_a_number_needs_none(self):
        self.refused(CmdRoll, "STR:EVA", "Name whose Evasion you roll against: STR:EVA <target>")
        self.refused(CmdRoll, "STR:3 Char2", "A TN of 3 needs no target: drop 'Char2'.")

    def test_a_focus_you_lack(self):
        self.char1.set_trait("swords", 1)
        self.refused(CmdRoll, "Swords (Cut):EVA Char2", "You have no Swords Focus 'Cut'.")

    def test_the_dice_limit_counts_the_pool_after_its_modifiers(self):
        self.do(CmdRoll, "52d(6+)-5:3", [1] * 47,
                {self.char2: "[Roll] Char rolls 52d(6+) - 5 = 47d(6+), vs TN 3\n"})
        self.refused(CmdRoll, "52d(6+)-1:3", "That pool is 51 dice; pools are limited to 50.")

    def test_check_takes_no_sheet(self):
        self.refused(CmdCheck, "STR:3", "'STR' is on a sheet; only static checks like 12d(6+):3")

    def test_request_still_waiting_for_its_target_is_refused_by_the_system(self):
        from storyteller_dice.rules.dicecheck.system import SYSTEM

        request = SYSTEM.parse("12d(6+):EVA Bob")
        self.assertIsInstance(request, RollRequest)
        self.assertEqual((request.get("needs_target"), request.get("target_name")), ("evasion", "Bob"))

    def test_help_gives_the_system_syntax(self):
        text = CmdRoll().get_help(self.char1, None)
        self.assertIn("In this game (The Dice Check):", text)
        self.assertIn("+roll Athletics (Grapple):Athletics (Grapple) <target>", text)
        self.assertIn("+roll/damage 6d(6+):HAR <target>", text)
        self.assertIn("+odds Athletics (Grapple):Athletics (Grapple) <target>", CmdOdds().get_help(self.char1, None))


class TestFocus(DiceCheckTest):
    """The shared +stat speaks of a Focus, the system's own word, and reads `focus` too."""

    def test_focus_is_added_and_removed_in_its_own_word(self):
        from storyteller_dice.commands.sheet import CmdStat

        self.char1.set_trait("swords", 2)
        self.call(CmdStat(), "focus swords=Cut", "Added the Focus Cut to your Swords.")
        self.call(CmdStat(), "spec swords=Stab", "Added the Focus Stab to your Swords.")
        self.assertEqual(self.char1.specialties["swords"], ("Cut", "Stab"))
        self.call(CmdStat(), "/remove focus swords=cut", "Removed the Focus Cut from your Swords.")
        self.call(CmdStat(), "/remove focus athletics=Grapple", "Athletics has no Focuses.")
        self.call(CmdStat(), "/remove swords=3", "/remove is for Focuses: +stat/remove focus <skill>=<focus>.")
        self.call(CmdStat(), "focus =Cut", "Name the Skill: +stat focus <skill>=<focus>.")

    def test_stat_help_names_the_focus(self):
        from storyteller_dice.commands.sheet import CmdStat

        self.assertIn("A Specialty is called a Focus here: +stat focus <skill>=<focus>.",
                      CmdStat().get_help(self.char1, None))


class TestOdds(DiceCheckTest):
    def test_attribute_odds(self):
        # 0-4 Hits: 12.96%, 34.56% twice, 15.36%, 2.56%; the equal rows show 34.6% alike, and
        # each outcome line is the sum of its rows (failure: 1-2 Hits, big botch: 0).
        out = self.call(CmdOdds(), "STR:3", "[Odds] Strength 4 = 4d(7+), vs TN 3\n  success    17.9%\n"
                                            "  failure    69.2%\n  big botch  12.9%")
        # 4 dice at 7+ (p = 2/5): 3 or more hits = 4*(2/5)^3*(3/5) + (2/5)^4 = 112/625.
        self.assertEqual(dicecheck.odds(4, 7, 3)["success"], Fraction(112, 625))
        self.assertIn("by Degree of Success: DoS 1 17.9%", out)

    def test_against_a_targets_evasion(self):
        self.call(CmdOdds(), "STR:EVA Char2", "[Odds] Strength 4 = 4d(7+), vs Char2's Evasion 2\n  success    52.5%")

    def test_opposed_odds_are_the_exact_opposed_chances(self):
        self.char2.set_trait("strength", 3)
        out = self.call(CmdOdds(), "STR:STR Char2", "[Odds] Strength 4 = 4d(7+), vs Char2's Strength, 3d(7+)")
        exact = dicecheck.opposed_odds(4, 7, 3, 7)
        shown = dict(line.rsplit(None, 1) for line in out.split("\n")[1:4])
        self.assertEqual(shown, {f"  {key.replace('_', ' ')}": f"{float(exact[key]) * 100:.1f}%"
                                 for key in ("success", "big_botch")} | {"  failure": shown["  failure"]})
        # A big botch needs a margin of 3: no hit of 4 dice, all 3 of theirs hit.
        self.assertEqual(exact["big_botch"], Fraction(3, 5) ** 4 * Fraction(2, 5) ** 3)


    def test_odds_refuse_a_target_elsewhere(self):
        self.refused(CmdOdds, "STR:EVA Nobody", "There is no character called 'Nobody' here.")


class TestWing(DiceCheckTest):
    def test_the_wing_is_found_and_has_no_commands_of_its_own(self):
        from storyteller_dice.commands.dice_base import dice_wing
        from storyteller_dice.commands.dicecheck.wing import WING

        self.assertIs(dice_wing(), WING)
        self.assertIsNone(WING.cmdset)

    def test_a_request_without_a_target_goes_on_unchanged(self):
        from storyteller_dice.commands.dicecheck.wing import WING
        from storyteller_dice.rules.dicecheck.system import SYSTEM

        request = SYSTEM.parse("12d(6+):3")

        class Cmd:
            caller = self.char1

        self.assertIs(WING.prepare_request(Cmd(), request, None), request)


class TestHostileNames(DiceCheckTest):
    def test_a_target_name_with_markup_stays_inert(self):
        # The system drops "|" from a name as typed (rules.dicecheck.system): a prefix finds
        # the character; the roll line shows the name without it, the wounds line as it is.
        odd = self.make_character("Bo|rb")
        odd.set_trait("hardness", 0)
        out = self.do(CmdRoll, "/damage 1d(6+):HAR Bo", [6], noansi=False)
        self.assertIn("vs Borb's Hardness 0", out)
        self.assertIn("Bo|rb takes 1: 0 -> 1 of 10.", out)  # shown as typed, not red
        self.assertNotIn("\x1b[31m", out)
        self.assertEqual(odd.sheet_values["wounds"], 1)


class TestOtherCharactersSheets(DiceCheckTest):
    """
    A player uses another player's sheet only with their answer (`typeclasses.access`,
    `commands.dicecheck.challenge`); Char (staff) and Char2 (a player) are connected.
    """

    ASKED = "Char's sheet is their player's: your check is rolled when they answer it (+roll/answer Char2, within 5 minutes)."

    def setUp(self):
        super().setUp()
        self.char1.set_trait("wounds", 1)
        self.char2.set_trait("strength", 4)
        self.told = []

    def listen(self, who):
        who.msg = lambda text=None, **kwargs: self.told.append(text)

    def test_damage_waits_for_the_answer_and_declining_drops_it(self):
        self.listen(self.char1)
        self.call(CmdRoll(), "/damage 50d(1+):HAR Char", self.ASKED, caller=self.char2,
                  raw_string="+roll/damage 50d(1+):HAR Char")
        self.assertEqual(self.told, ["Char2 asks to roll against your sheet: +roll/damage 50d(1+):HAR Char\n"
                                     "  Let it roll with +roll/answer Char2, or +roll/decline Char2."])
        self.assertEqual((self.char1.sheet_values["wounds"], RollEntry.objects.count()), (1, 0))
        del self.char1.msg
        self.told.clear()
        self.listen(self.char2)
        self.call(CmdRoll(), "/decline Char2", "You decline Char2's damage check against your Hardness: "
                  "+roll/damage 50d(1+):HAR Char", caller=self.char1)
        self.assertEqual(self.told, ["Char declines your check: +roll/damage 50d(1+):HAR Char"])
        self.call(CmdRoll(), "/answer Char2", "No check from 'Char2' waits for your answer.", caller=self.char1)
        self.assertEqual((self.char1.sheet_values["wounds"], RollEntry.objects.count()), (1, 0))

    def test_an_answered_damage_check_rolls_and_wounds(self):
        self.call(CmdRoll(), "/damage 6d(6+):HAR Char", self.ASKED, caller=self.char2,
                  raw_string="+roll/damage 6d(6+):HAR Char")
        self.char1.set_trait("hardness", 1)
        self.do(CmdRoll, "/answer Char2", [6, 6, 6, 6, 1, 1],
                {self.char2: "[Roll] Char2 rolls 6d(6+), vs Char's Hardness 1\n"
                             "  Dice: 6 6 6 6 1 1  =>  4 hits: success (Effect 3, Degree of Success 2: 3\n"
                             "    wounds)\n"
                             "  Wounds: Char takes 3: 1 -> 4 of 10. [code "}, caller=self.char1)
        self.assertEqual(self.char1.sheet_values["wounds"], 4)
        roll = RollEntry.objects.get(action=False)
        self.assertEqual((roll.character, roll.command), (self.char2, "+roll/damage 6d(6+):HAR Char"))

    def test_a_defence_or_an_opposed_pool_is_read_only_when_answered(self):
        self.char1.set_trait("evasion", 2)
        self.call(CmdRoll(), "STR:STR Char", self.ASKED, caller=self.char2)
        self.do(CmdRoll, "/answer char2", [7, 7, 1, 1, 7, 1, 1, 1],
                {self.char2: "[Roll] Char2 rolls Strength 4 = 4d(7+), vs Char's Strength, 4d(7+)"}, caller=self.char1)
        self.assertEqual(RollEntry.objects.count(), 1)

    def test_two_checks_in_a_row_the_first_is_answered_and_the_second_refused(self):
        # Carol's damage check sent right after her plain one never takes the answer meant for it.
        self.char1.set_trait("evasion", 2)
        self.call(CmdRoll(), "Strength:EVA Char", self.ASKED, caller=self.char2, raw_string="+roll Strength:EVA Char")
        out = self.refused(CmdRoll, "/damage 20d(2+):HAR Char", "You already challenged Char;", caller=self.char2)
        self.assertEqual(" ".join(out.split("Usage:")[0].split()),
                         "You already challenged Char; wait for the answer or withdraw it with +roll/cancel.")
        out = self.do(CmdRoll, "/answer Char2", [7, 7, 1, 1],
                      {self.char1: "You answer Char2's check against your Evasion: +roll Strength:EVA Char|"
                                   "[Roll] Char2 rolls Strength 4 = 4d(7+), vs Char's Evasion 2\n"
                                   "  Dice: 7 7 1 1  =>  2 hits: success (Effect 0, Degree of Success 1)",
                       self.char2: "[Roll] Char2 rolls Strength 4 = 4d(7+), vs Char's Evasion 2\n"
                                   "  Dice: 7 7 1 1  =>  2 hits: success (Effect 0, Degree of Success 1)"},
                      caller=self.char1)
        self.assertNotIn("Wounds", out[self.char1])
        self.assertEqual((self.char1.sheet_values["wounds"], RollEntry.objects.count()), (1, 1))
        # Once the first is done the second needs its own send and its own answer.
        self.call(CmdRoll(), "/damage 6d(6+):HAR Char", self.ASKED, caller=self.char2,
                  raw_string="+roll/damage 6d(6+):HAR Char")
        self.char1.set_trait("hardness", 1)
        out = self.do(CmdRoll, "/answer Char2", [6, 6, 6, 6, 1, 1],
                      {self.char1: "You answer Char2's damage check against your Hardness: "
                                   "+roll/damage 6d(6+):HAR Char|[Roll] Char2 rolls 6d(6+), vs Char's Hardness 1"},
                      caller=self.char1)
        self.assertIn("  Wounds: Char takes 3: 1 -> 4 of 10. [code ", out)
        self.assertEqual(self.char1.sheet_values["wounds"], 4)

    def test_opposed_check_is_named_so_when_answered(self):
        self.call(CmdRoll(), "STR:STR Char", self.ASKED, caller=self.char2, raw_string="+roll STR:STR Char")
        self.do(CmdRoll, "/answer Char2", [7, 7, 1, 1, 7, 1, 1, 1],
                "You answer Char2's opposed check: +roll STR:STR Char|[Roll] Char2 rolls", caller=self.char1)

    def test_a_withdrawn_check_keeps_its_place_until_its_time_runs_out(self):
        from storyteller_dice.commands import pending, pending_lifecycle
        from storyteller_dice.commands.dicecheck import challenge

        self.call(CmdRoll(), "STR:EVA Char", self.ASKED, caller=self.char2, raw_string="+roll STR:EVA Char")
        self.listen(self.char1)
        self.call(CmdRoll(), "/cancel", "You withdraw your check against Char: +roll STR:EVA Char", caller=self.char2)
        self.assertEqual(self.told, ["Char2 withdraws their check: +roll STR:EVA Char"])
        self.refused(CmdRoll, "/answer Char2", "No check from 'Char2' waits for your answer.", caller=self.char1)
        self.refused(CmdRoll, "/damage 20d(2+):HAR Char",
                     "You withdrew a check against Char: ask them again in 5 minutes.", caller=self.char2)
        self.refused(CmdRoll, "/cancel", "You have no check waiting for an answer.", caller=self.char2)
        held = pending.load(self.char2, challenge.WITHDRAWN)
        pending.save(self.char2, challenge.WITHDRAWN, {key: when - 301 for key, when in held.items()})
        self.call(CmdRoll(), "STR:EVA Char", self.ASKED, caller=self.char2)
        self.assertEqual(RollEntry.objects.count(), 0)

    def test_an_answered_private_check_is_shown_to_who_answered(self):
        self.char1.permissions.remove("Developer")  # a player here, to be sure staff see nothing extra
        self.account.permissions.remove("Developer")
        self.account.is_superuser = False
        self.account.save()
        self.char1.set_trait("evasion", 2)
        self.call(CmdRoll(), "/private STR:EVA Char # sneaky", self.ASKED, caller=self.char2,
                  raw_string="+roll/private STR:EVA Char # sneaky")
        self.do(CmdRoll, "/answer Char2", [7, 7, 1, 1],
                {self.char1: "You answer Char2's check against your Evasion: +roll/private STR:EVA Char # sneaky|"
                             "[Private roll] Char2 rolls Strength 4 = 4d(7+), vs Char's Evasion 2 # sneaky\n"
                             "  Dice: 7 7 1 1  =>  2 hits: success (Effect 0, Degree of Success 1)\n"
                             "  (private: shown to Char2, Char, staff) [code "},
                caller=self.char1)
        entry = RollEntry.objects.get()
        self.assertEqual((entry.private, entry.receiver_names, entry.details["shared_with"]),
                         (True, ["Char2", "Char"], ["Char"]))

    def test_odds_against_another_players_sheet_are_refused(self):
        for typed in ("Swords:EVA Char", "Athletics:Athletics Char"):
            left = typed.split(":")[0]
            out = self.refused(CmdOdds, typed, "Char's sheet is their player's: give the TN", caller=self.char2)
            self.assertEqual(" ".join(out.split("Usage:")[0].split()),
                             f"Char's sheet is their player's: give the TN as a number (like {left}:3), "
                             f"or roll the check for them to answer.")

    def test_a_check_waits_five_minutes_and_one_at_a_time(self):
        from storyteller_dice.commands import pending, pending_lifecycle
        from storyteller_dice.commands.contest import INCOMING, load_challenge

        self.call(CmdRoll(), "STR:EVA Char", self.ASKED, caller=self.char2)
        carl = self.make_character("Carl")
        self.refused(CmdRoll, "STR:EVA Char", "Char has another check to answer; try again later.", caller=carl)
        held = load_challenge(self.char1, INCOMING)
        self.assertEqual(pending_lifecycle.pending_lines(self.char1), [
            "|w[Contest]|n Char2's challenge to you is still open: answer with +roll/answer Char2 or "
            "+roll/decline Char2 within 5 minutes."])
        held.created -= 301
        held.save()
        self.assertEqual(pending_lifecycle.pending_lines(self.char1), [])
        self.refused(CmdRoll, "/answer Char2", "No check from 'Char2' waits for your answer.", caller=self.char1)
        self.assertFalse(RollEntry.objects.exists())

    def test_a_waiting_check_survives_a_restart_and_expires_with_both_told(self):
        from unittest import mock

        from storyteller_dice.commands import contest, pending, pending_lifecycle

        self.call(CmdRoll(), "STR:EVA Char", self.ASKED, caller=self.char2)
        made = contest.load_challenge(self.char1, contest.INCOMING)
        with mock.patch.object(contest, "delay") as delay:
            contest.restore_challenges()  # the start hook, after a reload
        (_, callback, restored), = [call.args for call in delay.call_args_list]
        self.assertEqual((callback, restored.id, restored.pool["args"]), (contest.expire_challenge, made.id, "STR:EVA Char"))
        self.listen(self.char2)
        self.assertTrue(contest.expire_challenge(restored))
        self.assertEqual(self.told, ["|w[Contest]|n Your challenge to Char expired unanswered after 5 minutes."])
        self.assertEqual(pending_lifecycle.pending_lines(self.char1), [])

    def test_a_player_may_use_their_own_characters(self):
        alt = self.make_character("Alt")
        self.account2.characters.add(alt)
        alt.set_trait("evasion", 3)
        out = self.call(CmdOdds(), "STR:EVA Alt", "[Odds] Strength 4 = 4d(7+), vs Alt's Evasion 3", caller=self.char2)
        self.assertIn("\n  success", out)

    def test_private_wounds_are_told_to_the_wounded(self):
        self.listen(self.char2)
        out = self.do(CmdRoll, "/private/damage 6d(6+):HAR Char2", [6, 6, 6, 6, 1, 1])
        code = RollEntry.objects.get(action=False).code
        self.assertIn("Wounds: Char2 takes 3: 0 -> 3 of 10.", out)
        self.assertEqual(self.char2.sheet_values["wounds"], 3)
        self.assertEqual(self.told, [f"Char's damage check [code {code}] gives you 3 wounds: 0 -> 3 of 10."])

    def test_wounds_dealt_while_away_are_read_on_connecting(self):
        from storyteller_dice.commands import pending, pending_lifecycle

        self.disconnect(self.char2)
        self.do(CmdRoll, "/damage 6d(6+):HAR Char2", [6, 6, 6, 6, 1, 1])
        code = RollEntry.objects.get(action=False).code
        self.assertEqual(pending.load(self.char2, pending.NOTICES),
                         [f"Char's damage check [code {code}] gives you 3 wounds: 0 -> 3 of 10."])
