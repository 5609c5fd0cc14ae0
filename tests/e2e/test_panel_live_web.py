"""
End to end, in headless Chromium, V5 (the session's game): the dice panel is inert before a
character is played; it follows staff's changes made from telnet (a value, a Specialty, the
approval) with no reload; it offers the Willpower reroll only when `+willpower` would make it,
and takes the offer away once used; a roll shown is drawn as a card under its line (regular and
Hunger dice apart), the line kept; at 390x844 the output, the panel and a one-line input share
the screen. tests/e2e/test_panel_v20_web.py plays the same on a V20 game. Screenshots go to
E2E_SCREENSHOT_DIR when it is set.
"""

import re
import time

import pytest

from tests.e2e.test_web import CODE, browser, page, send, shoot, wait_for_text  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def a_player(new_player):
    """A character made over telnet, then left (the browser plays it)."""
    telnet = new_player()
    name, password = telnet.name, telnet.password
    telnet.send("quit")
    telnet.close()
    return name, password


def inert_before_login(page, game_server, size):
    """The page before login: the panel says to log in and offers no control that rolls."""
    page.set_viewport_size(size)
    page.goto(f"{game_server.web_url}/webclient/")
    page.wait_for_selector("textarea.inputfield", state="visible")
    wait_for_text(page, r"create")
    notice = page.locator(".dice-panel .dp-notice")
    notice.wait_for()
    assert notice.inner_text() == "Log in and play a character to roll from this panel."
    for control in ("button.dp-roll", "#dp-pool", "button.dp-trait", "button.dp-action", "button.dp-code"):
        assert not page.locator(f".dice-panel {control}").first.is_visible(), control
    if size == PHONE:  # under the output, it keeps only the room of its line
        page.wait_for_timeout(300)
        assert page.locator(".dice-panel").bounding_box()["height"] <= 120, page.locator(".dice-panel").bounding_box()


def log_in(page, name, password, trait):
    send(page, f"connect {name} {password}")
    wait_for_text(page, r"You become")
    page.wait_for_selector(f'.dice-panel button.dp-trait[data-trait="{trait}"]')
    assert not page.locator(".dice-panel .dp-notice").is_visible()


def follows_staff_from_telnet(page, superuser_client, name, skill):
    """Staff change a value, add a Specialty and approve the sheet from telnet: no reload."""
    superuser_client.command(f"+stat {name}/{skill}=2", "is now 2")
    page.wait_for_selector(f'button.dp-trait[data-trait="{skill}"]:text-is("{skill.title()} 2")')
    superuser_client.command(f"+stat {name}/spec {skill}=Climbing", "Added the")
    chip = page.locator(f'button.dp-specialty[data-trait="{skill}"][data-specialty="Climbing"]')
    chip.wait_for()
    assert page.locator(".dp-sheet", has_text=f"{skill.title()} (Climbing)").count() == 1
    assert page.locator(".dp-approval").get_attribute("data-approved") == "no"
    superuser_client.command(f"+approve {name}", "sheet is approved")
    page.wait_for_selector('.dp-approval[data-approved="yes"]')
    # the Specialty's button adds it to the pool in the system's syntax
    page.locator("#dp-pool").fill("")
    chip.click()
    assert page.locator("#dp-pool").input_value() == f"{skill}(Climbing)"
    page.locator("#dp-pool").fill("")
    superuser_client.command(f"+stat/remove {name}/spec {skill}=Climbing", "Removed the")
    chip.wait_for(state="detached")


def roll_line(page, name, before):
    """The text of the next roll line of `name` after `before` ones, up to its code."""
    page.wait_for_function(
        "([name, n]) => document.querySelector('#messagewindow').innerText.split('[Roll] ' + name).length - 1 > n",
        arg=[name, before])
    text = page.locator("#messagewindow").inner_text()
    tail = text[text.rindex(f"[Roll] {name}"):]
    return " ".join(tail[:CODE.search(tail).end()].split())


def rolls_seen(page, name):
    return page.locator("#messagewindow").inner_text().count(f"[Roll] {name}")


def answered(page):
    """A wait for the panel's next answer to what is offered now (it asks after each roll of ours)."""
    seen = int(page.locator(".dp-actions").get_attribute("data-answers") or 0)
    return lambda: page.wait_for_function(
        "(n) => Number(document.querySelector('.dp-actions').getAttribute('data-answers') || 0) > n", arg=seen)


def card_of(page, line):
    """The card drawn for the roll whose line is `line`: its dice as [(group, face, marks)]."""
    code = CODE.search(line)[0][len("[code "):-1]
    card = page.locator(f"#messagewindow .dp-card.dp-card-{code}")
    card.wait_for()
    # the line above is what a screen reader reads (all but the buttons of a Willpower pick:
    # tests/e2e/test_card_willpower_web.py)
    assert card.get_attribute("aria-hidden") == "true" or card.locator("button.dp-pick").count()
    return [tuple(each) for each in card.evaluate("""(card) => [...card.querySelectorAll('.dp-die')].map((d) => [
        d.parentElement.querySelector('.dp-card-group-label').textContent, Number(d.textContent),
        [...d.classList].filter((c) => c.startsWith('dp-die-')).map((c) => c.slice(7)).sort().join(' ')])""")]


