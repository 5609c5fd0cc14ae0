"""
A sixth system edits no shared file: the toy of tests/toy_system/ ("Coin") is installed as a
host would (`tests.toy_system.install()`: `rules.systems.register` and
`commands.dice_base.register_wing`, then `DICE_SYSTEM = "coin"`), and the shared parts serve
it from what it declares: `+roll` and the contract (tests/test_engine_contract.py), its tag in
speech, its die mark's look on telnet and on the roll log's page, `+sheet`, `help dice` and the
help index, Limbo, the home page and the connect screen. The last test lists the shared files
the toy had to touch: none.
"""

import inspect
import pathlib
import re
from unittest.mock import patch

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.sheet import CmdSheet, CmdStat
from storyteller_dice.rules import display, systems
from storyteller_dice.rules.randomness import FixedFaces, seeded
from storyteller_dice.typeclasses.speech_text import SYSTEM_TAGS, speech_text
from tests import toy_system
from tests.test_engine_contract import TYPICAL, TestContract, sent
from tests.test_help_systems import WordsChecks

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOY = pathlib.Path(toy_system.__file__).resolve().parent
SHARED = ("rules", "commands", "typeclasses", "rolllog", "storyteller_dice", "game")


@override_settings(DICE_SYSTEM=toy_system.KEY)
class TestSixthSystem(WordsChecks, EvenniaCommandTest):
    def setUp(self):
        self.addCleanup(toy_system.install())
        super().setUp()

    def roll(self, typed, faces):
        self.call(CmdStat(), "luck=3")
        with seeded(FixedFaces(faces)):
            return sent(self, CmdRoll(), typed, [self.char1, self.char2])[self.char2]

    def test_roll_and_its_die_look_on_telnet(self):
        out = self.roll("luck vs 2", [2, 1, 2])
        assert len(out) == 1, out
        assert out[0].startswith("|w[Roll]|n Char rolls Luck 3 (3 coins), vs 2\n  Coins (d2): |y2|n 1 |y2|n  =>  "), out
        assert (frozenset({"crown"}), "|y") in display.MARK_STYLES

    def test_the_contract(self):
        assert toy_system.KEY in TYPICAL
        for seed in (1, 2, 3):
            TestContract.play(self, toy_system.KEY, seed)

    def test_its_tag_is_marked_in_speech(self):
        assert "Flip" in SYSTEM_TAGS
        assert speech_text("look: [Flip] Char flips a coin", "Bob") == "look: (Bob)[Flip] Char flips a coin"
        from tests.toy_system.wing import CmdFlip

        with seeded(FixedFaces([2])):
            self.call(CmdFlip(), "", "[Flip] Char flips a coin: heads.")

    def test_its_die_look_on_the_roll_log_page(self):
        self.roll("luck", [2, 1, 1])
        self.client.force_login(self.account)
        page = self.client.get("/rolls/").content.decode()
        assert re.search(r'<span class="die mark-crown mark-success"[^>]*>\s*2\s*</span>', page), page
        assert ".rolllog-dice .die.mark-crown { color: #7a5c00; font-weight: bold; }" in page

    def test_sheet(self):
        self.call(CmdStat(), "luck=4")
        assert " Luck            4" in self.call(CmdSheet(), "").split("\n")

    def test_help_limbo_home_page_and_connect_screen(self):
        self.check(toy_system.KEY)  # the checks every system passes (tests/test_help_systems.py)
        from commands.default_cmdsets import CharacterCmdSet
        from storyteller_dice.commands.help import CmdHelp

        cmdset = CharacterCmdSet()
        guide = self.call(CmdHelp(), "dice", cmdset=cmdset)
        assert "Rolling here (Coin): toss coins and count the heads." in guide
        assert "  +flip      Toss one coin for the room to see (nothing stored)." in guide
        assert "help coins" in guide
        assert "Help for coins" in self.call(CmdHelp(), "coins", cmdset=cmdset)

    def test_a_system_may_name_its_wing_instead(self):
        from storyteller_dice.commands.dice_base import dice_wing, unregister_wing
        from tests.toy_system.system import CoinSystem
        from tests.toy_system.wing import WING

        class Named(CoinSystem):
            wing = "tests.toy_system.wing:WING"

        unregister_wing(toy_system.KEY)
        assert dice_wing(systems.register(Named())) is WING

    def test_gone_when_uninstalled(self):
        toy_system.install()()
        assert toy_system.KEY not in systems.available()
        assert "Flip" not in SYSTEM_TAGS
        assert (frozenset({"crown"}), "|y") not in display.MARK_STYLES
        assert "mark-crown" not in display.mark_css()


def names_the_toy(text):
    return re.search(r"\b(coin|toy_system)\b", text, re.IGNORECASE) is not None


def test_the_shared_files_the_toy_had_to_touch_none():
    """No file of the package or the game names the toy or imports it, and every part of the
    toy (its system, its wing, its commands, its help) is a module under tests/toy_system/."""
    from tests.toy_system import help as toy_help
    from tests.toy_system.system import SYSTEM
    from tests.toy_system.wing import WING, CmdFlip

    touched = [str(path.relative_to(ROOT)) for folder in SHARED for path in sorted((ROOT / folder).rglob("*"))
               if path.suffix in (".py", ".html", ".css", ".js", ".md") and names_the_toy(path.read_text())]
    assert touched == []
    for part in (type(SYSTEM), type(SYSTEM.sheet), type(WING), WING.cmdset, CmdFlip, toy_help):
        assert pathlib.Path(inspect.getfile(part)).resolve().parent == TOY, part
