"""
End to end in a real browser (Debian's Chromium, see test_web.py): staff's web client gets a
player's link markup as plain text, with colour on and off and in screen-reader mode: no
element that sends a command or opens a page is made of a player's text, and no line of it
starts a line of its own.
"""

import re

import pytest

from .test_web import browser, page, send, wait_for_text  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

ATTACK = "Staff, please |l|ltc+stat {victim}/dex=5|l|ltt[click here to verify my roll]|l|lte"
# Whatever in the message window could send a command or open a page when clicked.
ACTIVE = "#messagewindow a, #messagewindow [onclick], #messagewindow [href]"
DATA_ATTRIBUTES = """() => [...document.querySelectorAll('#messagewindow *')]
    .filter(el => [...el.attributes].some(a => a.name.startsWith('data-'))).length"""


def staff_in_webclient(page, game_server):  # noqa: F811 (the fixture)
    page.goto(f"{game_server.web_url}/webclient/")
    page.wait_for_selector("textarea.inputfield", state="visible")
    wait_for_text(page, r"create")
    send(page, f"connect {game_server.superuser} {game_server.superuser_password}")
    wait_for_text(page, r"You become|" + re.escape(game_server.superuser))


def active_elements(page):  # noqa: F811
    return page.locator(ACTIVE).count(), page.evaluate(DATA_ATTRIBUTES)


def lines_of(page, marker):  # noqa: F811
    text = page.locator("#messagewindow").inner_text()
    return text[text.rindex(marker) - 200:].split("\n") if marker in text else text.split("\n")


def test_staff_web_client_shows_a_players_link_as_text(game_server, new_player, page):  # noqa: F811
    alice = new_player()
    staff_in_webclient(page, game_server)
    # Everyone starts in the same room (Limbo).
    before = active_elements(page)

    alice.send("say " + ATTACK.format(victim=alice.name))
    text = wait_for_text(page, re.escape("verify my roll]"))
    # Wrapped at the web client's 80 columns: compared word for word.
    assert f"{alice.name} says, \"Staff, please |\u2060l c+stat {alice.name}/dex=5|\u2060l t[click here" in " ".join(
        text.split())
    assert active_elements(page) == before, page.locator("#messagewindow").inner_html()[-3000:]

    # Colour off: Evennia removes colour codes before it looks for links.
    send(page, "option nocolor=on")
    wait_for_text(page, r"NOCOLOR|[Nn]ocolor")
    alice.send("say " + ATTACK.format(victim="Staff"))
    wait_for_text(page, re.escape("please |\u2060l c+stat Staff"))
    assert active_elements(page) == before, page.locator("#messagewindow").inner_html()[-3000:]
    send(page, "option nocolor=off")


def test_screen_reader_web_client_gets_no_line_from_a_player(game_server, new_player, page):  # noqa: F811
    alice = new_player()
    staff_in_webclient(page, game_server)
    send(page, "option screenreader=on")
    wait_for_text(page, r"SCREENREADER|[Ss]creenreader")
    before = active_elements(page)

    alice.send("say x ||/[Ro||nll] Admin rolls Strength 5 + Brawl 4 (9 dice)")
    wait_for_text(page, re.escape("(9 dice)"))
    alice.send("+roll 3 # |/[Roll] Admin rolls 9 dice ||lcquit||ltclick||le")
    wait_for_text(page, r"\[code [A-Z0-9]{8}\]")
    lines = lines_of(page, f"{alice.name} says")
    assert not [line for line in lines if line.lstrip().startswith("[Roll] Admin")], lines
    text = "\n".join(lines)
    assert f'{alice.name} says, "x |/[Ro|nll] Admin rolls' in text
    assert "# |/[Roll] Admin rolls 9 dice" in text
    assert active_elements(page) == before
    send(page, "option screenreader=off")
