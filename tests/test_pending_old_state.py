"""
Pending state written by the version before extended rolls and challenges were shared
(`commands.extended`, `commands.contest`), read after the upgrade: an open extended roll of V5,
V20 or Seyruun continues, and a Dice Check check left waiting can still be answered. The old
values are written here as that version wrote them (literal data, copied from its code).
"""

import time
from unittest import mock

import pytest

from django.test import override_settings

from storyteller_dice.commands import contest, extended, extended_upgrade, pending
from storyteller_dice.commands.dicecheck import challenge
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.v5.willpower import CmdWillpower
from storyteller_dice.rules import v5

from .table_helpers import TableTest
from .test_cmd_dicecheck import DiceCheckTest
from .test_cmd_seyruun import SeyruunTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


def flat(text):
    return " ".join(text.split())


class OldExtended(TableTest):
    def old_v5(self, state, **data):
        """As the V5 wing kept it: Attribute `extended_roll`, category `dice`."""
        self.char1.attributes.add("extended_roll", {"private": False, "numbers_only": False,
                                                    "run": f"{self.char1.id}-1764640000.123456", **data,
                                                    "state": state}, category="dice")

    def status(self, expected):
        self.do(CmdRoll, "/status", [], expected)


class TestV5(OldExtended):
    STATE = {"pool": "dex", "target": 5, "total": 2, "rolls": 1, "last": 2, "bestial_failures": 0,
             "messy_criticals": 0}

    def test_an_open_extended_roll_continues(self):
        self.old_v5(self.STATE)
        self.assertEqual(extended_upgrade.upgrade("v5"), 1)
        self.status("Your extended roll: dex toward 5: 2/5 after 1 roll.")
        out = self.do(CmdRoll, "/extended", [6, 6, 6])
        self.assertEqual(flat(out).split(" [code ")[0], flat(
            "[Roll] Char continues an extended roll toward 5 (roll 2): Dexterity 3 (3 dice), Hunger 2 "
            "Dice: 6 Hunger: 6 6 => 3 successes: success Extended: 5/5 after 2 rolls: complete."))
        self.assertFalse(self.char1.attributes.has("extended_roll", category="dice"))

    def test_private_and_the_run_are_kept(self):
        self.old_v5(dict(self.STATE, total=4, rolls=3, last=1), private=True, run="7-1764640000.5")
        extended_upgrade.upgrade("v5")
        state = extended.load(self.char1)
        self.assertEqual((state.private, state.run, state.total, state.before, state.rolls), (True, "7-1764640000.5", 4, 3, 3))
        out = self.do(CmdRoll, "/extended", [2, 2, 2])
        self.assertTrue(out.startswith("[Private roll] Char continues an extended roll toward 5 (roll 4)"), out)

    def test_its_latest_roll_can_still_be_rerolled_with_willpower(self):
        run = f"{self.char1.id}-1764640000.123456"
        self.old_v5(dict(self.STATE, pool="dex+athletics", target=10), run=run)
        result = pending.to_plain(v5.evaluate([1, 2, 6], [3, 7], 1))
        result["__dataclass__"] = "storyteller_dice.rules.v5_dice:V5Result"  # as that version named it
        pending.save(self.char1, "last_roll", {  # as its +willpower kept the roll
            "class": "storyteller_dice.commands.v5.rolls:ExtendedLastRoll",
            "fields": {"result": result, "summary": "extended roll 1 of Dexterity 3 + Athletics 2 = 5 (5 dice), Hunger 2",
                       "difficulty_given": False, "private": False, "receivers": [], "entry": None,
                       "time": time.time() - 30, "caller": self.char1, "run": run, "number": 1}})
        extended_upgrade.upgrade("v5")
        self.do(CmdWillpower, "", [10, 10], {self.char2: "[Roll] Char spends Willpower to reroll: extended roll 1 of "
                "Dexterity 3 +\n  Athletics 2 = 5 (5 dice), Hunger 2\n"
                "  Willpower (failures): rerolled 1 2 -> 10 10\n"
                "  Dice: 10 10 6  Hunger: 3 7  =>  6 successes: critical success\n"
                "  Extended: 6/10 after 1 roll."})
        self.status("Your extended roll: dex+athletics toward 10: 6/10 after 1 roll.")

    def test_a_complete_one_still_shows(self):
        self.old_v5(dict(self.STATE, total=6, rolls=2, last=4, messy_criticals=1))
        extended_upgrade.upgrade("v5")
        self.status("Your extended roll: dex toward 5: 6/5 after 2 rolls, complete.")

    def test_one_that_does_not_read_is_dropped_with_a_line_in_the_log(self):
        self.old_v5({"pool": "dex"})  # no target
        with mock.patch.object(extended_upgrade.logger, "log_warn") as warn:
            self.assertEqual(extended_upgrade.upgrade("v5"), 0)
        self.assertIn(f"Dropped the extended roll of Char (#{self.char1.id}) kept by an earlier version "
                      "(extended_roll): it does not read", warn.call_args.args[0])
        self.assertFalse(self.char1.attributes.has("extended_roll", category="dice"))
        self.refused(CmdRoll, "/status", "You have no extended roll: start one with +roll/extended")

    def test_one_in_todays_shape_is_kept(self):
        self.do(CmdRoll, "/extended dex vs 9", [2, 2, 2])
        self.old_v5(self.STATE)
        self.assertEqual(extended_upgrade.upgrade("v5"), 0)
        self.status("Your extended roll: dex toward 9: 0/9 after 1 roll.")

    def test_another_systems_old_shape_waits_for_its_system(self):
        self.old_v5(self.STATE)
        self.assertEqual(extended_upgrade.upgrade("v20"), 0)
        self.assertTrue(self.char1.attributes.has("extended_roll", category="dice"))

    def test_the_start_hook_carries_it_over(self):
        self.old_v5(self.STATE)
        with mock.patch.object(pending, "delay"), mock.patch.object(contest, "delay"):
            pending.at_server_start()
        self.status("Your extended roll: dex toward 5: 2/5 after 1 roll.")


