"""
End to end, in headless Chromium at a phone's 390x844 and a desktop's 1366x900, on a V5 game
(the session's) and a V20 one (this module's own): a newcomer registers on the website, lands
in the web client playing the character the game made with the account, sets the sheet from
the dice panel (Edit sheet: − and +, a typed value, a Specialty added and removed), each change
a `+stat` line: the sheet holds the values, and a value over the range gets `+stat`'s refusal
and changes nothing. Then they roll from the panel, and the roll uses the traits set; once
staff approve the sheet the panel offers nothing to set. The panel's texts read at 4.5:1 and
nothing is wider than the phone. The login page leads into the web client too.

Screenshots go to the test's own folder (`tmp_path`), or E2E_SCREENSHOT_DIR when set.
"""

import re
import secrets

import pytest

from tests.e2e.systems import CODE
from tests.e2e.test_contrast_web import low_texts
from tests.e2e.test_web import browser, page, send, wait_for_text  # noqa: F401 - fixtures

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
TARGETS = {"v5": "2", "v20": "6"}  # a difficulty each system's +roll takes


@pytest.fixture(scope="module")
def v20_server(e2e_servers):
    """The session's shared V20 game, beside its V5 one (the newcomer's name is its own)."""
    return e2e_servers.get({"DICE_SYSTEM": "v20"})


def register(page, base, name, password):
    """The website's registration form, as a newcomer fills it."""
    page.goto(f"{base}/auth/register")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.locator('form input[type=submit][value="Register"]').click()


def trait_value(page, trait):
    return page.locator(f'.dp-edit-row[data-trait="{trait}"] input.dp-edit-value')


def wait_value(page, trait, value):
    """The panel shows `value` for `trait`: the sheet came back from the server after +stat."""
    try:
        page.wait_for_function(
            "([trait, value]) => { const f = document.querySelector("
            "`.dp-edit-row[data-trait=\"${trait}\"] input.dp-edit-value`); return f && f.defaultValue === value; }",
            arg=[trait, value])
    except Exception as error:  # what the game said instead
        raise AssertionError(page.locator("#messagewindow").inner_text()[-1500:]) from error


def sheet_says(superuser_client, name, trait, value):
    out = superuser_client.command(f"+sheet {name}", re.compile(rf"{trait.title()}\s+\d+"))
    assert re.search(rf"{trait.title()}\s+{value}\b", out), out


