"""
End to end, in Chromium at a phone's 390x844 and a desktop's 1366x900: the website and the web
client as players and staff meet them.

- The web client's output lines never overlap, at every font size its options offer (the
  bounding boxes of the text on each line, measured in the browser).
- No page is wider than a phone's screen: home, /help/, /characters/, a character page, the
  roll log, the odds and fairness pages (with their charts), the web client; as a player and
  as staff.
- The character page shows the sheet to its player and to staff only, the description as text.
- Every roll mark (each die's marks, each outcome's tone) reads at WCAG AA (4.5:1) against its
  own background, on both surfaces: the web client (black) and the roll log page (white), read
  from Chromium's computed styles; every scoring die is marked.
- Nothing any page asks for leaves the game's host, the stock character pages included.

Screenshots go to E2E_SCREENSHOT_DIR when set (e.g. /tmp/screens), never into the repository.
"""

import re
from urllib.parse import urlparse

import pytest

from .test_newcomer_web import COLOURS_JS, contrast, transparent
from .test_web import LOCAL_HOSTS, browser, message_text, send, shoot, wait_for_text  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
HOSTILE_DESC = "<b>bold</b> |lchelp|ltclick me|le <script>alert(1)</script>"

# Text rectangles of the message window, one per line fragment of each text node; two on
# different lines (their vertical centres more than 2 px apart) that cover each other are a
# line drawn over another.
OVERLAPS_JS = """
() => {
    const w = document.querySelector('#messagewindow');
    const rects = [];
    const walker = document.createTreeWalker(w, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const b of range.getClientRects()) {
            if (b.width > 0 && b.height > 0) rects.push({t: b.top, b: b.bottom, l: b.left, r: b.right,
                text: node.textContent.slice(0, 24) + ' ' + b.height + 'px in '
                    + getComputedStyle(node.parentElement).fontSize + '/' + getComputedStyle(node.parentElement).lineHeight});
        }
    }
    const bad = [];
    for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i], c = rects[j];
        if (Math.abs((a.t + a.b) / 2 - (c.t + c.b) / 2) < 2) continue;
        const v = Math.min(a.b, c.b) - Math.max(a.t, c.t), h = Math.min(a.r, c.r) - Math.max(a.l, c.l);
        if (v > 0.5 && h > 0.5 && bad.length < 6) bad.push([a.text, c.text, Math.round(v * 10) / 10]);
    }
    return {lines: rects.length, bad: bad};
}
"""

WIDTH_JS = """() => ({width: document.documentElement.scrollWidth,
    wide: [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > innerWidth + 0.5)
        .slice(0, 6).map(el => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))})"""


class Browsing:
    """Browser contexts (one per account: each its own login) whose every request (any page,
    websockets too) and script error is kept in `requested` and `errors`."""

    def __init__(self, browser):
        self.browser, self.contexts, self.requested, self.errors = browser, [], [], []

    def context(self, viewport=PHONE):
        context = self.browser.new_context(viewport=viewport)
        context.set_default_timeout(30_000)
        context.on("request", lambda request: self.requested.append(request.url))

        def watch(new_page):
            new_page.on("websocket", lambda ws: self.requested.append(ws.url))
            new_page.on("pageerror", lambda error: self.errors.append(str(error)))

        context.on("page", watch)
        self.contexts.append(context)
        return context

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def browsing(browser):  # noqa: F811
    browsing = Browsing(browser)
    try:
        yield browsing
    finally:
        browsing.close()


def foreign(requested):
    return [url for url in requested if urlparse(url).scheme not in ("data", "blob", "about")
            and urlparse(url).hostname not in LOCAL_HOSTS]