@override_settings(DICE_SYSTEM="v20")
class TestV20(OldExtended):
    def setUp(self):
        super(TableTest, self).setUp()  # no V5 traits
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("brawl", 2)

    def old_v20(self, **data):
        """As the V20 wing kept it: Attribute `v20_extended`, category `dice`."""
        self.char1.attributes.add("v20_extended", {"text": "dex+brawl vs 6", "spec": False, "private": False,
                                                   "target": 5, "total": 2, "rolls": 1, **data}, category="dice")

    def test_an_open_extended_action_continues(self):
        self.old_v20()
        self.assertEqual(extended_upgrade.upgrade("v20"), 1)
        self.status("Your extended roll: dex+brawl vs 6 toward 5: 2/5 after 1 roll.")
        out = self.do(CmdRoll, "/extended", [6, 7, 8, 2, 3])
        self.assertEqual(flat(out).split(" [code ")[0], flat(
            "[Roll] Char continues an extended roll toward 5 (roll 2): Dexterity 3 + Brawl 2 = 5 dice, difficulty 6 "
            "Dice: 6 7 8 2 3 => 3 successes: complete success Extended: 5/5 after 2 rolls: complete."))
        self.assertFalse(self.char1.attributes.has("v20_extended", category="dice"))

    def test_a_specialty_is_kept_for_every_roll(self):
        self.char1.add_specialty("brawl", "Grappling")
        self.old_v20(spec=True, target=9)
        extended_upgrade.upgrade("v20")
        self.assertEqual(extended.load(self.char1).switches, ("spec",))
        out = self.do(CmdRoll, "/extended", [10, 2, 2, 2, 2])
        self.assertIn("  Extended: 4/9 after 2 rolls.", out)  # the 10 counts twice with the Specialty


class TestSeyruun(SeyruunTest, OldExtended):

    def old_seyruun(self, **progress):
        """As the Seyruun wing kept it: pending value `seyruun_extended`, its progress a dataclass."""
        pending.save(self.char1, "seyruun_extended", {
            "text": "dex+stealth", "private": False,
            "progress": {"__dataclass__": "storyteller_dice.rules.seyruun:Extended", "target": 4, "total": 3,
                         "rolls": 1, "botches": 0, **progress}})

    def test_an_open_extended_roll_continues(self):
        self.old_seyruun()
        self.assertEqual(extended_upgrade.upgrade("seyruun"), 1)
        self.status("Your extended roll: dex+stealth toward 4: 3/4 after 1 roll.")
        out = self.do(CmdRoll, "/extended", [7, 2, 2, 2, 2])
        self.assertIn("Char continues an extended roll toward 4 (roll 2)", flat(out))
        self.assertIn("Extended: 4/4 after 2 rolls: complete.", flat(out))
        self.assertIsNone(pending.load(self.char1, "seyruun_extended"))

    def test_botches_are_still_counted(self):
        self.old_seyruun(target=9, rolls=3, botches=1)
        extended_upgrade.upgrade("seyruun")
        self.status("Your extended roll: dex+stealth toward 9: 3/9 after 3 rolls, 1 botch.")

    def test_the_name_from_before_the_package_reads_too(self):
        self.old_seyruun()
        stored = pending.load(self.char1, "seyruun_extended")
        stored["progress"]["__dataclass__"] = "rules.seyruun:Extended"
        pending.save(self.char1, "seyruun_extended", stored)
        extended_upgrade.upgrade("seyruun")
        self.status("Your extended roll: dex+stealth toward 4: 3/4 after 1 roll.")


