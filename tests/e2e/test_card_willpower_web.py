"""
End to end, in headless Chromium at a phone's 390x844 and a desktop's 1366x900, V5 (the
session's game): the result card of the player's own roll lets them pick the dice of the
Willpower reroll. The card shows what `+willpower` alone would take pressed; the player picks
two other dice (one by mouse, one by keyboard), the buttons reading at 4.5:1 pressed or not;
Reroll sends `+willpower/position ...`, and the reroll's line and its card show exactly those
two dice rerolled, the others kept, one Superficial Willpower taken. The old card's buttons
are disabled; another player's card has none. In a contest against NPC dice only the player's
side of the card has buttons. Screenshots go to the test's own folder (`tmp_path`), or
E2E_SCREENSHOT_DIR when set.
"""

import re

import pytest

from tests.e2e.test_contrast_web import low_texts
from tests.e2e.test_panel_live_web import answered, roll_line, rolls_seen
from tests.e2e.test_panel_web import a_player, log_in
from tests.e2e.test_web import CODE, browser, page, send, wait_for_text  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
DICE = re.compile(r"Dice: (?P<regular>[\d ]+?)\s+Hunger: (?P<hunger>[\d ]+?)\s+=>")
REROLLED = re.compile(r"Willpower \(dice (?P<label>[\d ]+)\): rerolled (?P<old>[\d ]+) -> (?P<new>[\d ]+)")


def faces(text):
    return [int(face) for face in text.split()]


def default_pick(regular):
    """What `+willpower` alone takes (`failures`): the first three regular dice under 6."""
    return [i for i, face in enumerate(regular) if face < 6][:3]


def offered_roll(page, name):
    """A +check the reroll is offered for (a failure with a regular die under 6): its line."""
    offer = page.locator('button.dp-action[data-command="+willpower"]')
    for _ in range(12):
        wait = answered(page)
        before = rolls_seen(page, name)
        send(page, "+check 5 vs 4")
        line = roll_line(page, name, before)
        wait()
        if offer.count():
            return line
    pytest.fail("twelve rolls of 5 dice vs 4 offered no Willpower reroll")


def rerolls_told(page, name):
    """How many rerolls of `name` the output shows (a line may wrap anywhere)."""
    return " ".join(page.locator("#messagewindow").inner_text().split()).count(f"{name} spends Willpower to reroll")


def card_of(page, line):
    return page.locator(f"#messagewindow .dp-card.dp-card-{CODE.search(line)[1]}")


def pressed(card):
    return [die.get_attribute("aria-pressed") == "true" for die in card.locator("button.dp-pick").all()]


def low_on_card(page):
    """The card's texts below 4.5:1 (the pick's buttons and its bar), as `low_texts` finds them."""
    return [low for low in low_texts(page) if "dp-pick" in low[2] or "dp-card" in low[2]]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1366"])
