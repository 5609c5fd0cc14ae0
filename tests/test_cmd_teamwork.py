"""+teamwork: open, join, roll, cancel, status and refusals."""

import pytest

from storyteller_dice.commands.v5.teamwork import CmdTeamwork, Team, load_team

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestTeamwork(TableTest):
    def open(self, args=None):
        if args is not None:
            self.do(CmdTeamwork, args, [], "[Teamwork] Char leads a teamwork roll")
            return
        self.do(CmdTeamwork, "dex+athletics vs 4 # the archive", [], {
            self.char2: "[Teamwork] Char leads a teamwork roll: Dexterity 3 + Athletics 2 = 5 (5 dice),\n"
            "  vs 4 # the archive\n  Help with +teamwork/join Char=<pool>.",
        })

    def test_helpers_successes_add_up_everyone_sees_every_roll(self):
        self.open()
        self.do(CmdTeamwork, "/join Char=com+res", [], {
            self.char1: "[Teamwork] Char2 joins with Composure 2 + Resolve 3 = 5 (5 dice) in Char's\n"
                          "  teamwork roll.",
        }, caller=self.char2)
        expected = (
            "[Teamwork] Char's teamwork roll, vs 4 # the archive\n"
            "  Char leads: Dexterity 3 + Athletics 2 = 5 (5 dice), Hunger 2\n"
            "    Dice: 2 6 10  Hunger: 1 10  =>  5 successes\n"
            "  Char2 helps: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1\n"
            "    Dice: 6 7 8 2  Hunger: 3  =>  3 successes\n"
            "  => Total 8 successes: messy critical (margin +4, exceptional success)"
        )
        self.do(CmdTeamwork, "/roll", [2, 6, 10, 1, 10, 6, 7, 8, 2, 3],
                {self.char1: expected, self.char2: expected})
        self.assertIsNone(load_team(self.char1))

    def test_messy_comes_from_the_leader_only(self):
        self.open("dex+athletics vs 4")
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        # The helper shows two 10s, one on a Hunger die: the team wins, but not critically.
        out = self.do(CmdTeamwork, "/roll", [2, 6, 3, 2, 4, 10, 2, 2, 2, 10])
        self.assertIn("  Char2 helps: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1\n"
                      "    Dice: 10 2 2 2  Hunger: 10  =>  4 successes\n"
                      "  => Total 5 successes: solid success (margin +1)", out)

    def test_a_helpers_hunger_one_is_not_bestial(self):
        self.open("dex+athletics vs 9")
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        out = self.do(CmdTeamwork, "/roll", [2, 6, 3, 2, 4, 2, 2, 2, 2, 1])
        self.assertIn("  => Total 1 success: failure (margin -8)", out)

    def test_leader_hunger_one_on_a_failed_team_roll_is_bestial(self):
        self.open("dex+athletics vs 9")
        out = self.do(CmdTeamwork, "/roll", [2, 6, 3, 1, 4])
        self.assertIn("=> Total 1 success: bestial failure (margin -8)", out)

    def test_without_a_difficulty_any_success_is_a_success(self):
        self.do(CmdTeamwork, "dex", [])
        out = self.do(CmdTeamwork, "/roll", [7, 2, 3])
        self.assertIn("[Teamwork] Char's teamwork roll\n", out)
        self.assertIn("=> Total 1 success: success", out)
        self.assertNotIn("margin", out)

    def test_joining_again_changes_the_pool_and_absent_helpers_do_not_help(self):
        self.open()
        self.do(CmdTeamwork, "/join Char=com", [], caller=self.char2)
        self.do(CmdTeamwork, "/join Char=res", [], {
            self.char1: "[Teamwork] Char2 changes their help to Resolve 3 (3 dice) in Char's teamwork\n"
                          "  roll.",
        }, caller=self.char2)
        self.assertEqual(len(load_team(self.char1).helpers), 1)
        self.char2.location = self.room2
        out = self.do(CmdTeamwork, "/roll", [6, 6, 6, 6, 6])
        self.assertIn("  (Char2 is no longer here and does not help.)\n  => Total 5 successes", out)

    def test_it_is_rolled_in_the_room_it_was_opened_in(self):
        self.open()
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        room = self.room1.key
        self.char1.location = self.room2
        out = self.refused(CmdTeamwork, "/roll", f"You opened this teamwork roll in {room}: roll it there, or")
        self.assertEqual(out.split("\nUsage: ")[0],
                         f"You opened this teamwork roll in {room}: roll it there, or +teamwork/cancel it.")
        stranger = self.make_character("Stranger", location=self.room2)
        stranger.set_trait("wits", 2)
        out = self.refused(CmdTeamwork, "/join Char=wits", f"Char's teamwork roll was opened in {room}: help it there.",
                           caller=stranger)
        self.assertEqual(out.split("\nUsage: ")[0], f"Char's teamwork roll was opened in {room}: help it there.")
        self.assertEqual([helper for helper, _ in load_team(self.char1).helpers], [self.char2])
        self.char1.location = self.room1
        out = self.do(CmdTeamwork, "/roll", [6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
        self.assertIn("  Char2 helps: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1\n", out)
        self.assertIsNone(load_team(self.char1))

    def test_status_for_leader_and_helper(self):
        self.open()
        self.do(CmdTeamwork, "", [], "[Teamwork] Char leads: Dexterity 3 + Athletics 2 = 5 (5 dice), vs 4\n"
                "  No helpers yet.")
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        self.do(CmdTeamwork, "", [], "[Teamwork] Char leads: Dexterity 3 + Athletics 2 = 5 (5 dice), vs 4\n"
                "  Char2 helps: Composure 2 + Resolve 3 = 5 (5 dice)", caller=self.char2)

    def test_cancel(self):
        self.open()
        self.do(CmdTeamwork, "/cancel", [], {self.char2: "[Teamwork] Char cancels the teamwork roll."})
        self.assertIsNone(load_team(self.char1))
        self.refused(CmdTeamwork, "/roll", "You lead no teamwork roll")

    def test_only_the_leader_rolls_or_cancels(self):
        self.open()
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        self.refused(CmdTeamwork, "/roll", "You lead no teamwork roll: open one with +teamwork <pool>",
                     caller=self.char2)
        self.refused(CmdTeamwork, "/cancel", "You lead no teamwork roll", caller=self.char2)
        self.assertIsInstance(load_team(self.char1), Team)

    def test_refusals(self):
        self.refused(CmdTeamwork, "", "You lead and help no teamwork roll.")
        self.refused(CmdTeamwork, "/roll", "You lead no teamwork roll")
        self.refused(CmdTeamwork, "/join Char2=dex", "Char2 has no teamwork roll open.")
        self.refused(CmdTeamwork, "dex+sneak vs 2", "There is no trait called 'sneak'.")
        self.refused(CmdTeamwork, "dex vs hard", "The difficulty must be a whole number of successes, not 'hard'.")
        self.refused(CmdTeamwork, "dex vs 2/willpower", "Spend Willpower after the roll, with +willpower.")
        # Read as +roll reads it (`rules.engine.split_vs`): a 'vs' with nothing before it.
        self.refused(CmdTeamwork, "vs 3", "Say what to roll before 'vs'.")
        self.refused(CmdTeamwork, "vs", "Say what to roll before 'vs'.")
        self.open()
        self.refused(CmdTeamwork, "dex vs 2", "You already lead a teamwork roll")
        self.refused(CmdTeamwork, "/join Char=dex", "You lead this teamwork roll; helpers join it.")
        self.refused(CmdTeamwork, "/join Char", "Name the leader and your pool", caller=self.char2)
        self.refused(CmdTeamwork, "/join Char=", "Say what you roll to help", caller=self.char2)
        self.refused(CmdTeamwork, "/join Nobody=res", "There is no character called 'Nobody' here.",
                     caller=self.char2)
        self.refused(CmdTeamwork, "/join Char=sneak", "There is no trait called 'sneak'.", caller=self.char2)
        self.refused(CmdTeamwork, "/roll now", "/roll takes nothing after it")
        self.refused(CmdTeamwork, "/roll/cancel", "Use one switch at a time: /join, /roll, /cancel or /leave.")
        self.refused(CmdTeamwork, "/jion Char=res", "Unknown switch /jion", caller=self.char2)
        self.assertEqual(load_team(self.char1).helpers, [])
