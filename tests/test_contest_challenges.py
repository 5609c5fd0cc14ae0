"""
Challenges the other side answers, in V20 and Seyruun (the shared flow, `commands.contest`):
the challenge line, the answer (both sides rolled then), decline, cancel, /private, expiry, and
the pending state rebuilt from the database after a restart.
"""

from unittest import mock

import pytest

from django.test import override_settings
from evennia.objects.models import ObjectDB
from evennia.utils.idmapper.models import flush_cache

from storyteller_dice.commands import contest as shared
from storyteller_dice.commands.contest import INCOMING, OUTGOING, load_challenge
from storyteller_dice.commands.seyruun.contest import CmdContest as SeyruunContest
from storyteller_dice.commands.seyruun.contest import CmdResist
from storyteller_dice.commands.v20.contest import CmdContest as V20Contest
from storyteller_dice.rolllog.models import RollEntry

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class ChallengeTest(TableTest):
    """Char (staff) and Char2 (a player) in room1, both connected; each system sets their traits."""

    def setUp(self):
        super(TableTest, self).setUp()  # not the V5 traits
        self.online = {self.char1.id, self.char2.id}
        patcher = mock.patch("storyteller_dice.commands.pending.connected",
                             side_effect=lambda obj: obj.id in self.online)
        patcher.start()
        self.addCleanup(patcher.stop)

    def challenge(self, cmd, args, expected=None):
        with mock.patch.object(shared, "delay") as delay:
            out = self.do(cmd, args, [], expected)
        (timeout, callback, made), = [call.args for call in delay.call_args_list]
        self.assertEqual((timeout, callback), (300, shared.expire_challenge))
        return made, out

    def restart(self):
        """Forget every in-memory object, read the characters again, run the start hook's restore."""
        flush_cache()
        for name in ("char1", "char2", "room1", "room2"):
            setattr(self, name, ObjectDB.objects.get(id=getattr(self, name).id))
        with mock.patch.object(shared, "delay") as delay:
            shared.restore_challenges()
        return delay


