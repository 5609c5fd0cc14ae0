"""
The V20 wing under DICE_SYSTEM="v20" (commands/v20/): +roll's Willpower and retries, health
(+damage, +heal), split actions, extended and resisted actions. Exact dice from FixedFaces.

char1 ("Anna") is staff (Developer), char2 ("Char2") a plain player; both in room1.
"""

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import extended
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdSheet
from storyteller_dice.commands.v20 import character as v20_character
from storyteller_dice.commands.v20.contest import CmdContest
from storyteller_dice.commands.v20.health import CmdDamage, CmdHeal
from storyteller_dice.rules.randomness import FixedFaces, seeded
from storyteller_dice.rolllog.models import RollEntry


@override_settings(DICE_SYSTEM="v20")
class V20Test(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char1.key = "Anna"
        self.char1.save()
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("brawl", 2)

    def roll(self, args, faces, expected=None, cmd=CmdRoll, **kwargs):
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd(), args, expected, **kwargs)
        assert source.remaining == [], f"unused faces {source.remaining}"
        return out.replace("\n    ", " ")  # a wrapped dice line read as one

    def refused(self, cmd, args, message, caller=None):
        """The message, the usage on a line of its own, and no die rolled."""
        out = self.roll(args, [], cmd=cmd, caller=caller or self.char1)
        self.assertIn("\nUsage: ", out)
        joined = out.replace("\n  ", " ")
        self.assertTrue(joined.startswith(message), out)
        return joined

    def health(self, who=None):
        track = v20_character.track(who or self.char1)
        return track.aggravated, track.lethal, track.bashing


class TestRolls(V20Test):
    def test_ones_cancel_and_the_output_says_so(self):
        self.roll("dex+brawl vs 6", [1, 6, 7, 3, 10],
                  "[Roll] Anna rolls Dexterity 3 + Brawl 2 = 5 dice, difficulty 6\n"
                  "  Dice: 1 6 7 3 10  =>  2 successes: moderate success (one 1 cancelled 1\n"
                  "    success) [code ")

    def test_botch_plainly(self):
        out = self.roll("dex vs 6", [1, 1, 3], "[Roll] Anna rolls Dexterity 3 = 3 dice, difficulty 6\n")
        self.assertIn("=>  0 successes: botch (two 1s and no successes to cancel: a botch)", out)

    def test_seed_botch_1_1_7(self):
        out = self.roll("dex vs 6", [1, 1, 7])
        self.assertIn("botch (one 1 cancelled 1 success; one 1 left over: a botch)", out)

    def test_auto_refused_below_difficulty(self):
        self.refused(CmdRoll, "/auto 2 vs 6",
                     "Automatic success needs a pool of at least the difficulty: 2 dice against difficulty 6.")

    def test_auto_one_die_wording(self):
        self.refused(CmdCheck, "/auto 1 vs 6",
                     "Automatic success needs a pool of at least the difficulty: 1 die against difficulty 6.")

    def test_auto_succeeds_without_dice(self):
        out = self.roll("/auto 6 vs 6", [], cmd=CmdCheck)
        self.assertIn("1 success: marginal success (automatic success: no dice rolled)", out)

    def test_willpower_spends_after_the_roll(self):
        self.char1.set_trait("willpower", 3)
        out = self.roll("/willpower dex vs 6", [1, 1, 3])
        self.assertIn("1 success: marginal success", out)
        self.assertIn("Willpower's success stands: no botch", out)
        self.assertEqual(self.char1.trait("willpower temporary"), 2)

    def test_willpower_refused_when_none_left(self):
        self.char1.set_trait("willpower", 2)
        self.char1.set_trait("willpower temporary", 0)
        self.refused(CmdRoll, "/willpower dex vs 6", "That needs 1 temporary Willpower and you have 0 left.")
        self.assertEqual(self.char1.trait("willpower temporary"), 0)
        self.assertEqual(RollEntry.objects.count(), 0)

    def test_named_specialty_counts_tens_twice(self):
        self.char1.add_specialty("brawl", "Grappling")
        out = self.roll("dex+brawl(grappling) vs 6", [10, 2, 3, 4, 5])
        self.assertIn("Brawl 2 (Grappling)", out)
        self.assertIn("2 successes: moderate success (Specialty (Grappling): 10s count twice)", out)

    def test_spec_switch(self):
        out = self.roll("/spec dex vs 6", [10, 10, 1])
        self.assertIn("3 successes", out)

    def test_defaulting_talent_skill_knowledge(self):
        out = self.roll("dex+athletics vs 6", [6, 2, 3])
        self.assertIn("untrained Talent Athletics: the Attribute alone, no penalty", out)
        out = self.roll("dex+firearms vs 6", [6, 7, 3])
        self.assertIn("difficulty 7", out)
        self.assertIn("untrained Skill Firearms: difficulty +1", out)
        self.assertIn("1 success", out)
        self.refused(CmdRoll, "int+occult",
                     "You have no dots in the Knowledge Occult: a Knowledge cannot be attempted untrained.")

    def test_retry_counts_failures_per_action(self):
        self.roll("dex+brawl vs 6", [2, 3, 4, 5, 2])  # a failure: 1 earlier attempt
        self.assertEqual(v20_character.retry_count(self.char1, "dexterity+brawl"), 1)
        out = self.roll("/retry dex+brawl vs 6", [2, 3, 4, 5, 2])
        self.assertIn("difficulty 7", out)
        self.assertIn("retry after 1 failed attempt: difficulty +1", out)
        out = self.roll("/retry dex+brawl vs 6", [8, 3, 4, 5, 2])
        self.assertIn("difficulty 8", out)
        self.assertIn("1 success", out)
        self.assertEqual(v20_character.retry_count(self.char1, "dexterity+brawl"), 0)
        self.roll("/retry dex+brawl vs 6", [6, 3, 4, 5, 2], "[Roll] Anna rolls Dexterity 3 + Brawl 2 = 5 dice, difficulty 6")

    def test_retry_is_kept_per_character_and_action(self):
        self.roll("dex vs 6", [2, 3, 4])
        self.assertEqual(v20_character.retry_count(self.char1, "dexterity"), 1)
        self.assertEqual(v20_character.retry_count(self.char1, "dexterity+brawl"), 0)
        self.assertEqual(v20_character.retry_count(self.char2, "dexterity"), 0)


