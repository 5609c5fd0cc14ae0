"""
DICE_TRAIT_SOURCE: a host's stats read and written through a trait source, by every reader of
traits (rolls, odds, contests, the web panel, +sheet, the website's sheet page), Specialties
from the source and written back to it, and the start-time check `source_problem()`.

The source is the worked example of docs/host-stats.md (tests/host_stats.py): V5 stats in one
dict Attribute, `db.stats`. Every test first gives the dice sheet's own store other values,
so a reader that went around the source would show them.
"""

import re
from pathlib import Path

import pytest

from django.test import override_settings
from evennia.utils.ansi import strip_ansi

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.sheet import CmdSheet, CmdStat, render_sheet
from storyteller_dice.commands.v5.contest import CmdContest
from storyteller_dice.commands.v5.hunger import CmdRouse
from storyteller_dice.typeclasses import panel, traits
from storyteller_dice.typeclasses.characters import SHEET

from .host_stats import StatsSource, full_stats
from .table_helpers import TableTest
from .test_odds_page import OddsPageTest
from .test_panel import PanelTest
from .test_website_pages import sheet_part, visible

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

SOURCE = "tests.host_stats.StatsSource"
DOC = Path(__file__).resolve().parents[1] / "docs" / "host-stats.md"


def own_sheet(character, values, specialties=None):
    """What the dice sheet itself keeps (what a reader going around the source would show)."""
    character.attributes.add("values", values, category=SHEET)
    character.attributes.add("specialties", specialties or {}, category=SHEET)


class HostStatsTest(TableTest):
    """Char's stats are in db.stats (Dexterity 4, Stealth 3 (Urban), Hunger 3...); its own
    sheet says Dexterity 2, Stealth 1 (Rooftops), Hunger 1, Larceny 2."""

    source = SOURCE

    def setUp(self):
        super().setUp()
        own_sheet(self.char1, {"dexterity": 2, "stealth": 1, "hunger": 1, "larceny": 2, "athletics": 1},
                  {"stealth": ["Rooftops"], "larceny": ["Locks"]})
        self.char1.db.stats = full_stats()
        overridden = override_settings(DICE_TRAIT_SOURCE=self.source)
        overridden.enable()
        self.addCleanup(overridden.disable)

    def stats(self):
        return self.char1.attributes.get("stats")


class TestValues(HostStatsTest):
    def test_values_come_from_the_dict_and_the_rest_from_the_sheet(self):
        values = self.char1.sheet_values
        assert (values["dexterity"], values["stealth"], values["animal ken"], values["hunger"]) == (4, 3, 1, 3)
        assert (values["larceny"], values["humanity"]) == (2, 7)  # not in the dict: the sheet's own
        assert self.char1.specialties == {"stealth": ("Urban",), "animal ken": ("Cats",), "larceny": ("Locks",)}

    def test_without_the_setting_the_sheet_is_its_own(self):
        with override_settings(DICE_TRAIT_SOURCE=None):
            assert (self.char1.sheet_values["dexterity"], self.char1.sheet_values["hunger"]) == (2, 1)
            assert self.char1.specialties == {"stealth": ("Rooftops",), "larceny": ("Locks",)}


