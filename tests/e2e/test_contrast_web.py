"""
End to end, in Chromium at a phone's 390x844 and a desktop's 1366x900: every text on every page
of the website reads at WCAG AA, and no page is wider than the phone.

For each page (home, the roll log, the odds and fairness pages, /characters/, /help/ and a topic
page, /channels/, login, register, a page that does not exist, the web client) the browser
walks every text node that is drawn (not hidden, not clipped to nothing) and computes its
colour against what it is drawn on: the nearest background up the tree that is not
transparent, with every partly transparent colour (the text's, the backgrounds') and every
element's opacity composited over the ones beneath, as the browser paints them. Each must
reach 4.5:1, large text (24 px, or 18.66 px bold) 3:1. The menu is read closed and, on the
phone, open.

Screenshots of every page go to the test's own folder (`tmp_path`), or E2E_SCREENSHOT_DIR when
set.
"""


import pytest

from .test_web import browser  # noqa: F401 - fixture
from .test_website_web import DESKTOP, PHONE, log_in, player_with_rolls

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

# Every drawn text node: its text, the element, its colour and its background composited (see
# the module docstring), its font size and weight. Colours as [r, g, b] in 0-255.
TEXTS_JS = r"""
() => {
    const parse = (css) => {
        const m = css.match(/rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/);
        if (!m) return [0, 0, 0, 0];
        return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
    };
    const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]));
    const backdrop = (el) => {
        // the layers from the element up to the first opaque one (the page's white if none)
        const layers = [];
        for (let node = el; node; node = node.parentElement) {
            const style = getComputedStyle(node);
            const bg = parse(style.backgroundColor);
            const alpha = bg[3] * (+style.opacity);
            if (alpha > 0) layers.push([bg[0], bg[1], bg[2], alpha]);
            if (alpha >= 1) break;
        }
        let colour = [255, 255, 255];
        for (const layer of layers.reverse()) colour = over(layer, colour);
        return colour;
    };
    const opacity = (el) => {
        let total = 1;
        for (let node = el; node; node = node.parentElement) total *= +getComputedStyle(node).opacity;
        return total;
    };
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
        const text = node.textContent.trim();
        const el = node.parentElement;
        if (!text || !el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION', 'TITLE'].includes(el.tagName)) continue;
        const style = getComputedStyle(el);
        if (style.visibility !== 'visible' || style.display === 'none') continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const rects = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
        if (!rects.length) continue;
        // clipped to nothing (Bootstrap's .sr-only) or scrolled out of its box: not drawn
        let clipped = false;
        for (let up = el; up; up = up.parentElement) {
            const s = getComputedStyle(up);
            if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') { clipped = true; break; }
            if (s.overflow === 'hidden') {
                const box = up.getBoundingClientRect();
                if (box.width <= 1 || box.height <= 1) { clipped = true; break; }
            }
        }
        if (clipped) continue;
        // SVG text (the charts) is painted in its fill, HTML text in its colour
        const fg = parse(el instanceof SVGElement ? style.fill : style.color);
        const bg = backdrop(el);
        const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
        const classes = el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : '';
        found.push({text: text.slice(0, 40), tag: el.tagName.toLowerCase() + classes,
                    fg: shown.map(Math.round), bg: bg.map(Math.round), size: parseFloat(style.fontSize),
                    weight: parseInt(style.fontWeight, 10) || 400});
    }
    return found;
}
"""
WIDTH_JS = "() => document.documentElement.scrollWidth"


def luminance(rgb):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(fg, bg):
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def needed(text):
    large = text["size"] >= 24 or (text["size"] >= 18.66 and text["weight"] >= 700)
    return 3.0 if large else 4.5


def low_texts(page):
    """[(ratio, needed, tag, text, fg, bg)] of every drawn text below its contrast, worst first."""
    low = []
    for text in page.evaluate(TEXTS_JS):
        found = ratio(text["fg"], text["bg"])
        if found < needed(text) - 0.005:
            low.append((round(found, 2), needed(text), text["tag"], text["text"], tuple(text["fg"]), tuple(text["bg"])))
    return sorted(set(low))


class Contexts:
    """Browser contexts for `log_in` (each its own login), closed by `close()`."""

    def __init__(self, browser):
        self.browser, self.contexts = browser, []

    def context(self, viewport=PHONE):
        made = self.browser.new_context(viewport=viewport)
        made.set_default_timeout(30_000)
        self.contexts.append(made)
        return made

    def close(self):
        for made in self.contexts:
            made.close()


