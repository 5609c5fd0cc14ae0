"""The Seyruun wing and the shared commands under DICE_SYSTEM="seyruun", with exact dice."""

from django.test import override_settings

from tests.table_helpers import TableTest

from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.seyruun.common import LAST_ROLL, REROLL_REQUEST, load_state
from storyteller_dice.commands.seyruun.contest import CmdContest, CmdResist
from storyteller_dice.commands.seyruun.reroll import CmdReroll
from storyteller_dice.commands.seyruun.teamwork import CmdTeamwork
from storyteller_dice.commands.sheet import CmdStat
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules.seyruun import system as seyruun_system
from storyteller_dice.rules.seyruun.system import SeyruunPool


def flat(text):
    """The output with its wrapping undone (the exact wrapped form is tested where it matters)."""
    return " ".join(text.split())


@override_settings(DICE_SYSTEM="seyruun")
class SeyruunTest(TableTest):
    """Char (staff): Dexterity 3, Stealth 2, Composure 2, Resolve 2 (Willpower 4). Char2 a player."""

    def setUp(self):
        super(TableTest, self).setUp()
        for trait, value in (("dexterity", 3), ("stealth", 2), ("composure", 2), ("resolve", 2)):
            self.char1.set_trait(trait, value)
        self.char2.set_trait("dexterity", 2)

    def willpower_spent(self, char=None):
        return (char or self.char1).sheet_values["willpower spent"]


class TestSharedRolls(SeyruunTest):
    def test_chance_die(self):
        self.do(CmdCheck, "0 vs 1", [1], {
            self.char2: "[Roll] Char checks 0: a chance die, vs 1\n"
                        "  Chance die: 1  =>  0 successes: dramatic botch (chance die: 10 succeeds, 1 is\n"
                        "    a dramatic botch) [code "})

    def test_chance_die_ten_succeeds(self):
        out = self.do(CmdCheck, "0 vs 1", [10])
        self.assertIn(flat("Chance die: 10  =>  1 success: just enough"), flat(out))

    def test_willpower_adds_three_and_is_spent_once_stored(self):
        out = self.do(CmdRoll, "/willpower 4 vs 2", [1, 2, 3, 6, 7, 10, 10], caller=self.char1)
        self.assertIn(flat("[Roll] Char rolls 4 + Willpower 3 = 7 dice, vs 2"), flat(out))
        self.assertIn(flat("Dice: 1 2 3 6 7 10 10  =>  6 successes: supernatural brilliance"), flat(out))
        self.assertIn(flat("1 Willpower spent: +3 dice"), flat(out))
        self.assertIn(flat("enhanced critical: two or more 10s - tell the Storyteller"), flat(out))
        self.assertEqual(self.willpower_spent(), 1)
        self.assertEqual(RollEntry.objects.count(), 1)

    def test_willpower_ending_too(self):
        self.do(CmdRoll, "dex+stealth vs 2/willpower", [2] * 8)
        self.assertEqual(self.willpower_spent(), 1)

    def test_no_willpower_left_refused_before_rolling(self):
        self.char1.set_trait("willpower spent", 4)
        self.refused(CmdRoll, "/willpower 4 vs 2", "You have no Willpower left to spend.")
        self.assertEqual(RollEntry.objects.count(), 0)

    def test_damage_roll_is_strength_plus_weapon_base(self):
        self.char1.set_trait("strength", 3)
        self.do(CmdRoll, "/damage str+3", [6, 7, 8, 1, 2, 3], {
            self.char2: "[Roll] Char rolls Strength 3 + weapon base 3 = 6 dice\n"
                        "  Dice: 6 7 8 1 2 3  =>  3 successes: solid (damage roll: Strength + weapon\n"
                        "    base) [code "})
        out = self.do(CmdRoll, "str+6/damage", [6] * 9)
        self.assertIn(flat("[Roll] Char rolls Strength 3 + weapon base 6 = 9 dice"), flat(out))

    def test_soak_roll_names_its_armour(self):
        self.char1.set_trait("constitution", 2)
        self.char1.set_trait("endurance", 1)
        out = self.do(CmdRoll, "/soak con+endurance+2", [6, 1, 1, 1, 1])
        self.assertIn(flat("[Roll] Char rolls Constitution 2 + Endurance 1 + armour 2 = 5 dice"), flat(out))
        self.refused(CmdRoll, "/soak dex+stealth", "A soak roll is Constitution + Endurance + the armour, not "
                     "Dexterity + Stealth\n  (e.g. +roll/soak con+endurance+2).")

    def test_wound_named_and_taken_off(self):
        self.call(CmdStat(), "wound=moderate", "Your Wound is now 2 (was 0).")
        out = self.do(CmdRoll, "dex+stealth", [6, 6, 6])
        self.assertIn(flat("Dexterity 3 + Stealth 2 - Moderate wound 2 = 3 dice"), flat(out))
        self.assertIn(flat("Moderate wound: -2 dice"), flat(out))

    def test_wound_bad_word_refused(self):
        self.call(CmdStat(), "wound=grazed", "Wound takes a whole number, not 'grazed'.")

    def test_cap_and_overflow(self):
        out = self.do(CmdCheck, "12", [6] * 10)
        self.assertIn(flat("12 dice (10 rolled)"), flat(out))
        self.assertIn(flat("2 dice overflow (for damage and secondary effects)"), flat(out))

    def test_bonus_cap_note(self):
        out = self.do(CmdRoll, "dex+stealth+4+3", [2] * 10)
        self.assertIn(flat("external bonuses +7 capped at +5 (2 dice cut)"), flat(out))


