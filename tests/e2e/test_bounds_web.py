"""
End to end in the web client (headless Chromium): what the web client sends is bounded like
telnet's. Its `client_options` may claim a width of 3,000,000 columns (the report is laid out
for 250, no traceback), and a typed line over Evennia's 6,000-character limit is refused: the
Portal's check measured the web client's `[args, kwargs]` pair, never the line.
"""

import re

import pytest

from .test_web import browser, page, send, wait_for_text  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

END_OF_REPORT = "fair dice do that one time in a hundred"


def test_webclient_width_and_line_length_are_bounded(game_server, new_player, page):  # noqa: F811
    telnet = new_player()
    name, password = telnet.name, telnet.password
    telnet.send("+check 5 # some dice for the report")
    telnet.read_until(re.compile(r"\[code [A-Z0-9]{8}\]"))
    telnet.send("quit")
    telnet.close()

    page.goto(f"{game_server.web_url}/webclient/")
    page.wait_for_selector("textarea.inputfield", state="visible")
    wait_for_text(page, r"create")
    send(page, f"connect {name} {password}")
    wait_for_text(page, r"You become|" + re.escape(name))

    page.evaluate("() => Evennia.msg('client_options', [], {screenwidth: 3000000, screenheight: 3000000})")
    send(page, "+dice/fairness")
    text = wait_for_text(page, END_OF_REPORT)
    report = text[text.rindex("Dice fairness"):]
    widest = max(len(line) for line in report.split("\n"))
    assert widest <= 250, f"a line of {widest} columns"
    assert "Traceback" not in text

    page.evaluate("() => Evennia.msg('text', ['say ' + 'x'.repeat(7000)], {})")
    text = wait_for_text(page, "You entered a string that was too long")
    assert "x" * 100 not in text  # nobody was told it
