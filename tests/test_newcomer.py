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


def _joined(text):
    """Text as read: colour taken out, the screen's lines joined."""
    return " ".join(ansi.strip_ansi(text).split())


def test_the_first_screens_say_how_to_make_a_sheet_and_the_name_rule():
    from storyteller_dice.typeclasses import welcome
    from storyteller_dice.typeclasses.names import ACCOUNT_RULE

    screen = _joined(welcome.connection_screen())
    assert ACCOUNT_RULE in screen  # the very sentence the registration form shows
    assert "Enclose a name" not in screen
    assert ("Once in, set your character's traits with +stat <trait>=<value> (help +stat lists them) "
            "and see them with +sheet.") in screen
    limbo = _joined(welcome.limbo_text())
    assert "First set your character's traits: +stat <trait>=<value> (help +stat lists them)." in limbo
    assert "+roll dex+stealth vs 3" in limbo or "+roll" in limbo


def test_the_first_screens_follow_renamed_keys():
    from django.test import override_settings

    from storyteller_dice.typeclasses import welcome

    with override_settings(DICE_COMMAND_KEYS={"+roll": "+droll", "+stat": "+setstat", "+sheet": None}):
        screen, limbo = _joined(welcome.connection_screen()), _joined(welcome.limbo_text())
        assert "set your character's traits with +setstat <trait>=<value> (help +setstat lists them)." in screen
        assert "+droll " in limbo and "+roll " not in limbo and "+setstat <trait>" in limbo
        assert "+sheet" not in screen + limbo  # left out: not named
    with override_settings(DICE_COMMAND_KEYS={"+stat": None, "+roll": None}):
        screen, limbo = _joined(welcome.connection_screen()), _joined(welcome.limbo_text())
        assert "+stat" not in screen + limbo and "traits" not in screen + limbo
        assert "Rolling here" not in limbo and "help dice is the guide" in limbo


@pytest.mark.django_db
def test_the_dice_guide_says_how_to_make_a_sheet_in_the_games_keys():
    from django.test import override_settings

    from storyteller_dice.commands.dice_base import dice_wing
    from storyteller_dice.commands.help_entries import system_entries
    from storyteller_dice.rules import systems

    system = systems.get_system("v5")
    guide = lambda: system_entries(system, dice_wing(system))[0]["text"]  # noqa: E731
    line = "|wNew here?|n Set your sheet with {} <trait>=<value> (help {} lists them)."
    assert line.format("+stat", "+stat") in guide()
    with override_settings(DICE_COMMAND_KEYS={"+stat": "+setstat"}):
        assert line.format("+setstat", "+setstat") in guide()
    with override_settings(DICE_COMMAND_KEYS={"+stat": None}):
        assert "New here?" not in guide()


@pytest.mark.django_db
def test_the_roll_log_page_names_the_games_verify_command():
    from django.template import Context, Template
    from django.test import override_settings

    template = Template('{% load dice_words %}{% dice_command "+roll" %}/verify')
    assert template.render(Context()) == "+roll/verify"
    with override_settings(DICE_COMMAND_KEYS={"+roll": "+droll"}):
        assert template.render(Context()) == "+droll/verify"
    with override_settings(DICE_COMMAND_KEYS={"+roll": None}):
        assert template.render(Context()) == "/verify"  # the page then names no command


@pytest.mark.django_db
def test_home_page_says_the_rule_and_the_first_steps_in_the_games_keys(client):
    from django.test import override_settings

    page = " ".join(client.get("/").content.decode().split())
    assert "An account name has 3 to 30 characters: letters A-Z, digits and &#x27; - . _," in page
    assert "set your character's traits with <code>+stat &lt;trait&gt;=&lt;value&gt;</code>" in page
    assert "<code>+roll/verify &lt;code&gt;</code>" in page
    with override_settings(DICE_COMMAND_KEYS={"+roll": "+droll", "+stat": "+setstat"}):
        page = " ".join(client.get("/").content.decode().split())
        assert "<code>+droll/verify &lt;code&gt;</code>" in page and "+roll/" not in page
        assert "<code>+setstat &lt;trait&gt;=&lt;value&gt;</code>" in page


