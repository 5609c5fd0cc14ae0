"""
GMCP over real telnet: a client that accepts the server's GMCP offer (IAC WILL 201 -> IAC DO
201) gets `Char.Vitals` with the V5 sheet's values on login and again when staff change its
Hunger; a client that refuses GMCP (the harness's) gets no GMCP bytes at all. On the way, the
`create` confirmation is checked not to show the password.
"""

import json
import re
import secrets
import time

import pytest

from .harness import DO, DONT, IAC, SB, SE, WILL, TelnetClient

pytestmark = pytest.mark.e2e

GMCP = 201


class GMCPClient(TelnetClient):
    """
    The harness's client, but it says DO to the server's GMCP offer (DONT with `accept=False`)
    and keeps every GMCP message it gets (`gmcp`: a list of (package, payload)); every other
    option is still refused.
    """

    def __init__(self, *args, accept=True, **kwargs):
        # Not the harness's `accept` (the options its decoder agrees to): GMCP is answered here.
        self.accept_gmcp = accept
        self.gmcp = []
        self._held = b""  # an IAC sequence split across reads
        super().__init__(*args, **kwargs)

    def _feed(self, data: bytes) -> None:
        data, self._held = self._held + data, b""
        rest = bytearray()
        i = 0
        while i < len(data):
            if data[i] != IAC:
                rest.append(data[i])
                i += 1
                continue
            if i + 2 >= len(data):  # too short to tell: wait for more
                self._held = data[i:]
                break
            cmd, opt = data[i + 1], data[i + 2]
            if cmd == IAC:
                rest += data[i:i + 2]
                i += 2
            elif cmd == WILL and opt == GMCP:
                self.sock.sendall(bytes([IAC, DO if self.accept_gmcp else DONT, GMCP]))
                i += 3
            elif cmd == SB and opt == GMCP:
                end = data.find(bytes([IAC, SE]), i + 3)
                if end < 0:
                    self._held = data[i:]
                    break
                package, _, payload = data[i + 3:end].replace(bytes([IAC, IAC]), bytes([IAC])).decode().partition(" ")
                self.gmcp.append((package, json.loads(payload) if payload else None))
                i = end + 2
            else:  # everything else the harness handles (and refuses)
                rest += data[i:i + 2]
                i += 2
        if rest:
            super()._feed(bytes(rest))

    def vitals(self):
        return [payload for package, payload in self.gmcp if package == "Char.Vitals"]

    def wait_for_vitals(self, count, timeout=10.0):
        """Read until `count` Char.Vitals messages have arrived (or `timeout`); return them all."""
        deadline = time.monotonic() + timeout
        while len(self.vitals()) < count and time.monotonic() < deadline:
            self._recv(0.3)
        return self.vitals()


def make_player(game_server, accept=True):
    name = f"gauge{secrets.token_hex(3)}"
    password = f"pw{secrets.token_hex(5)}"
    client = GMCPClient(game_server.host, game_server.telnet_port, accept=accept)
    client.wait_for_connection_screen()
    client.send(f"create {name} {password}")
    prompt = client.read_until(re.compile(r"\[Y\]/N\?"))
    client.send("y")
    client.read_until("was created")
    client.login(name, password)
    return client, name, password, prompt


def test_vitals_on_login_and_on_change(game_server, superuser_client):
    client, name, password, prompt = make_player(game_server)
    try:
        # The confirmation names the account, never the password.
        assert f"create an account '{name}'" in prompt
        assert password not in prompt
        assert password not in client.transcript

        first = client.wait_for_vitals(1)
        assert first, f"no Char.Vitals after login; GMCP seen: {client.gmcp}"
        assert first[-1] == {
            "hunger": 1,
            "willpower": {"current": 2, "max": 2, "superficial": 0, "aggravated": 0},
            "health": {"current": 4, "max": 4, "superficial": 0, "aggravated": 0},
            "humanity": 7, "stains": 0, "blood_potency": 1,
        }

        superuser_client.command(f"+hunger {name}=3", "Hunger is now 3")
        after = client.wait_for_vitals(len(first) + 1)
        assert len(after) == len(first) + 1
        assert after[-1]["hunger"] == 3

        # The player's own sheet change (before approval) moves the Willpower gauge.
        client.command("+stat composure=3", re.compile(r"Composure", re.I))
        latest = client.wait_for_vitals(len(after) + 1)[-1]
        assert latest["willpower"] == {"current": 4, "max": 4, "superficial": 0, "aggravated": 0}
        assert latest["hunger"] == 3
    finally:
        client.close()


def test_a_client_refusing_gmcp_gets_none(game_server, superuser_client):
    client, name, _, _ = make_player(game_server, accept=False)
    try:
        superuser_client.command(f"+hunger {name}=2", "Hunger is now 2")
        client.read_until("set your Hunger to 2")
        client.read_available(0.5)
        assert client.gmcp == []
    finally:
        client.close()