@override_settings(DICE_SYSTEM="v20")
class TestV20Challenge(ChallengeTest):
    def setUp(self):
        super().setUp()
        for trait, value in (("dexterity", 3), ("brawl", 2)):
            self.char1.set_trait(trait, value)
        self.char2.set_trait("dexterity", 2)

    CHALLENGE = ("[Contest] Char challenges Char2: dex+brawl # grapple\n"
                 "  Char2 answers with +contest/answer <pool> [vs <diff>] or +contest/decline\n"
                 "    (within 5 minutes).")

    def test_the_challenged_player_answers_and_both_roll_then(self):
        self.challenge(V20Contest, "dex+brawl = Char2 # grapple", {self.char2: self.CHALLENGE})
        expected = ("[Contest] Char vs Char2 # grapple / slip\n"
                    "  Char: Dexterity 3 + Brawl 2 = 5 dice, difficulty 6\n"
                    "    Dice: 6 7 8 2 2  =>  3 successes: complete success\n"
                    "  Char2: Dexterity 2 = 2 dice, difficulty 7\n"
                    "    Dice: 7 1  =>  0 successes: failure (one 1 cancelled 1 success)\n"
                    "  => Char wins by 3 successes.")
        out = self.do(V20Contest, "/answer dex vs 7 # slip", [6, 7, 8, 2, 2, 7, 1],
                      {self.char1: expected, self.char2: expected}, caller=self.char2)
        self.assertEqual(out[self.char1].count("[code "), 1)
        entry = RollEntry.objects.get(kind="contest")
        self.assertEqual([side["label"] for side in entry.sides], ["Char", "Char2"])
        self.assertIsNone(load_challenge(self.char2, INCOMING))
        self.refused(V20Contest, "/answer dex", "No one has challenged you.", caller=self.char2)

    def test_vs_a_character_is_the_challenge_as_in_every_system(self):
        for typed, shown in (("dex+brawl vs Char2 # grapple", "dex+brawl"), ("dex+brawl VS. char2 # grapple", "dex+brawl"),
                             ("dex+brawl vs 7 vs Char2 # grapple", "dex+brawl vs 7")):
            made, _ = self.challenge(V20Contest, typed, {self.char2: self.CHALLENGE.replace("dex+brawl", shown)})
            self.assertEqual((made.defender, made.pool), (self.char2, shown))
            self.do(V20Contest, "/cancel", [])
        self.challenge(V20Contest, "dex+brawl vs 7 vs Char2")
        out = self.do(V20Contest, "/answer dex", [6, 7, 8, 2, 2, 7, 1], caller=self.char2)
        self.assertIn("  Char: Dexterity 3 + Brawl 2 = 5 dice, difficulty 7\n", out)

    def test_vs_a_number_is_still_a_difficulty(self):
        for typed in ("dex+brawl vs 3", "dex+brawl vs 7 # grapple"):
            out = self.refused(V20Contest, typed, "Name the character you challenge:")
            self.assertEqual(" ".join(out.split("Usage:")[0].split()),
                             "Name the character you challenge: +contest <pool> [vs <diff>] vs <character> "
                             "(or = <character>).")
        made, _ = self.challenge(V20Contest, "dex+brawl vs 3 = Char2")
        self.assertEqual(made.pool, "dex+brawl vs 3")
        self.assertFalse(RollEntry.objects.exists())

    def test_staff_roll_both_sides_with_vs_too(self):
        out = self.do(V20Contest, "Char: dex vs 6 vs Char2: dex vs 6", [6, 7, 8, 6, 2])
        self.assertIn("  => Char wins by 2 successes.", out)

    def test_equal_nets_nobody_wins(self):
        self.challenge(V20Contest, "dex = Char2")
        out = self.do(V20Contest, "/answer dex", [6, 2, 2, 6, 2], caller=self.char2)
        self.assertIn("  => equal nets (1 each): nobody wins.", out)

    def test_decline_and_cancel(self):
        self.challenge(V20Contest, "dex = Char2")
        self.do(V20Contest, "/decline", [], {self.char1: "[Contest] Char2 declines Char's challenge."},
                caller=self.char2)
        self.challenge(V20Contest, "dex = Char2")
        self.do(V20Contest, "/cancel", [], {self.char2: "[Contest] Char withdraws the challenge to Char2."})
        self.assertIsNone(load_challenge(self.char1, OUTGOING))
        self.assertFalse(RollEntry.objects.exists())

    def test_private_challenge_and_answer_reach_only_the_two_and_staff(self):
        char3 = self.make_character("Char3")
        patcher = mock.patch("storyteller_dice.commands.dice_base.connected", return_value=True)
        patcher.start()
        self.addCleanup(patcher.stop)
        with mock.patch.object(char3, "msg") as bystander:
            self.challenge(V20Contest, "/private dex = Char2", {
                self.char2: "[Private contest] Char challenges Char2: dex\n"})
            out = self.do(V20Contest, "/answer dex", [6, 2, 2, 2, 2], caller=self.char2)
        bystander.assert_not_called()
        self.assertTrue(out.startswith("[Private contest] Char vs Char2\n"), out)
        self.assertIn("  (private: shown to Char2, Char, staff) [code ", out)
        self.assertTrue(RollEntry.objects.get().private)

    def test_refusals_change_nothing(self):
        self.refused(V20Contest, "dex = Char", "You cannot challenge yourself.")
        self.refused(V20Contest, "dex+sneak = Char2", "There is no trait called 'sneak'.")
        self.refused(V20Contest, "dex", "Name the character you challenge: +contest <pool> [vs <diff>] vs")
        self.challenge(V20Contest, "dex = Char2")
        self.refused(V20Contest, "/answer dex+sneak", "There is no trait called 'sneak'.", caller=self.char2)
        self.assertIsNotNone(load_challenge(self.char2, INCOMING))

    def test_the_challengers_side_is_read_again_when_answered(self):
        self.challenge(V20Contest, "dex+brawl = Char2")
        self.char1.set_trait("brawl", 0)
        self.char1.set_trait("dexterity", 1)
        out = self.do(V20Contest, "/answer dex", [6, 2, 2], caller=self.char2)
        self.assertIn("  Char: Dexterity 1 + Brawl 0 = 1 die, difficulty 6\n", out)

    def test_the_challenge_survives_a_restart_and_is_answered(self):
        made, _ = self.challenge(V20Contest, "dex = Char2")
        delay = self.restart()
        (seconds, callback, restored), = [call.args for call in delay.call_args_list]
        self.assertEqual((callback, restored.id), (shared.expire_challenge, made.id))
        self.assertGreater(seconds, 290)
        out = self.do(V20Contest, "/answer dex", [6, 2, 2, 2, 2], caller=self.char2)
        self.assertIn("  => Char wins by 1 success.", out)

    def test_expired_while_the_server_was_down(self):
        made, _ = self.challenge(V20Contest, "dex = Char2")
        self.online = set()
        with mock.patch("storyteller_dice.commands.contest.time.time", return_value=made.created + 301):
            self.restart()
        self.assertIsNone(load_challenge(self.char1, OUTGOING))
        from storyteller_dice.commands import pending

        self.assertEqual(pending.load(self.char2, pending.NOTICES),
                         ["|w[Contest]|n Char's challenge to you expired unanswered while you were away."])


