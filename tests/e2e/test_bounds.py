"""
End to end: sizes a client controls are bounded, and one player's burst never stalls another.

- A width of 3,000,000 columns sent over GMCP (`client_options`, which the web client sends
  too) made `+dice/fairness` build a 60 MB reply and held everyone for 16-21 s; 10**30 showed
  the player an OverflowError traceback; "abc" logged one; NAWS can claim 65,535 columns.
  Now every line is at most 250 columns, nothing is logged and another player's `+check 1`
  answers at once.
- Sixty lines of `help *e* *e* ...` (1,200 terms each), sent in one write, held another
  player's `+check 1` for 83 s. Now a topic that long is refused in one line, the costliest
  topics a player may type cost milliseconds, and a session's lines take turns with everyone
  else's (typeclasses.serversession), so another player waits for at most one of them.

PROMPT_LIMIT, the bound on the other player's wait, is generous for a loaded 2-core CI
machine (a quiet `+check 1` there takes a few hundred ms); what it catches is a stall of
seconds. Each test prints the figures it measured.
"""

import json
import re
import secrets

import pytest

from .harness import DO, IAC, SB, SE, WILL
from .test_flood import timed_check as flood_timed_check
from .test_gmcp import GMCP, GMCPClient

pytestmark = pytest.mark.e2e

NAWS = 31
CODE = re.compile(r"\[code [A-Z0-9]{8}\]")
PROMPT_LIMIT = 2.0
END_OF_REPORT = "fair dice do that one time in a hundred."


class SizedClient(GMCPClient):
    """A client that accepts GMCP, sends GMCP, and (given `naws`) reports its size by NAWS."""

    def __init__(self, *args, naws=None, **kwargs):
        self.naws = naws
        super().__init__(*args, **kwargs)

    def _feed(self, data: bytes) -> None:
        ask = bytes([IAC, DO, NAWS])
        if self.naws and ask in data:
            data = data.replace(ask, b"")
            size = b"".join(n.to_bytes(2, "big") for n in self.naws).replace(b"\xff", b"\xff\xff")
            self.sock.sendall(bytes([IAC, WILL, NAWS, IAC, SB, NAWS]) + size + bytes([IAC, SE]))
        super()._feed(data)

    def send_gmcp(self, package, payload):
        body = f"{package} {json.dumps(payload)}".encode().replace(b"\xff", b"\xff\xff")
        self.sock.sendall(bytes([IAC, SB, GMCP]) + body + bytes([IAC, SE]))


def sized_player(game_server, naws=None):
    client = SizedClient(game_server.host, game_server.telnet_port, naws=naws)
    client.wait_for_connection_screen()
    client.name, client.password = f"wide{secrets.token_hex(3)}", secrets.token_urlsafe(10)
    client.create_and_connect(client.name, client.password)
    client.read_available()
    return client


def timed_check(client, marker):
    return flood_timed_check(client, marker, dice=1, timeout=60)


def server_log(game_server):
    path = game_server.log_dir / "server.log"
    return path.read_text(errors="replace") if path.exists() else ""


def fairness_reply(client):
    client.send("+dice/fairness")
    return client.read_until(END_OF_REPORT, timeout=60)


def assert_normal(reply, what):
    widest = max(len(line) for line in reply.split("\n"))
    assert widest <= 250, f"{what}: a line of {widest} columns"
    assert len(reply) < 20_000, f"{what}: a reply of {len(reply)} characters"
    assert "Traceback" not in reply and "Error" not in reply, f"{what}: {reply[-500:]}"


def test_a_huge_or_garbage_width_over_gmcp(game_server, new_player):
    other = new_player()
    player = sized_player(game_server)
    try:
        player.command("+check 5 # some dice for the report", CODE)
        quiet = timed_check(other, "quiet")
        log_before = len(server_log(game_server))

        player.send_gmcp("Core.Supports.Get", {"screenwidth": "abc"})  # Evennia's client_options
        assert_normal(fairness_reply(player), "abc")
        assert "Traceback" not in server_log(game_server)[log_before:], "'abc' logged a traceback"

        figures = []
        for width in (3_000_000, 10**30):
            player.send_gmcp("Core.Supports.Get", {"screenwidth": width, "screenheight": width})
            player.send("+dice/fairness")
            during = timed_check(other, f"during{len(figures)}")
            reply = player.read_until(END_OF_REPORT, timeout=60)
            assert_normal(reply, f"width {width}")
            assert max(len(line) for line in reply.split("\n")) == 250  # laid out for 250 columns
            figures.append(during)
            assert during < PROMPT_LIMIT, f"another player waited {during:.2f} s (quiet: {quiet:.2f} s)"
        print(f"other player's +check 1: {quiet:.3f} s quiet, {max(figures):.3f} s at worst during "
              "the huge-width reports")
        assert "Traceback" not in server_log(game_server)[log_before:]
    finally:
        player.close()


def test_a_huge_width_over_naws(game_server):
    player = sized_player(game_server, naws=(65535, 65535))
    try:
        player.command("+check 5 # some dice for the report", CODE)
        reply = fairness_reply(player)
        assert_normal(reply, "NAWS 65535")
        assert max(len(line) for line in reply.split("\n")) == 250
    finally:
        player.close()


def test_a_help_burst_does_not_stall_another_player(new_player):
    flooder = new_player()
    other = new_player()
    other.read_available()
    quiet = timed_check(other, "quiet")

    # 60 lines of 1,200 wildcard terms (4,805 characters; Evennia refuses lines over 6,000)
    flooder.sock.sendall(("\r\n".join(["help " + "*e* " * 1200] * 60) + "\r\n").encode())
    burst = timed_check(other, "burst")
    # and 60 of the costliest topics still allowed: four words, misses that search the texts
    costly = ["help *zq *zq *zq *zq", "help qq qq qq qq", "help *e* *a* *i* *o*", "help * * * *"]
    flooder.sock.sendall(("\r\n".join(costly * 15) + "\r\n").encode())
    allowed = timed_check(other, "allowed")
    print(f"other player's +check 1: {quiet:.3f} s quiet, {burst:.3f} s during 60 x 1,200-term help, "
          f"{allowed:.3f} s during 60 of the costliest allowed help topics")
    assert burst < PROMPT_LIMIT, f"another player waited {burst:.2f} s (quiet: {quiet:.2f} s)"
    assert allowed < PROMPT_LIMIT, f"another player waited {allowed:.2f} s (quiet: {quiet:.2f} s)"

    out = flooder.read_until("A help topic is at most 4 words and 60 characters", timeout=60)
    out += flooder.read_available(wait=3.0)
    assert "Traceback" not in out
    flooder.send("+check 1 # after")
    assert CODE.search(flooder.read_until(CODE, timeout=60))