def fits(page, width):
    """Nothing of the panel past the window's right edge; no sideways scroll."""
    wide = page.evaluate("""(width) => [...document.querySelectorAll('.dice-panel *')]
        .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > width + 0.5)
        .slice(0, 6).map((el) => el.className + ' ' + Math.round(el.getBoundingClientRect().right))""", width)
    assert wide == [], wide
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def panel_contrast(page):
    low = [found for found in low_texts(page) if "dp-" in found[2]]
    assert low == [], low


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1366"])
@pytest.mark.parametrize("system", ["v5", "v20"])
def test_newcomer_registers_sets_the_sheet_from_the_panel_and_rolls(
        system, size, request, game_server, superuser_client, browser, shots):  # noqa: F811
    server = game_server if system == "v5" else request.getfixturevalue("v20_server")
    staff = superuser_client if system == "v5" else staff_on(server, request)
    tag = f"{system}-{size['width']}"
    context = browser.new_context(viewport=size)
    context.set_default_timeout(30_000)
    request.addfinalizer(context.close)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # Registered: logged in, in the web client, playing the character the game made.
    name, password = f"Newb{secrets.token_hex(3)}", secrets.token_urlsafe(10)
    register(page, server.web_url, name, password)
    page.wait_for_url(f"{server.web_url}/webclient/")
    page.wait_for_selector('.dice-panel button.dp-trait[data-trait="dexterity"]')
    assert page.locator(".dp-approval").get_attribute("data-approved") == "no"
    hint = page.locator(".dp-edit-hint")
    assert hint.inner_text() == "Set your traits here with Edit sheet, or type +stat <trait>=<value>."
    shots(page, f"newcomer-{tag}-landed")

    # Edit sheet: − and + send +stat, a typed value too (Enter); the sheet comes back each time.
    toggle = page.locator("button.dp-edit-toggle")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true" and toggle.inner_text() == "Done editing"
    assert page.locator("button.dp-trait").count() == 0  # the chips give way to the controls
    raise_dex = page.locator('.dp-edit-row[data-trait="dexterity"] button.dp-raise')
    assert raise_dex.get_attribute("aria-label") == "Raise Dexterity to 2"
    raise_dex.click()
    wait_value(page, "dexterity", "2")
    raise_dex.click()
    wait_value(page, "dexterity", "3")
    page.locator('.dp-edit-row[data-trait="dexterity"] button.dp-lower').click()
    wait_value(page, "dexterity", "2")
    athletics = trait_value(page, "athletics")
    athletics.fill("2")
    athletics.press("Enter")
    wait_value(page, "athletics", "2")
    dexterity = trait_value(page, "dexterity")
    dexterity.fill("5")
    dexterity.press("Enter")
    wait_value(page, "dexterity", "5")
    wait_for_text(page, r"Your Dexterity is now 5 \(was 2\)\.")
    sheet_says(staff, name, "dexterity", 5)
    sheet_says(staff, name, "athletics", 2)
    assert page.locator(".dp-edit-row button.dp-raise:focus").count() == 0  # Enter left the focus in its field
    assert dexterity.evaluate("el => el === document.activeElement")

    # Over the range: +stat's refusal in the output, and nothing changed.
    page.locator('.dp-edit-row[data-trait="dexterity"] button.dp-raise').click()
    wait_for_text(page, r"Dexterity must be from 1 to 5\.")
    page.wait_for_timeout(300)
    assert trait_value(page, "dexterity").input_value() == "5"
    sheet_says(staff, name, "dexterity", 5)
    said = page.locator("#messagewindow").inner_text()
    assert not re.search(r"is now (\d+) \(was \1\)", said), said  # each change sent once

    # A Specialty, in the system's word, added and removed.
    page.locator("select.dp-spec-trait").select_option("athletics")
    page.locator("input.dp-spec-name").fill("Climbing")
    page.locator("button.dp-spec-add").click()
    remove = page.locator('.dp-edit-spec[data-trait="athletics"][data-specialty="Climbing"] button.dp-spec-remove')
    remove.wait_for()
    assert remove.get_attribute("aria-label") == "Remove the Specialty Climbing from Athletics"
    panel_contrast(page)
    fits(page, size["width"])
    page.locator('.dp-edit-row[data-trait="athletics"]').scroll_into_view_if_needed()
    shots(page, f"newcomer-{tag}-editing")
    page.locator(".dp-spec-form").scroll_into_view_if_needed()
    shots(page, f"newcomer-{tag}-specialty-form")
    remove.click()
    remove.wait_for(state="detached")
    page.locator("input.dp-spec-name").fill("Running")
    page.locator("input.dp-spec-name").press("Enter")
    page.locator('.dp-edit-spec[data-specialty="Running"]').wait_for()

    # Done: the traits are chips again, and the roll from the panel uses the values set.
    page.locator("button.dp-edit-toggle").click()
    page.locator('button.dp-trait[data-trait="dexterity"]:text-is("Dexterity 5")').click()
    page.locator('button.dp-trait[data-trait="athletics"]:text-is("Athletics 2")').click()
    assert page.locator("#dp-pool").input_value() == "dexterity+athletics"
    page.locator("#dp-target").fill(TARGETS[system])
    page.locator("button.dp-roll").click()
    # (wrapped for the window: any spaces between the words)
    text = wait_for_text(page, rf"\[Roll\]\s+{name}\s+rolls\s+Dexterity\s+5\s+\+\s+Athletics\s+2\s+=\s+7\b"
                               r"[\s\S]*\[code\s+[A-Z0-9]{8}\]")
    line = " ".join(text[text.rindex("[Roll]"):].split())
    assert line.startswith(f"[Roll] {name} rolls Dexterity 5 + Athletics 2 = 7") and CODE.search(line), line
    fits(page, size["width"])
    shots(page, f"newcomer-{tag}-rolled")

    # Approved: nothing to set from the panel.
    staff.command(f"+approve {name}", "sheet is approved")
    page.wait_for_selector('.dp-approval[data-approved="yes"]')
    assert page.locator("button.dp-edit-toggle, .dp-edit-hint, .dp-edit-row, .dp-spec-form").count() == 0
    assert page.locator('button.dp-trait[data-trait="dexterity"]').is_visible()
    shots(page, f"newcomer-{tag}-approved")

    # Logging in from the login page leads into the web client too.
    if size == DESKTOP:
        other = browser.new_context(viewport=size)
        request.addfinalizer(other.close)
        again = other.new_page()
        # before a character is played, the panel offers nothing to set
        again.goto(f"{server.web_url}/webclient/")
        again.locator(".dice-panel .dp-notice").wait_for()
        assert again.locator(".dp-edit-toggle, .dp-edit-row, .dp-spec-form").count() == 0
        again.goto(f"{server.web_url}/auth/login/")
        again.fill("input[name=username]", name)
        again.fill("input[name=password]", password)
        again.locator("form input[type=submit]").first.click()
        again.wait_for_url(f"{server.web_url}/webclient/")
        again.wait_for_selector('.dice-panel button.dp-trait[data-trait="dexterity"]:text-is("Dexterity 5")')
    assert errors == [], errors


def staff_on(server, request):
    """The superuser over telnet on `server` (the fixture's is on the session's game)."""
    client = server.client()
    request.addfinalizer(client.close)
    client.wait_for_connection_screen()
    client.login(server.superuser, server.superuser_password)
    client.read_available()
    return client