class TestHealth(V20Test):
    def test_damage_then_sheet_then_roll_with_the_penalty(self):
        self.call(CmdDamage(), "Anna=3 lethal", "Anna takes 3 lethal levels of damage. Now Injured: -1 die [XXX....].")
        out = self.call(CmdSheet(), "")
        self.assertIn("Health    [XXX....] Injured: -1 die (Aggravated 0, Lethal 3, Bashing 0)", out)
        self.roll("dex+brawl vs 6", [1, 6, 7, 3],
                  "[Roll] Anna rolls Dexterity 3 + Brawl 2 - 1 Injured = 4 dice, difficulty 6\n"
                  "  Dice: 1 6 7 3  =>  1 success: marginal success (Injured: -1 die; one 1\n"
                  "    cancelled 1 success)")
        entry = RollEntry.objects.filter(kind="damage").get()
        self.assertEqual(entry.summary, "3 lethal levels of damage to Anna: Injured")

    def test_bruised_has_no_penalty_on_the_sheet(self):
        self.call(CmdDamage(), "Anna=1 bashing")
        self.assertIn("Health    [/......] Bruised: no penalty (Aggravated 0, Lethal 0, Bashing 1)",
                      self.call(CmdSheet(), ""))

    def test_marking_order_aggravated_first(self):
        self.call(CmdDamage(), "Anna=2 bashing")
        self.call(CmdDamage(), "Anna=1 agg", "Anna takes 1 aggravated level of damage. Now Injured: -1 die [*//....].")
        self.assertEqual(self.health(), (1, 0, 2))

    def test_full_track_upgrades_and_incapacitated_cannot_act(self):
        self.call(CmdDamage(), "Anna=7 bashing", "Anna takes 7 bashing levels of damage. Now Incapacitated")
        self.call(CmdDamage(), "Anna=1 lethal", "Anna takes 1 lethal level of damage; 1 lighter box made worse.")
        self.assertEqual(self.health(), (0, 1, 6))
        self.refused(CmdRoll, "dex vs 6", "An Incapacitated character cannot act.")

    def test_ignorepain_spends_willpower(self):
        self.char1.set_trait("willpower", 2)
        self.call(CmdDamage(), "Anna=4 lethal")
        out = self.roll("/ignorepain dex+brawl vs 6", [6, 6, 6, 2, 2])
        self.assertIn("= 5 dice", out)
        self.assertIn("Wounded: -2 dice ignored (1 Willpower)", out)
        self.assertEqual(self.char1.trait("willpower temporary"), 1)

    def test_willpower_and_ignorepain_together_are_refused(self):
        self.char1.set_trait("willpower", 3)
        self.call(CmdDamage(), "Anna=4 lethal")
        entries = RollEntry.objects.count()
        self.refused(CmdRoll, "/willpower/ignorepain dex+brawl vs 6",
                     "At most 1 Willpower can be spent on an action: use /willpower or /ignorepain, not both.")
        self.assertEqual(self.char1.trait("willpower temporary"), 3)
        self.assertEqual(RollEntry.objects.count(), entries)

    def test_the_dice_limit_counts_the_pool_after_the_wound_penalty(self):
        self.call(CmdDamage(), "Anna=4 lethal")  # Wounded: -2 dice
        out = self.roll("52", [2] * 50)
        self.assertTrue(out.startswith("[Roll] Anna rolls 52 - 2 Wounded = 50 dice, difficulty 6\n"), out)
        self.refused(CmdRoll, "53", "That pool is 51 dice; pools are limited to 50.")

    def test_staff_only(self):
        self.refused(CmdDamage, "Anna=3 lethal", "Only staff deal damage", caller=self.char2)
        self.refused(CmdHeal, "Anna=1 lethal", "Only staff heal another character", caller=self.char2)
        self.refused(CmdHeal, "1 lethal", "Only staff heal without cost", caller=self.char2)
        self.refused(CmdContest, "Anna: dex = Char2: dex", "Only staff roll a resisted action", caller=self.char2)
        self.assertEqual(self.health(), (0, 0, 0))

    def test_heal_with_blood_costs_one_point_a_level(self):
        self.call(CmdDamage(), "Anna=3 lethal")
        self.call(CmdHeal(), "/blood 2 lethal",
                  "You heal 2 lethal levels with 2 blood points over 2 turns (Blood Pool 8 left). Now Bruised: no penalty [X......].")
        self.assertEqual(self.char1.trait("blood pool"), 8)
        self.assertEqual(self.health(), (0, 1, 0))
        entry = RollEntry.objects.filter(kind="heal").get()
        self.assertIn("2 blood points", entry.summary)

    def test_aggravated_needs_the_storyteller(self):
        self.call(CmdDamage(), "Char2=1 aggravated")
        out = self.refused(CmdHeal, "/blood 1 aggravated", "Aggravated damage heals at 5 blood points and a full "
                           "day's rest", caller=self.char2)
        self.assertIn("5 blood points and 1 day for 1", out)
        self.call(CmdHeal(), "/blood Char2=1 aggravated",
                  "Char2 heals 1 aggravated level with 5 blood points and 1 day of rest (Blood Pool 5 left).")
        self.assertEqual(self.health(self.char2), (0, 0, 0))

    def test_heal_refusals(self):
        self.char1.set_trait("blood pool", 1)
        self.call(CmdDamage(), "Anna=2 bashing")
        self.refused(CmdHeal, "/blood 2 bashing", "Healing 2 bashing levels takes 2 blood points and you have 1.")
        self.refused(CmdHeal, "/blood 1 lethal", "There are only 0 levels of lethal damage to heal, not 1.")
        self.refused(CmdDamage, "Anna=3 fire", "Damage is bashing, lethal or aggravated, not 'fire'.")
        self.call(CmdHeal(), "Anna=2 bashing", "You heal 2 bashing levels. Now Healthy [.......].")
        self.assertEqual(self.char1.trait("blood pool"), 1)


