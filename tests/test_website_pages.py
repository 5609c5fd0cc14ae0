"""
The website's character page and the odds page with one's own character, under every dice
system (rolllog/sheet_page.py, rolllog/views.py):

- the character page shows the configured system's sheet (each section `Sheet.layout` gives,
  every trait and value) to the character's own player and to staff, and no sheet to anyone
  else; the description is plain text (a hostile one stays text: escaped, no markup, no
  link), and a character without one shows no "None";
- the odds page offers the account's own characters; a pool named with the chosen character's
  traits (typed or ticked) shows exactly what `+odds` shows that character; another player's
  character cannot be chosen;
- the roll record's pages link to one another; no page loads placehold.jp.
"""

import html
import re
from urllib.parse import urlencode

import pytest

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from tests.test_odds_page import OddsPageTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

SYSTEMS = ("v5", "v20", "seyruun", "whalefall", "dicecheck")
# A pool of sheet traits and a target: the page's fields, the traits ticked, and +odds as typed
# in the system's own syntax (with the pool as typed, then with the ticked traits).
POOLS = {
    "v5": ("dex+athletics", "2", ["dexterity", "athletics"], "{} vs 2"),
    "v20": ("dex+brawl", "7", ["dexterity", "brawl"], "{} vs 7"),
    "seyruun": ("dex+stealth", "2", ["dexterity", "stealth"], "{} vs 2"),
    "whalefall": ("athletics", "(5,2)", ["athletics"], "{} vs (5,2)"),
    "dicecheck": ("STR", "3", ["strength"], "{}:3"),
}
HOSTILE = "<b>bold</b> |lchelp|ltclick me|le <script>alert(1)</script> %rsecond line"


def sheet_part(page):
    found = re.search(r'<div class="character-sheet" id="character-sheet">(.*?)\n        </div>', page, re.S)
    return found.group(1) if found else None


