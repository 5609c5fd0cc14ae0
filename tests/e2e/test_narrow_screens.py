"""
End to end: the connection screen and the pager's prompt fit a 41-column screen, and an
80-column one, whether the client tells its width (NAWS) or not (then Evennia's 78 on an
80-column screen). A 41-column client that never tells its width still gets a connection
screen that fits (the pager is then laid out at 78: the client did not say).

What each client receives is checked twice: every line as sent (colour codes out) is at most
the screen's width in terminal columns, and the `pyte` terminal emulator, drawing it at that
width, shows the same lines (nothing wrapped by the terminal). The connection screen is shown
before NAWS may have arrived, so it is laid out for the narrowest screen
(`typeclasses.welcome`); the pager (`help`, paged by a 10-line screen) is laid out at the
session's width (`commands.pager`).
"""

import re
import secrets

import pyte
import pytest
from wcwidth import wcswidth

from .harness import strip_ansi
from .test_bounds import SizedClient

pytestmark = pytest.mark.e2e

PROMPT = re.compile(r"\(Page \[?\d+/\d+\]?")


def _columns(line):
    return wcswidth(line)


def _sent_lines(raw):
    text = strip_ansi(bytes(raw).decode("utf-8", "replace"))
    return text.replace("\r\n", "\n").replace("\n\r", "\n").replace("\r", "").split("\n")


def _drawn(raw, width):
    screen = pyte.Screen(width, 400)
    screen.set_mode(pyte.modes.LNM)
    pyte.Stream(screen).feed(bytes(raw).decode("utf-8", "replace"))
    lines = [line.rstrip() for line in screen.display]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _fits(raw, width, what):
    sent = [line.rstrip() for line in _sent_lines(raw)]
    too_wide = [line for line in sent if _columns(line) > width]
    assert too_wide == [], (what, width, "\n".join(sent))
    # The terminal draws each sent line on one screen line: none is wrapped by it.
    drawn = _drawn(raw, width)
    assert [line for line in drawn if line] == [line for line in sent if line], (what, width)
    return sent


@pytest.mark.parametrize("screen,naws,paged", [(41, (41, 10), True), (80, (80, 10), True), (80, None, True),
                                               (41, None, False)],
                         ids=["41-naws", "80-naws", "80-no-width", "41-no-width"])
def test_the_connection_screen_and_the_pager_prompt_fit(game_server, screen, naws, paged):
    client = SizedClient(game_server.host, game_server.telnet_port, naws=naws)
    try:
        client.wait_for_connection_screen()
        client.read_available(0.5)
        welcome = _fits(client.raw, screen, "connection screen")
        assert any("connect <username> <password>" in line for line in welcome)
        if not paged:
            return

        name = f"narrow{secrets.token_hex(3)}"
        client.create_and_connect(name, secrets.token_urlsafe(10))
        client.read_available(0.5)
        if naws is None:
            client.command("option screenheight=10", re.compile("screenheight", re.I), timeout=15)
            client.read_available(0.5)
        start = len(client.raw)
        client.send("help")
        client.read_until(PROMPT, timeout=20)
        client.read_available(0.5)
        page = _fits(client.raw[start:], screen, "help's first page")
        prompts = [line for line in page if PROMPT.search(line)]
        assert len(prompts) == 1, "\n".join(page)
        for word in ("next", "previous", "top", "end", "quit"):
            assert word in prompts[0], prompts[0]

        start = len(client.raw)
        client.send("next")
        client.read_available(1.0)
        _fits(client.raw[start:], screen, "help's second page")
        client.send("q")
        client.read_available(0.5)
    finally:
        client.close()
