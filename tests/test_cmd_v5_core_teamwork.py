"""
+teamwork under the core reading (`V5_TEAMWORK = "core"`, docs/v5.md, V5 core p.122): helpers
do not roll; the leader's pool gains +1 die per helper with a dot in the Skill; the leader
rolls once, and may reroll that roll with +willpower. The seed reading (default) is unchanged.
"""

import pytest

from django.test import override_settings

from storyteller_dice.commands.v5.teamwork import CmdTeamwork, load_team
from storyteller_dice.commands.v5.willpower import CmdWillpower

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


@override_settings(V5_TEAMWORK="core")
class TestCoreTeamwork(TableTest):
    def setUp(self):
        super().setUp()
        self.char2.set_trait("athletics", 1)
        self.char3 = self.make_character("Char3")
        self.char3.set_trait("athletics", 2)

    def open(self):
        self.do(CmdTeamwork, "dex+athletics vs 4", [], {
            self.char2: "[Teamwork] Char leads a teamwork roll: Dexterity 3 + Athletics 2 = 5 (5 dice),\n"
            "  vs 4\n  Help with +teamwork/join Char: each helper with a dot in Athletics adds a die.",
        })

    def test_a_helper_with_no_dot_is_refused_when_joining(self):
        self.open()
        self.char2.set_trait("athletics", 0)
        self.refused(CmdTeamwork, "/join Char", "Helping with Athletics needs at least one dot in it",
                     caller=self.char2)
        self.assertEqual(load_team(self.char1).helpers, [])

    def test_a_pool_needs_exactly_one_skill(self):
        self.refused(CmdTeamwork, "dex+wits", "A core teamwork roll uses a pool with exactly one Skill")
        out = self.refused(CmdTeamwork, "athletics+brawl", "A core teamwork roll uses a pool")
        self.assertIn("this one has Athletics, Brawl.", " ".join(out.split()))
        self.assertIsNone(load_team(self.char1))

    def test_helpers_do_not_give_a_pool(self):
        self.open()
        self.refused(CmdTeamwork, "/join Char=com+res", "Helpers do not roll in this game's teamwork",
                     caller=self.char2)

    def test_each_helper_adds_a_die_and_the_leader_rolls_once(self):
        self.open()
        self.do(CmdTeamwork, "/join Char", [], {
            self.char1: "[Teamwork] Char2 joins Char's teamwork roll (Athletics 1: +1 die).",
        }, caller=self.char2)
        self.do(CmdTeamwork, "/join Char", [], caller=self.char3)
        # 7 dice at Hunger 2: five regular, two Hunger; the helpers roll nothing.
        expected = (
            "[Teamwork] Char's teamwork roll, vs 4\n"
            "  Char leads: Dexterity 3 + Athletics 2 = 5 +2 teamwork (7 dice), Hunger 2\n"
            "  Char2 helps: Athletics 1 (+1 die)\n"
            "  Char3 helps: Athletics 2 (+1 die)\n"
            "  Dice: 2 6 7 3 8  Hunger: 9 4  =>  4 successes: bare success (margin +0)"
        )
        self.do(CmdTeamwork, "/roll", [2, 6, 7, 3, 8, 9, 4], {self.char1: expected, self.char2: expected})
        self.assertIsNone(load_team(self.char1))

    def test_the_leaders_roll_takes_a_willpower_reroll(self):
        self.open()
        self.do(CmdTeamwork, "/join Char", [], caller=self.char2)
        self.do(CmdTeamwork, "/roll", [2, 3, 6, 7, 1, 4])
        before = self.char1.trait("willpower superficial")
        # Dice 2 3 6 7, Hunger 1 4 vs 4: a bestial failure; failures rerolls the regular 2 and 3.
        out = self.do(CmdWillpower, "", [10, 10])
        self.assertIn("rerolled 2 3 -> 10 10", out)
        self.assertIn("6 successes: critical", out)
        self.assertEqual(self.char1.trait("willpower superficial"), before + 1)
        # The helper rolled nothing: they have no roll of their own to reroll.
        self.refused(CmdWillpower, "", "You have no recent roll to reroll.", caller=self.char2)

    def test_help_says_the_reading(self):
        text = CmdTeamwork().get_help(self.char1, None)
        self.assertIn("In this game (teamwork reading: core, V5 p.122):\n  helpers do not roll.", text)


class TestSeedTeamworkUnchanged(TableTest):
    def test_the_default_is_the_seed_reading(self):
        self.do(CmdTeamwork, "dex+athletics vs 4", [], {
            self.char2: "[Teamwork] Char leads a teamwork roll: Dexterity 3 + Athletics 2 = 5 (5 dice),\n"
            "  vs 4\n  Help with +teamwork/join Char=<pool>.",
        })
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)  # no Athletics dot needed
        out = self.do(CmdTeamwork, "/roll", [2, 6, 10, 1, 10, 6, 7, 8, 2, 3])
        self.assertIn("  Char2 helps: Composure 2 + Resolve 3 = 5 (5 dice), Hunger 1\n"
                      "    Dice: 6 7 8 2  Hunger: 3  =>  3 successes\n"
                      "  => Total 8 successes: messy critical (margin +4, exceptional success)", out)
        text = CmdTeamwork().get_help(self.char1, None)
        self.assertIn("In this game (teamwork reading: seed):", text)