def log_in(browsing, base, name, password):
    """A page of a new browser context, logged in to the website as `name`."""
    page = browsing.context().new_page()
    # to the home page: these tests read the website (the login page's own next is the web client)
    page.goto(f"{base}/auth/login/?next=/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state()
    return page


def player_with_rolls(new_player):
    """A player (telnet) with a sheet, a description and a few rolls of every kind on the log."""
    telnet = new_player()
    telnet.command("+stat str=3", "Strength")
    telnet.command("+stat dex=4", "Dexterity")
    telnet.command("+stat athletics=2", "Athletics")
    telnet.command(f"setdesc {HOSTILE_DESC}", re.compile(r"\S"))
    for line in ("+roll dex+athletics vs 3 # Webbington checks", "+check 12 vs 4", "+check 1 vs 5", "+check 20 vs 2"):
        telnet.command(line, re.compile(r"\[code [A-Z0-9]{8}\]"))
    return telnet


def wait_for_all(page, *patterns):
    """Wait for each pattern in the message window in turn; on a timeout, say what was there."""
    for pattern in patterns:
        try:
            wait_for_text(page, pattern, timeout=20_000)
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: show the window instead
            pytest.fail(f"no {pattern!r} in:\n{message_text(page)[-3000:]}")


def character_url(page, base, name):
    """The character page's address, from Evennia's list of characters."""
    page.goto(f"{base}/characters/")
    link = page.locator('a[href*="/characters/detail/"]', has_text=name).first
    return base + link.get_attribute("href")


def webclient(browsing, base, name, password):
    page = browsing.context().new_page()
    page.goto(f"{base}/webclient/")
    page.wait_for_selector("textarea.inputfield", state="visible")
    wait_for_text(page, r"create")
    send(page, f"connect {name} {password}")
    wait_for_text(page, r"You become|" + re.escape(name))
    return page


def test_webclient_lines_never_overlap_at_any_font_size(game_server, new_player, browsing):
    telnet = player_with_rolls(new_player)
    telnet.send("quit")
    page = webclient(browsing, game_server.web_url, telnet.name, telnet.password)
    for line in ("+roll dex+athletics vs 3 # phone", "+odds 5 vs 2", "+check 10 vs 2", "help"):
        send(page, line)
    wait_for_all(page, r"(\[code [A-Z0-9]{8}\][\s\S]*){2}", r"total failure", r"\+odds[\s\S]*\+roll")
    page.wait_for_timeout(500)
    sizes = page.evaluate("""() => { const d = $('<div>'); font_plugin.onOptionsUI(d);
        return d.find('select').eq(1).find('option').map((i, o) => o.value).get(); }""")
    assert sizes == [str(x / 10) if x % 10 else str(x // 10) for x in range(4, 21)], sizes
    for size in sizes:
        page.evaluate("(size) => { localStorage.setItem('evenniaFontSize', size); font_plugin.applyFont(); }", size)
        found = page.evaluate(OVERLAPS_JS)
        assert found["lines"] > 20 and found["bad"] == [], (size, found)
        font, line = page.evaluate("""() => [parseFloat(getComputedStyle(document.body).fontSize),
                                             parseFloat(getComputedStyle(document.body).lineHeight)]""")
        assert line >= 1.3 * font, (size, font, line)
        if size in ("0.9", "2"):
            shoot(page, f"webclient-phone-font-{size}")
    assert foreign(browsing.requested) == []


def test_no_page_is_wider_than_a_phone(game_server, new_player, browsing):
    telnet = player_with_rolls(new_player)
    telnet.send("quit")
    base = game_server.web_url
    for who, (name, password) in (("player", (telnet.name, telnet.password)),
                                  ("staff", (game_server.superuser, game_server.superuser_password))):
        page = log_in(browsing, base, name, password)
        sheet = character_url(page, base, telnet.name)
        for path in ("/", "/help/", "/characters/", sheet, "/rolls/", "/rolls/odds/?pool=6&target=2&hunger=2",
                     "/rolls/fairness/", "/webclient/"):
            url = path if path.startswith("http") else base + path
            page.goto(url)
            page.wait_for_load_state()
            measured = page.evaluate(WIDTH_JS)
            assert measured["width"] <= PHONE["width"], (who, path, measured)
            if path != "/webclient/":  # the site's own links and code text read at AA too
                _seen, low = low_contrast(page.evaluate(COLOURS_JS, ".main-content a, .main-content code, "
                                                        ".main-content .btn"), "rgb(255, 255, 255)")
                assert not low, (who, path, low)
            if path.startswith("/rolls/odds"):
                assert page.locator("#odds-chart svg").count() == 1
            if path == "/rolls/fairness/":
                assert page.locator("svg.fairness-chart").count() >= 1
            shoot(page, f"phone-{who}-{urlparse(url).path.strip('/').replace('/', '-') or 'home'}")
    assert foreign(browsing.requested) == [], foreign(browsing.requested)


def test_character_page_sheet_for_its_player_and_staff_only(game_server, new_player, browsing):
    owner = player_with_rolls(new_player)
    other = new_player()
    base = game_server.web_url
    page = log_in(browsing, base, owner.name, owner.password)
    url = character_url(page, base, owner.name)
    page.goto(url)
    sheet = page.locator("#character-sheet")
    assert sheet.count() == 1
    text = sheet.inner_text()
    assert re.search(r"Strength\s+3", text) and re.search(r"Dexterity\s+4", text) and "Hunger" in text, text
    desc = page.locator("#character-desc")
    # As `look` shows it (setdesc keeps the link's text, not its command), as text.
    assert desc.inner_text() == "<b>bold</b> click me <script>alert(1)</script>"
    assert desc.locator("b, a, script").count() == 0
    assert "None" not in page.locator(".card-body").inner_text()
    shoot(page, "character-phone")
    page.set_viewport_size(DESKTOP)
    page.reload()
    shoot(page, "character-desktop")

    page = log_in(browsing, base, other.name, other.password)
    page.goto(url)
    assert page.locator("#character-name").inner_text() == owner.name
    assert page.locator("#character-sheet").count() == 0
    shoot(page, "character-phone-other-player")

    page = log_in(browsing, base, game_server.superuser, game_server.superuser_password)
    page.goto(url)
    assert page.locator("#character-sheet").count() == 1
    assert foreign(browsing.requested) == []


def every_style_html():
    """Every look a roll line can have (each mark rule, each tone), as the web client gets it."""
    from evennia.utils.text2html import parse_html

    from storyteller_dice.rules.display import MARK_STYLES, TONE_STYLES

    styles = [style for _, style in MARK_STYLES] + [style for style in TONE_STYLES.values() if style]
    return " ".join(parse_html(f"{style}7|n") for style in styles)


def every_mark_html():
    """Every die mark combination and tone, in the roll log page's classes."""
    from storyteller_dice.rules.display import MARK_STYLES, TONE_STYLES

    dice = [f'<span class="die {" ".join("mark-" + m for m in sorted(marks))}">7</span>' for marks, _ in MARK_STYLES]
    tones = [f'<span class="rolllog-outcome tone-{tone}">outcome</span>' for tone in TONE_STYLES]
    return " ".join(dice + tones)


def word_lines(locator, word):
    """On how many lines the browser draws `word` inside the element."""
    return locator.evaluate("""(el, word) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let node;
        while ((node = walker.nextNode())) {
            const at = node.textContent.indexOf(word);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + word.length);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
        }
        return 0;
    }""", word)


def low_contrast(spans, default_bg):
    seen, low = {}, {}
    for span in spans:
        bg = default_bg if transparent(span["bg"]) else span["bg"]
        ratio = contrast(span["color"], bg)
        seen[(span["cls"], span["color"], bg)] = round(ratio, 2)
        if ratio < 4.5:
            low[(span["cls"], span["text"][:20], span["color"], bg)] = round(ratio, 2)
    return seen, low


def test_every_roll_mark_reads_at_aa_on_both_surfaces(game_server, new_player, browsing):
    telnet = player_with_rolls(new_player)
    telnet.send("quit")
    base = game_server.web_url
    page = webclient(browsing, base, telnet.name, telnet.password)
    for line in ("help", "+odds 5 vs 2", "+check 20 vs 2", "+check 12 vs 9"):
        send(page, line)
    wait_for_all(page, r"(\[code [A-Z0-9]{8}\][\s\S]*){2}", r"total failure")
    page.wait_for_timeout(500)
    page.evaluate("""(probe) => { const div = document.createElement('div'); div.id = 'mark-probe';
        div.innerHTML = probe; document.querySelector('#messagewindow').appendChild(div); }""", every_style_html())
    spans = page.evaluate(COLOURS_JS, '#messagewindow span[class*="color-"], #messagewindow a')
    seen, low = low_contrast(spans, "rgb(0, 0, 0)")
    print("web client contrasts:", seen)
    assert len(seen) >= 8 and not low, low
    # Every success is marked: a die of 6-9 in a Dice: group has a colour class.
    texts = page.locator("#messagewindow").inner_html()
    assert 'class="color-034"' in texts  # |030, the successes that are not 10s
    page.evaluate("() => document.querySelector('#mark-probe').remove()")
    shoot(page, "webclient-marks-phone")

    site = log_in(browsing, base, telnet.name, telnet.password)
    site.set_viewport_size(DESKTOP)
    site.goto(f"{base}/rolls/")
    site.wait_for_selector("tr.rolllog-entry")
    successes = site.locator(".rolllog-dice .die.mark-success:not(.mark-ten):not(.mark-hunger)")
    assert successes.count() >= 1
    plain = site.locator(".rolllog-dice .die.mark-fail").first
    assert successes.first.evaluate("el => getComputedStyle(el).color") != plain.evaluate(
        "el => getComputedStyle(el).color")
    shoot(site, "roll-log-desktop")
    site.evaluate("""(probe) => { const cell = document.querySelector('td.rolllog-dice');
        const div = document.createElement('div'); div.id = 'mark-probe'; div.innerHTML = probe;
        cell.appendChild(div); }""", every_mark_html())
    spans = site.evaluate(COLOURS_JS, ".rolllog-dice .die, .rolllog-outcome, .rolllog-private, .rolllog-command")
    seen, low = low_contrast(spans, "rgb(255, 255, 255)")
    print("roll log contrasts:", seen)
    assert not low, low
    # Names and commands break between words only: at the desktop's width "Webbington" and the
    # roller's name are each on one line.
    assert word_lines(site.locator(".rolllog-command", has_text="Webbington").first, "Webbington") == 1
    assert word_lines(site.locator('td[data-label="Who"]', has_text=telnet.name).first, telnet.name) == 1
    assert foreign(browsing.requested) == []


def test_no_request_leaves_the_game(game_server, new_player, browsing):
    telnet = player_with_rolls(new_player)
    base = game_server.web_url
    page = log_in(browsing, base, telnet.name, telnet.password)
    sheet = character_url(page, base, telnet.name)
    for url in ("/", "/help/", "/channels/", "/characters/", "/characters/manage/", "/characters/create/",
                sheet, "/rolls/", "/rolls/odds/", "/rolls/fairness/", "/auth/password_change/"):
        page.goto(url if url.startswith("http") else base + url)
        page.wait_for_load_state("networkidle")
        assert page.locator("img").evaluate_all("imgs => imgs.filter(i => !i.complete || !i.naturalWidth).length") == 0
    assert foreign(browsing.requested) == [], foreign(browsing.requested)
    assert browsing.errors == [], browsing.errors