class TestMulti(V20Test):
    def test_two_split_actions(self):
        out = self.roll("/multi dex+brawl, dex+brawl", [6, 2, 7, 1, 3])
        self.assertIn("[Roll] Anna rolls action 1 of 2: Dexterity 3 + Brawl 2 = 3 dice, difficulty 6", out)
        self.assertIn("Dice: 6 2 7  =>  2 successes: moderate success (split: 3 of 5 dice)", out)
        self.assertIn("[Roll] Anna rolls action 2 of 2: Dexterity 3 + Brawl 2 = 2 dice, difficulty 6", out)
        self.assertIn("Dice: 1 3  =>  0 successes: botch", out)
        entry = RollEntry.objects.get()
        self.assertEqual(entry.kind, "multi")
        self.assertEqual([side["label"] for side in entry.sides], ["action 1", "action 2"])
        self.assertEqual(entry.data["split"], [3, 2])

    def test_seed_split_and_celerity(self):
        self.char1.set_trait("dexterity", 2)
        self.char1.set_trait("firearms", 1)
        self.char1.set_trait("wits", 2)
        self.char1.set_trait("dominate", 3)
        out = self.roll("/multi dex+firearms, wits+dominate vs 7 = 1 2", [6, 7, 8])
        self.assertIn("= 1 die, difficulty 6", out)
        self.assertIn("= 2 dice, difficulty 7", out)
        out = self.roll("/multi dex+brawl, *dex+brawl", [6, 6, 6, 6, 6, 6, 6, 6])
        self.assertIn("split: 4 of 4 dice", out)
        self.assertIn("Celerity: full pool", out)

    def test_refusals(self):
        self.refused(CmdRoll, "/multi dex+brawl, dex+brawl = 4 4",
                     "The split must add up to the smallest pool, 5 dice, not 8.")
        self.refused(CmdRoll, "/multi/willpower dex, dex", "/willpower does not go with /multi")
        self.refused(CmdRoll, "/multi dex, , dex", "An action is missing")