@override_settings(DICE_SYSTEM="seyruun")
class TestSeyruunChallenge(ChallengeTest):
    def setUp(self):
        super().setUp()
        for trait, value in (("dexterity", 3), ("stealth", 2)):
            self.char1.set_trait(trait, value)
        for trait, value in (("wits", 2), ("resolve", 3)):
            self.char2.set_trait(trait, value)

    def test_contest_challenge_answered(self):
        self.challenge(SeyruunContest, "dex+stealth vs Char2", {
            self.char2: "[Contest] Char challenges Char2: Dexterity 3 + Stealth 2 = 5 dice\n"
                        "  Char2 answers with +contest/answer <pool> or +contest/decline (within 5\n"
                        "    minutes)."})
        expected = ("[Contest] Char vs Char2\n"
                    "  Char: Dexterity 3 + Stealth 2 = 5 dice\n"
                    "    Dice: 6 6 2 2 2  =>  2 successes: solid\n"
                    "  Char2: Wits 2 - untrained 1 = 1 die\n"
                    "    Dice: 6  =>  1 success: just enough (untrained: -1 die)\n"
                    "  => Char wins, 2 to 1 successes (margin 1).")
        self.do(SeyruunContest, "/answer wits", [6, 6, 2, 2, 2, 6], {self.char1: expected, self.char2: expected},
                caller=self.char2)
        self.assertEqual(RollEntry.objects.get().kind, "contest")

    def test_resist_challenge_answered_with_resist(self):
        self.challenge(CmdResist, "dex+stealth vs Char2")
        self.refused(SeyruunContest, "/answer res", "Char's challenge is answered with +resist/answer.",
                     caller=self.char2)
        out = self.do(CmdResist, "/answer resolve", [6, 2, 2, 2, 2, 6, 2], caller=self.char2)
        self.assertIn("  => Resisted: 1 to 1, the resistance holds.", out)
        self.assertEqual(RollEntry.objects.get().kind, "resist")

    def test_private_numbers_contest(self):
        out = self.do(SeyruunContest, "/private dex+stealth vs 2+1", [6, 7, 8, 2, 2, 6, 2, 2])
        self.assertTrue(out.startswith("[Private contest] Char vs the opposition\n"), out)
        self.assertIn("(private: shown to Char, staff)", out)

    def test_decline_then_pending_lines_are_empty(self):
        self.challenge(SeyruunContest, "dex vs Char2")
        self.assertEqual(shared.pending_lines(self.char2), [
            "|w[Contest]|n Char's challenge to you is still open: answer with +contest/answer <pool> or "
            "+contest/decline within 5 minutes."])
        self.do(SeyruunContest, "/decline", [], {self.char1: "[Contest] Char2 declines Char's challenge."},
                caller=self.char2)
        self.assertEqual(shared.pending_lines(self.char2), [])