def measure_phone(page):
    """The panes and controls at 390x844, as the browser lays them out."""
    return page.evaluate("""() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height,
                                                                          left: r.left, right: r.right}; };
        const panel = document.querySelector('.dice-panel');
        const trait = panel.querySelector('button.dp-trait');
        const ctx = document.createElement('canvas').getContext('2d');
        const hints = [...panel.querySelectorAll('input[placeholder]')].map((field) => {
            const style = getComputedStyle(field);
            ctx.font = style.font;
            return [field.placeholder, ctx.measureText(field.placeholder).width,
                    field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
        });
        return {output: box(document.querySelector('#messagewindow')), panel: box(panel),
                panelScroll: panel.scrollTop, trait: box(trait), roll: box(document.querySelector('button.dp-roll')),
                input: box(document.querySelector('textarea.inputfield')),
                inputLine: parseFloat(getComputedStyle(document.querySelector('textarea.inputfield')).lineHeight),
                hints: hints,
                page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
    }""")


def phone_layout(page):
    """Output, panel and a one-line input share the 844 pixels; a trait and Roll show unscrolled."""
    page.wait_for_timeout(300)  # the layout's sizes settle
    got = measure_phone(page)
    panel, trait, roll, output, field = got["panel"], got["trait"], got["roll"], got["output"], got["input"]
    assert got["panelScroll"] == 0, got
    for control in (trait, roll):
        assert panel["top"] <= control["top"] and control["bottom"] <= panel["bottom"], got
        assert 0 <= control["left"] and control["right"] <= 390, got
    assert output["height"] >= 250, got
    assert field["height"] <= 2 * got["inputLine"] + 12, got  # one line (and its padding)
    assert field["bottom"] <= 844 and output["bottom"] <= panel["top"] + 1, got
    assert [hint for hint, _, _ in got["hints"]] == ["click traits", "difficulty", "comment"], got
    assert all(needs <= room for _, needs, room in got["hints"]), got  # every hint shows whole
    assert got["page"] == [390, 844], got
    return got


def input_grows_and_shrinks(page):
    field = page.locator("textarea.inputfield").first
    one = field.bounding_box()["height"]
    field.click()
    page.keyboard.type("say " + "a long line typed on a phone " * 6)
    page.wait_for_function("(h) => document.querySelector('textarea.inputfield').getBoundingClientRect().height > h + 10",
                           arg=one)
    page.keyboard.press("Enter")
    page.wait_for_function("(h) => document.querySelector('textarea.inputfield').getBoundingClientRect().height < h + 2",
                           arg=one)


def test_v5_inert_live_and_reroll_at_1366(game_server, new_player, superuser_client, page, tmp_path):
    name, password = a_player(new_player)
    inert_before_login(page, game_server, DESKTOP)
    shoot(page, "panel-v5-1366-before-login")
    log_in(page, name, password, "athletics")
    follows_staff_from_telnet(page, superuser_client, name, "athletics")

    # No Hunger dice, so every die may be rerolled: only the rule of +willpower decides.
    superuser_client.command(f"+hunger {name}=0", "Hunger is now 0")
    offer = page.locator('button.dp-action[data-command="+willpower"]')
    # Two dice never make 5 successes: no reroll raises the chance, none is offered.
    wait = answered(page)
    before = rolls_seen(page, name)
    send(page, "+check 2 vs 5")
    roll_line(page, name, before)
    wait()
    assert offer.count() == 0
    # A win: nothing to gain (retried on the rare 8 failures in a row).
    for _ in range(5):
        wait = answered(page)
        before = rolls_seen(page, name)
        send(page, "+check 8 vs 1")
        line = roll_line(page, name, before)
        wait()
        if "total failure" not in line:
            break
    assert "total failure" not in line, line
    assert offer.count() == 0, line
    shoot(page, "panel-v5-1366-no-reroll-after-win")
    # A failure that a reroll may turn: offered, used once, then gone.
    for _ in range(10):
        wait = answered(page)
        before = rolls_seen(page, name)
        send(page, "+check 3 vs 3")
        line = roll_line(page, name, before)
        wait()
        if re.search(r"=> \d+ success(es)?: (failure|total failure)", line):
            break
    else:
        pytest.fail("ten rolls of 3 dice vs 3 all won")
    offer.wait_for()
    offer.click()
    assert offer.count() == 0  # gone at once, not waiting for the answer
    wait_for_text(page, rf"{name} spends Willpower to reroll")
    page.wait_for_timeout(2000)  # the panel asks again after a moment
    assert offer.count() == 0

    # A card under each roll's line, Hunger dice apart.
    superuser_client.command(f"+hunger {name}=2", "Hunger is now 2")
    before = rolls_seen(page, name)
    send(page, "+roll 5 vs 2")
    line = roll_line(page, name, before)
    dice = card_of(page, line)
    assert [group for group, _, _ in dice] == ["Dice"] * 3 + ["Hunger"] * 2, dice
    shown = re.search(r"Dice: ([\d ]+) Hunger: ([\d ]+) =>", line)
    assert [face for _, face, _ in dice] == [int(f) for f in (shown[1] + " " + shown[2]).split()], (dice, line)
    assert all("hunger" in marks for group, _, marks in dice if group == "Hunger")
    assert all(("success" in marks) == (face >= 6) for _, face, marks in dice), dice
    assert page.locator("#messagewindow", has_text=line.split(" Dice:")[0]).count() == 1  # the line stays
    # the trackers as boxes: Willpower has the one Superficial the reroll cost
    page.wait_for_selector('[data-boxes="willpower"] [data-box="superficial"]')
    shoot(page, "panel-v5-1366-card")
    assert page.errors == [], page.errors


