"""
End to end, in Chromium (the same headless set-up as test_web.py): what a newcomer sees.

- The home page names the game, gives the telnet port the server really listens on (from
  GAME_PORT_BASE) and links to the web client and the Rolls page.
- In the web client, every colour a roll is drawn in reads at WCAG AA (contrast at least
  4.5:1) on the client's black background, "total failure" included, measured from the
  browser's computed styles.

Screenshots go to E2E_SCREENSHOT_DIR when set (e.g. /tmp/screens), never into the repository.
"""

import os
import re

import pytest

from .test_web import browser, page, send, wait_for_text  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

RGB = re.compile(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)")


def luminance(css):
    r, g, b = (int(x) for x in RGB.match(css).groups()[:3])

    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(fg, bg):
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def transparent(css):
    match = RGB.match(css)
    return css == "transparent" or (match and match.group(4) is not None and float(match.group(4)) == 0)


def shoot(page, name):
    folder = os.environ.get("E2E_SCREENSHOT_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


# Each element a selector finds: its text colour, and the background it is drawn on (its own,
# or the nearest ancestor's that is not transparent).
COLOURS_JS = """
(selector) => [...document.querySelectorAll(selector)].map(el => {
    let bg = 'transparent', node = el;
    while (node) {
        const c = getComputedStyle(node).backgroundColor;
        if (c !== 'transparent' && !/rgba\\(\\d+, \\d+, \\d+, 0\\)/.test(c)) { bg = c; break; }
        node = node.parentElement;
    }
    return {cls: el.className, text: el.innerText, color: getComputedStyle(el).color, bg: bg};
})
"""


def test_home_page_presents_the_game(game_server, page):
    page.goto(f"{game_server.web_url}/")
    assert page.locator("#game-name").inner_text().strip() == "Storyteller Dice"
    body = page.locator("body").inner_text()
    assert "Welcome to Evennia" not in body
    assert "Vampire: The Masquerade 5th edition" in body
    assert page.locator(".telnet-port").all_inner_texts() == [str(game_server.telnet_port)]
    assert page.locator('a[href="/webclient/"]').count() >= 1
    assert page.locator('a[href="/rolls/"]').count() >= 1
    shoot(page, "home")


def test_webclient_roll_colours_meet_aa(game_server, new_player, page):
    telnet = new_player()
    name, password = telnet.name, telnet.password
    telnet.send("quit")
    telnet.close()

    page.goto(f"{game_server.web_url}/webclient/")
    page.wait_for_selector("textarea.inputfield", state="visible")
    wait_for_text(page, r"create")
    send(page, f"connect {name} {password}")
    wait_for_text(page, r"You become|" + re.escape(name))
    # A few rolls, so that Hunger dice, 10s and outcomes of several kinds are on screen.
    for line in ("+roll 6 vs 3 # newcomer", "+check 1 vs 5", "+check 8 vs 2"):
        send(page, line)
    wait_for_text(page, r"(\[code [A-Z0-9]{8}\][\s\S]*){3}")

    window_bg = page.evaluate("() => getComputedStyle(document.querySelector('#messagewindow')).backgroundColor")
    page_bg = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert "rgb(0, 0, 0)" in (window_bg, page_bg)

    # The classes whatever the dice showed: "total failure" (|511), white on red (|[400|w), a
    # success (|030).
    page.evaluate("""() => {
        const w = document.querySelector('#messagewindow');
        const probe = document.createElement('div');
        probe.id = 'colour-probe';
        probe.innerHTML = '<span class="color-203">total failure</span> '
            + '<span class="bgcolor-160 color-015">messy critical</span> '
            + '<span class="color-009">Hunger:</span> <span class="color-010">10</span> <span class="color-034">7</span> '
            + '<span class="color-011">failure</span> <span class="color-015">[Roll]</span>';
        w.appendChild(probe);
    }""")
    spans = page.evaluate(COLOURS_JS, '#messagewindow span[class*="color-"]')  # each coloured span
    black = "rgb(0, 0, 0)"
    seen = {}
    for span in spans:
        bg = black if transparent(span["bg"]) else span["bg"]
        ratio = contrast(span["color"], bg)
        seen.setdefault((span["cls"], span["color"], bg), ratio)
    low = {key: round(ratio, 2) for key, ratio in seen.items() if ratio < 4.5}
    assert not low, low
    total = page.locator("#colour-probe .color-203")
    assert total.evaluate("el => getComputedStyle(el).color") == "rgb(255, 95, 95)"
    assert contrast("rgb(255, 95, 95)", black) >= 4.5
    # The probe is not a roll: take it away before the screenshot.
    page.evaluate("() => document.querySelector('#colour-probe').remove()")
    print("colour contrasts:", {f"{k[0]} {k[1]} on {k[2]}": round(v, 2) for k, v in seen.items()})
    shoot(page, "webclient-roll")
