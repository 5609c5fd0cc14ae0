"""
What the roll log keeps of V5's teamwork and +willpower: the record's shape with a view
(`rolllog.api`), not the old V5 shape: the leader's dice with the team's outcome, each
participant apart in `sides`, and a Willpower reroll's view, the view before and its parent.
"""

import pytest

from storyteller_dice.commands.v5.teamwork import CmdTeamwork
from storyteller_dice.commands.v5.willpower import CmdWillpower
from storyteller_dice.rolllog.models import RollEntry

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestTeamworkRecord(TableTest):
    def test_the_team_roll_and_its_reroll(self):
        self.do(CmdTeamwork, "dex+athletics vs 5", [])
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        self.do(CmdTeamwork, "/roll", [2, 6, 3, 2, 4, 6, 2, 2, 2, 6])
        team = RollEntry.objects.get(kind="teamwork")
        self.assertEqual((team.system, team.score, team.outcome, team.target), ("v5", 3, "failure", "vs 5"))
        self.assertEqual(team.pool_text, "Dexterity 3 + Athletics 2 = 5 (5 dice), Hunger 2")
        self.assertEqual([group["label"] for group in team.view["groups"]], ["Dice", "Hunger"])
        self.assertEqual([(side["label"], side["view"]["outcome"]["label"]) for side in team.sides],
                         [("Char", "adds 1"), ("Char2", "adds 2")])
        self.assertEqual(team.details["helpers"][0]["successes"], 2)
        self.do(CmdWillpower, "", [10, 10, 10], caller=self.char2)
        reroll = RollEntry.objects.get(kind="willpower")
        self.assertEqual(reroll.parent, team)
        self.assertEqual(reroll.details["strategy"], "failures")
        self.assertEqual(reroll.view["groups"][0]["dice"][1], [10, ["rerolled", "success", "ten"]])
        self.assertEqual(reroll.initial["groups"][0]["dice"][1][0], 2)
