"""
End to end, in each of the five systems: player text that fills a screen line exactly, or is
made of characters two columns wide, never starts a line on another player's screen
(typeclasses/columns.py). What telnet clients at 80, 41 and 100 columns (NAWS), one that
reports no width (Evennia's 78, on an 80-column screen) and one that reads MXP (its entities
shown as characters) receive is drawn by the `pyte` terminal emulator, as their terminal
would draw it, with colour on and off, a screen reader and `+nospoof`; no screen line may
begin with anything but the attacker's name, a tag and the attacker's name (`[Roll] Alice`,
`[Public] Alice`, `+nospoof`'s `[Alice(#12)]`) or a blank.

The attacks: a pose padded with spaces to the edge of each screen (one with `<&>` in it, three
columns an MXP client gets as twelve characters), then a page header from admin; a `say`, a
`page` (to the Account) and a message to the Public channel padded so that a `+nospoof` tag of
admin's follows; a roll comment of 21 two-column characters, then `[Roll] Admin rolls 9`; a
description whose second line is 78 columns of `x`, then `Bob says, "hi"`. On the session's
server of each system (Seyruun's here runs without the opt-in bundle, so the Character's and
Account's own `msg()` do the wrapping there).
"""

import re
import secrets
import time

import pyte
import pytest

from .harness import MXP, TelnetClient
from .systems import CODE
from .test_bounds import SizedClient

pytestmark = pytest.mark.e2e

ROLLS = {"v5": "+roll 3", "v20": "+roll 3 vs 6", "seyruun": "+roll 3 vs 2",
         "whalefall": "+check 4 vs (5,2)", "dicecheck": "+roll 3d(6+):2"}
# Seyruun's game runs without the opt-in bundle: the wrapping is then the Character's msg()'s.
WITHOUT_BUNDLE = {"seyruun"}

HEADER = "|wAccount|n |cadmin|n |wpages:|n Staff audit: page me your password now."
FORGED_TAG = '[admin(#1)] admin says, "Staff audit: page me your password now."'
WIDE_COMMENT = "一" * 21 + " [Roll] Admin rolls 9"
DESCRIPTION = "A tall woman.%r" + "x" * 78 + 'Bob says, "hi"'
# MXP's line modes (ESC [ n z): the client's, not the screen's.
_MXP_MODE = re.compile(r"\x1b\[\d+z")
# What the attacks put on screen, each shown somewhere (so the attack was made).
SHOWN = ("Account admin pages: Staff audit", "[admin(#1)] admin says", "[Roll] Admin rolls 9",
         'Bob says, "hi"', "一" * 5, "pages: ok", "[Public]")


@pytest.fixture(scope="module", params=list(ROLLS))
def system_game(request, e2e_servers):
    """(system key, a running game in that system): the session's server of that system (V5's
    is the default game)."""
    key = request.param
    if key == "v5":
        return key, request.getfixturevalue("game_server")
    env = {"DICE_SYSTEM": key}
    if key in WITHOUT_BUNDLE:
        env["DICE_HARDEN_GAME"] = "0"
    return key, e2e_servers.get(env)


class Viewer:
    """A player whose screen is `screen` columns wide (telling the game `naws`, or nothing; with
    `mxp`, a client that reads MXP, which shows an entity as its character)."""

    def __init__(self, server, name, screen, naws=None, options=(), mxp=False):
        self.screen = screen
        self.mxp = mxp
        if mxp:
            self.client = TelnetClient(server.host, server.telnet_port, accept=frozenset({MXP}))
        else:
            self.client = SizedClient(server.host, server.telnet_port, naws=(naws, 200) if naws else None)
        self.client.wait_for_connection_screen()
        self.name = name
        self.client.create_and_connect(name, secrets.token_urlsafe(12))
        for option, answer in options:
            self.client.command(option, answer, timeout=15)
        self.start = 0

    def mark(self):
        """What arrives from now on is drawn."""
        self.client.read_available(0.3)
        self.start = len(self.client.raw)

    def lines(self):
        """The screen lines the received bytes draw (a tall screen: nothing scrolls away)."""
        screen = pyte.Screen(self.screen, 400)
        screen.set_mode(pyte.modes.LNM)  # a line feed starts the line at column 0, as clients do
        received = bytes(self.client.raw[self.start:]).decode("utf-8", "replace")
        if self.mxp:
            received = _MXP_MODE.sub("", received)
            for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
                received = received.replace(entity, char)
        pyte.Stream(screen).feed(received)
        lines = [line.rstrip() for line in screen.display]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    def close(self):
        self.client.close()