class TestReaders(HostStatsTest):
    """Each reader of traits shows the source's values (Dexterity 4, Stealth 3, Hunger 3), never
    the sheet's own (Dexterity 2, Stealth 1, Hunger 1)."""

    def test_roll_with_the_sources_specialty_and_hunger(self):
        self.do(CmdRoll, "dex+stealth (urban) vs 3", [2, 6, 7, 8, 9, 1, 5, 3],
                "[Roll] Char rolls Dexterity 4 + Stealth 3 + Urban specialty 1 = 8 (8 dice),\n"
                "  Hunger 3, vs 3\n"
                "  Dice: 2 6 7 8 9  Hunger: 1 5 3  =>  4 successes: solid success (margin +1)\n"
                "    [code ")
        self.do(CmdRoll, "stealth (rooftops)", [], "You have no Stealth Specialty 'rooftops' (yours: Urban).")

    def test_odds(self):
        out = strip_ansi(self.call(CmdOdds(), "dex+stealth vs 3"))
        assert out.startswith("[Odds] Dexterity 4 + Stealth 3 = 7 (7 dice), Hunger 3, vs 3\n"
                              "  messy critical          11.2%\n"), out

    def test_contest(self):
        self.do(CmdContest, "dex+athletics vs 3", [2, 6, 7, 8, 9, 1, 5, 6, 7],
                "[Contest] Char vs Opposition (staff: Char)\n"
                "  Char: Dexterity 4 + Athletics 2 = 6 (6 dice), Hunger 3\n"
                "    Dice: 2 6 7  Hunger: 8 9 1  =>  4 successes: success\n"
                "  Opposition (staff: Char): 3 dice, Hunger 0\n"
                "    Dice: 5 6 7  =>  2 successes: failure\n"
                "  => Char wins by 2 (4 to 2).")

    def test_contest_odds(self):
        out = strip_ansi(self.call(CmdOdds(), "/contest dex+stealth vs 6 hunger 2"))
        assert out.startswith("[Contest odds] you: Dexterity 4 + Stealth 3 = 7 (7 dice), Hunger 3\n"
                              "  vs 6 dice, Hunger 2\n"
                              "  you win (more successes)    51.0%\n"), out

    def test_sheet_command(self):
        out = strip_ansi(self.call(CmdSheet(), "", caller=self.char1))
        lines = out.split("\n")
        assert " Dexterity       4         Manipulation    1         Wits            3" in lines
        assert " Stealth         3         Streetwise      0         Science         0" in lines
        assert " Larceny         2         Performance     0         Occult          2" in lines
        assert "Specialties: Larceny (Locks), Stealth (Urban), Animal Ken (Cats)" in lines
        assert "Hunger 3   Humanity 7 (Stains 0)   Blood Potency 1" in lines
        # Willpower and Health are derived from the source's Composure 3 + Resolve 2, Stamina 3.
        assert "Willpower [.....] 5/5 left (Superficial 0, Aggravated 0)" in lines
        assert "Health    [......] 6/6 left (Superficial 0, Aggravated 0)" in lines

    def test_web_panel(self):
        sections = {part["title"]: part for part in panel.sheet_message(self.char1)["sections"]}
        assert sections["Attributes"]["rows"][0] == ["Physical", [["Strength", 2], ["Dexterity", 4], ["Stamina", 3]]]
        assert ["Stealth", 3] in sections["Skills"]["rows"][0][1]
        assert sections["Specialties"]["text"] == "Larceny (Locks), Stealth (Urban), Animal Ken (Cats)"
        assert sections["Hunger"]["text"] == "3   Humanity 7 (Stains 0)   Blood Potency 1"
        assert self.char1.sheet.vitals(self.char1.sheet_values)["hunger"] == 3

    def test_website_sheet_page(self):
        self.client.force_login(self.account)
        page = self.client.get(self.char1.web_get_detail_url())
        assert page.status_code == 200
        shown = visible(sheet_part(page.content.decode()))
        for text in ("Dexterity 4", "Stealth 3", "Larceny 2", "Larceny (Locks), Stealth (Urban), Animal Ken (Cats)",
                     "Hunger 3 Humanity 7"):
            assert text in shown, (text, shown)
        assert "Dexterity 2" not in shown and "Rooftops" not in shown