class TestContest(SeyruunTest):
    def test_more_successes_wins(self):
        out = self.do(CmdContest, "dex+stealth vs 2+1", [6, 7, 8, 2, 2, 6, 2, 2])
        self.assertIn(flat("Char wins, 3 to 1 successes (margin 2)."), flat(out))

    def test_tie_goes_to_defender(self):
        out = self.do(CmdContest, "dex+stealth vs 3+1", [6, 2, 2, 2, 2, 6, 2, 2, 2])
        self.assertIn(flat("Tie at 1: the opposition wins, the defender takes a tie (base Attribute 3 to 3)."), flat(out))

    def test_tie_to_higher_attribute_attacker(self):
        out = self.do(CmdContest, "dex+stealth vs 2+3", [6, 2, 2, 2, 2, 6, 2, 2, 2, 2])
        self.assertIn(flat("Tie at 1: Char wins on the higher base Attribute (3 to 2)."), flat(out))
        self.assertEqual(RollEntry.objects.get().verdict, "Tie at 1: Char wins on the higher base Attribute (3 to 2).")

    def test_player_cannot_roll_another_sheet(self):
        self.refused(CmdContest, "dex vs dex=Char", "Only staff roll another character's pool", caller=self.char2)

    def test_staff_rolls_a_character_side(self):
        out = self.do(CmdContest, "dex+stealth vs dex=Char2", [6, 2, 2, 2, 2, 10])
        self.assertIn(flat("  Char2: Dexterity 2 - untrained 1 = 1 die"), flat(out))
        self.assertIn(flat("Char2 wins, 2 to 1 successes"), flat(out))


class TestResisted(SeyruunTest):
    def test_power_takes_effect(self):
        out = self.do(CmdResist, "dex+stealth vs 2", [6, 6, 2, 2, 2, 6, 2])
        self.assertIn(flat("The power takes effect: 2 to 1 (net 1)."), flat(out))

    def test_tie_resistance_holds(self):
        out = self.do(CmdResist, "dex+stealth vs 2", [6, 2, 2, 2, 2, 6, 2])
        self.assertIn(flat("Resisted: 1 to 1, the resistance holds."), flat(out))


