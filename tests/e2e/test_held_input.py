"""
End to end: input typed while the Server is not up is held by the Portal and read when it is
(`typeclasses.portal_sessions`, in the opt-in bundle).

The Server is killed (SIGKILL: no goodbye on the AMP link; the Portal stays), a telnet client
connects and is told at once that the game is restarting; it types `connect <name> <password>`
and a command. The Server is started again; the client then sees the connection screen, its
login and its command's answer, in that order. A second client types more than the Portal
keeps: the lines past the bound are refused, each with a line saying so, and never run. Neither
log has a traceback.

Its own server (the test kills it), on free ports with a throwaway database.
"""

import os
import re
import signal
import time

import pytest

from storyteller_dice.typeclasses import portal_sessions

from .systems import running_server

pytestmark = pytest.mark.e2e

START_TIMEOUT = 180  # a loaded 2-core machine takes a while to bring the Server back


@pytest.fixture(scope="module")
def game_server(tmp_path_factory, pytestconfig):
    yield from running_server(tmp_path_factory.mktemp("e2e-held"), pytestconfig)


def _kill_the_server(server):
    os.kill(server.server_pid, signal.SIGKILL)
    game = server.game()
    deadline = time.monotonic() + 30
    while game.state() != "portal-only" and time.monotonic() < deadline:
        time.sleep(0.3)
    assert game.state() == "portal-only"
    return game


def _positions(text, *needles):
    found = [text.find(needle) for needle in needles]
    assert -1 not in found, f"missing {[n for n, at in zip(needles, found) if at < 0]} in:\n{text}"
    return found


def test_input_typed_while_the_server_is_down_waits_for_it(game_server, new_player):
    bounded = new_player()
    bounded_name, bounded_password = bounded.name, bounded.password
    bounded.close()
    game = _kill_the_server(game_server)

    waiting = game_server.client()
    crowded = game_server.client()
    try:
        told = waiting.read_until(portal_sessions.RESTARTING, timeout=10)
        assert "Traceback" not in told
        waiting.send(f"connect {game_server.superuser} {game_server.superuser_password}")
        waiting.send("py print('held' + 'ok')")

        crowded.read_until(portal_sessions.RESTARTING, timeout=10)
        crowded.send(f"connect {bounded_name} {bounded_password}")
        for number in range(1, portal_sessions.HELD_LINES + 2):
            crowded.send(f"ooc line{number:02d}")
        refused = crowded.read_until(portal_sessions.REFUSED, timeout=10)
        refused += crowded.read_until(portal_sessions.REFUSED, timeout=10)
        assert refused.count(portal_sessions.REFUSED) == 2
        assert waiting.read_available(1.0).strip() == ""  # nothing answered while it is down

        assert game.start(timeout=START_TIMEOUT, say=lambda text: None) == "server started"

        seen = waiting.read_until("heldok", timeout=60)
        screen, login, answer = _positions(seen, "connect <", "You become", "heldok")
        assert screen < login < answer
        assert "Server restarted" not in seen

        crowded_seen = crowded.read_until(re.compile(r"line09"), timeout=60)
        crowded_seen += crowded.read_available(2.0)
        kept = re.findall(r'<OOC> You say, "line(\d\d)"', crowded_seen)
        # One line went to `connect`: the other HELD_LINES - 1 are the first oocs, in order.
        assert kept == [f"{number:02d}" for number in range(1, portal_sessions.HELD_LINES)], crowded_seen
    finally:
        waiting.close()
        crowded.close()

    for name in ("portal.log", "server.log"):
        text = (game_server.log_dir / name).read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in text, name