def visible(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


class CharacterPageTest(EvenniaCommandTest):
    def page(self, account, character):
        self.client.force_login(account)
        response = self.client.get(character.web_get_detail_url())
        self.assertEqual(response.status_code, 200)
        return response.content.decode()

    def check_system(self, key):
        with override_settings(DICE_SYSTEM=key):
            self.account2.characters.add(self.char2)
            own = self.page(self.account2, self.char2)
            sheet = sheet_part(own)
            self.assertIsNotNone(sheet, key)
            shown = visible(sheet)
            for section in self.char2.sheet_layout():
                self.assertIn(" ".join(section.title.split()), shown, key)
                for _title, traits in section.rows:
                    for label, value in traits:
                        self.assertIn(f"{label} {value}", shown, key)
                if section.text:
                    self.assertIn(" ".join(section.text.split()), shown, key)
            self.assertIn('id="sheet-status">(not approved)</small>', own)
            # Staff (TestAccount is a Developer) see it; another player does not.
            self.assertIsNotNone(sheet_part(self.page(self.account, self.char2)), key)
            self.assertNotIn(self.char1, list(self.account2.characters.all()))
            other = self.page(self.account2, self.char1)
            self.assertIsNone(sheet_part(other), key)
            self.assertNotIn("Sheet", visible(re.search(r'<div class="card-body">(.*)</div>', other, re.S).group(1)))

    def test_the_sheet_under_every_system_to_its_player_and_staff_only(self):
        for key in SYSTEMS:
            self.check_system(key)

    def test_the_description_is_text(self):
        self.char2.db.desc = HOSTILE
        self.account2.characters.add(self.char2)
        page = self.page(self.account2, self.char2)
        desc = re.search(r'<p class="character-desc" id="character-desc">(.*?)</p>', page, re.S).group(1)
        # As `look` shows it: the link's parts are plain words, the line break kept; HTML escaped.
        self.assertEqual(desc, "&lt;b&gt;bold&lt;/b&gt; help click me  "
                               "&lt;script&gt;alert(1)&lt;/script&gt;\nsecond line")
        self.assertNotIn("<a ", desc)
        self.assertNotIn("<b>bold", page)
        self.assertNotIn("<script>alert", page)
        self.assertNotIn("None", visible(page))

    def test_no_description_no_none(self):
        self.char2.attributes.remove("desc")
        page = self.page(self.account2, self.char2)
        self.assertNotIn("None", visible(page))
        self.assertIn('id="character-desc-none"', page)

    def test_no_placeholder_images(self):
        self.account.characters.add(self.char1)
        for url in (self.char1.web_get_detail_url(), "/characters/manage/", "/characters/"):
            self.client.force_login(self.account)
            response = self.client.get(url)
            self.assertEqual(response.status_code, 200, url)
            self.assertNotIn("placehold", response.content.decode(), url)


class MissingCharacterPageTest(EvenniaCommandTest):
    """A page that names no character is a 404 (Evennia's view answered 500, logging nothing)."""

    def status(self, url):
        from django.test import Client

        client = Client(raise_request_exception=False)
        client.force_login(self.account)
        return client.get(url).status_code

    def test_a_missing_or_misnamed_character_is_404(self):
        self.char1.key = "Alice"
        self.char1.save()
        self.assertEqual(self.char1.web_get_detail_url(), f"/characters/detail/alice/{self.char1.id}/")
        self.assertEqual(self.status(f"/characters/detail/alice/{self.char1.id}/"), 200)
        self.assertEqual(self.status(f"/characters/detail/Alice/{self.char1.id}/"), 404)
        self.assertEqual(self.status("/characters/detail/x/9999/"), 404)
        self.assertEqual(self.status(f"/characters/detail/{self.room1.key.lower()}/{self.room1.id}/"), 404)

    def test_the_error_pages_are_the_sites_own(self):
        """Ours, not Evennia's: the site's header (and its stylesheet), the code and the words."""
        from django.template.loader import render_to_string

        for name, words in (("404.html", ["<title>", "404 - Not Found", "Error 404", "Page not found"]),
                            ("500.html", ["500 - Internal Server Error", "Error 500",
                                          "please contact the server administrator"])):
            page = render_to_string(name)
            for word in words + ["rolllog/site.css", 'href="/">Back to the home page</a>']:
                self.assertIn(word, page, name)

    def test_a_real_500_is_logged_with_a_reference(self):
        import traceback
        from unittest.mock import patch

        from storyteller_dice.rolllog import server_errors

        logged = []
        url = self.char1.web_get_detail_url()
        with (patch.object(server_errors, "new_reference", return_value="3F9A2C"),
              patch.object(server_errors.logger, "log_trace",
                           side_effect=lambda msg: logged.append((msg, traceback.format_exc()))),
              patch("storyteller_dice.rolllog.sheet_page.description_text", side_effect=RuntimeError("boom"))):
            self.assertEqual(self.status(url), 500)
            self.assertEqual(self.status("/characters/detail/x/9999/"), 404)  # an answer: not logged
        self.assertEqual([msg for msg, _trace in logged], [f"error 3F9A2C: HTTP 500 for GET {url}"])
        self.assertTrue(logged[0][1].rstrip().endswith("RuntimeError: boom"), logged[0][1])

    def test_the_logged_path_is_one_line(self):
        from types import SimpleNamespace
        from unittest.mock import patch

        from storyteller_dice.rolllog import server_errors

        request = SimpleNamespace(method="GET", path="/x\n!! forged line" + "y" * 300)
        with (patch.object(server_errors, "new_reference", return_value="00AA11"),
              patch.object(server_errors.logger, "log_trace") as log_trace):
            server_errors.log_server_error(None, request=request)
        log_trace.assert_called_once_with("error 00AA11: HTTP 500 for GET /x !! forged line" + "y" * 183 + "...")


class OddsWithCharacterTest(OddsPageTest):
    def setUp(self):
        super().setUp()
        self.account.characters.add(self.char1)

    def get(self, **params):
        response = self.client.get("/rolls/odds/?" + urlencode(params, doseq=True))  # trait=a&trait=b
        self.assertEqual(response.status_code, 200, params)
        return response.content.decode()

    def check_system(self, key):
        with override_settings(DICE_SYSTEM=key):
            pool, target, ticked, typed = POOLS[key]
            page = self.get()
            self.assertIn(f'<option value="{self.char1.id}">Char</option>', page)
            self.assertNotIn(">Char2</option>", page)  # not this account's
            head, _ = self.odds_command(typed.format(pool))
            self.assertEqual(self.shown(character=self.char1.id, pool=pool, target=target)[0], head, key)
            # Ticked traits are the same pool (the sheet's full names).
            ticked_head, _ = self.odds_command(typed.format("+".join(ticked)))
            self.assertEqual(ticked_head, head, key)
            self.assertEqual(self.shown(character=self.char1.id, trait=ticked, target=target)[0], head, key)
            traits = self.get(character=self.char1.id)
            for name in ticked:
                self.assertIn(f'name="trait" value="{name}"', traits, key)
            return head

    def test_every_system_equals_odds_for_the_characters_pool(self):
        for key in SYSTEMS:
            self.check_system(key)

    @override_settings(DICE_SYSTEM="v5")
    def test_v5_the_characters_hunger_and_a_number_added(self):
        self.char1.set_trait("hunger", 3)
        self.char1.set_trait("dexterity", 4)
        head, _ = self.odds_command("dex+athletics+2 vs 3")
        self.assertIn("Hunger 3", head)
        shown = self.shown(character=self.char1.id, trait=["dexterity", "athletics"], pool="+2", target="3",
                           hunger="0")[0]
        self.assertEqual(shown, head)

    @override_settings(DICE_SYSTEM="v5")
    def test_another_players_character_is_not_used(self):
        # Char2 is TestAccount2's: its id is not offered and, sent anyway, is ignored (numbers only).
        self.account2.characters.add(self.char2)
        self.refused("'dex' is a trait name; only numbers can be used here.",
                     character=self.char2.id, pool="dex+athletics")

    @override_settings(DICE_SYSTEM="v5")
    def test_the_record_pages_link_each_other(self):
        for url in ("/rolls/", "/rolls/odds/", "/rolls/fairness/"):
            page = self.client.get(url).content.decode()
            for target in ('href="/rolls/"', 'href="/rolls/odds/"', 'href="/rolls/fairness/"'):
                self.assertIn(target, page, url)
        # The site's menu (this game's website/_menu.html) names all three once logged in.
        menu = self.client.get("/").content.decode()
        for target in ('<a class="nav-link" href="/rolls/">Rolls</a>', '<a class="nav-link" href="/rolls/odds/">Odds</a>',
                       '<a class="nav-link" href="/rolls/fairness/">Fairness</a>'):
            self.assertIn(target, menu)


ROLLS = {"v5": "10 vs 2", "v20": "10 vs 6", "seyruun": "10 vs 2", "whalefall": "10 vs (5,2)", "dicecheck": "12d(6+):3"}


def test_every_scoring_die_is_marked_in_every_system():
    """A die that scores (marked success, ten or double) is drawn in a colour on telnet and the
    web client, and has a coloured class on the roll log page, in every system."""
    import random
    from pathlib import Path

    from storyteller_dice.rules import systems
    from storyteller_dice.rules.display import format_die
    from storyteller_dice.rules.engine import DOUBLE, SUCCESS, TEN

    from storyteller_dice.rolllog.views import _dice

    css = (Path(__file__).resolve().parents[1] / "rolllog/static/rolllog/rolllog.css").read_text()
    for key, typed in ROLLS.items():
        system = systems.get_system(key)
        roller = system.roller("Tester", system.sheet.defaults(), {})
        scoring = 0
        for seed in range(5):
            request = system.parse(typed, frozenset(), roller=roller, numbers_only=True)
            view = system.view(system.roll(request, roller, rng=random.Random(seed)), request)
            for group in view.groups:
                for die in group.dice:
                    if die.marks & {SUCCESS, TEN, DOUBLE} and "cancelled" not in die.marks:
                        scoring += 1
                        assert format_die(die).startswith("|"), (key, die)
            for group in _dice(view.to_dict()):
                for die in group["dice"]:
                    if "mark-success" in die["cls"]:
                        assert ".die.mark-success" in css
        assert scoring > 0, key