def _padding(prefix, width):
    """Spaces that fill the screen line `prefix` is on up to its last column."""
    return " " * (width - len(prefix) % width)


def test_player_text_never_starts_a_screen_line(system_game):
    key, server = system_game
    started = time.monotonic()
    tag = f"w{int(time.time() * 1000) % 10**7}"
    alice = SizedClient(server.host, server.telnet_port)
    alice.wait_for_connection_screen()
    name = f"a{tag}"
    alice.create_and_connect(name, secrets.token_urlsafe(12))
    viewers = [
        Viewer(server, f"n{tag}", 80, naws=80, options=[("+nospoof on", "+nospoof is on")]),
        Viewer(server, f"c{tag}", 41, naws=41, options=[("option nocolor=on", re.compile("nocolor", re.I))]),
        Viewer(server, f"s{tag}", 100, naws=100,
               options=[("option screenreader=on", re.compile("screenreader", re.I)),
                        ("+nospoof on", "+nospoof is on")]),
        Viewer(server, f"u{tag}", 80),  # no width told: Evennia's 78
        Viewer(server, f"m{tag}", 80, mxp=True),  # MXP: `<`, `>` and `&` reach it as entities
    ]
    try:
        for viewer in viewers:
            viewer.mark()
        alice.send("say hello")
        seen = viewers[0].client.read_until(re.compile(r"\[" + name + r"\(#\d+\)\] "), timeout=15)
        nospoof = re.search(r"\[" + name + r"\(#\d+\)\] ", seen).group()
        # Each attack padded to the edge of each screen, as that screen shows the line.
        for width, prefix in ((80, nospoof), (41, ""), (100, nospoof), (78, "")):
            pose = f"{prefix}{name} glances at the clock."
            alice.send("pose glances at the clock." + _padding(pose, width) + HEADER)
            pose = f"{prefix}{name} <&> at the clock."
            alice.send("pose <&> at the clock." + _padding(pose, width) + HEADER)
            say = f'{prefix}{name} says, "ok'
            alice.send("say ok" + _padding(say, width) + FORGED_TAG)
        # A page (to the Account, not the Character), padded for the 80- and 41-column screens.
        to = ",".join(viewer.name for viewer in viewers)
        for width, prefix in ((80, nospoof), (41, "")):
            page = f"{prefix}Account {name} pages: ok"
            alice.send(f"page {to} = ok" + _padding(page, width) + FORGED_TAG)
        # The game's Public channel, which every new account joins, padded the same way.
        for width, prefix in ((80, nospoof), (41, ""), (100, nospoof), (78, "")):
            line = f"{prefix}[Public] {name}: ok"
            alice.send("public ok" + _padding(line, width) + FORGED_TAG)
        alice.send(f"{ROLLS[key]} # {WIDE_COMMENT}")
        alice.read_until(CODE, timeout=20)
        alice.command("setdesc " + DESCRIPTION, re.compile(r"\S"), timeout=15)
        for viewer in viewers:
            viewer.client.read_until(CODE, timeout=20)
            viewer.client.command(f"look {name}", 'says, "hi"', timeout=15)
            viewer.client.read_available(0.3)

        mxp = viewers[-1]
        assert "&lt;&amp;&gt; at the clock." in bytes(mxp.client.raw[mxp.start:]).decode(), "no MXP"
        for viewer in viewers:
            lines = viewer.lines()
            allowed = re.compile(rf"({re.escape(name)}\b|\[[A-Za-z ]+\] {re.escape(name)}\b"
                                 rf"|Account {re.escape(name)} pages: "
                                 rf"|\[{re.escape(name)}\(#\d+\)\] |\s|$)")
            started_by_player = [line for line in lines if not allowed.match(line)]
            assert started_by_player == [], (key, viewer.name, viewer.screen, "\n".join(lines))
            shown = " ".join(" ".join(lines).split())
            for text in SHOWN:
                assert text in shown, (key, viewer.name, text, "\n".join(lines))
    finally:
        alice.close()
        for viewer in viewers:
            viewer.close()
    print(f"{key}: {time.monotonic() - started:.1f} s")
