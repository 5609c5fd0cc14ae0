"""
`+roll/verify` costs the same for a code that does not exist and for a private code the player
may not see: the same statements, in the same order, differing only in the code looked up
(it took about 2 ms more to refuse an existing private code, which told the two apart).
"""

import re

import pytest

from django.db import connection
from django.test.utils import CaptureQueriesContext

from storyteller_dice.commands.dice_base import announce
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.rolllog import api
from tests.test_rolllog import LogTestBase

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestVerifyCost(LogTestBase):
    def statements(self, code):
        """What `+roll/verify <code>` runs for Char2 (a player), with the code blanked out."""
        with CaptureQueriesContext(connection) as ctx:
            self.call(CmdRoll(), f"/verify {code}", "There is no such roll.", caller=self.char2)
        blank = [re.sub(code, "<code>", query["sql"], flags=re.I) for query in ctx.captured_queries]
        return [re.sub(r'"s\d+_x\d+"', '"<savepoint>"', sql) for sql in blank]

    def test_missing_and_private_run_the_same_statements(self):
        private = announce(self.char1, "x", private=True, record=self.v5_record()).entry
        self.assertIsNotNone(api.find_visible(private.code, self.char1))  # it exists, for staff
        missing = "ZZZZ9999" if private.code != "ZZZZ9999" else "YYYY9999"
        self.statements(missing), self.statements(private.code)  # warm the caches alike
        for _ in range(3):
            for_missing, for_private = self.statements(missing), self.statements(private.code)
            self.assertEqual(for_missing, for_private)
            self.assertTrue(for_missing)  # the lookup is a query, not a short cut

    def test_the_player_still_sees_what_is_theirs(self):
        private = announce(self.char2, "x", private=True, record=self.v5_record()).entry
        public = announce(self.char1, "x", record=self.v5_record()).entry
        self.assertEqual(api.find_visible(private.code.lower(), self.char2), private)
        self.assertEqual(api.find_visible(public.code, self.char2), public)
        self.assertEqual(api.find_visible(public.code, self.char3), public)
        self.assertIsNone(api.find_visible(private.code, self.char3))
        self.assertEqual(api.find_visible(private.code, self.char1), private)  # staff