class TestExtendedAndContest(V20Test):
    def test_extended_adds_and_a_botch_resets(self):
        out = self.roll("/extended dex+brawl vs 6 for 5", [6, 7, 2, 3, 4])
        self.assertIn("[Roll] Anna starts an extended roll toward 5 (roll 1): Dexterity 3 + Brawl 2 = 5\n"
                      "  dice, difficulty 6\n  Dice: 6 7 2 3 4  =>  2 successes: moderate success\n"
                      "  Extended: 2/5 after 1 roll.", out)
        out = self.roll("/extended", [1, 2, 3, 4, 5])
        self.assertIn("  Extended: 0/5 after 2 rolls (a botch resets the total to 0).", out)
        self.assertEqual(extended.load(self.char1).total, 0)
        self.call(CmdRoll(), "/status", "Your extended roll: dex+brawl vs 6 toward 5: 0/5 after 2 rolls.")
        out = self.roll("/extended", [10, 9, 8, 7, 6])
        self.assertIn("  Extended: 5/5 after 3 rolls: complete.", out)
        # Kept, complete, until a new one starts or it is stopped (as in every system).
        self.assertTrue(extended.load(self.char1).complete)
        self.refused(CmdRoll, "/extended", "Your extended roll is complete (5/5); start a new one with +roll/extended")
        self.roll("/extended dex for 2", [6, 6, 6])

    def test_extended_keeps_spec_and_refuses_other_switches(self):
        self.char1.add_specialty("brawl", "Grappling")
        self.refused(CmdRoll, "/extended/willpower dex+brawl for 5", "/willpower does not go with /extended")
        self.refused(CmdRoll, "/extended/multi dex+brawl for 5", "/multi does not go with /extended")
        self.roll("/extended/spec dex+brawl vs 6 for 5", [10, 2, 2, 2, 2])
        self.assertEqual(extended.load(self.char1).switches, ("spec",))
        out = self.roll("/extended", [10, 2, 2, 2, 2])
        self.assertIn("  Extended: 4/5 after 2 rolls.", out)  # each 10 counts twice with the Specialty

    def test_extended_stop(self):
        self.roll("/extended dex vs 6 for 9", [2, 2, 2])
        self.call(CmdRoll(), "/stop", "You stop your extended roll of dex vs 6 toward 9: 0/9 after 1 roll.")
        self.refused(CmdRoll, "/extended", "You have no extended roll: start one with +roll/extended <pool> [vs "
                     "<difficulty>] for <total>.")
        self.refused(CmdRoll, "/extended dex vs 6", "Say the total to reach: +roll/extended <pool> [vs <difficulty>]")

    def test_resisted(self):
        self.char2.set_trait("dexterity", 2)
        out = self.roll("Anna: dex vs 6 = Char2: dex vs 6", [6, 7, 8, 6, 2], cmd=CmdContest)
        self.assertIn("=> Anna wins by 2 successes.", out)
        out = self.roll("Anna: dex vs 6 = Char2: dex vs 6", [6, 2, 2, 6, 2], cmd=CmdContest)
        self.assertIn("=> equal nets (1 each): nobody wins.", out)
        self.assertEqual(RollEntry.objects.filter(kind="contest").count(), 2)

    def test_private_resisted_names_only_those_shown(self):
        # Char2's player is not connected: the line names Anna and staff, and Anna is told.
        self.char2.set_trait("dexterity", 2)
        out = self.roll("/private Anna: dex vs 6 = Char2: dex vs 6", [6, 7, 8, 6, 2], cmd=CmdContest)
        self.assertIn("  => Anna wins by 2 successes.\n  (private: shown to Anna, staff) [code ", out)
        self.assertTrue(out.endswith("]\nNot shown to Char2 (not connected)."), out)
        self.assertEqual(RollEntry.objects.get(kind="contest").shown_ids(), {self.char1.id})


class TestWingAndHelp(V20Test):
    def test_the_wing_is_found_and_its_help_is_on_roll(self):
        from storyteller_dice.commands.dice_base import dice_wing
        from storyteller_dice.commands.v20.cmdset import V20CmdSet
        from storyteller_dice.commands.v20.wing import WING

        self.assertIs(dice_wing(), WING)
        self.assertIs(WING.cmdset, V20CmdSet)
        text = CmdRoll().get_help(self.char1, None)
        self.assertIn("Multiple actions (V20):", text)
        self.assertIn("+roll/extended <pool> [vs <diff>] for <total>", text)
        self.assertTrue(all(len(line) <= 78 for line in text.splitlines()), text)

    def test_every_command_documents_usage_and_examples(self):
        for cmd in (CmdDamage, CmdHeal, CmdContest):
            self.assertEqual(cmd.help_category.lower(), "dice")
            self.assertIn("Usage:", cmd.__doc__)
            self.assertIn("Examples:", cmd.__doc__)