class TestDiceCheckWaitingCheck(DiceCheckTest):
    """Char2 (a player) asked to roll against Char's sheet before the upgrade; Char answers after it."""

    def setUp(self):
        super().setUp()
        self.char1.set_trait("evasion", 2)
        self.char2.set_trait("strength", 4)

    def old_check(self, asked=60, **held):
        """As the Dice Check kept it: pending value `dicecheck_challenge` on the one asked."""
        pending.save(self.char1, "dicecheck_challenge", {
            "from": self.char2, "args": "STR:EVA Char", "switches": [], "numbers_only": False,
            "command": "+roll STR:EVA Char", "at": time.time() - asked, **held})

    def upgrade(self):
        with mock.patch.object(challenge, "delay") as delay:
            done = challenge.upgrade_waiting_checks()
        return done, delay

    def test_a_waiting_check_can_be_answered(self):
        self.old_check()
        (made,), delay = self.upgrade()
        (seconds, callback, restored), = [call.args for call in delay.call_args_list]
        self.assertEqual((callback, restored.id), (challenge.expire_challenge, made.id))
        self.assertTrue(230 < seconds <= 240, seconds)
        self.assertEqual(pending.pending_lines(self.char1), [
            "|w[Contest]|n Char2's challenge to you is still open: answer with +roll/answer Char2 or "
            "+roll/decline Char2 within 4 minutes."])
        self.do(CmdRoll, "/answer Char2", [7, 7, 1, 1],
                {self.char2: "[Roll] Char2 rolls Strength 4 = 4d(7+), vs Char's Evasion 2\n"
                             "  Dice: 7 7 1 1  =>  2 hits: success (Effect 0, Degree of Success 1)"},
                caller=self.char1)
        self.assertIsNone(pending.load(self.char1, "dicecheck_challenge"))

    def test_it_can_be_declined(self):
        self.old_check()
        self.upgrade()
        told = []
        self.char2.msg = lambda text=None, **kwargs: told.append(text)
        self.call(CmdRoll(), "/decline Char2", "You decline Char2's check: +roll STR:EVA Char", caller=self.char1)
        self.assertEqual(told, ["Char declines your check: +roll STR:EVA Char"])

    def test_a_private_one_stays_private(self):
        self.old_check(switches=["private"], args="STR:EVA Char # sneaky", command="+roll/private STR:EVA Char # sneaky")
        (made,), _delay = self.upgrade()
        self.assertTrue(made.private)
        self.do(CmdRoll, "/answer Char2", [7, 7, 1, 1],
                {self.char1: "You answer Char2's check: +roll/private STR:EVA Char # sneaky|"
                             "[Private roll] Char2 rolls Strength 4 = 4d(7+), vs Char's Evasion 2 # sneaky"},
                caller=self.char1)

    def test_one_out_of_time_is_dropped(self):
        self.old_check(asked=301)
        self.assertEqual(self.upgrade()[0], [])
        self.assertIsNone(pending.load(self.char1, "dicecheck_challenge"))
        self.refused(CmdRoll, "/answer Char2", "No check from 'Char2' waits for your answer.")

    def test_one_that_does_not_read_is_dropped_with_a_line_in_the_log(self):
        self.old_check(at="yesterday")
        with mock.patch.object(challenge.logger, "log_warn") as warn:
            self.assertEqual(self.upgrade()[0], [])
        self.assertIn(f"Dropped the check waiting for Char (#{self.char1.id}) kept by an earlier version",
                      warn.call_args.args[0])
        self.refused(CmdRoll, "/answer Char2", "No check from 'Char2' waits for your answer.")

    def test_the_wing_carries_them_over_at_start(self):
        self.old_check()
        with mock.patch.object(challenge, "delay"), mock.patch.object(pending, "delay"), mock.patch.object(contest, "delay"):
            pending.at_server_start()
        self.assertEqual(len(pending.pending_lines(self.char1)), 1)