class TestTeamwork(SeyruunTest):
    def test_highest_pool_rolls_with_assistants(self):
        self.char2.set_trait("stealth", 4)  # Char2: 2 + 4 = 6, Char: 3 + 2 = 5
        out = self.do(CmdTeamwork, "dex+stealth vs 2=Char2", [6] * 7)
        self.assertIn(flat("Dexterity 2 + Stealth 4 + 1 assistant = 7 dice, vs 2"), flat(out))
        self.assertIn(flat("Team: Char2's pool rolls, helped by Char (pools: Char 5, Char2 6)"), flat(out))

    def test_team_pool_counts_toward_cap(self):
        pool = SeyruunPool(parts=(("Dexterity", 3, 1), ("5", None, 1)), total=8, attribute=3, bonus=5)
        other = SeyruunPool(parts=(("Dexterity", 1, 1),), total=0, attribute=1, untrained=True)
        leader, assisted = seyruun_system.team([other, pool])
        self.assertEqual((leader, assisted.total, assisted.bonus_cut), (1, 8, 1))

    def test_helper_must_be_named(self):
        self.refused(CmdTeamwork, "dex+stealth", "Name your helpers after '='")

    def test_a_player_rolls_another_players_pool_only_after_they_join(self):
        self.refused(CmdTeamwork, "int vs 1=Char",
                     "Char has not joined your team roll: they join with +teamwork/join Char2.", caller=self.char2)
        self.assertFalse(RollEntry.objects.exists())
        from storyteller_dice.commands import pending

        self.call(CmdTeamwork(), "/join Char2", "You join Char2's next team roll (+teamwork/leave to take it back).")
        # Char2 is not connected here: told on connecting.
        self.assertEqual(pending.load(self.char2, pending.NOTICES),
                         ["Char joins your next team roll: name them after '=' (+teamwork <pool>=Char)."])
        out = self.do(CmdTeamwork, "dex+stealth vs 2=Char", [6] * 6, caller=self.char2)
        self.assertIn(flat("Team: Char's pool rolls, helped by Char2 (pools: Char2 1, Char 5)"), flat(out))
        # The join is spent by the roll it helped.
        self.refused(CmdTeamwork, "dex+stealth vs 2=Char",
                     "Char has not joined your team roll: they join with +teamwork/join Char2.", caller=self.char2)
        self.assertEqual(RollEntry.objects.count(), 1)

    def test_leaving_takes_the_offer_back(self):
        self.call(CmdTeamwork(), "/leave", "You have joined no team roll.")
        self.call(CmdTeamwork(), "/join Char2", "You join Char2's next team roll")
        self.call(CmdTeamwork(), "/leave", "You no longer help Char2's team roll.")
        self.refused(CmdTeamwork, "dex vs 1=Char",
                     "Char has not joined your team roll: they join with +teamwork/join Char2.", caller=self.char2)


class TestExtended(SeyruunTest):
    def test_accumulates_and_survives_in_attribute(self):
        out = self.do(CmdRoll, "/extended dex+stealth vs 4", [6, 10, 2, 2, 2])
        self.assertIn(flat("[Roll] Char starts an extended roll toward 4 (roll 1): Dexterity 3 + Stealth 2 = "
                           "5 dice Dice: 6 10 2 2 2 => 3 successes: solid Extended: 3/4 after 1 roll."), flat(out))
        self.char1.nattributes.clear()  # what a restart loses
        self.do(CmdRoll, "/status", [], "Your extended roll: dex+stealth toward 4: 3/4 after 1 roll.")
        out = self.do(CmdRoll, "/extended", [1, 2, 2, 2, 2])
        self.assertIn(flat("Extended: 3/4 after 2 rolls (a botch on this roll adds nothing; 1 botch)."), flat(out))
        out = self.do(CmdRoll, "/extended", [7, 2, 2, 2, 2])
        self.assertIn(flat("Extended: 4/4 after 3 rolls: complete (1 botch)."), flat(out))
        self.do(CmdRoll, "/status", [], "Your extended roll: dex+stealth toward 4: 4/4 after 3 rolls, 1 botch, "
                "complete.")
        self.refused(CmdRoll, "/extended", "Your extended roll is complete")

    def test_willpower_on_one_roll_is_paid_for_that_roll(self):
        self.do(CmdRoll, "/extended dex+stealth vs 20", [6, 2, 2, 2, 2])
        before = self.char1.roller().get("willpower_left")
        self.do(CmdRoll, "/extended /willpower", [6] * 8)  # 3 dice more
        self.assertEqual(self.char1.roller().get("willpower_left"), before - 1)
        self.do(CmdRoll, "/extended", [2] * 5)  # the ending went with that roll alone
        self.assertEqual(self.char1.roller().get("willpower_left"), before - 1)

    def test_other_switches_do_not_go_with_it(self):
        for switch in ("damage", "soak", "multi"):
            self.refused(CmdRoll, f"/extended/{switch} dex+stealth vs 4", f"/{switch} does not go with /extended")

    def test_stop(self):
        self.do(CmdRoll, "/extended dex vs 3", [2, 2])  # untrained: 3 - 1
        self.do(CmdRoll, "/stop", [], "You stop your extended roll of dex toward 3: 0/3 after 1 roll.")
        self.refused(CmdRoll, "/status", "You have no extended roll")


