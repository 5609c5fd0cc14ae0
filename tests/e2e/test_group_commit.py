"""
End to end, over telnet: a roll's record is written by the writer thread in group commits
(rolllog/writer.py), and the three promises that come with it hold on a real server:

- nobody is told of a roll before the transaction holding it has committed (the writer held
  by the test: no line goes out, the record is not there, the player's next line waits);
- a player's own commands are answered in the order typed (a `+roll` then a `say` reach
  another player in that order, with the room busy);
- nothing anyone was told is lost when the Server is killed right after the line went out;
  a reload stores and sends what the writer holds before the Server stops.

On SQLite with `synchronous=FULL`, and on PostgreSQL with `synchronous_commit=on` (run under
scripts/with_postgres.sh).
"""

import os
import re
import secrets
import signal
import sqlite3
import time

import pytest

from .harness import on_throwaway_postgres
from .systems import running_server

pytestmark = [pytest.mark.e2e, pytest.mark.database]

CODE = re.compile(r"\[code ([A-Z0-9]{8})\]")


@pytest.fixture(scope="module")
def hold_file(tmp_path_factory):
    return tmp_path_factory.mktemp("writer-hold") / "hold"


@pytest.fixture(scope="module")
def game_server(tmp_path_factory, pytestconfig, hold_file):
    """The game with every commit synced (FULL, or ON) and the writer's test hold: a private
    server (systems.running_server), as its settings are this module's and it is killed here."""
    yield from running_server(tmp_path_factory.mktemp("e2e-group-commit"), pytestconfig, {
        "GAME_SQLITE_SYNCHRONOUS": "FULL", "GAME_PG_SYNCHRONOUS_COMMIT": "ON",
        "DICE_WRITER_HOLD_FILE": str(hold_file)})


def stored(server, token):
    """How many roll log entries were typed with `token` (SQLite: read from the file)."""
    with sqlite3.connect(f"file:{server.db_path}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT count(*) FROM rolllog_rollentry WHERE command LIKE ?",
                                  (f"%{token}%",)).fetchone()[0]


def test_the_writer_thread_stores_the_rolls(game_server):
    log = (game_server.log_dir / "server.log").read_text(errors="replace")
    assert "rolls are stored by the writer thread, in group commits" in log


def test_nobody_is_told_before_the_roll_is_committed(game_server, new_player, hold_file):
    alice, bob = new_player(), new_player()
    token = secrets.token_hex(4)
    hold_file.touch()
    try:
        alice.send(f"+roll 3 # held {token}")
        time.sleep(0.5)
        bob.send(f"say meanwhile {token}")  # someone else's input runs...
        alice.send(f"say after {token}")  # ...the roller's next line waits for the roll
        assert token not in alice.read_available(1.5)
        assert token not in bob.read_available(0.5)  # nothing at all goes out
        if not on_throwaway_postgres():
            assert stored(game_server, token) == 0
    finally:
        hold_file.unlink()
    seen_by_alice = alice.read_until(f'You say, "after {token}"', timeout=20)
    seen_by_bob = bob.read_until(f'says, "after {token}"', timeout=20)
    code = CODE.search(seen_by_alice).group(1)
    for seen in (seen_by_alice, seen_by_bob):
        roll = seen.index(f"[code {code}]")
        assert roll < seen.index(f"meanwhile {token}") < seen.index(f"after {token}")
    if not on_throwaway_postgres():
        assert stored(game_server, token) == 1


def test_a_players_roll_and_say_reach_the_others_in_the_order_typed(game_server, new_player):
    observer = new_player()
    players = [new_player() for _ in range(8)]
    token = secrets.token_hex(3)
    for round_ in range(3):
        for index, player in enumerate(players):
            # Typed at once: the say comes in while the roll is still being written.
            player.send(f"+roll 4 # r{token}-{round_}-{index}")
            player.send(f"say s{token}-{round_}-{index}")
    last = f"s{token}-2-{len(players) - 1}"
    seen = observer.read_until(f'"{last}"', timeout=60)
    seen += observer.read_available(1.0)
    for round_ in range(3):
        for index, player in enumerate(players):
            roll, say = f"r{token}-{round_}-{index}", f"s{token}-{round_}-{index}"
            assert roll in seen and say in seen, (roll, say)
            assert seen.index(roll) < seen.index(say), f"{say} before {roll}"
            if round_ < 2:  # and the player's next roll after their say
                assert seen.index(say) < seen.index(f"r{token}-{round_ + 1}-{index}")


def test_a_reload_first_stores_and_sends_what_the_writer_holds(game_server, new_player, superuser_client,
                                                               hold_file):
    alice = new_player()
    superuser_client.read_available()
    hold_file.touch()
    try:
        alice.send("+roll 2 # across the reload")
        time.sleep(0.5)
        superuser_client.send("@reload")  # the Server stops only once the writer is drained
        time.sleep(1.5)
        assert "[code " not in alice.read_available(0.5)
    finally:
        hold_file.unlink()
    code = CODE.search(alice.read_until(CODE, timeout=30)).group(1)
    superuser_client.read_until("Server restarted", timeout=120)
    alice.read_available(1.0)
    alice.send(f"+roll/verify {code}")
    verified = alice.read_until(f"[code {code}]", timeout=20)
    assert "Typed: +roll 2 # across the reload" in verified


def test_a_roll_someone_was_told_survives_the_server_being_killed(game_server, new_player):
    alice = new_player()
    alice.send("+roll 5 # before the crash")
    code = CODE.search(alice.read_until(CODE, timeout=20)).group(1)
    os.kill(game_server.server_pid, signal.SIGKILL)  # right after the line arrived
    game = game_server.game()
    deadline = time.monotonic() + 30
    while game.state() != "portal-only" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert game.state() == "portal-only"
    assert game.start(timeout=180, say=lambda text: None) == "server started"
    with game_server.client(timeout=20) as again:
        again.wait_for_connection_screen()
        again.login(alice.name, alice.password)
        again.read_available(0.5)
        again.send(f"+roll/verify {code}")
        verified = again.read_until(f"[code {code}]", timeout=20)
    assert f"[Verify] Roll {code} (roll, public)" in verified
    assert "Typed: +roll 5 # before the crash" in verified
