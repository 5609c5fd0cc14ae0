"""
End to end, in headless Chromium: the web client's dice panel (rolllog/static/storyteller_dice/)
beside a telnet player in the same room. Traits clicked build a pool, the preview shows what
`+odds` shows for it, the Roll button's roll reaches the telnet player, the roll is listed with
a code that verifies, the trackers follow a staff `+hunger` (also after `@reload`); the client reports the output
pane's width, so a roll line is wrapped for a 1366-pixel window; at 390x844 the panel is usable
with no sideways scroll. Screenshots with E2E_SCREENSHOT_DIR set.
"""

import re

import pytest

from tests.e2e.test_panel_live_web import roll_line, rolls_seen
from tests.e2e.test_web import CODE, browser, page, send, shoot, wait_for_text  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

CHANCE_LINE = re.compile(r"^\s{2}(?P<label>\S.*?)\s{2,}(?P<percent>[<>]?\d+\.\d%)\s*$")


def log_in(page, game_server, name, password, size):
    page.set_viewport_size(size)
    page.goto(f"{game_server.web_url}/webclient/")
    page.wait_for_selector("textarea.inputfield", state="visible")
    wait_for_text(page, r"create")
    send(page, f"connect {name} {password}")
    wait_for_text(page, r"You become")
    page.wait_for_selector('.dice-panel button.dp-trait[data-trait="dexterity"]')


def a_player(new_player):
    """A character made over telnet, then left (the browser plays it)."""
    telnet = new_player()
    name, password = telnet.name, telnet.password
    telnet.send("quit")
    telnet.close()
    return name, password


def odds_shown(page, pool):
    """The chances `+odds <pool>` prints in the browser's output: [(label, percent)]."""
    before = page.locator("#messagewindow").inner_text().count("[Odds]")
    send(page, f"+odds {pool}")
    page.wait_for_function("(n) => document.querySelector('#messagewindow').innerText.split('[Odds]').length - 1 > n",
                           arg=before)
    text = page.locator("#messagewindow").inner_text().split("[Odds]")[-1]
    return [(m["label"].strip(), m["percent"]) for m in map(CHANCE_LINE.match, text.splitlines()[1:]) if m]