@pytest.mark.django_db
def test_create_help_states_the_account_rule():
    from storyteller_dice.commands.unloggedin import CmdUnconnectedCreate
    from storyteller_dice.typeclasses.names import ACCOUNT_RULE

    help_text = " ".join(CmdUnconnectedCreate.__doc__.split())
    assert ACCOUNT_RULE in help_text and "A password with spaces goes in double quotes." in help_text
    assert max(len(line) for line in CmdUnconnectedCreate.__doc__.splitlines()) <= 78


@pytest.mark.django_db
def test_help_names_states_the_account_rule():
    from storyteller_dice.commands.help_entries import HELP_ENTRY_DICTS
    from storyteller_dice.typeclasses.names import ACCOUNT_RULE

    names = next(entry for entry in HELP_ENTRY_DICTS if entry["key"] == "names")
    assert ACCOUNT_RULE in " ".join(names["text"].split())


class TestRegisteringLeadsIntoTheGame(EvenniaTest):
    """rolllog/registration.py: a new account is logged in and goes to the web client; the
    login page goes there too unless it was given a page of this site to go back to."""

    PASSWORD = "Sekrit99pw!x"

    def register(self, name, extra=None, query=""):
        return self.client.post(f"/auth/register{query}", {"username": name, "email": "", "password1": self.PASSWORD,
                                                           "password2": self.PASSWORD, **(extra or {})})

    def logged_in_as(self):
        from django.contrib.auth import get_user

        user = get_user(self.client)
        return user.username if user.is_authenticated else None

    def test_a_new_account_is_logged_in_and_lands_in_the_web_client(self):
        from evennia.accounts.models import AccountDB

        response = self.register("Newby")
        assert (response.status_code, response["Location"]) == (302, "/webclient/")
        assert self.logged_in_as() == "Newby"
        account = AccountDB.objects.get(username="Newby")
        # the game's own making: its character comes with the account (the client plays it)
        assert [char.key for char in account.characters] == ["Newby"]
        # the shared login: the web client's page connects as this account
        self.client.get("/webclient/")
        assert self.client.session["webclient_authenticated_uid"] == account.id

    def test_next_on_this_site_wins_and_no_other(self):
        response = self.register("Nextby", {"next": "/rolls/"})
        assert response["Location"] == "/rolls/"
        self.client.logout()
        response = self.register("Awayby", {"next": "https://elsewhere.example/"})
        assert response["Location"] == "/webclient/"

    def test_the_form_says_where_it_leads(self):
        page = " ".join(self.client.get("/auth/register").content.decode().split())
        assert ("Once registered, you are logged in and the game opens in the web client, playing your new "
                "character.") in page

    def test_a_refused_name_logs_nobody_in(self):
        response = self.register("Bob+x")
        assert response.status_code == 200 and b"alert-danger" in response.content
        assert self.logged_in_as() is None

    def test_logging_in_goes_to_the_web_client_unless_a_page_asked(self):
        self.register("Loggy")
        self.client.logout()
        response = self.client.post("/auth/login/", {"username": "Loggy", "password": self.PASSWORD})
        assert (response.status_code, response["Location"]) == (302, "/webclient/")
        self.client.logout()
        response = self.client.post("/auth/login/", {"username": "Loggy", "password": self.PASSWORD,
                                                     "next": "/rolls/"})
        assert response["Location"] == "/rolls/"
        self.client.logout()
        # the login page keeps the `next` it was given for its form, as Django's does
        assert 'name="next" value="/rolls/"' in self.client.get("/auth/login/?next=/rolls/").content.decode()
        response = self.client.post("/auth/login/", {"username": "Loggy", "password": "wrong"})
        assert response.status_code == 200 and self.logged_in_as() is None  # Django's refusal, as before