def check(page, url, name, viewport, shoot, failures):
    page.set_viewport_size(viewport)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    size = "phone" if viewport == PHONE else "desktop"
    low = low_texts(page)
    width = page.evaluate(WIDTH_JS)
    if low:
        failures.append((size, name, low[:8]))
    if viewport == PHONE and width > PHONE["width"]:
        failures.append((size, name, f"{width} px wide"))
    shoot(page, f"contrast-{size}-{name}")
    toggler = page.locator("button.navbar-toggler")
    if viewport == PHONE and toggler.count() and toggler.first.is_visible():
        toggler.first.click()
        page.wait_for_timeout(600)  # Bootstrap's collapse animation
        low = low_texts(page)
        if low:
            failures.append((size, name + " (menu open)", low[:8]))
        shoot(page, f"contrast-{size}-{name}-menu")


def help_topic_url(page, base):
    """A topic page of the website's help (`/help/<category>/<topic>/`), from its index."""
    page.goto(f"{base}/help/")
    return base + page.locator('a[href^="/help/"][href$="/"]').filter(has_text="dice").first.get_attribute("href")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_text_of_every_page_reads_at_aa(game_server, new_player, browser, viewport, shots):  # noqa: F811
    telnet = player_with_rolls(new_player)
    telnet.send("quit")
    base = game_server.web_url
    failures = []

    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(30_000)
    try:
        anonymous = context.new_page()
        for path, name in (("/", "home"), ("/auth/login/", "login"), ("/auth/register", "register"),
                           ("/no/such/page/", "404")):
            check(anonymous, base + path, name, viewport, shots, failures)
    finally:
        context.close()

    session = Contexts(browser)
    try:
        page = log_in(session, base, telnet.name, telnet.password)
        topic = help_topic_url(page, base)
        pages = (("/", "home-player"), ("/rolls/", "rolls"), ("/rolls/odds/?pool=6&target=2&hunger=2", "odds"),
                 ("/rolls/fairness/", "fairness"), ("/characters/", "characters"), ("/help/", "help"),
                 (topic, "help-topic"), ("/channels/", "channels"), ("/no/such/page/", "404-player"),
                 ("/webclient/", "webclient"))
        for path, name in pages:
            check(page, path if path.startswith("http") else base + path, name, viewport, shots, failures)
    finally:
        session.close()
    assert failures == [], "\n".join(str(failure) for failure in failures)


# Each chart label's size as drawn: its font size in the chart's units times the chart's scale.
LABELS_JS = """() => [...document.querySelectorAll('svg text')].filter(el => getComputedStyle(el).display !== 'none')
    .map(el => ({text: el.textContent,
    drawn: parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a,
    left: el.getBoundingClientRect().left, right: el.getBoundingClientRect().right,
    card: el.closest('.card').getBoundingClientRect().toJSON()}))"""
ROW_JS = """(command) => { const row = [...document.querySelectorAll('tr.rolllog-entry')]
        .find(tr => tr.innerText.includes(command));
    const label = (cell) => getComputedStyle(row.querySelector(`td[data-label="${cell}"]`), '::before').content;
    return {height: row.getBoundingClientRect().height, dice: label('Dice'), who: label('Who'),
            text: row.innerText}; }"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_chart_labels_and_roll_log_cards_read_well(game_server, new_player, browser, viewport, shots):  # noqa: F811
    telnet = player_with_rolls(new_player)
    telnet.send("quit")
    base = game_server.web_url

    session = Contexts(browser)
    try:
        page = log_in(session, base, telnet.name, telnet.password)
        page.set_viewport_size(viewport)
        for path in ("/rolls/odds/?pool=6&target=2&hunger=2", "/rolls/odds/?pool=30&target=2", "/rolls/fairness/"):
            page.goto(base + path)
            labels = page.evaluate(LABELS_JS)
            assert labels, path
            small = [(label["text"], round(label["drawn"], 1)) for label in labels if label["drawn"] < 12]
            assert small == [], (path, small)
            cut = [label["text"] for label in labels
                   if label["right"] > label["card"]["right"] or label["left"] < label["card"]["left"]]
            assert cut == [], (path, cut)  # no label runs out of the page's card
        page.goto(base + "/rolls/")
        shots(page, f"roll-log-cards-{'phone' if viewport == PHONE else 'desktop'}")
        row = page.evaluate(ROW_JS, "+roll dex+athletics")  # six dice: five regular, one Hunger
        print("roll log card:", row)
        if viewport == PHONE:
            assert row["dice"] == "none" and row["who"] == '"Who: "', row
            assert row["height"] <= 250, row  # eight or nine lines (the dice vary); eleven were 301 px
    finally:
        session.close()
