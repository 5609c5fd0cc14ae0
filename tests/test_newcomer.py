"""
What a newcomer sees first: the home page (game/web/templates/website/index.html), the
connection screen and Limbo's description (typeclasses/welcome.py: the game's
CONNECTION_SCREEN_MODULE, and the start hooks at the package's first start). Under each system:
tests/test_help_systems.py.
"""

import re
from unittest.mock import patch

import pytest
from django.conf import settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaTest


@pytest.mark.django_db
def test_home_page_presents_the_game(client):
    page = client.get("/").content.decode()
    assert "Welcome to Evennia" not in page
    assert settings.SERVERNAME in page
    assert "Vampire: The Masquerade 5th edition" in page
    ports = re.findall(r'class="telnet-port">(\d+)<', page)
    assert ports == [str(port) for port in settings.TELNET_PORTS]
    assert 'href="/webclient/"' in page
    assert 'href="/rolls/"' in page
    assert "help dice" in page


def test_connection_screen_is_the_game():
    from evennia.utils.utils import callables_from_module

    # As Evennia's `look` at the login screen finds it: a function defined in the module.
    screen = ansi.strip_ansi(callables_from_module(settings.CONNECTION_SCREEN_MODULE)["connection_screen"]())
    assert f"Welcome to {settings.SERVERNAME}!" in screen
    assert "create <username> <password>" in screen
    assert "connect <username> <password>" in screen
    assert "help dice" in screen
    assert max(len(line) for line in screen.splitlines()) <= 78


class TestLimbo(EvenniaTest):
    def test_evennia_text_is_replaced_at_the_first_start_only(self):
        from evennia.server.initial_setup import LIMBO_DESC as EVENNIA_DESC
        from evennia.server.models import ServerConfig

        from storyteller_dice.typeclasses import welcome as setup

        limbo = self.room1  # the test's #2-like room: point the lookup at it
        limbo.db.desc = "A builder's own Limbo, written before the package came."
        with patch.object(setup, "_limbo", lambda: limbo):
            assert setup.describe_limbo_once() is False
            assert limbo.db.desc == "A builder's own Limbo, written before the package came."
            ServerConfig.objects.conf(setup.LIMBO_DONE, delete=True)
            limbo.db.desc = str(EVENNIA_DESC).strip()
            assert setup.describe_limbo_once() is True  # the package's first start
            assert limbo.db.desc == setup.limbo_text()
            limbo.db.desc = str(EVENNIA_DESC).strip()  # a builder puts Evennia's text back
            assert setup.describe_limbo_once() is False  # recorded: never written again
            assert limbo.db.desc == str(EVENNIA_DESC).strip()

    def test_describe_limbo_keeps_a_builders_text(self):
        from evennia.server.initial_setup import LIMBO_DESC as EVENNIA_DESC

        from storyteller_dice.typeclasses import welcome as setup

        limbo = self.room1
        limbo.db.desc = str(EVENNIA_DESC).strip()
        with patch.object(setup, "_limbo", lambda: limbo):
            assert setup.describe_limbo() is True
            assert limbo.db.desc == setup.limbo_text()
            assert "help dice" in limbo.db.desc
            assert setup.describe_limbo() is False  # already ours
            limbo.db.desc = "A builder's own Limbo."
            assert setup.describe_limbo() is False
            assert limbo.db.desc == "A builder's own Limbo."