class TestOtherCharacters(HostStatsTest):
    """Another character's traits (a helper's, a contest's other side) come from their own dict:
    Char2's says Composure 4, Resolve 1, Dexterity 1, Stealth 5, Hunger 2; its sheet Composure 2,
    Resolve 3, Hunger 1."""

    def setUp(self):
        super().setUp()
        stats = full_stats()
        stats["attributes"]["social"]["composure"], stats["attributes"]["mental"]["resolve"] = 4, 1
        stats["attributes"]["physical"]["dexterity"], stats["skills"]["stealth"], stats["hunger"] = 1, 5, 2
        self.char2.db.stats = stats

    def test_contest_odds_against_another_character(self):
        out = strip_ansi(self.call(CmdOdds(), f"/contest dex+stealth vs {self.char2.key}"))
        assert out.startswith("[Contest odds] you: Dexterity 4 + Stealth 3 = 7 (7 dice), Hunger 3\n"
                              "  vs Char2: Dexterity 1 + Stealth 5 = 6 (6 dice), Hunger 2\n"), out

    def test_teamwork_helper(self):
        from storyteller_dice.commands.v5.teamwork import CmdTeamwork

        self.do(CmdTeamwork, "dex+athletics vs 4", [], "[Teamwork] Char leads a teamwork roll: Dexterity 4 + "
                "Athletics 2 = 6 (6 dice),")
        self.do(CmdTeamwork, "/join Char=com+res", [], {
            self.char1: "[Teamwork] Char2 joins with Composure 4 + Resolve 1 = 5 (5 dice) in Char's\n"
                        "  teamwork roll."}, caller=self.char2)
        self.do(CmdTeamwork, "/roll", [2, 6, 7, 1, 2, 3, 6, 7, 8, 2, 3], {self.char2: (
            "[Teamwork] Char's teamwork roll, vs 4\n"
            "  Char leads: Dexterity 4 + Athletics 2 = 6 (6 dice), Hunger 3\n"
            "    Dice: 2 6 7  Hunger: 1 2 3  =>  2 successes\n"
            "  Char2 helps: Composure 4 + Resolve 1 = 5 (5 dice), Hunger 2\n"
            "    Dice: 6 7 8  Hunger: 2 3  =>  3 successes\n")})

    def test_staff_see_another_sheet(self):
        lines = strip_ansi(self.call(CmdSheet(), "Char2")).split("\n")
        assert " Dexterity       1         Manipulation    1         Wits            3" in lines
        assert "Hunger 2   Humanity 7 (Stains 0)   Blood Potency 1" in lines


class TestWebsiteOdds(HostStatsTest, OddsPageTest):
    def test_the_odds_page_with_the_character(self):
        self.account.characters.add(self.char1)
        head = self.shown(character=self.char1.id, pool="dex+stealth", target="3")[0]
        assert head.startswith("[Odds] Dexterity 4 + Stealth 3 = 7 (7 dice), Hunger 3, vs 3 messy critical 11.2%"), head
        traits = self.get(character=self.char1.id)
        offered = dict(re.findall(r'value="([a-z ]+)" id="odds-trait-\d+"[^>]*><label[^>]*>[^<]* (\d+)</label>',
                                  traits))
        assert (offered["dexterity"], offered["stealth"], offered["larceny"]) == ("4", "3", "2")


