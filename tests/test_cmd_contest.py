"""+contest: against a number of dice, challenges, answers, declines, expiry and refusals."""

from unittest import mock

import pytest

from storyteller_dice.commands import contest as contest_module
from storyteller_dice.commands.contest import INCOMING, OUTGOING, load_challenge
from storyteller_dice.commands.v5.contest import CmdContest

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

NPC_ROLL = (
    "[Contest] Char vs Opposition (staff: Char) # chase\n"
    "  Char: Dexterity 3 + Athletics 2 = 5 (5 dice), Hunger 2\n"
    "    Dice: 2 6 10  Hunger: 1 10  =>  5 successes: messy critical\n"
    "  Opposition (staff: Char): 6 dice, Hunger 2\n"
    "    Dice: 6 7 8 9  Hunger: 1 2  =>  4 successes: bestial failure\n"
    "  => Char wins by 1 (5 to 4)."
)


class TestContestAgainstDice(TableTest):
    def test_room_sees_both_rolls_winner_and_margin(self):
        out = self.do(CmdContest, "dex+athletics vs 6 hunger 2 # chase", [2, 6, 10, 1, 10, 6, 7, 8, 9, 1, 2],
                      {self.char1: NPC_ROLL, self.char2: NPC_ROLL})
        self.assertEqual(out[self.char1].count("[code "), 1)

    def test_tie_goes_to_the_defender_and_is_shown(self):
        # A plain player may roll against opposition dice; the opposition defends.
        self.do(CmdContest, "com+res vs 4", [6, 7, 2, 3, 1, 6, 7, 2, 2], {
            self.char1: "[Contest] Char2 vs Opposition (set by Char2)\n"
            "  Char2: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1\n"
            "    Dice: 6 7 2 3  Hunger: 1  =>  2 successes: bestial failure\n"
            "  Opposition (set by Char2): 4 dice, Hunger 0\n"
            "    Dice: 6 7 2 2  =>  2 successes: success\n"
            "  => Tie at 2 successes: Opposition (set by Char2) wins (ties go to the\n"
            "    defender).",
        }, caller=self.char2)

    def test_defend_switch_makes_you_the_defender(self):
        self.do(CmdContest, "/defend dex vs 3", [6, 7, 2, 6, 8, 3], {
            self.char2: "[Contest] Opposition (staff: Char) vs Char\n"
            "  Opposition (staff: Char): 3 dice, Hunger 0\n"
            "    Dice: 6 7 2  =>  2 successes: failure\n"
            "  Char: Dexterity 3 (3 dice), Hunger 2\n"
            "    Dice: 6  Hunger: 8 3  =>  2 successes: success\n"
            "  => Tie at 2 successes: Char wins (ties go to the defender).",
        })

    def test_staff_roll_an_npc_on_the_left(self):
        self.do(CmdContest, "4 hunger 1 vs 3 hunger 3", [10, 10, 6, 2, 1, 1, 2], {
            self.char2: "[Contest] NPC (staff: Char) vs Opposition (staff: Char)\n"
            "  NPC (staff: Char): 4 dice, Hunger 1\n"
            "    Dice: 10 10 6  Hunger: 2  =>  5 successes: critical success\n"
            "  Opposition (staff: Char): 3 dice, Hunger 3\n"
            "    Hunger: 1 1 2  =>  0 successes: bestial failure\n"
            "  => NPC (staff: Char) wins by 5 (5 to 0).",
        })

    def test_a_player_never_states_their_own_hunger(self):
        self.refused(CmdContest, "com+res hunger 0 vs 5",
                     "Your side rolls with your own Hunger; only staff give the left side a Hunger",
                     caller=self.char2)
        self.assertEqual(self.char2.trait("hunger"), 1)

    def test_bad_input_one_line_nothing_rolled(self):
        cases = {
            "": "Say both sides: your pool, 'vs', then a number of dice or a character here.",
            "dex": "Say both sides",
            "vs 5": "Say what you roll before 'vs'.",
            "dex+sneak vs 5": "There is no trait called 'sneak'.",
            "dex vs 5 hunger 6": "Hunger is from 0 to 5.",
            "dex vs 5 hunger lots": "Hunger must be a whole number from 0 to 5, not 'lots'.",
            "dex vs 60": "That pool is 60 dice; pools are limited to 50.",
            "dex vs str+brawl": "The other side is a number of dice (like 6 hunger 2) or a character here",
            "/answer/decline": "Use one switch at a time: /answer, /decline or /cancel.",
            "/defend/cancel": "Use one switch at a time",
            "/answr dex": "Unknown switch /answr",
        }
        for args, message in cases.items():
            self.refused(CmdContest, args, message)


def incoming(character):
    return load_challenge(character, INCOMING)


def outgoing(character):
    return load_challenge(character, OUTGOING)


