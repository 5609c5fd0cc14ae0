"""+sheet, +stat, +approve/+unapprove."""

import pytest

from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.sheet import CmdApprove, CmdSheet, CmdStat

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestStat(EvenniaCommandTest):
    def test_player_sets_own_traits_until_approved(self):
        self.call(CmdStat(), "dex=3", "Your Dexterity is now 3 (was 1).", caller=self.char2)
        self.call(CmdStat(), "animal ken=2", "Your Animal Ken is now 2 (was 0).", caller=self.char2)
        self.call(CmdStat(), "auspex=2", "Your Auspex is now 2 (was 0).", caller=self.char2)
        self.call(CmdStat(), "spec animal ken=Cats", "Added the Specialty Cats to your Animal Ken.",
                  caller=self.char2)
        self.call(CmdApprove(), "Char2", "Char2's sheet is approved.")
        self.call(CmdStat(), "dex=4", "Your sheet is approved; ask staff to change it.", caller=self.char2)
        self.assertEqual(self.char2.trait("dexterity"), 3)
        self.call(CmdApprove(), "Char2", "Char2's sheet is unapproved.", cmdstring="+unapprove")
        self.call(CmdStat(), "dex=4", "Your Dexterity is now 4 (was 3).", caller=self.char2)

    def test_out_of_range_refused_not_clamped(self):
        self.call(CmdStat(), "dex=6", "Dexterity must be from 1 to 5.", caller=self.char2)
        self.call(CmdStat(), "stealth=-1", "Stealth must be from 0 to 5.", caller=self.char2)
        self.call(CmdStat(), "humanity=11", "Humanity must be from 0 to 10.", caller=self.char2)
        self.call(CmdStat(), "dex=three", "The value must be a whole number, not 'three'.",
                  caller=self.char2)
        self.call(CmdStat(), "st=2", "'st' is ambiguous", caller=self.char2)
        self.assertEqual(self.char2.sheet_values["dexterity"], 1)

    def test_player_cannot_set_hunger_or_others(self):
        self.call(CmdStat(), "hunger=0", "Only staff set Hunger", caller=self.char2)
        self.call(CmdStat(), "Char/dex=5", "Only staff can change another character's sheet.",
                  caller=self.char2)
        self.assertEqual(self.char2.trait("hunger"), 1)
        self.assertEqual(self.char1.trait("dexterity"), 1)

    def test_staff_set_anyone_any_time(self):
        self.char2.approved = True
        self.call(CmdStat(), "Char2/hunger=3", "Char2's Hunger is now 3 (was 1).")
        self.call(CmdStat(), "Char2/spec brawl=Grappling", "A Specialty needs at least one dot in Brawl.")
        self.call(CmdStat(), "Char2/brawl=2", "Char2's Brawl is now 2")
        self.call(CmdStat(), "Char2/spec brawl=Grappling", "Added the Specialty Grappling to Char2's Brawl.")
        self.call(CmdStat(), "/remove Char2/spec brawl=grap", "Removed the Specialty Grappling from Char2's Brawl.")
        self.assertEqual(self.char2.trait("hunger"), 3)
        self.assertEqual(self.char2.specialties, {})

    def test_the_changed_character_is_told_now_or_on_connecting(self):
        from storyteller_dice.commands import pending

        self.char2.set_trait("brawl", 2)
        self.call(CmdStat(), "Char2/spec brawl=Grappling", "Added the Specialty Grappling to Char2's Brawl.")
        self.call(CmdStat(), "/remove Char2/spec brawl=grap", "Removed the Specialty Grappling from Char2's Brawl.")
        self.call(CmdStat(), "Char2/dex=3", "Char2's Dexterity is now 3 (was 1).")
        # Char2 is not connected here: what changed is kept for their next connection.
        self.assertEqual(pending.load(self.char2, pending.NOTICES),
                         ["Char added the Specialty Grappling to your Brawl.",
                          "Char removed the Specialty Grappling from your Brawl.",
                          "Char set your Dexterity to 3 (was 1)."])

    def test_willpower_is_derived(self):
        self.call(CmdStat(), "willpower=3", "Willpower's maximum is derived (Composure + Resolve)")
        self.call(CmdStat(), "willpower superficial=3", "Willpower Superficial must be from 0 to 2")

    def test_unknown_character(self):
        self.call(CmdStat(), "Nobody/dex=2", "There is no character called 'Nobody'.")


class TestSheet(EvenniaCommandTest):
    def test_own_sheet_fits_80_columns(self):
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("auspex", 2)
        out = self.call(CmdSheet(), "", "=")
        lines = out.split("\n")
        self.assertTrue(all(len(line) <= 80 for line in lines), max(lines, key=len))
        self.assertIn(" Char (not approved) ", lines[0])
        self.assertIn("Dexterity       3", out)
        self.assertIn("Disciplines: Auspex 2", out)
        self.assertIn("Hunger 1   Humanity 7 (Stains 0)   Blood Potency 1", out)
        self.assertIn("Willpower [..] 2/2 left (Superficial 0, Aggravated 0)", out)
        self.assertIn("Health    [....] 4/4 left", out)

    def test_an_own_sheet_not_yet_approved_says_how_to_set_it(self):
        out = self.call(CmdSheet(), "", "=")
        # under the sheet, wrapped at the client's width (80: the test session reports none)
        self.assertEqual(out.split("\n")[-2:], [
            "Set your traits with +stat <trait>=<value> (help +stat lists them). When it is",
            "  done, staff +approve it."])
        self.char1.approved = True
        self.assertNotIn("+stat", self.call(CmdSheet(), "", "="))
        # staff (Char's player here) reading another's sheet not yet approved: no hint for them
        self.assertNotIn("+stat", self.call(CmdSheet(), "Char2", "="))

    def test_others_sheets_are_for_staff(self):
        self.call(CmdSheet(), "Char", "Only staff can see other characters' sheets.", caller=self.char2)
        self.call(CmdSheet(), "Char2", "=")


class TestStatAudit(EvenniaCommandTest):
    def test_staff_changes_to_others_and_hunger_changes_are_logged(self):
        from storyteller_dice.rolllog.models import RollEntry

        self.call(CmdStat(), "dex=3", "Your Dexterity is now 3", caller=self.char2)
        self.assertEqual(RollEntry.objects.count(), 0)  # a player building their own sheet
        self.call(CmdStat(), "Char2/hunger=4", "Char2's Hunger is now 4 (was 1).")
        self.call(CmdStat(), "Char2/dex=2", "Char2's Dexterity is now 2 (was 3).")
        self.call(CmdStat(), "hunger=2", "Your Hunger is now 2 (was 1).")
        entries = [(e.kind, e.subject_name, e.summary, e.action)
                   for e in RollEntry.objects.order_by("id")]
        self.assertEqual(entries, [
            ("hunger", "Char2", "Hunger set to 4 (was 1)", True),
            ("stat", "Char2", "Dexterity set to 2 (was 3)", True),
            ("hunger", "Char", "Hunger set to 2 (was 1)", True),
        ])