class TestWriting(HostStatsTest):
    def test_stat_writes_into_the_dict_and_the_rest_into_the_sheet(self):
        self.call(CmdStat(), "dex=5", "Your Dexterity is now 5 (was 4).", caller=self.char1)
        self.call(CmdStat(), "animal ken=2", "Your Animal Ken is now 2 (was 1).", caller=self.char1)
        self.call(CmdStat(), "hunger=1", "Your Hunger is now 1 (was 3).", caller=self.char1)
        self.call(CmdStat(), "larceny=3", "Your Larceny is now 3 (was 2).", caller=self.char1)  # not in the dict
        stats = self.stats()
        physical = stats["attributes"]["physical"]
        assert (physical["dexterity"], stats["skills"]["animal_ken"], stats["hunger"]) == (5, 2, 1)
        assert "larceny" not in stats["skills"]
        assert self.char1.attributes.get("values", category=SHEET) == {
            "dexterity": 2, "stealth": 1, "hunger": 1, "larceny": 3, "athletics": 1}
        assert (self.char1.trait("dexterity"), self.char1.trait("larceny")) == (5, 3)

    def test_a_rouse_check_moves_hunger_in_the_dict(self):
        self.do(CmdRouse, "", [3], "[Rouse] Char makes a Rouse check (Hunger 3)\n"
                "  Rouse die: 3  =>  failed: Hunger rises to 4")
        assert (self.stats()["hunger"], self.char1.attributes.get("values", category=SHEET)["hunger"]) == (4, 1)

    def test_specialties_are_written_back_into_the_dict(self):
        self.call(CmdStat(), "spec stealth=Rooftops", "Added the Specialty Rooftops to your Stealth.",
                  caller=self.char1)
        self.call(CmdStat(), "spec animal ken=Dogs", "Added the Specialty Dogs to your Animal Ken.", caller=self.char1)
        self.call(CmdStat(), "/remove spec stealth=urb", "Removed the Specialty Urban from your Stealth.",
                  caller=self.char1)
        assert self.stats()["specialties"] == {"stealth": ["Rooftops"], "animal_ken": ["Cats", "Dogs"]}
        self.call(CmdStat(), "/remove spec stealth=roof", "Removed the Specialty Rooftops from your Stealth.",
                  caller=self.char1)
        assert self.stats()["specialties"] == {"stealth": [], "animal_ken": ["Cats", "Dogs"]}
        assert self.char1.specialties == {"animal ken": ("Cats", "Dogs"), "larceny": ("Locks",)}
        # The sheet's own list is as it was.
        assert self.char1.attributes.get("specialties", category=SHEET) == {
            "stealth": ["Rooftops"], "larceny": ["Locks"]}


class ReadOnlySpecialties(StatsSource):
    """Specialties read from the dict, never written there."""

    write_specialties = None


class DeclinesSpecialties(StatsSource):
    def write_specialties(self, character, skill, names):
        return False


class TestSpecialtiesTheSourceDoesNotWrite(HostStatsTest):
    source = "tests.test_host_stats.ReadOnlySpecialties"

    def test_a_skill_the_source_lists_is_refused_and_others_go_to_the_sheet(self):
        self.call(CmdStat(), "spec stealth=Rooftops",
                  "Stealth's Specialties are kept in this game's own stats; +stat cannot change\n  them.",
                  caller=self.char1)
        self.call(CmdStat(), "/remove spec stealth=urban",
                  "Stealth's Specialties are kept in this game's own stats; +stat cannot change\n  them.",
                  caller=self.char1)
        self.call(CmdStat(), "spec occult=Thaumaturgy", "Added the Specialty Thaumaturgy to your Occult.",
                  caller=self.char1)
        assert self.stats()["specialties"] == {"stealth": ["Urban"], "animal_ken": ["Cats"]}
        assert self.char1.attributes.get("specialties", category=SHEET) == {
            "stealth": ["Rooftops"], "larceny": ["Locks"], "occult": ["Thaumaturgy"]}
        assert self.char1.specialties["occult"] == ("Thaumaturgy",)

    def test_declining_is_the_same(self):
        with override_settings(DICE_TRAIT_SOURCE="tests.test_host_stats.DeclinesSpecialties"):
            self.call(CmdStat(), "spec animal ken=Dogs",
                      "Animal Ken's Specialties are kept in this game's own stats; +stat cannot change\n  them.",
                      caller=self.char1)
            self.call(CmdStat(), "/remove spec larceny=locks", "Removed the Specialty Locks from your Larceny.",
                      caller=self.char1)
        assert self.char1.attributes.get("specialties", category=SHEET) == {"stealth": ["Rooftops"]}