def test_pick_two_dice_on_the_card_and_reroll_them(game_server, new_player, superuser_client, page, shots, size):
    name, password = a_player(new_player)
    watcher = new_player()
    log_in(page, game_server, name, password, size)
    wide = size["width"]
    superuser_client.command(f"+hunger {name}=1", "Hunger is now 1")

    line = offered_roll(page, name)
    shown = DICE.search(line)
    regular, hunger = faces(shown["regular"]), faces(shown["hunger"])
    assert len(regular) == 4 and len(hunger) == 1, line
    card = card_of(page, line)
    card.locator("button.dp-pick").first.wait_for()
    dice = card.locator("button.dp-pick")
    # the player's regular dice are the buttons, Hunger dice are not; the default is pressed
    assert [int(text) for text in dice.all_inner_texts()] == regular, line
    assert card.locator(".dp-die-hunger:not(button)").count() == 1
    expected = default_pick(regular)
    assert pressed(card) == [i in expected for i in range(4)], (line, pressed(card))
    go = card.locator("button.dp-pick-go")
    assert go.inner_text() == f"Reroll with Willpower ({len(expected)})"
    assert card.get_attribute("aria-hidden") is None  # its controls are read; the rest is hidden
    assert card.locator(".dp-card-outcome").get_attribute("aria-hidden") == "true"
    # the output read to its end stays there: the pick shows whole, Reroll too, nothing sideways
    box, pane = go.bounding_box(), page.locator("#messagewindow").bounding_box()
    assert pane["y"] <= box["y"] and box["y"] + box["height"] <= pane["y"] + pane["height"] + 1, (box, pane)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= wide
    shots(page, f"card-willpower-{wide}-offered")

    # Two dice: the last two, which the default takes only where they are the failures.
    chosen = [2, 3]
    for i in range(4):
        if pressed(card)[i]:
            dice.nth(i).click()
    assert pressed(card) == [False] * 4 and go.is_disabled()
    dice.nth(2).click()
    dice.nth(3).focus()  # reachable by keyboard: Space presses it, and stays on the card
    page.keyboard.press("Space")
    assert pressed(card) == [False, False, True, True], pressed(card)
    assert go.inner_text() == "Reroll with Willpower (2)"
    # at most three: a fourth is refused with a word, nothing changed
    dice.nth(0).click()
    dice.nth(1).click()
    assert card.locator(".dp-pick-note").inner_text() == "Willpower rerolls at most 3 dice: release one first."
    dice.nth(0).click()
    assert pressed(card) == [False, False, True, True], pressed(card)
    assert low_on_card(page) == [], low_on_card(page)  # pressed and not, at 4.5:1
    shots(page, f"card-willpower-{wide}-picked")

    told = rerolls_told(page, name)
    go.click()
    wait_for_text(page, rf"{name} spends Willpower to\s+reroll[\s\S]*\[code [A-Z0-9]{{8}}\]")
    text = " ".join(page.locator("#messagewindow").inner_text().split())
    reroll = text[text.rindex(f"{name} spends Willpower to reroll"):]
    reroll = reroll[:CODE.search(reroll).end()]
    said = REROLLED.search(reroll)
    picked = [regular[i] for i in chosen]
    assert faces(said["label"]) == picked and faces(said["old"]) == picked, reroll
    new = faces(said["new"])
    after = DICE.search(reroll)
    assert faces(after["hunger"]) == hunger, reroll
    assert faces(after["regular"]) == regular[:2] + new, reroll

    # the reroll's card, from the stored roll: those two dice marked rerolled, no buttons
    new_card = card_of(page, reroll)
    new_card.wait_for()
    marks = new_card.evaluate("""(card) => [...[...card.querySelectorAll('.dp-card-group')][0]
        .querySelectorAll('.dp-die')].map((d) => [Number(d.textContent), d.classList.contains('dp-die-rerolled')])""")
    assert marks == [[face, i in chosen] for i, face in enumerate(regular[:2] + new)], marks
    assert new_card.locator("button").count() == 0
    # the old card's controls are disabled, and it is hidden from screen readers again
    assert all(die.is_disabled() for die in dice.all()) and go.is_disabled()
    assert card.get_attribute("aria-hidden") == "true"
    assert pressed(card) == [False, False, True, True]  # what was picked stays shown
    # one Superficial Willpower taken, once
    page.wait_for_selector('[data-boxes="willpower"] [data-box="superficial"]')
    page.wait_for_timeout(2000)  # the panel asks again after a moment: nothing more is spent
    assert page.locator('[data-boxes="willpower"] [data-box="superficial"]').count() == 1
    assert rerolls_told(page, name) == told + 1
    assert page.locator('button.dp-action[data-command="+willpower"]').count() == 0
    shots(page, f"card-willpower-{wide}-rerolled")

    # Another player's roll: its card has no buttons, whatever it shows.
    before = rolls_seen(page, watcher.name)
    watcher.send("+check 4 vs 5")
    other = roll_line(page, watcher.name, before)
    card_of(page, other).wait_for()
    page.wait_for_timeout(500)
    assert card_of(page, other).locator("button").count() == 0
    assert card_of(page, other).get_attribute("aria-hidden") == "true"
    assert page.errors == [], page.errors


def test_the_pick_is_on_the_players_side_of_a_contest(game_server, new_player, superuser_client, page, shots):
    """Against NPC dice: the card has both sides; only the player's own dice are buttons."""
    name, password = a_player(new_player)
    log_in(page, game_server, name, password, DESKTOP)
    superuser_client.command(f"+hunger {name}=0", "Hunger is now 0")
    offer = page.locator('button.dp-action[data-command="+willpower"]')
    cards = page.locator("#messagewindow .dp-card")
    for _ in range(12):
        wait = answered(page)
        drawn = cards.count()
        send(page, "+contest 4 vs 3")
        page.wait_for_function("(n) => document.querySelectorAll('#messagewindow .dp-card').length > n", arg=drawn)
        wait()
        if offer.count():
            break
    else:
        pytest.fail("twelve contests offered no Willpower reroll")
    code = cards.last.evaluate("(card) => [...card.classList].find((c) => /^dp-card-[A-Z0-9]{8}$/.test(c))")
    card = page.locator(f"#messagewindow .dp-card.{code}")  # the reroll's card comes after it
    card.locator("button.dp-pick").first.wait_for()
    assert card.locator(".dp-card-side").count() == 2
    ours = card.locator(".dp-card-side", has=page.locator("button.dp-pick"))
    assert ours.count() == 1 and ours.locator(".dp-card-label").inner_text() == name
    assert ours.locator("button.dp-pick").count() == 4
    assert card.locator("button.dp-pick").count() == 4  # the NPC's dice are no buttons
    shots(page, "card-willpower-1366-contest")
    card.locator("button.dp-pick-go").click()
    wait_for_text(page, rf"{name} spends Willpower to\s+reroll: their dice in the contest")
    card.locator("button.dp-pick-go:disabled").wait_for()
    assert page.errors == [], page.errors
