"""
End to end: the game takes the opt-in bundle by `DICE_HARDEN_GAME = True` alone (its settings
name neither the session classes nor the plugin modules), and both processes have every piece
of it: the AMP framing fix in the Server and the Portal, the Portal's batching responder and session
handler, the session class and handler, and the one-line errors; the start log names nothing as unprotected.
"""

import re

import pytest

pytestmark = pytest.mark.e2e


def _log(game_server, name):
    return (game_server.log_dir / name).read_text(encoding="utf-8", errors="replace")


def test_both_processes_load_the_bundles_plugins(game_server, new_player):
    new_player()  # the game has answered a player: both processes are past their plugins
    server, portal = _log(game_server, "server.log"), _log(game_server, "portal.log")
    assert "AMP: a connection is judged by its first chunk only." in server
    assert "AMP: a connection is judged by its first chunk only." in portal
    assert "AMP: one message may go to many sessions (MsgServer2PortalMany)." in portal
    assert "Portal: input is held while the Server is not up (storyteller_dice)." in portal
    assert "not protected" not in server
    assert "SYNC_BEFORE_SENDING does nothing" not in server


def test_the_bundles_session_classes_are_the_games(superuser_client):
    admin = superuser_client
    admin.send("py from django.conf import settings as s; print(s.SERVER_SESSION_CLASS); "
               "print(s.SERVER_SESSION_HANDLER_CLASS); print(s.IN_GAME_ERRORS); "
               "from storyteller_dice.typeclasses import durable; print('barrier' + '=' + str(bool(durable.barrier()))); "
               "from evennia.server.sessionhandler import _INPUT_FUNCS as f; "
               "print('inputfunc' + '=' + f['client_options'].__module__); "
               "print('session' + '=' + type(me.sessions.all()[0]).__module__)")
    out = admin.read_until(re.compile(r"session=\S+"))
    lines = [line.strip() for line in out.splitlines()]
    assert "storyteller_dice.typeclasses.serversession.ServerSession" in lines
    assert "storyteller_dice.typeclasses.sessionhandler.ServerSessionHandler" in lines
    assert "False" in lines
    assert "inputfunc=storyteller_dice.typeclasses.client_options" in lines
    assert "barrier=True" in lines  # the game's SQLite file syncs before sending (durable.py)
    assert "session=storyteller_dice.typeclasses.serversession" in lines
