"""
The website's odds page (/rolls/odds/) under every dice system: it offers the system's own
odds inputs (`System.odds_inputs`), its chances and chart are exactly those `+odds` gives for
the same dice, switches and sheet state, and bad input is said on the page (never a 500).
"""

import html
import re
from urllib.parse import urlencode

import pytest
from django.test import override_settings
from evennia.utils.ansi import strip_ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.rules import systems
from storyteller_dice.rules.charts import odds_svg
from storyteller_dice.rules.display import format_odds
from storyteller_dice.rules.engine import CHOICE, FLAG, NUMBER, TEXT, OddsInput, read_odds_inputs
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses.system import dice_system

POOL_SHOWN = re.compile(r'<h2 class="h5" id="odds-pool-shown">(.*?)</h2>', re.DOTALL)
ROW = re.compile(r'<tr class="tone-([a-z]+)"><th>(.*?)</th><td class="text-right">(.*?)</td></tr>')
NOTE = re.compile(r'<p class="text-muted small odds-note">(.*?)</p>')
CHART = re.compile(r'<div id="odds-chart">(.*?)</div>', re.DOTALL)
ERROR = re.compile(r'<p class="text-danger" id="odds-error">(.*?)</p>', re.DOTALL)


def words(text):
    return " ".join(text.split())


