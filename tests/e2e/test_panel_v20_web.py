"""
End to end, in headless Chromium, on a V20 game (DICE_SYSTEM=v20, the session's V20
server): the dice panel inert before a character is played, following staff's changes from telnet
(a value, a Specialty, the approval), offering nothing V20 has no command for after a roll, a
card drawn for each roll; at 390x844 the output, the panel and a one-line input share the
screen. The V5 game's are in tests/e2e/test_panel_live_web.py, whose steps these are.
"""

import re

import pytest

from tests.e2e.systems import system_server
from tests.e2e.test_panel_live_web import (DESKTOP, PHONE, a_player, answered, card_of, follows_staff_from_telnet,
                                           inert_before_login, input_grows_and_shrinks, log_in, phone_layout,
                                           roll_line, rolls_seen)
from tests.e2e.test_web import browser, page, send, shoot  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

game_server = system_server("v20")


def test_v20_inert_live_and_card_at_1366(game_server, new_player, superuser_client, page):
    name, password = a_player(new_player)
    inert_before_login(page, game_server, DESKTOP)
    log_in(page, name, password, "athletics")
    assert page.locator("label.dp-joiner").inner_text() == "vs"
    assert page.locator("#dp-target").get_attribute("placeholder") == "difficulty"
    follows_staff_from_telnet(page, superuser_client, name, "athletics")

    # V20 has no reroll: a failed roll offers nothing
    wait = answered(page)
    before = rolls_seen(page, name)
    send(page, "+check 2 vs 10")
    line = roll_line(page, name, before)
    wait()
    assert page.locator("button.dp-action").count() == 0, line
    dice = card_of(page, line)
    shown = re.search(r"Dice: ([\d ]+?)\s+=>", line)
    assert [face for _, face, _ in dice] == [int(face) for face in shown[1].split()], (dice, line)
    assert {group for group, _, _ in dice} == {"Dice"}, dice
    assert all(("success" in marks) == (face == 10) for _, face, marks in dice if "cancelled" not in marks), dice
    # the trackers: Willpower and Health as V20 keeps them (no Superficial/Aggravated boxes)
    assert page.locator("[data-tracker=health] .dp-tracker-value").inner_text().endswith("Healthy")
    assert page.locator("[data-boxes]").count() == 0
    shoot(page, "panel-v20-1366-card")
    assert page.errors == [], page.errors


def test_v20_phone_layout(game_server, new_player, superuser_client, page):
    name, password = a_player(new_player)
    inert_before_login(page, game_server, PHONE)
    shoot(page, "panel-v20-390-before-login")
    log_in(page, name, password, "strength")
    page.wait_for_timeout(300)
    shoot(page, "panel-v20-390")
    phone_layout(page)
    follows_staff_from_telnet(page, superuser_client, name, "athletics")
    input_grows_and_shrinks(page)
    page.locator('button.dp-trait[data-trait="strength"]').click()
    before = rolls_seen(page, name)
    page.locator("button.dp-roll").click()
    card_of(page, roll_line(page, name, before))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shoot(page, "panel-v20-390-card")
    assert page.errors == [], page.errors
