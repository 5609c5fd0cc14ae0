"""
/private with the switches whose help says it works with them: V20's /multi and /extended and
V5's /extended, names after '=' and all, shown exactly to the roller, those named and staff.
"""

import pytest

from django.test import override_settings
from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules.randomness import FixedFaces, seeded

from .table_helpers import Connected

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class PrivateTest(Connected, EvenniaCommandTest):
    """char1, a player, rolls; Bob (played now) is named; char2, in the same room, is not (and
    gets nothing)."""

    def setUp(self):
        super().setUp()
        self.char1.set_trait("dexterity", 3)
        self.char1.permissions.remove("Developer")
        self.account.permissions.remove("Developer")
        self.account.is_superuser = False
        self.account.save()
        self.bob = create.create_object(self.character_typeclass, key="Bob", location=self.room1, home=self.room1)
        # A private roll reaches only those named who are played now.
        self.connect(create.create_account("BobPlayer", email="bob@example.com", password="bob-password"), self.bob)

    def roll(self, args, faces):
        """What the roller, Bob and Char2 got (Char2 must get nothing)."""
        with seeded(FixedFaces(faces)) as source:
            out = self.call(CmdRoll(), args, {self.char1: None, self.bob: None, self.char2: None})
        self.assertEqual(source.remaining, [], out)
        return out[self.char1], out[self.bob], out[self.char2]


@override_settings(DICE_SYSTEM="v20")
class TestV20(PrivateTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("brawl", 2)

    def test_multi_private_with_names(self):
        mine, bobs, theirs = self.roll("/multi/private dex+brawl, dex=Bob", [6, 7, 2])
        self.assertEqual(mine.split("\n")[:2], ["[Private roll] Char rolls action 1 of 2: Dexterity 3 + Brawl 2 = 2 dice,",
                                                "  difficulty 6"])
        self.assertIn("  (private: shown to Char, Bob, staff)", mine)
        self.assertEqual(bobs, mine)
        self.assertEqual(theirs, "")
        entry = RollEntry.objects.get()
        self.assertTrue(entry.private)

    def test_multi_split_and_names_in_either_order(self):
        for args in ("/multi/private dex+brawl, dex = 2 1 = Bob", "/multi/private dex+brawl, dex = Bob = 2 1"):
            mine, bobs, theirs = self.roll(args, [6, 7, 8])
            self.assertIn("split: 2 of 3 dice", mine)
            self.assertIn("split: 1 of 3 dice", mine)
            self.assertIn("  (private: shown to Char, Bob, staff)", mine)
            self.assertEqual((bobs, theirs), (mine, ""))

    def test_multi_names_refused(self):
        self.call(CmdRoll(), "/multi dex+brawl, dex=Bob",
                  "To show a roll only to some characters, roll privately: +roll/multi/private\n"
                  "  <pool>=<name>, <name>.\nUsage: ")
        self.call(CmdRoll(), "/multi/private dex+brawl, dex=Nobody", "There is no character called 'Nobody' here.")
        self.call(CmdRoll(), "/multi/private dex+brawl, dex = 2 1 = 1 2",
                  "Give the split once: the dice of each action after '=', e.g. '= 2 1'.")
        self.call(CmdRoll(), "/multi/private dex, dex = 2 x", "Each action of a split gets a whole number of dice, "
                                                              "not 'x'.")
        self.assertFalse(RollEntry.objects.exists())

    def test_extended_private_with_names(self):
        mine, bobs, theirs = self.roll("/private/extended dex vs 6 for 5=Bob", [6, 7, 2])
        self.assertEqual(mine, "[Private roll] Char starts an extended roll toward 5 (roll 1): Dexterity 3 = 3\n"
                               "  dice, difficulty 6\n"
                               "  Dice: 6 7 2  =>  2 successes: moderate success\n"
                               "  (private: shown to Char, Bob, staff)\n"
                               f"  Extended: 2/5 after 1 roll. [code {RollEntry.objects.get().code}]")
        self.assertEqual((bobs, theirs), (mine, ""))
        # Named on each roll: the next roll without names is the roller's and staff's.
        mine, bobs, theirs = self.roll("/extended", [6, 2, 2])
        self.assertIn("  (private: shown to Char, staff)", mine)
        self.assertEqual((bobs, theirs), ("", ""))
        mine, bobs, theirs = self.roll("/extended =Bob", [6, 6, 2])
        self.assertIn("  Extended: 5/5 after 3 rolls: complete.", mine)
        self.assertEqual((bobs, theirs), (mine, ""))

    def test_extended_public_takes_no_names(self):
        self.call(CmdRoll(), "/extended dex vs 6 for 5=Bob",
                  "To show a roll only to some characters, roll privately: +roll/extended/private\n"
                  "  <pool>=<name>, <name>.\nUsage: ")


@override_settings(DICE_SYSTEM="v5")
class TestV5(PrivateTest):
    def test_extended_private_with_names(self):
        self.char1.set_trait("hunger", 0)
        mine, bobs, theirs = self.roll("/private/extended dex vs 20=Bob", [6, 7, 2])
        code = RollEntry.objects.get().code
        self.assertEqual(mine, "[Private roll] Char starts an extended roll toward 20 (roll 1): Dexterity 3 (3\n"
                               "  dice), Hunger 0\n"
                               "  Dice: 6 7 2  =>  2 successes: success\n"
                               "  (private: shown to Char, Bob, staff)\n"
                               f"  Extended: 2/20 after 1 roll. [code {code}]")
        self.assertEqual((bobs, theirs), (mine, ""))
        mine, bobs, theirs = self.roll("/extended", [6, 2, 2])
        self.assertIn("  (private: shown to Char, staff)", mine)
        self.assertEqual((bobs, theirs), ("", ""))
        mine, bobs, theirs = self.roll("/extended =Bob # again", [6, 6, 2])
        self.assertIn("  Extended: 5/20 after 3 rolls.", mine)
        self.assertEqual((bobs, theirs), (mine, ""))

    def test_extended_public_takes_no_names(self):
        self.call(CmdRoll(), "/extended dex vs 20=Bob",
                  "To show a roll only to some characters, roll privately: +roll/extended/private\n"
                  "  <pool>=<name>, <name>.\nUsage: ")
        self.assertFalse(RollEntry.objects.exists())