def test_v5_phone_layout(game_server, new_player, superuser_client, page):
    name, password = a_player(new_player)
    inert_before_login(page, game_server, PHONE)
    shoot(page, "panel-v5-390-before-login")
    log_in(page, name, password, "strength")
    page.wait_for_timeout(300)
    shoot(page, "panel-v5-390")
    got = phone_layout(page)
    follows_staff_from_telnet(page, superuser_client, name, "athletics")
    input_grows_and_shrinks(page)
    # a roll from the panel, its card drawn in the output
    page.locator('button.dp-trait[data-trait="strength"]').click()
    before = rolls_seen(page, name)
    page.locator("button.dp-roll").click()
    card_of(page, roll_line(page, name, before))
    sideways = page.evaluate("() => document.documentElement.scrollWidth")
    assert sideways <= 390, (sideways, got)
    shoot(page, "panel-v5-390-card")
    assert page.errors == [], page.errors


def test_v5_contest_and_own_rolls(game_server, new_player, superuser_client, page):
    """A challenge from a telnet player: Answer (with the pool built) and Decline on the
    panel; V5's Rouse, Remorse (while due) and Frenzy buttons, each the command's line."""
    name, password = a_player(new_player)
    rival = new_player()
    inert_before_login(page, game_server, DESKTOP)
    log_in(page, name, password, "wits")
    answer = page.locator('button.dp-action[data-command="+contest/answer"]')
    decline = page.locator('button.dp-action[data-command="+contest/decline"]')
    assert answer.count() == 0

    rival.command(f"+contest composure vs {name}", "answers with")
    answer.wait_for()
    assert answer.inner_text().startswith(f"Answer {rival.name}'s challenge ("), answer.inner_text()
    assert decline.is_visible()
    answer.click()  # no pool yet: it says what to do, and sends nothing
    page.wait_for_selector(".dp-odds .dp-error:text-is(\"Build your pool (click traits), then Answer "
                           f"{rival.name}'s challenge.\")")
    page.locator('button.dp-trait[data-trait="wits"]').click()
    answer.click()
    rival.read_until(re.compile(r"\[Contest\][^\n]*" + re.escape(name)), timeout=20)
    answer.wait_for(state="detached")
    assert decline.count() == 0
    page.locator("#messagewindow .dp-card .dp-card-label").first.wait_for()
    assert set(page.locator("#messagewindow .dp-card").last.locator(".dp-card-label").all_inner_texts()) \
        >= {rival.name}
    shoot(page, "panel-v5-1366-contest")

    rival.command(f"+contest composure vs {name}", "answers with")
    decline.wait_for()
    decline.click()
    rival.read_until(f"{name} declines {rival.name}'s challenge")
    decline.wait_for(state="detached")
    assert answer.count() == 0

    # V5's own rolls: Rouse and Frenzy always; Remorse while Stains call for it
    rouse = page.locator('button.dp-tool[data-command="+rouse"]')
    remorse = page.locator('button.dp-tool[data-command="+remorse"]')
    assert rouse.is_visible() and remorse.count() == 0
    rouse.click()
    wait_for_text(page, rf"\[Rouse\] {name}")
    superuser_client.command(f"+stat {name}/stains=2", "is now 2")
    remorse.wait_for()
    remorse.click()
    wait_for_text(page, rf"\[Remorse\] {name}")
    remorse.wait_for(state="detached")  # the test cleared the Stains
    page.locator("#dp-target").fill("3")
    page.locator('button.dp-tool[data-command="+frenzy"]').click()
    wait_for_text(page, rf"\[Frenzy\] {name}[^\n]*")
    shoot(page, "panel-v5-1366-tools")
    assert page.errors == [], page.errors