class OddsPageTest(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.client.force_login(self.account)

    def get(self, **params):
        response = self.client.get("/rolls/odds/?" + urlencode(params))
        self.assertEqual(response.status_code, 200, params)
        return response.content.decode()

    def shown(self, **params):
        """What the page shows: (the lines +odds would print before its chart, the SVG, the error)."""
        page = self.get(**params)
        error = ERROR.search(page)
        pool = POOL_SHOWN.search(page)
        if pool is None:
            return None, "", html.unescape(error.group(1)) if error else ""
        lines = ["[Odds] " + html.unescape(pool.group(1))]
        lines += [f"{html.unescape(label)} {percent}" for _, label, percent in ROW.findall(page)]
        lines += [html.unescape(note) for note in NOTE.findall(page)]
        chart = CHART.search(page)
        return words(" ".join(lines)), chart.group(1) if chart else "", ""

    def odds_command(self, typed):
        """+odds as typed by Char (its sheet as set): (its text before the chart, all its text)."""
        out = strip_ansi(self.call(CmdOdds(), typed))
        head = []
        for line in out.split("\n"):
            if re.fullmatch(r"  \S[^:]*:", line):  # the chart's heading ("  Successes:", "  Dice at 5+:")
                break
            head.append(line)
        return words(" ".join(head)), out

    def check_same(self, typed, expected_request, **params):
        """
        The page for `params` shows what `+odds <typed>` shows, and its chart is the chart of the
        odds +odds printed: `expected_request` = (text, switches) parsed with Char's sheet gives
        exactly the command's output, and the page's SVG is that view's chart.
        """
        head, out = self.odds_command(typed)
        system = dice_system()
        roller = self.char1.roller()
        text, switches = expected_request
        view = system.odds(system.parse(text, frozenset(switches), roller=roller), roller)
        self.assertEqual(out, strip_ansi(format_odds(view, width=80)))
        page_head, svg, error = self.shown(**params)
        self.assertEqual(error, "")
        self.assertEqual(page_head, head)
        self.assertEqual(svg, odds_svg(view.distribution, view.noun))
        self.assertEqual(svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart"'),
                         bool(view.distribution))
        return view

    def refused(self, message, **params):
        head, svg, error = self.shown(**params)
        self.assertEqual((head, svg, error), (None, "", message))

    def fields(self):
        page = self.get()
        return re.findall(r'<(?:input|select) class="(?:form-control|form-check-input)"[^>]* id="odds-([a-z]+)"', page)


@override_settings(DICE_SYSTEM="v5")
class TestV5Page(OddsPageTest):
    def test_fields(self):
        self.assertEqual(self.fields(), ["pool", "target", "hunger", "impaired"])
        page = self.get()
        self.assertIn('<input class="form-control" type="number" id="odds-hunger" name="hunger" min="0" max="5" '
                      'step="1" value="0">', page)
        self.assertIn(f"in this game ({dice_system().title})", page)

    def test_hunger_and_impaired_as_the_sheet_has_them(self):
        self.char1.set_trait("hunger", 2)
        self.char1.set_trait("stains", 4)  # Humanity 7: 3 empty boxes, one Stain over: Impaired
        self.assertTrue(self.char1.roller().get("impaired"))
        view = self.check_same("6 vs 2", ("6 vs 2", ()), pool="6", target="2", hunger="2", impaired="on")
        self.assertEqual(view.pool, "6 - 2 Impaired (4 dice), Hunger 2")
        head, _, _ = self.shown(pool="6", target="2", hunger="2", impaired="on")
        self.assertIn("bestial failure 9.3%", head)

    def test_hunger_typed_in_the_game(self):
        # `+odds 5 vs 3 hunger 4` with Hunger 0 on the sheet is the page's Hunger 4.
        self.char1.set_trait("hunger", 0)
        head, out = self.odds_command("5 vs 3 hunger 4")
        self.assertIn("Hunger 4", out)
        self.assertEqual(self.shown(pool="5", target="3", hunger="4")[0], head)
        self.char1.set_trait("hunger", 4)
        self.check_same("5 vs 3", ("5 vs 3", ()), pool="5", target="3", hunger="4")

    def test_no_target_and_hunger_zero(self):
        self.char1.set_trait("hunger", 0)  # the page's default (a new sheet's is 1)
        self.check_same("4", ("4", ()), pool="4")
        self.check_same("4", ("4", ()), pool="4", target="", hunger="", impaired="")
        # Hunger 0 and Hunger 3 differ: the field is read.
        self.assertNotEqual(self.shown(pool="4", hunger="3")[0], self.shown(pool="4")[0])

    def test_refusals(self):
        self.refused("Hunger must be a whole number from 0 to 5, not '9'.", pool="4", hunger="9")
        self.refused("Hunger must be a whole number from 0 to 5, not '-1'.", pool="4", hunger="-1")
        self.refused("Hunger must be a whole number from 0 to 5, not 'lots'.", pool="4", hunger="lots")
        self.refused("That pool is 51 dice; pools are limited to 50.", pool="51")
        self.refused("'dex' is a trait name; only numbers can be used here.", pool="dex+stealth")
        self.refused("The difficulty must be a whole number of successes, not 'x'.", pool="4", target="x")
        # Nothing typed as the pool: nothing computed, nothing refused.
        self.assertEqual(self.shown(hunger="9"), (None, "", ""))

    def test_the_form_keeps_what_was_typed(self):
        page = self.get(pool="6", target="2", hunger="3", impaired="on")
        self.assertIn('id="odds-pool" name="pool" maxlength="80" value="6"', page)
        self.assertIn('id="odds-hunger" name="hunger" min="0" max="5" step="1" value="3"', page)
        self.assertIn('id="odds-impaired" name="impaired" value="on" checked>', page)
        page = self.get(pool="<b>6</b>")
        self.assertIn('value="&lt;b&gt;6&lt;/b&gt;"', page)
        self.assertNotIn("<b>6</b>", page)

    def test_login_needed(self):
        self.client.logout()
        self.assertEqual(self.client.get("/rolls/odds/?pool=3").status_code, 302)


@override_settings(DICE_SYSTEM="v20")
class TestV20Page(OddsPageTest):
    def test_fields(self):
        self.assertEqual(self.fields(), ["pool", "target", "spec", "willpower", "ignorepain", "auto", "health"])
        page = self.get(health="3")
        self.assertIn('<option value="0">Healthy</option><option value="1">Bruised</option>'
                      '<option value="2">Hurt (-1)</option><option value="3" selected>Injured (-1)</option>', page)
        self.assertIn('<option value="7">Incapacitated</option>', page)

    def test_specialty_willpower_and_wounds(self):
        self.char1.set_trait("health bashing", 3)  # Injured: -1 die
        view = self.check_same("/spec/willpower 7 vs 7", ("7 vs 7", ("spec", "willpower")),
                               pool="7", target="7", spec="on", willpower="on", health="3")
        self.assertEqual(view.pool, "7 - 1 Injured = 6 dice")
        self.assertIn("Willpower: +1 success that cannot be cancelled", view.notes)

    def test_ignore_pain_and_automatic(self):
        self.char1.set_trait("health bashing", 5)  # Mauled: -2 dice
        self.check_same("/ignorepain 5 vs 6", ("5 vs 6", ("ignorepain",)), pool="5", target="6",
                        ignorepain="on", health="5")
        self.check_same("5", ("5", ()), pool="5", health="5")
        self.char1.set_trait("health bashing", 0)
        self.check_same("/auto 6 vs 6", ("6 vs 6", ("auto",)), pool="6", target="6", auto="on")
        self.check_same("/spec 6", ("6", ("spec",)), pool="6", spec="on")

    def test_refusals(self):
        self.refused("Difficulty is a number from 2 to 10, not 11.", pool="5", target="11")
        self.refused("An Incapacitated character cannot act.", pool="5", health="7")
        self.refused("You have no wound penalty to ignore.", pool="5", ignorepain="on")
        self.refused("An automatic success needs no Willpower: use /auto or /willpower, not both.",
                     pool="6", target="6", auto="on", willpower="on")
        self.refused("Health must be one of Healthy, Bruised, Hurt (-1), Injured (-1), Wounded (-2), "
                     "Mauled (-2), Crippled (-5), Incapacitated, not '8'.", pool="5", health="8")


@override_settings(DICE_SYSTEM="seyruun")
class TestSeyruunPage(OddsPageTest):
    def test_fields(self):
        self.assertEqual(self.fields(), ["pool", "target", "willpower", "actions", "wound"])

    def test_willpower_actions_and_wound(self):
        self.char1.set_trait("wound", 2)  # Moderate: -2 dice
        view = self.check_same("/willpower 6 vs 2/multi 3", ("6 vs 2/multi 3", ("willpower",)),
                               pool="6", target="2", willpower="on", actions="3", wound="2")
        self.assertEqual(view.pool, "6 + Willpower 3 - Moderate wound 2 - multi-action 4 = 3 dice")
        self.char1.set_trait("wound", 0)
        self.check_same("4 vs moderate", ("4 vs moderate", ()), pool="4", target="moderate")
        self.check_same("0", ("0", ()), pool="0", actions="1")  # a chance die

    def test_refusals(self):
        self.refused("Actions this turn must be a whole number from 1 to 10, not '11'.", pool="6", actions="11")
        self.refused("Wound must be one of None, Light (-1), Moderate (-2), Severe (-3), Crippled (-5), not 'x'.",
                     pool="6", wound="x")


@override_settings(DICE_SYSTEM="whalefall")
class TestWhalefallPage(OddsPageTest):
    def test_fields(self):
        self.assertEqual(self.fields(), ["pool", "target", "sides"])

    def test_die_size(self):
        view = self.check_same("4d8 vs (5,2)", ("4d8 vs (5,2)", ()), pool="4", target="(5,2)", sides="8")
        self.assertEqual(view.pool, "4d8")
        self.check_same("4d8 vs (5,2)", ("4d8 vs (5,2)", ()), pool="4d8", target="(5,2)")
        self.check_same("4d8 vs (5,2)", ("4d8 vs (5,2)", ()), pool="4d8", target="(5,2)", sides="8")
        self.check_same("4+1 d6 vs 5,2", ("4+1 d6 vs 5,2", ()), pool="4+1", target="5,2", sides="6")
        view = self.check_same("1 vs (5,2)", ("1 vs (5,2)", ()), pool="1", target="(5,2)")
        self.assertEqual(view.distribution, ())  # fails without rolling: no chart

    def test_refusals(self):
        self.refused("Say the target number after 'vs' as (face,count), like athletics vs (5,2): "
                     "at least 2 dice showing 5 or more.", pool="4")
        self.refused("Die size must be a whole number from 2 to 100, not '1'.", pool="4", target="(5,2)", sides="1")
        self.refused("The pool says d8 and the die size d6: give one.", pool="4d8", target="(5,2)", sides="6")

    def test_die_size_field_and_pool_agree(self):
        # The field starts blank (the pool's size, else d10), so a d10 typed beside 4d8 is a
        # conflict said on the page, never a d10 shown over d8 odds.
        self.assertIn('<input class="form-control" type="number" id="odds-sides" name="sides" min="2" max="100" '
                      'step="1" value="">', self.get())
        self.assertIn("sides of each die; blank: the pool&#x27;s, or 10", self.get())
        self.refused("The pool says d8 and the die size d10: give one.", pool="4d8", target="(5,2)", sides="10")
        self.check_same("4d8 vs (5,2)", ("4d8 vs (5,2)", ()), pool="4d8", target="(5,2)", sides="")
        self.check_same("4 vs (5,2)", ("4 vs (5,2)", ()), pool="4", target="(5,2)", sides="10")
        self.check_same("4 vs (5,2)", ("4 vs (5,2)", ()), pool="4", target="(5,2)", sides="")


@override_settings(DICE_SYSTEM="dicecheck")
class TestDiceCheckPage(OddsPageTest):
    def test_fields(self):
        self.assertEqual(self.fields(), ["pool", "target", "threshold"])

    def test_static_checks(self):
        view = self.check_same("12d(5+):3", ("12d(5+):3", ()), pool="12", target="3", threshold="5")
        self.assertEqual(view.target, "vs TN 3")
        self.check_same("7:2", ("7:2", ()), pool="7", target="2")
        self.check_same("12d(5+):3", ("12d(5+):3", ()), pool="12d(5+)", target="3")
        self.check_same("12d(6+):3", ("12d(6+):3", ()), pool="12d(6+):3")
        self.check_same("10d(7+)+2:4", ("10d(7+)+2:4", ()), pool="10+2", target="4", threshold="7")

    def test_refusals(self):
        self.refused("Give the TN, the Hits needed (e.g. 3).", pool="12")
        self.refused("The pool says 5+ and the threshold 7+: give one.", pool="12d(5+)", target="3", threshold="7")
        self.refused("'STR' is on a sheet; only static checks like 12d(6+):3 can be rolled here.",
                     pool="STR", target="3")
        self.refused("Threshold must be a whole number from 1 to 10, not '11'.", pool="12", target="3",
                     threshold="11")


# ---------------------------------------------------------------- every system: no input gives a 500

ODD = ["", " ", "0", "-1", "51", "50", "9" * 40, "²", "٣", "x", "vs", "vs 3", "3 vs", "(", ")", ":", "::",
       "|r", "%", "\x00", "a\nb", "<script>", "1.5", "1e3", "d", "4d", "4d0", "4d999", "12d(0+)", "12d(11+):3",
       "(5,2)", "(0,0)", "(11,1)", "5,", "moderate", "legendary", "on", "off", "3/willpower", "3/multi 99",
       "x" * 500]


class TestOddInput(OddsPageTest):
    def test_odd_input_never_fails_the_page(self):
        for key in systems.installed():
            names = [item.name for item in systems.get_system(key).odds_inputs]
            with override_settings(DICE_SYSTEM=key):
                for index, typed in enumerate(ODD):
                    for name in names:
                        self.get(**{"pool": ODD[(index + 7) % len(ODD)] or "3", name: typed})
                    # every input at once
                    self.get(**{name: ODD[(index + offset) % len(ODD)] for offset, name in enumerate(names)})


# ---------------------------------------------------------------- the inputs themselves (pure)


def test_every_system_describes_its_inputs():
    for key in systems.installed():
        inputs = systems.get_system(key).odds_inputs
        names = [item.name for item in inputs]
        assert names[:2] == ["pool", "target"], key
        assert len(set(names)) == len(names), key
        for item in inputs:
            assert item.label and item.kind in (TEXT, NUMBER, FLAG, CHOICE), (key, item)
            if item.kind == NUMBER:
                # None: the field starts blank and the system reads that (Whalefall's die size)
                assert item.default is None or item.low <= item.default <= item.high, (key, item)
            if item.kind == CHOICE:
                assert item.default in [value for value, _ in item.choices], (key, item)


def test_input_reading():
    hunger = OddsInput("hunger", "Hunger", kind=NUMBER, low=0, high=5, default=0)
    assert [hunger.read(typed) for typed in (None, "", " 3 ", "0005", "0")] == [0, 0, 3, 5, 0]
    for typed, shown in (("6", "6"), ("-1", "-1"), ("²", "²"), ("1.5", "1.5"), ("9" * 30, "9" * 20 + "...")):
        with pytest.raises(DiceError) as caught:
            hunger.read(typed)
        assert str(caught.value) == f"Hunger must be a whole number from 0 to 5, not '{shown}'."
    flag = OddsInput("spec", "Specialty", kind=FLAG, switch="spec")
    assert [flag.read(typed) for typed in (None, "", "on", "1", "yes", "off", "0", "false", "No")] == [
        False, False, True, True, True, False, False, False, False]
    wound = OddsInput("wound", "Wound", kind=CHOICE, default=None, choices=((None, "none"), ("light", "Light")))
    assert [wound.read(typed) for typed in (None, "", "light")] == [None, None, "light"]
    with pytest.raises(DiceError, match=r"^Wound must be one of none, Light, not 'Light'\.$"):
        wound.read("Light")
    text = OddsInput("target", "Target", high=4)
    assert text.read("  (5,2) extra ") == "(5,2"
    assert read_odds_inputs((text, hunger), {"target": "3", "hunger": "2"}) == {"target": "3", "hunger": 2}
    with pytest.raises(ValueError):
        OddsInput("x", "X", kind="slider")


def test_default_odds_args():
    system = systems.get_system("v5")
    text, switches, roller = system.odds_args({"pool": "6", "target": "2", "hunger": 3, "impaired": False})
    assert (text, switches, roller.state) == ("6 vs 2", frozenset(), {"hunger": 3, "impaired": False})
    text, switches, roller = systems.get_system("v20").odds_args(
        {"pool": "5", "target": "", "spec": True, "willpower": False, "ignorepain": False, "auto": False,
         "health": 4})
    assert (text, switches) == ("5", frozenset({"spec"}))
    assert roller.state == {"wound_penalty": -2, "incapacitated": False, "health_level": "Wounded"}
