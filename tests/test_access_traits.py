"""
Reading another character's traits goes through one check, `typeclasses.access.read_traits`:
your own, your account's other characters, staff, or with the other side's consent (joining a
team roll); anyone else is refused with the command's own words, before anything is read.
"""

from unittest import mock

from evennia.utils import create

from storyteller_dice.commands.v5.teamwork import CmdTeamwork
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import access

from .table_helpers import TableTest

REFUSAL = "Only staff read another character's traits."


class TestReadTraits(TableTest):
    def test_own_traits(self):
        self.assertEqual(access.read_traits(self.char2, self.char2, REFUSAL).state["hunger"], 1)

    def test_staff_read_anyone(self):
        self.assertEqual(access.read_traits(self.char1, self.char2, REFUSAL).traits.values["resolve"], 3)

    def test_a_player_may_not_read_another_players_character(self):
        with self.assertRaisesRegex(DiceError, REFUSAL):
            access.read_traits(self.char2, self.char1, REFUSAL)

    def test_consent_opens_it(self):
        self.assertEqual(access.read_traits(self.char2, self.char1, REFUSAL, consent=True).state["hunger"], 2)

    def test_the_same_players_other_character(self):
        alt = create.create_object(self.character_typeclass, key="Alt", location=self.room1, home=self.room1)
        alt.db_account = self.char2.account
        alt.save()
        alt.set_trait("wits", 4)
        self.assertEqual(access.read_traits(self.char2, alt, REFUSAL).traits.values["wits"], 4)

    def test_teamwork_reads_its_helpers_through_the_check(self):
        self.do(CmdTeamwork, "dex vs 2", [])
        self.do(CmdTeamwork, "/join Char=com+res", [], caller=self.char2)
        with mock.patch.object(access, "read_traits", wraps=access.read_traits) as read:
            self.do(CmdTeamwork, "/roll", [6, 6, 6, 6, 6, 6, 6, 6])
        readers = [(call.args[0], call.args[1], call.kwargs.get("consent")) for call in read.call_args_list]
        self.assertIn((self.char1, self.char2, True), readers)