class ValuesOnly:
    """A source without `specialties`: they stay the sheet's (and `write_specialties` alone is not asked)."""

    def read(self, character, names):
        return {"dexterity": 5}

    def write(self, character, name, value):
        return False

    def write_specialties(self, character, skill, names):
        raise AssertionError("a source without specialties() is never asked to write them")


class Untidy:
    """What a careless source may give back: names not asked, text, floats, nonsense, raw keys."""

    def read(self, character, names):
        return {"dexterity": "3", "stealth": 2.9, "wits": "three", "resolve": None, "athletics": True,
                "no such trait": 4, "Composure": 4}

    def write(self, character, name, value):
        return False

    def specialties(self, character):
        return {"Animal_Ken": "Cats", "STEALTH": ["Urban", "", "Urban", 7], "flying": ["High"]}


class Broken:
    def read(self, character, names):
        raise KeyError("stats")

    def write(self, character, name, value):
        raise KeyError("stats")


class TestOtherSources(HostStatsTest):
    def test_without_specialties_the_sheets_own(self):
        with override_settings(DICE_TRAIT_SOURCE="tests.test_host_stats.ValuesOnly"):
            assert self.char1.sheet_values["dexterity"] == 5
            assert self.char1.specialties == {"stealth": ("Rooftops",), "larceny": ("Locks",)}
            self.call(CmdStat(), "spec stealth=Urban", "Added the Specialty Urban to your Stealth.", caller=self.char1)
        assert self.char1.attributes.get("specialties", category=SHEET)["stealth"] == ["Rooftops", "Urban"]

    def test_only_names_asked_and_whole_numbers(self):
        with override_settings(DICE_TRAIT_SOURCE="tests.test_host_stats.Untidy"):
            values = self.char1.sheet_values
            assert (values["dexterity"], values["stealth"], values["wits"], values["resolve"]) == (3, 2, 1, 1)
            assert (values["athletics"], values["composure"]) == (1, 1)  # True is no number; names are exact
            assert "no such trait" not in values
            assert self.char1.specialties == {"stealth": ("Urban", "7"), "animal ken": ("Cats",),
                                              "larceny": ("Locks",)}

    def test_a_broken_source_is_a_message_and_a_logged_trace(self):
        from unittest import mock

        with override_settings(DICE_TRAIT_SOURCE="tests.test_host_stats.Broken"), \
                mock.patch("evennia.utils.logger.log_trace") as trace:
            self.do(CmdRoll, "dex vs 2", [], "This game's stats could not be read (DICE_TRAIT_SOURCE); staff can "
                                             "see why in\n  the server log.")
            assert trace.call_args.args[0] == "DICE_TRAIT_SOURCE: reading traits for Char"
            self.call(CmdStat(), "dex=3", "This game's stats could not be read (DICE_TRAIT_SOURCE); staff can see "
                                          "why in\n  the server log.", caller=self.char1)
            self.client.force_login(self.account)
            page = self.client.get(self.char1.web_get_detail_url())
            assert page.status_code == 200
            assert visible(sheet_part(page.content.decode())) == (
                "This game's stats could not be read (DICE_TRAIT_SOURCE); staff can see why in the server log.")


class NeedsArguments:
    def __init__(self, handlers):
        self.handlers = handlers


class ReadsOnly:
    def read(self, character, names):
        return {}


