"""Smoke test: Evennia's command-test machinery works under pytest with the game's settings."""

import pytest

from evennia.commands.default.general import CmdLook
from evennia.utils.test_resources import EvenniaCommandTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class TestEvenniaUnderPytest(EvenniaCommandTest):
    def test_look_here(self):
        self.call(CmdLook(), "", "Room")

    def test_look_at_object(self):
        self.call(CmdLook(), "Obj", "Obj")
