"""
Pending state lives in the database and survives a restart: challenges (and their expiry),
teamwork rolls, the last roll kept for +willpower; the notices on reconnecting; teamwork one
roll at a time; staff opposition marked as staff's.

A "restart" here drops every Python object the server held: the idmapper cache is flushed
and the characters are read again from the database (so `ndb` is empty and nothing in memory
carries over), and the server-start hook is run as Evennia runs it.
"""

import time
from unittest import mock

import pytest

from evennia.objects.models import ObjectDB
from evennia.utils.idmapper.models import flush_cache

from storyteller_dice.commands import contest as contest_module
from storyteller_dice.commands import pending, pending_lifecycle
from storyteller_dice.commands.contest import INCOMING, OUTGOING, load_challenge
from storyteller_dice.commands.v5.contest import CmdContest
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.v5.teamwork import CmdTeamwork, helping, load_team
from storyteller_dice.commands.v5.willpower import REROLL_WINDOW, CmdWillpower, last_roll

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class PendingTest(TableTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("resolve", 2)  # Willpower 3
        self.online = set()
        patcher = mock.patch("storyteller_dice.commands.pending.connected", side_effect=lambda obj: obj.id in self.online)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.online = {self.char1.id, self.char2.id}

    def restart(self):
        """Forget every in-memory object; read the characters and rooms again from the database."""
        old = self.char1
        flush_cache()
        for name in ("char1", "char2", "room1", "room2"):
            setattr(self, name, ObjectDB.objects.get(id=getattr(self, name).id))
        self.assertIsNot(self.char1, old)
        self.assertIsNone(self.char1.ndb.contest_outgoing)

    def told(self, character, action):
        """What `character` was sent (joined) while `action()` ran."""
        with mock.patch.object(type(character), "msg") as msg:
            action()
        sent = []
        for call in msg.call_args_list:
            text = call.args[0] if call.args else call.kwargs.get("text")
            sent.append(text[0] if isinstance(text, tuple) else text)
        return "\n".join(str(text) for text in sent)

    def challenge(self):
        with mock.patch.object(contest_module, "delay"):
            self.do(CmdContest, "dex+athletics vs Char2 # arm wrestling", [])


class TestChallengeSurvives(PendingTest):
    def test_challenge_is_in_the_database_and_answered_after_a_restart(self):
        self.challenge()
        self.restart()
        self.assertEqual(load_challenge(self.char2, INCOMING).id, load_challenge(self.char1, OUTGOING).id)
        expected = (
            "[Contest] Char vs Char2 # arm wrestling\n"
            "  Char: Dexterity 3 + Athletics 2 = 5 (5 dice), Hunger 2\n"
            "    Dice: 6 7 8  Hunger: 9 10  =>  5 successes: success\n"
            "  Char2: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1\n"
            "    Dice: 1 6 7 8  Hunger: 10  =>  4 successes: failure\n"
            "  => Char wins by 1 (5 to 4)."
        )
        self.do(CmdContest, "/answer com+res", [6, 7, 8, 9, 10, 1, 6, 7, 8, 10],
                {self.char1: expected, self.char2: expected}, caller=self.char2)
        self.assertIsNone(load_challenge(self.char2, INCOMING))
        self.assertIsNone(load_challenge(self.char1, OUTGOING))

    def test_server_start_gives_a_live_challenge_its_timer_back(self):
        self.challenge()
        made = load_challenge(self.char1, OUTGOING)
        self.restart()
        with mock.patch.object(contest_module, "delay") as delay, \
                mock.patch("storyteller_dice.commands.contest.time.time", return_value=made.created + 100):
            contest_module.restore_challenges()
        (seconds, callback, challenge), = [call.args for call in delay.call_args_list]
        self.assertEqual((round(seconds), callback, challenge.id), (200, contest_module.expire_challenge, made.id))

    def test_a_challenge_that_ran_out_while_the_server_was_down_expires_at_start(self):
        self.challenge()
        made = load_challenge(self.char1, OUTGOING)
        self.restart()
        self.online = set()  # the Portal has not handed the sessions back yet
        later = made.created + contest_module.CHALLENGE_TIMEOUT + 60
        with mock.patch.object(contest_module, "delay") as delay, \
                mock.patch("storyteller_dice.commands.contest.time.time", return_value=later):
            contest_module.restore_challenges()
        self.assertEqual(delay.call_count, 0)
        self.assertIsNone(load_challenge(self.char1, OUTGOING))
        self.assertIsNone(load_challenge(self.char2, INCOMING))
        self.online = {self.char1.id, self.char2.id}
        self.assertEqual(self.told(self.char1, lambda: pending_lifecycle.at_connect(self.char1)),
                         "|w[Contest]|n Your challenge to Char2 expired unanswered while you were away.")
        self.assertEqual(self.told(self.char2, lambda: pending_lifecycle.at_connect(self.char2)),
                         "|w[Contest]|n Char's challenge to you expired unanswered while you were away.")
        self.assertEqual(self.told(self.char1, lambda: pending_lifecycle.at_connect(self.char1)), "")  # told once

    def test_answering_late_after_a_restart_is_refused(self):
        self.challenge()
        made = load_challenge(self.char1, OUTGOING)
        self.restart()
        with mock.patch("storyteller_dice.commands.contest.time.time", return_value=made.created + 301):
            out = self.do(CmdContest, "/answer com+res", [], caller=self.char2)
        self.assertIn("Char's challenge has expired.", out)
        self.assertIsNone(load_challenge(self.char1, OUTGOING))

    def test_void_notice_to_an_absent_challenger_waits_for_their_next_connection(self):
        self.challenge()
        self.char1.location = self.room2
        self.online = {self.char2.id}
        self.refused(CmdContest, "/answer com+res", "Char is no longer here; the challenge is void.",
                     caller=self.char2)
        self.restart()
        self.online = {self.char1.id}
        self.assertEqual(self.told(self.char1, lambda: pending_lifecycle.at_connect(self.char1)),
                         "|w[Contest]|n Your challenge to Char2 became void while you were away: "
                         "you were no longer in the same place when they answered.")

    def test_the_notice_queue_is_bounded(self):
        self.online = set()
        for number in range(pending.MAX_NOTICES + 5):
            pending.notify(self.char2, f"notice {number}")
        queue = pending.load(self.char2, pending.NOTICES)
        self.assertEqual(len(queue), pending.MAX_NOTICES)
        self.assertEqual(queue[-1], f"notice {pending.MAX_NOTICES + 4}")


class TestReconnectTellsWhatIsPending(PendingTest):
    def test_challenge_teamwork_and_willpower_window_are_listed(self):
        char3 = self.make_character("Char3")
        self.challenge()
        self.do(CmdTeamwork, "dex vs 3", [], caller=char3)
        self.do(CmdTeamwork, "/join Char3=com+res", [], caller=self.char2)
        self.do(CmdRoll, "dex+athletics vs 3", [1, 2, 6, 3, 7])
        made = load_challenge(self.char1, OUTGOING)
        self.restart()
        with mock.patch("storyteller_dice.commands.contest.time.time", return_value=made.created + 61), \
                mock.patch("storyteller_dice.commands.v5.willpower.time.time", return_value=made.created + 61):
            mine = self.told(self.char1, lambda: pending_lifecycle.at_connect(self.char1))
            theirs = self.told(self.char2, lambda: pending_lifecycle.at_connect(self.char2))
            leader = self.told(char3, lambda: pending_lifecycle.at_connect(ObjectDB.objects.get(id=char3.id)))
        self.assertEqual(mine, "|w[Contest]|n Your challenge to Char2 is still open: 4 minutes left for their "
                         "answer.\n|w[Roll]|n You may still reroll your last roll (Dexterity 3 + Athletics 2 = 5 "
                         "(5 dice), Hunger 2, vs 3) with +willpower for 9 minutes.")
        self.assertEqual(theirs, "|w[Contest]|n Char's challenge to you is still open: answer with "
                         "+contest/answer <pool> or +contest/decline within 4 minutes.\n"
                         "|w[Teamwork]|n You still help Char3's teamwork roll with Composure 2 + Resolve 3 = 5 "
                         "(5 dice) (+teamwork/leave to stop).")
        self.assertEqual(leader, "|w[Teamwork]|n Your teamwork roll is still open: Dexterity 1 "
                         "(1 die), vs 3; 1 helper. +teamwork/roll or +teamwork/cancel it.")

    def test_a_closed_willpower_window_is_told_once(self):
        self.do(CmdRoll, "dex+athletics vs 3", [1, 2, 6, 3, 7])
        self.restart()
        with mock.patch("storyteller_dice.commands.v5.willpower.time.time", return_value=time.time() + REROLL_WINDOW + 5):
            first = self.told(self.char1, lambda: pending_lifecycle.at_connect(self.char1))
            second = self.told(self.char1, lambda: pending_lifecycle.at_connect(self.char1))
        self.assertEqual(first, "|w[Roll]|n The 10 minutes to reroll your last roll (Dexterity 3 + Athletics 2 "
                         "= 5 (5 dice), Hunger 2, vs 3) with +willpower ran out.")
        self.assertEqual(second, "")

    def test_connected_characters_are_told_after_a_reload(self):
        self.challenge()
        self.restart()
        fake = mock.Mock(puppet=self.char1)
        with mock.patch("evennia.SESSION_HANDLER", {1: fake}):
            text = self.told(self.char1, pending_lifecycle.tell_connected)
        self.assertTrue(text.startswith("The game was restarted; still pending for you:\n"
                                        "|w[Contest]|n Your challenge to Char2 is still open: "), text)

    def test_nothing_pending_says_nothing(self):
        self.assertEqual(self.told(self.char2, lambda: pending_lifecycle.at_connect(self.char2)), "")


class TestTeamworkSurvives(PendingTest):
    def test_open_teamwork_is_rolled_after_a_restart(self):
        self.do(CmdTeamwork, "dex+athletics vs 4", [])
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        self.restart()
        self.assertEqual([helper for helper, _ in load_team(self.char1).helpers], [self.char2])
        out = self.do(CmdTeamwork, "/roll", [2, 6, 10, 1, 10, 6, 7, 8, 2, 3])
        self.assertIn("  => Total 8 successes: messy critical (margin +4, exceptional success)", out)
        self.assertIsNone(load_team(self.char1))
        self.assertIsNone(helping(self.char2))
        self.assertIsNone(pending.load(self.char2, "teamwork_helping"))

    def test_shared_reroll_state_survives_restarts(self):
        self.do(CmdTeamwork, "dex+athletics vs 5", [])
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        self.do(CmdTeamwork, "/roll", [2, 6, 3, 2, 4, 6, 2, 2, 2, 6])
        self.restart()
        self.do(CmdWillpower, "", [7, 8, 9], caller=self.char2)
        self.restart()
        # The leader's reroll counts the helper's rerolled dice (5 successes), read back from the database.
        self.do(CmdWillpower, "", [10, 10], "[Roll] Char spends Willpower to reroll: their dice in their "
                "teamwork roll\n  Willpower (failures): rerolled 2 3 -> 10 10\n"
                "  Dice: 10 6 10  Hunger: 2 4  =>  5 successes\n"
                "  => Total 10 successes: critical success (margin +5, exceptional success)")


class TestWillpowerSurvives(PendingTest):
    def test_last_roll_is_rerolled_after_a_restart(self):
        self.do(CmdRoll, "dex+athletics vs 3", [1, 2, 6, 3, 7])
        self.restart()
        self.assertEqual(last_roll(self.char1).result.regular, (1, 2, 6))
        self.do(CmdWillpower, "", [10, 10], "[Roll] Char spends Willpower to reroll: Dexterity 3 + Athletics 2 "
                "= 5 (5 dice),\n  Hunger 2, vs 3\n  Willpower (failures): rerolled 1 2 -> 10 10")
        self.restart()
        self.refused(CmdWillpower, "", "Your last roll has already been rerolled with Willpower (once per roll).")

    def test_the_window_runs_on_while_the_server_is_down(self):
        self.do(CmdRoll, "dex+athletics vs 3", [1, 2, 6, 3, 7])
        self.restart()
        with mock.patch("storyteller_dice.commands.v5.willpower.time.time", return_value=time.time() + REROLL_WINDOW + 1):
            self.refused(CmdWillpower, "", "Your last roll was more than 10 minutes ago")
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_both_sides_of_an_answered_challenge_reroll_across_restarts(self):
        self.challenge()
        self.do(CmdContest, "/answer com+res", [1, 2, 6, 3, 7, 1, 6, 2, 3, 4], caller=self.char2)
        self.restart()
        self.do(CmdWillpower, "", [9, 9, 9], caller=self.char2)
        self.restart()
        self.do(CmdWillpower, "", [10, 10], "[Roll] Char spends Willpower to reroll: their dice in the contest "
                "with Char2\n  Willpower (failures): rerolled 1 2 -> 10 10\n"
                "  Dice: 10 10 6  Hunger: 3 7  =>  6 successes: critical success\n  => Char wins by 2 (6 to 4).")

    def test_damaged_stored_roll_is_no_roll(self):
        pending.save(self.char1, "last_roll", {"class": "os:system", "fields": {}})
        self.refused(CmdWillpower, "", "You have no recent roll to reroll.")
        pending.save(self.char1, "last_roll", {"class": "storyteller_dice.commands.last_roll:LastRoll",
                                              "fields": {"result": {"__dataclass__": "os:system"}}})
        self.refused(CmdWillpower, "", "You have no recent roll to reroll.")


class TestTeamworkOneAtATime(PendingTest):
    def setUp(self):
        super().setUp()
        self.char3 = self.make_character("Char3")
        self.do(CmdTeamwork, "dex vs 3", [])  # Char leads
        self.do(CmdTeamwork, "/join Char=com", [], caller=self.char2)  # Char2 helps Char

    def test_a_helper_helps_one_roll_at_a_time(self):
        self.do(CmdTeamwork, "dex vs 2", [], caller=self.char3)  # Char3 leads another
        self.refused(CmdTeamwork, "/join Char3=res", "You already help Char's teamwork roll: one at a time; "
                     "+teamwork/leave it first.", caller=self.char2)
        self.assertFalse(load_team(self.char3).helpers)
        self.do(CmdTeamwork, "/join Char=res", [], "[Teamwork] Char2 changes their help to", caller=self.char2)

    def test_a_leader_does_not_help_and_a_helper_does_not_lead(self):
        self.do(CmdTeamwork, "dex vs 2", [], caller=self.char3)
        self.refused(CmdTeamwork, "/join Char3=dex", "You lead a teamwork roll: one at a time; +teamwork/roll "
                     "or +teamwork/cancel\n  yours before you help another.")
        self.refused(CmdTeamwork, "com vs 2", "You help Char's teamwork roll: one at a time; +teamwork/leave "
                     "it first.", caller=self.char2)
        self.assertIsNone(load_team(self.char2))

    def test_leave_then_help_another(self):
        self.do(CmdTeamwork, "dex vs 2", [], caller=self.char3)
        self.do(CmdTeamwork, "/leave", [], {self.char1: "[Teamwork] Char2 stops helping Char's teamwork roll."},
                caller=self.char2)
        self.assertEqual(load_team(self.char1).helpers, [])
        self.refused(CmdTeamwork, "/leave", "You help no teamwork roll.", caller=self.char2)
        self.do(CmdTeamwork, "/join Char3=res", [], "[Teamwork] Char2 joins with Resolve 3", caller=self.char2)

    def test_a_rolled_or_cancelled_roll_frees_its_helpers(self):
        self.do(CmdTeamwork, "/cancel", [])
        self.do(CmdTeamwork, "com vs 2", [], "[Teamwork] Char2 leads a teamwork roll", caller=self.char2)


class TestStaffOpposition(PendingTest):
    def test_a_players_opposition_is_labelled_as_theirs(self):
        out = self.do(CmdContest, "com+res vs 4", [6, 7, 2, 3, 1, 6, 7, 2, 2], caller=self.char2)
        self.assertTrue(out.startswith("[Contest] Char2 vs Opposition (set by Char2)\n"), out)
        self.assertNotIn("staff", out)

    def test_a_player_named_npc_cannot_read_as_staff(self):
        npc = self.make_character("NPC")
        npc.set_trait("dexterity", 2)
        out = self.do(CmdContest, "dex vs 2", [6, 6, 2, 2], caller=npc)
        self.assertTrue(out.startswith("[Contest] NPC vs Opposition (set by NPC)\n"), out)
        self.assertIn("=> NPC wins by 2", out)
        player = self.make_character("Opposition")
        out = self.do(CmdContest, "2 vs 2", [2, 2, 6, 6], caller=player)
        self.assertTrue(out.startswith("[Contest] Opposition vs Opposition (set by Opposition)\n"), out)
        self.assertIn("=> Opposition (set by Opposition) wins by 2", out)

    def test_staff_opposition_names_the_staff(self):
        out = self.do(CmdContest, "3 hunger 0 vs 2", [6, 6, 6, 2, 2])
        self.assertTrue(out.startswith("[Contest] NPC (staff: Char) vs Opposition (staff: Char)\n"), out)
        self.refused(CmdContest, "3 hunger 0 vs 2", "Your side rolls with your own Hunger; only staff",
                     caller=self.char2)