class TestSourceProblem(HostStatsTest):
    def problem(self, value):
        with override_settings(DICE_TRAIT_SOURCE=value):
            return traits.source_problem()

    def test_good_settings(self):
        assert self.problem(None) is None
        assert self.problem(SOURCE) is None
        assert self.problem("storyteller_dice.typeclasses.traits.TraitHandlerSource") is None
        assert self.problem(StatsSource) is None

    def test_each_problem_in_one_line(self):
        assert self.problem("world.nostats.StatsSource") == (
            "DICE_TRAIT_SOURCE = 'world.nostats.StatsSource': cannot import it "
            "(ModuleNotFoundError: No module named 'world.nostats').")
        assert self.problem("tests.host_stats.NoSuchSource") == (
            "DICE_TRAIT_SOURCE = 'tests.host_stats.NoSuchSource': cannot import it (ImportError: Module "
            "\"tests.host_stats\" does not define a \"NoSuchSource\" attribute/class).")
        assert self.problem("StatsSource") == (
            "DICE_TRAIT_SOURCE = 'StatsSource': give the dotted path of a class, such as \"mygame.stats.StatsSource\".")
        assert self.problem(42) == (
            "DICE_TRAIT_SOURCE = 42: give the dotted path of a class, such as \"mygame.stats.StatsSource\".")
        assert self.problem("tests.host_stats.__doc__") == (
            "DICE_TRAIT_SOURCE = 'tests.host_stats.__doc__': that is no class (it cannot be called).")
        assert self.problem("tests.test_host_stats.NeedsArguments") == (
            "DICE_TRAIT_SOURCE = 'tests.test_host_stats.NeedsArguments': cannot build it with no arguments "
            "(TypeError: NeedsArguments.__init__() missing 1 required positional argument: 'handlers').")
        assert self.problem("tests.test_host_stats.ReadsOnly") == (
            "DICE_TRAIT_SOURCE = 'tests.test_host_stats.ReadsOnly': it has no write() (a trait source reads "
            "and writes a character's traits).")

    def test_in_app_ready_before_evennia_is_set_up(self):
        """`source_problem` runs in AppConfig.ready(), before `evennia._init()`: importing it loads
        nothing of Evennia's, and it answers with Evennia's flat API still empty."""
        import subprocess
        import sys

        code = "\n".join([
            "import sys",
            "from storyteller_dice.typeclasses import traits",
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'evennia'))",
            "import django; django.setup()",
            "import evennia; from django.conf import settings",
            "print(evennia.DefaultCharacter is None)",
            "for value in ('storyteller_dice.typeclasses.traits.TraitHandlerSource', 'world.nostats.Source'):",
            "    settings.DICE_TRAIT_SOURCE = value",
            "    print(traits.source_problem())",
        ])
        root = Path(__file__).resolve().parents[1]
        env = {"PATH": "", "PYTHONPATH": str(root / "game"), "DJANGO_SETTINGS_MODULE": "server.conf.settings"}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root / "game",
                             env=env, timeout=120)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.splitlines()[-4:] == [
            "[]", "True", "None",
            "DICE_TRAIT_SOURCE = 'world.nostats.Source': cannot import it (ModuleNotFoundError: No module named "
            "'world.nostats').",
        ], out.stdout


def test_the_docs_example_is_the_tested_fixture():
    """docs/host-stats.md's code block is tests/host_stats.py's class, character for character."""
    page = DOC.read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    example = next(block for block in blocks if "class StatsSource" in block)
    source = (Path(__file__).parent / "host_stats.py").read_text()
    cls = source[source.index("class StatsSource"):source.index("\n\n\ndef full_stats")] + "\n"
    assert example.endswith(cls), example
    assert len(example.splitlines()) <= 45


class TestPanelFollowsSpecialties(PanelTest):
    def test_a_specialty_added_or_removed_updates_the_panels_sheet(self):
        self.hello()
        got = self.sent(lambda: self.call(CmdStat(), "spec athletics=Running", "Added the Specialty Running to "
                                          "your Athletics.", caller=self.char1))
        assert [name for name, _ in got] == ["dice_panel", "char_vitals"]
        sections = {part["title"]: part for part in got[0][1][1]["sheet"]["sections"]}
        assert sections["Specialties"]["text"] == "Athletics (Running)"
        got = self.sent(lambda: self.call(CmdStat(), "/remove spec athletics=run", "Removed the Specialty Running "
                                          "from your Athletics.", caller=self.char1))
        sections = {part["title"]: part for part in got[0][1][1]["sheet"]["sections"]}
        assert "Specialties" not in sections  # none left: the sheet shows no such line