class TestReroll(SeyruunTest):
    def test_request_then_grant(self):
        self.do(CmdRoll, "dex+stealth vs 2", [2, 3, 4, 5, 6])
        code = load_state(self.char1, LAST_ROLL)["code"]
        self.do(CmdRoll, "/reroll # please", [], "You ask the Storyteller to reroll your roll")
        self.assertEqual(self.willpower_spent(), 0)  # nothing spent until granted
        self.do(CmdReroll, "", [], f"Willpower rerolls waiting:\n  Char: roll {code} (please)")
        out = self.do(CmdReroll, "/approve Char", [6, 7, 2, 2, 2])
        self.assertIn(flat("[Roll] Char rerolls with Willpower Dexterity 3 + Stealth 2 = 5 dice, vs 2"), flat(out))
        self.assertIn(flat("Willpower (granted by Char): rerolled 2 3 4 5 6 -> 6 7 2 2 2"), flat(out))
        self.assertIn(flat(f"(reroll of roll {code}; 1 Willpower spent)"), flat(out))
        self.assertEqual(self.willpower_spent(), 1)
        reroll = RollEntry.objects.get(kind="reroll")
        self.assertEqual(reroll.parent.code, code)
        self.assertIsNone(load_state(self.char1, REROLL_REQUEST))
        self.refused(CmdRoll, "/reroll", "Your last roll succeeded")

    def test_player_cannot_grant(self):
        self.do(CmdRoll, "dex vs 2", [2], caller=self.char2)
        self.refused(CmdReroll, "/approve Char2", "Only staff grant or refuse rerolls", caller=self.char2)

    def test_deny_spends_nothing(self):
        self.do(CmdRoll, "dex vs 2", [2], caller=self.char2)
        self.do(CmdRoll, "/reroll", [], caller=self.char2)
        self.do(CmdReroll, "/deny Char2", [], "You refused Char2's Willpower reroll.")
        self.assertEqual(self.willpower_spent(self.char2), 0)
        self.refused(CmdReroll, "/approve Char2", "Char2 has not asked for a reroll.")

    def test_a_new_roll_withdraws_the_request_and_says_so(self):
        self.do(CmdRoll, "dex vs 2", [2], caller=self.char2)
        code = load_state(self.char2, LAST_ROLL)["code"]
        self.do(CmdRoll, "/reroll", [], {self.char1: f"[Roll] Char2 asks to reroll roll {code} with Willpower"},
                caller=self.char2)
        self.char1.location = self.room2  # the staff told of it have gone elsewhere
        out = self.do(CmdRoll, "dex vs 2", [4], {self.char2: None, self.char1: None}, caller=self.char2)
        new = load_state(self.char2, LAST_ROLL)["code"]
        self.assertEqual(out[self.char2].split("\n")[1:], [
            f"  Dice: 4  =>  0 successes: failure (untrained: -1 die) [code {new}]",
            f"[Roll] Your request to reroll roll {code} with Willpower is withdrawn: you",
            "  rolled again. Ask again with +roll/reroll if this roll fails."])
        self.assertEqual(out[self.char1], f"[Roll] Char2's request to reroll roll {code} with Willpower is withdrawn: "
                                          "they\n  rolled again.")
        self.assertIsNone(load_state(self.char2, REROLL_REQUEST))
        self.do(CmdReroll, "", [], "No Willpower rerolls are waiting.")

    def test_won_roll_not_rerollable(self):
        self.do(CmdRoll, "dex vs 1", [6, 2])
        self.refused(CmdRoll, "/reroll", "Your last roll succeeded; only a failed roll can be rerolled.")
