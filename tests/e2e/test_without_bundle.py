"""
End to end: the game without the opt-in bundle (`DICE_HARDEN_GAME` off: Evennia's own session
class and handler, no AMP plugins, Evennia's error reports). What the dice need works all the
same: a roll reaches the room by each receiver's own `msg()`, and the hostile-player checks
every system runs (a roll's comment and speech reaching an MXP client, a screen reader, a huge
screen width, stored names) pass.
"""

import re

import pytest

from . import hostile_checks
from .systems import CODE, running_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module", name="game_server")
def game_server(tmp_path_factory, pytestconfig):
    """The game with DICE_HARDEN_GAME=0, on its own ports and throwaway database: a private
    server (systems.running_server), as its settings are this module's."""
    yield from running_server(tmp_path_factory.mktemp("e2e-plain"), pytestconfig, {"DICE_HARDEN_GAME": "0"})


def test_nothing_of_the_bundle_is_loaded(game_server, superuser_client):
    superuser_client.send("py from django.conf import settings as s; print(s.SERVER_SESSION_CLASS); "
                          "print(s.SERVER_SESSION_HANDLER_CLASS); print(s.IN_GAME_ERRORS); "
                          "from storyteller_dice.typeclasses import durable; from django.db import connection as c; "
                          "print('barrier' + '=' + str(bool(durable.barrier()))); "
                          "from evennia.server.sessionhandler import _INPUT_FUNCS as f; "
                          "print('inputfunc' + '=' + f['client_options'].__module__); "
                          "print('synchronous' + '=' + str(c.cursor().execute('PRAGMA synchronous').fetchone()[0])); "
                          "print('plugins' + '=' + repr(s.SERVER_SERVICES_PLUGIN_MODULES))")
    out = superuser_client.read_until(re.compile(r"plugins=\[.*\]"))
    lines = [line.strip() for line in out.splitlines()]
    assert "evennia.server.serversession.ServerSession" in lines
    assert "evennia.server.sessionhandler.ServerSessionHandler" in lines
    assert "True" in lines
    # Nothing waits before sending, and each commit waits for the disk (SQLite's FULL, 2).
    assert "inputfunc=evennia.server.inputfuncs" in lines
    assert "barrier=False" in lines
    assert "synchronous=2" in lines
    assert "plugins=['server.conf.server_services_plugins']" in lines
    server = (game_server.log_dir / "server.log").read_text(encoding="utf-8", errors="replace")
    portal = (game_server.log_dir / "portal.log").read_text(encoding="utf-8", errors="replace")
    assert "AMP:" not in server + portal
    assert "Portal: input is held" not in portal  # Evennia's own Portal session handler
    assert "storyteller_dice:" not in server


def test_a_roll_reaches_the_room(new_player):
    alice = new_player()
    bob = new_player()
    alice.send("+roll 3")
    seen = bob.read_until(CODE, timeout=15)
    assert f"[Roll] {alice.name} rolls 3" in seen
    assert f"[Roll] {alice.name} rolls 3" in alice.read_until(CODE, timeout=15)


class TestHostile(hostile_checks.HostileChecks):
    ROLL = "+roll 3"
