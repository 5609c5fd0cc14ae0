"""
End to end, in a real browser: the fairness page (/rolls/fairness/) and the odds page
(/rolls/odds/) of a game with rolls made over telnet: their SVG charts are drawn by the server
and nothing any page asks for leaves 127.0.0.1.
"""

import re
from urllib.parse import urlparse

import pytest

from .test_web import LOCAL_HOSTS, browser, page  # noqa: F401 - the fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_fairness_and_odds_pages(game_server, new_player, page):  # noqa: F811
    telnet = new_player()
    name, password = telnet.name, telnet.password
    for _ in range(12):
        telnet.command("+roll 5 vs 1", re.compile(r"\[code [A-Z0-9]{8}\]"))
    out = telnet.command("+dice/fairness me", "p-value under 0.01")
    assert f"Dice fairness: {name}, every roll kept" in out
    assert re.search(r"d10 \w+: \d+ dice", out), out
    telnet.send("quit")
    telnet.close()

    base = game_server.web_url
    page.goto(f"{base}/auth/login/?next=/")  # the website, not the web client (the login's own next)
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state()

    page.goto(f"{base}/rolls/fairness/")
    page.wait_for_selector("#fairness-filter")
    assert page.locator("svg.fairness-chart").count() >= 1
    assert page.locator("svg.fairness-chart rect").count() >= 10
    own = page.locator("#fairness-character option", has_text=name)
    page.select_option("#fairness-character", own.get_attribute("value"))
    page.fill("#fairness-days", "7")
    page.locator("#fairness-filter button[type=submit]").click()
    page.wait_for_selector("#fairness-scope")
    assert page.locator("#fairness-scope").inner_text() == f"{name}, the last 7 days"
    assert page.locator("svg.fairness-chart").count() >= 1

    # The odds page offers V5's own inputs (Hunger, Impaired) and shows what +odds shows for them.
    page.goto(f"{base}/rolls/odds/")
    page.fill("#odds-pool", "6")
    page.fill("#odds-target", "2")
    page.fill("#odds-hunger", "2")
    page.locator("#odds-form button[type=submit]").click()
    page.wait_for_selector("#odds-chart svg.odds-chart")
    assert page.locator("#odds-chart svg rect").count() >= 6
    assert page.locator("#odds-pool-shown").inner_text() == "6 dice, Hunger 2, vs 2"
    chances = [row.inner_text().split("\t") for row in page.locator("#odds-chances tr").all()]
    assert [label for label, _ in chances] == ["messy critical", "critical success", "success (not critical)",
                                               "failure", "total failure", "bestial failure"]
    assert page.locator("#odds-hunger").input_value() == "2"
    page.check("#odds-impaired")
    page.fill("#odds-hunger", "9")
    page.locator("#odds-form button[type=submit]").click()
    page.wait_for_selector("#odds-error")
    assert page.locator("#odds-error").inner_text() == "Hunger must be a whole number from 0 to 5, not '9'."
    assert page.locator("#odds-impaired").is_checked()
    assert page.locator("#odds-chart").count() == 0

    hosts = {urlparse(url).hostname for url in page.requested}
    assert hosts <= LOCAL_HOSTS, sorted(url for url in page.requested if urlparse(url).hostname not in LOCAL_HOSTS)
    assert not page.errors, page.errors