class TestChallenge(TableTest):
    def setUp(self):
        super().setUp()
        # Both players are at their keyboards here (notices for absent players: test_pending_state).
        patcher = mock.patch("storyteller_dice.commands.pending.connected", return_value=True)
        patcher.start()
        self.addCleanup(patcher.stop)

    def challenge(self, args="dex+athletics vs Char2 # arm wrestling"):
        with mock.patch.object(contest_module, "delay") as delay:
            out = self.do(CmdContest, args, [], {self.char2: "[Contest] Char challenges Char2: "
                                                 "Dexterity 3 + Athletics 2 = 5 (5 dice) # arm\n"
                                                 "  wrestling\n"
                                                 "  Char2 answers with +contest/answer <pool> or "
                                                 "+contest/decline (within 5\n"
                                                 "    minutes)."})
        self.assertEqual(delay.call_count, 1)
        timeout, callback, challenge = delay.call_args.args
        self.assertEqual((timeout, callback), (300, contest_module.expire_challenge))
        self.assertEqual(incoming(self.char2).id, challenge.id)
        self.assertEqual(outgoing(self.char1).id, challenge.id)
        return challenge, out

    def test_answer_rolls_both_and_both_see_the_result(self):
        self.challenge()
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
        self.assertIsNone(incoming(self.char2))
        self.assertIsNone(outgoing(self.char1))
        self.refused(CmdContest, "/answer com+res", "No one has challenged you.", caller=self.char2)

    def test_each_side_rolls_with_its_own_hunger_at_answer_time(self):
        self.challenge()
        self.char1.set_trait("hunger", 4)
        out = self.do(CmdContest, "/answer com+res", [1] * 10, caller=self.char2)
        self.assertIn("Char: Dexterity 3 + Athletics 2 = 5 (5 dice), Hunger 4\n    Dice: 1  Hunger: 1 1 1 1", out)
        self.assertIn("Char2: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1", out)
        self.assertIn("=> Tie at 0 successes: Char2 wins", out)

    def test_decline(self):
        self.challenge()
        self.do(CmdContest, "/decline", [], {self.char1: "[Contest] Char2 declines Char's challenge."},
                caller=self.char2)
        self.assertIsNone(outgoing(self.char1))
        self.refused(CmdContest, "/decline", "No one has challenged you.", caller=self.char2)

    def test_challenger_cancels(self):
        self.challenge()
        self.do(CmdContest, "/cancel", [], {self.char2: "[Contest] Char withdraws the challenge to Char2."})
        self.refused(CmdContest, "/answer com+res", "No one has challenged you.", caller=self.char2)
        self.refused(CmdContest, "/cancel", "You have no challenge waiting for an answer.")

    def test_only_the_challenged_character_answers(self):
        self.challenge()
        char3 = self.make_character("Char3")
        self.refused(CmdContest, "/answer dex", "No one has challenged you.")  # the challenger
        self.refused(CmdContest, "/answer dex", "No one has challenged you.", caller=char3)
        self.refused(CmdContest, "/decline", "No one has challenged you.", caller=char3)
        self.refused(CmdContest, "/cancel", "You have no challenge waiting for an answer.", caller=self.char2)
        self.assertIsNotNone(incoming(self.char2))

    def test_expiry_tells_both(self):
        challenge, _ = self.challenge()
        self.char1.msg = mock.Mock()
        self.char2.msg = mock.Mock()
        try:
            self.assertTrue(contest_module.expire_challenge(challenge))
            self.char1.msg.assert_called_once_with(
                "|w[Contest]|n Your challenge to Char2 expired unanswered after 5 minutes.")
            self.char2.msg.assert_called_once_with(
                "|w[Contest]|n Char's challenge expired unanswered after 5 minutes.")
            self.assertFalse(contest_module.expire_challenge(challenge))  # only once
        finally:
            del self.char1.msg
            del self.char2.msg
        self.refused(CmdContest, "/answer com+res", "No one has challenged you.", caller=self.char2)

    def test_an_answered_challenge_does_not_expire(self):
        challenge, _ = self.challenge()
        self.do(CmdContest, "/answer com+res", [6] * 10, caller=self.char2)
        self.assertFalse(contest_module.expire_challenge(challenge))

    def test_answer_after_the_time_is_up_is_refused_and_both_told(self):
        challenge, _ = self.challenge()
        challenge.created -= contest_module.CHALLENGE_TIMEOUT + 1
        challenge.save()
        out = self.do(CmdContest, "/answer com+res", [], {
            self.char1: "[Contest] Your challenge to Char2 expired unanswered after 5 minutes.",
            self.char2: "[Contest] Char's challenge expired unanswered after 5 minutes.",
        }, caller=self.char2)
        self.assertIn("Char's challenge has expired.\nUsage:", out[self.char2])

    def test_one_challenge_at_a_time(self):
        self.challenge()
        self.refused(CmdContest, "dex vs Char2", "You already challenged Char2; wait for the answer")
        char3 = self.make_character("Char3")
        self.refused(CmdContest, "dex vs Char2", "Char2 already has a challenge to answer; try again later.",
                     caller=char3)

    def test_challenger_gone_voids_the_challenge(self):
        self.challenge()
        self.char1.location = self.room2
        self.refused(CmdContest, "/answer com+res", "Char is no longer here; the challenge is void.",
                     caller=self.char2)
        self.assertIsNone(outgoing(self.char1))

    def test_bad_answers_change_nothing(self):
        self.challenge()
        self.refused(CmdContest, "/answer", "Answer with your pool: +contest/answer <pool>.", caller=self.char2)
        self.refused(CmdContest, "/answer com+res hunger 0",
                     "You roll with your own Hunger; leave 'hunger' out of your answer.", caller=self.char2)
        self.refused(CmdContest, "/answer sneak", "There is no trait called 'sneak'.", caller=self.char2)
        self.refused(CmdContest, "/decline now", "/decline takes nothing after it.", caller=self.char2)
        self.assertIsNotNone(incoming(self.char2))

    def test_challenge_refusals(self):
        cases = {
            "dex vs Char": "You cannot challenge yourself.",
            "dex vs Nobody": "There is no character called 'Nobody' here.",
            "/defend dex vs Char2": "/defend is for a contest against a number of dice",
            "5 hunger 2 vs Char2": "Against a character, each side rolls with their own Hunger.",
            "dex+sneak vs Char2": "There is no trait called 'sneak'.",
        }
        for args, message in cases.items():
            self.refused(CmdContest, args, message)
        self.assertIsNone(incoming(self.char2))