def test_panel_pool_odds_roll_verify_and_trackers(game_server, new_player, superuser_client, page):
    name, password = a_player(new_player)
    watcher = new_player()
    log_in(page, game_server, name, password, {"width": 1366, "height": 768})

    # A pool from clicks, a target in the system's own syntax (V5: "vs <difficulty>").
    page.locator('button.dp-trait[data-trait="dexterity"]').click()
    page.locator('button.dp-trait[data-trait="athletics"]').click()
    assert page.locator("#dp-pool").input_value() == "dexterity+athletics"
    assert page.locator("label.dp-joiner").inner_text() == "vs"
    # typed, key by key: the panel's fields keep the keys (the web client's own input line
    # takes every key typed elsewhere)
    page.locator("#dp-target").click()
    page.keyboard.type("2")
    assert page.locator("#dp-target").input_value() == "2"
    page.wait_for_selector(".dp-chances dt")
    preview = list(zip(page.locator(".dp-chances dt").all_inner_texts(),
                       page.locator(".dp-chances dd").all_inner_texts()))
    assert preview == odds_shown(page, "dexterity+athletics vs 2"), preview
    assert len(preview) >= 2

    # The Roll button sends the +roll a player types: the telnet player in the room sees it.
    page.locator("#dp-comment").fill("from the panel")
    page.locator("button.dp-roll").click()
    seen = watcher.read_until(re.compile(r"\[code [A-Z0-9]{8}\]"), timeout=20)
    assert f"[Roll] {name} rolls Dexterity 1 + Athletics 0 = 1 (1 die), Hunger 1, vs 2 # from the panel" in " ".join(seen.split()), seen
    code = CODE.findall(seen)[-1]

    # ... and the panel lists it; its code verifies.
    code_button = page.locator(f'.dp-rolls button.dp-code:text-is("{code}")')
    code_button.wait_for()
    code_button.click()
    wait_for_text(page, r"\[Verify\] Roll " + code)

    # Staff change the Hunger: the tracker follows, with no reload.
    superuser_client.command(f"+hunger {name}=3", "Hunger is now 3")
    page.wait_for_function("() => { const t = document.querySelector('[data-tracker=hunger] .dp-tracker-value');"
                           " return t && t.textContent === '3'; }")

    # V5's Willpower reroll, offered in its window for a roll with regular dice.
    assert page.locator("button.dp-action").count() == 0  # that roll had a Hunger die alone
    # (offered only when +willpower would reroll: after a failure of 3 dice vs 3, always; a
    # win is rolled again)
    superuser_client.command(f"+hunger {name}=0", "Hunger is now 0")
    page.locator("#dp-pool").fill("3")
    page.locator("#dp-target").fill("3")
    page.locator("#dp-comment").fill("")
    for _ in range(10):
        before = rolls_seen(page, name)
        page.locator("button.dp-roll").click()
        if re.search(r"=> \d+ success(es)?: (failure|total failure)", roll_line(page, name, before)):
            break
    offer = page.locator('button.dp-action[data-command="+willpower"]')
    offer.wait_for()
    assert offer.inner_text().startswith("Reroll with Willpower (10 min left)"), offer.inner_text()
    told = page.locator("#messagewindow").inner_text().count("Willpower")
    offer.click()
    page.wait_for_function("(n) => document.querySelector('#messagewindow').innerText.split('Willpower').length - 1 > n",
                           arg=told)
    if f"{name} spends Willpower to reroll" in " ".join(page.locator("#messagewindow").inner_text().split()):
        offer.wait_for(state="detached")  # rerolled: the window is closed
        page.wait_for_function("() => document.querySelector('[data-tracker=willpower] .dp-tracker-value')"
                               ".textContent === '1/2'")

    # The width: the plugin reported the output pane's columns; a long roll line uses them.
    columns = page.evaluate("() => window.plugins['dice_panel'].columns()")
    assert 80 < columns <= 250, columns
    send(page, "+roll 3 vs 1 # " + "wide " * 60)
    text = wait_for_text(page, r"wide wide[\s\S]*\[code [A-Z0-9]{8}\]")
    roll = text[text.rindex(f"[Roll] {name} rolls 3 dice"):]
    lines = [line for line in roll.splitlines() if "wide" in line]
    longest = max(len(line) for line in lines)
    assert 80 < longest <= columns, (longest, columns, lines)
    # wrapped for this pane, so no line runs past it
    overflow = page.evaluate("() => { const w = document.querySelector('#messagewindow');"
                             " return w.scrollWidth - w.clientWidth; }")
    assert overflow <= 1, overflow
    shoot(page, "panel-1366")

    # Through `@reload` (the Portal keeps the websocket and gives its flags back): still fed.
    superuser_client.send("@reload")
    superuser_client.read_until("Server restarted", timeout=120)
    superuser_client.command(f"+hunger {name}=4", "Hunger is now 4")
    page.wait_for_function("() => document.querySelector('[data-tracker=hunger] .dp-tracker-value')"
                           ".textContent === '4'")
    assert page.locator("#messagewindow", has_text="Unhandled").count() == 0
    assert page.errors == [], page.errors


def test_panel_at_390_pixels(game_server, new_player, page):
    name, password = a_player(new_player)
    log_in(page, game_server, name, password, {"width": 390, "height": 844})
    panel = page.locator(".dice-panel")
    assert panel.is_visible()
    for control in ('button.dp-trait[data-trait="strength"]', "#dp-pool", "#dp-target", "button.dp-roll",
                    "button.dp-toggle"):
        box = page.locator(control).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390.5, (control, box)
    page.locator('button.dp-trait[data-trait="strength"]').click()
    page.locator("#dp-target").click()
    page.keyboard.type("1")
    page.wait_for_selector(".dp-chances dt")
    page.keyboard.press("Enter")  # in the form: rolls, as the Roll button does
    page.locator(".dp-rolls button.dp-code").first.wait_for()
    wait_for_text(page, rf"\[Roll\] {name} rolls Strength 1")
    sideways = page.evaluate("""() => [document.documentElement.scrollWidth,
        document.querySelector('.dice-panel').scrollWidth - document.querySelector('.dice-panel').clientWidth]""")
    assert sideways[0] <= 390 and sideways[1] <= 0, sideways
    shoot(page, "panel-390")

    # Collapsible, by keyboard: the toggle says what it does and the body goes.
    page.locator("button.dp-toggle").focus()
    page.keyboard.press("Enter")
    assert page.locator("button.dp-toggle").get_attribute("aria-expanded") == "false"
    assert not page.locator("#dp-pool").is_visible()
    # ... and gives its room back to the output
    assert page.locator(".dice-panel").bounding_box()["height"] < 120
    shoot(page, "panel-390-collapsed")
    page.keyboard.press("Enter")
    assert page.locator("#dp-pool").is_visible()

    # Leaving the character (unpuppet) takes its sheet away: no trait to roll from a sheet not played.
    send(page, "unpuppet")
    page.wait_for_selector(".dp-empty")
    assert page.locator("button.dp-trait").count() == 0
    assert page.errors == [], page.errors
