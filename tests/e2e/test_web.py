"""
End to end, in a real browser (Debian's headless Chromium, driven by Playwright): log in
through the web client, type +roll, see the result with its colours, then open the roll log
page and find that roll by its code. Everything the pages load must come from the game
itself: this passes on a machine with no internet access.

Needs /usr/bin/chromium (scripts/test.sh installs it when missing and run as root) and the
`playwright` package (the project's test extras). Never `playwright install`: no browser is
downloaded.
"""

import os
import re
from urllib.parse import urlparse

import pytest

from .harness import CHROMIUM, CHROMIUM_ARGS  # noqa: F401 - for the other browser modules

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

CODE = re.compile(r"\[code ([A-Z0-9]{8})\]")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def browser(e2e_browser):
    """The session's headless Chromium (tests/e2e/conftest.py): each test works in contexts
    of its own and closes them."""
    return e2e_browser.get()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    context.set_default_timeout(30_000)
    page = context.new_page()
    # What every page of this browser asks for, and the script errors they hit.
    page.requested = []
    page.errors = []
    context.on("request", lambda request: page.requested.append(request.url))

    def watch(new_page):
        new_page.on("websocket", lambda ws: page.requested.append(ws.url))
        new_page.on("pageerror", lambda error: page.errors.append(str(error)))

    watch(page)
    context.on("page", watch)
    try:
        yield page
    finally:
        context.close()


def message_text(page):
    return page.locator("#messagewindow").inner_text()


def wait_for_text(page, pattern, timeout=30_000):
    """Wait until the web client's message window matches `pattern`; return its text."""
    page.wait_for_function(
        "([source]) => { const w = document.querySelector('#messagewindow');"
        " return w && new RegExp(source).test(w.innerText); }",
        arg=[pattern],
        timeout=timeout,
    )
    return message_text(page)


def shoot(page, name):
    """A screenshot when E2E_SCREENSHOT_DIR is set (to look at the pages)."""
    folder = os.environ.get("E2E_SCREENSHOT_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def send(page, line):
    field = page.locator("textarea.inputfield").first
    field.click()
    field.fill(line)
    field.press("Enter")


def test_webclient_roll_then_find_it_on_the_roll_log(game_server, new_player, page):
    # An account made over telnet, then played from the browser.
    telnet = new_player()
    name, password = telnet.name, telnet.password
    telnet.send("quit")
    telnet.close()

    base = game_server.web_url
    page.goto(f"{base}/webclient/")
    # The libraries are the game's own copies, and they loaded.
    page.wait_for_selector("textarea.inputfield", state="visible")
    assert page.evaluate("() => !!(window.jQuery && window.GoldenLayout && window.Favico)")
    assert page.locator("div.err").count() == 0, page.locator("div.err").all_inner_texts()

    wait_for_text(page, r"create")
    send(page, f"connect {name} {password}")
    wait_for_text(page, r"You become|" + re.escape(name))

    send(page, "+roll 4 vs 1 # from the browser")
    text = wait_for_text(page, r"\[code [A-Z0-9]{8}\]")
    code = CODE.findall(text)[-1]
    assert f"[Roll] {name} rolls 4 dice, Hunger 1, vs 1 # from the browser" in text
    assert re.search(r"Dice: (\d+ ){2}\d+  Hunger: \d+  =>  \d+ success", text), text

    # The same highlighting as on telnet: Hunger dice in red, Hunger 1s and 10s (and messy
    # criticals / bestial failures) white on red, 10s bright green, other successes green.
    hunger_label = page.locator("#messagewindow span.color-009", has_text="Hunger:").last
    assert hunger_label.evaluate("el => getComputedStyle(el).color") == "rgb(255, 0, 0)"
    hunger_face = hunger_label.locator("xpath=following-sibling::span[1]")
    classes = hunger_face.get_attribute("class")
    face = int(hunger_face.inner_text())
    if face in (1, 10):
        assert "bgcolor-160" in classes
        # white on #df0000 (|[400: 5.1:1; Evennia's |[r #ff0000 is 4.0:1)
        assert hunger_face.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(223, 0, 0)"
    elif face >= 6:
        assert classes == "color-034"  # a success: |030 #00af00
    else:
        assert classes == "color-009"
    shoot(page, "webclient")

    # The roll log page, in a second tab (the web client stays connected): the web client's
    # login carries over to the website. (Leaving the web client instead closes its
    # websocket, and Evennia then forgets the shared login, racing the next page's request.)
    site = page.context.new_page()
    site.goto(f"{base}/")
    site.locator("a.nav-link", has_text="Rolls").click()
    site.wait_for_selector("#rolllog-filter")
    site.fill("#rolllog-code", code.lower())
    site.locator("#rolllog-filter button[type=submit]").click()
    row = site.locator(f'tr.rolllog-entry[data-code="{code}"]')
    row.wait_for()
    assert site.locator("tr.rolllog-entry").count() == 1
    assert name in row.inner_text()
    assert "+roll 4 vs 1 # from the browser" in row.inner_text()
    # Hunger dice are marked apart (the marks of the stored view give the CSS classes).
    assert row.locator(".die.mark-hunger").count() == 1
    assert row.locator(".die").count() == 4
    # The dice are separate words ("10 10", not "1010").
    dice_text = row.locator(".rolllog-dice").inner_text()
    assert re.search(r"Dice: \d+ \d+ \d+\s+Hunger: \d+", dice_text), dice_text
    shoot(site, "roll-log")

    # Usable on a 390-pixel phone screen: nothing runs off the side.
    site.set_viewport_size({"width": 390, "height": 844})
    site.reload()
    site.locator(f'tr.rolllog-entry[data-code="{code}"]').wait_for()
    width = site.evaluate("document.documentElement.scrollWidth")
    wide = site.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(el => el.getBoundingClientRect().right > 390.5)
        .slice(0, 8).map(el => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))""")
    assert width <= 390, (width, wide)
    shoot(site, "roll-log-phone")

    # Nothing was fetched from anywhere but the game.
    foreign = [url for url in page.requested
               if urlparse(url).scheme not in ("data", "blob", "about")
               and urlparse(url).hostname not in LOCAL_HOSTS]
    assert foreign == [], foreign
    assert page.errors == [], page.errors
