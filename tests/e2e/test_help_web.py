"""
End to end, in Chromium at a phone's 390x844: `help` in the web client. The client reports its
output pane's width in columns (rolllog/static/storyteller_dice/dice_panel.js), and help is laid
out at it (commands/help_layout.py): no raw `|lc...|lt` markup on screen, no line wider than the
reported width, and the topics are links that run `help <topic>`.
"""

import re

import pytest

from .test_web import browser, message_text, send, wait_for_text  # noqa: F401 - fixtures
from .test_website_web import PHONE, webclient, Browsing

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

# The width the client reports (the dice panel's own measure: a hundred digits in the pane).
COLUMNS_JS = """() => { const pane = document.querySelector('#messagewindow');
    const probe = document.createElement('span'); probe.className = 'dp-probe';
    probe.textContent = '0123456789'.repeat(10); pane.appendChild(probe);
    const each = probe.getBoundingClientRect().width / 100; pane.removeChild(probe);
    const style = getComputedStyle(pane);
    return Math.floor((pane.clientWidth - parseFloat(style.paddingLeft || 0)
                       - parseFloat(style.paddingRight || 0)) / each); }"""


@pytest.fixture
def browsing(browser):  # noqa: F811
    browsing = Browsing(browser)
    try:
        yield browsing
    finally:
        browsing.close()


def test_help_on_a_phone_is_wrapped_and_clickable(game_server, new_player, browsing):
    telnet = new_player()
    telnet.send("quit")
    page = webclient(browsing, game_server.web_url, telnet.name, telnet.password)
    assert page.viewport_size == PHONE
    page.wait_for_timeout(1000)  # the panel's width report goes out after the login
    columns = page.evaluate(COLUMNS_JS)
    assert 30 <= columns <= 50, columns
    for topic in ("help", "help +roll", "help dice", "help +rolls"):
        page.evaluate("() => { document.querySelector('#messagewindow').innerHTML = ''; }")
        send(page, topic)
        wait_for_text(page, r"-{20}[\s\S]*-{20}")
        page.wait_for_timeout(300)
        text = message_text(page)
        assert "|l" not in text and "[...]" not in text, (topic, text)
        # The pager's prompt too (commands/pager.py): "(Page [1/2] next previous top end quit)".
        wide = [line for line in text.split("\n") if len(line) > columns]
        assert wide == [], (topic, columns, wide)
    links = page.locator("#messagewindow a", has_text=re.compile(r"^the roll log$"))
    assert links.count() == 1  # help +rolls suggests it
    links.first.click()
    wait_for_text(page, r"Help for the roll log")
