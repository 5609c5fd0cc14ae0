"""
The shared commands under each DICE_SYSTEM: `+roll`, `+check`, `+odds`, `+sheet` and `+stat`
answer in the system's own syntax with exact dice (FixedFaces), the other player in the room
gets the very same roll, and an unknown DICE_SYSTEM is refused at server start with a clear
message (and by the commands, with one line, no traceback).
"""

import re

import pytest

from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdSheet, CmdStat
from storyteller_dice.rules.randomness import FixedFaces, seeded
from tests.test_engine_contract import sent

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

CMDS = {"+stat": CmdStat, "+roll": CmdRoll, "+check": CmdCheck, "+odds": CmdOdds, "+sheet": CmdSheet}
CODE = re.compile(r"\[code ([0-9A-Z]{8})\]")
SHEET_TOP = "============================ Char (not approved) ============================="

# key -> what is typed, the faces it rolls, and exactly what it answers (`{code}`: the roll's code)
PLAYS = {
    "v5": [
        ("+stat", "dex=3", None, "Your Dexterity is now 3 (was 1)."),
        ("+stat", "stealth=2", None, "Your Stealth is now 2 (was 0)."),
        ("+roll", "dex+stealth vs 3", [2, 6, 10, 1, 10],
         "[Roll] Char rolls Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 1, vs 3\n"
         "  Dice: 2 6 10 1  Hunger: 10  =>  5 successes: messy critical (margin +2, solid\n"
         "    success) [code {code}]"),
        ("+check", "4 vs 2", [6, 7, 1, 3],
         "[Roll] Char checks 4 dice, Hunger 1, vs 2\n"
         "  Dice: 6 7 1  Hunger: 3  =>  2 successes: bare success (margin +0)\n"
         "    [code {code}]"),
        ("+odds", "dex+stealth vs 3", None,
         "[Odds] Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 1, vs 3\n"
         "  messy critical           3.5%\n"
         "  critical success         4.7%\n"
         "  success (not critical)  43.1%\n"
         "  failure                 39.5%\n"
         "  total failure            2.5%\n"
         "  bestial failure          6.7%\n"
         "  expected successes 2.66\n"
         "  Successes:\n"
         "    0   3.1% ####\n"
         "    1  15.6% #####################\n"
         "    2  30.0% ########################################\n"
         "    3  28.0% #####################################\n"
         "    4  14.1% ###################\n"
         "    5   5.6% #######\n"
         "    6   2.8% ####\n"
         "  \u2265 7   0.8% #"),
        ("+sheet", "", None, f"{SHEET_TOP}\nAttributes\n Physical                  Social                    Mental"),
    ],
    "v20": [
        ("+stat", "dex=3", None, "Your Dexterity is now 3 (was 1)."),
        ("+stat", "brawl=2", None, "Your Brawl is now 2 (was 0)."),
        ("+roll", "dex+brawl vs 6", [6, 3, 10, 1, 7],
         "[Roll] Char rolls Dexterity 3 + Brawl 2 = 5 dice, difficulty 6\n"
         "  Dice: 6 3 10 1 7  =>  2 successes: moderate success (one 1 cancelled 1\n"
         "    success) [code {code}]"),
        # successes rolled and all cancelled: a failure, not a botch
        ("+check", "4 vs 7", [7, 8, 1, 1],
         "[Roll] Char checks 4 dice, difficulty 7\n"
         "  Dice: 7 8 1 1  =>  0 successes: failure (two 1s cancelled 2 successes)\n"
         "    [code {code}]"),
        ("+odds", "dex+brawl vs 6", None,
         "[Odds] Dexterity 3 + Brawl 2 = 5 dice, difficulty 6\n"
         "  botch                   5.2%\n"
         "  failure (not a botch)  10.4%\n"
         "  marginal success       19.7%\n"
         "  moderate success       26.0%\n"
         "  complete success       23.1%\n"
         "  exceptional success    12.5%\n"
         "  phenomenal success      3.1%\n"
         "  expected net successes 2.07\n"
         "  Successes:\n"
         "  0  15.6% ########################\n"
         "  1  19.7% ##############################\n"
         "  2  26.0% ########################################\n"
         "  3  23.1% ####################################\n"
         "  4  12.5% ###################\n"
         "  5   3.1% #####"),
        ("+sheet", "", None, f"{SHEET_TOP}\nAttributes\n Physical                  Social                    Mental"),
    ],
    "seyruun": [
        ("+stat", "dex=3", None, "Your Dexterity is now 3 (was 1)."),
        ("+stat", "stealth=2", None, "Your Stealth is now 2 (was 0)."),
        # a 10 counts two
        ("+roll", "dex+stealth vs 2", [6, 3, 10, 1, 2],
         "[Roll] Char rolls Dexterity 3 + Stealth 2 = 5 dice, vs 2\n"
         "  Dice: 6 3 10 1 2  =>  3 successes: solid [code {code}]"),
        ("+check", "4 vs 1", [1, 2, 3, 4],
         "[Roll] Char checks 4 dice, vs 1\n"
         "  Dice: 1 2 3 4  =>  0 successes: botch [code {code}]"),
        ("+odds", "dex+stealth vs 2", None,
         "[Odds] Dexterity 3 + Stealth 2 = 5 dice, vs 2\n"
         "  supernatural brilliance (6+ successes)   5.2%\n"
         "  heroic (4-5 successes)                  30.1%\n"
         "  solid (2-3 successes)                   49.1%\n"
         "  failure                                 13.5%\n"
         "  botch                                    2.1%\n"
         "  expected successes 3.00\n"
         "  enhanced critical (two or more 10s) 8.1%\n"
         "  Successes:\n"
         "    0   3.1% #####\n"
         "    1  12.5% ###################\n"
         "    2  23.1% ####################################\n"
         "    3  26.0% ########################################\n"
         "    4  19.7% ##############################\n"
         "    5  10.4% ################\n"
         "    6   3.9% ######\n"
         "    7   1.1% ##\n"
         "  ≥ 8   0.2% #"),
        ("+sheet", "", None, f"{SHEET_TOP}\nAttributes\n Mental                    Physical                  Social"),
    ],
    "whalefall": [
        ("+stat", "athletics=3", None, "Your Athletics is now 3 (was 0)."),
        ("+roll", "athletics vs (5,2)", [5, 2, 9],
         "[Roll] Char rolls Athletics 3 (3d10), vs (5,2)\n"
         "  Dice: 5 2 9  =>  2 dice at 5+: success [code {code}]"),
        ("+check", "4d8 vs (5,2)", [8, 5, 1, 1],
         "[Roll] Char checks 4d8, vs (5,2)\n"
         "  Dice (d8): 8 5 1 1  =>  2 dice at 5+: success [code {code}]"),
        ("+odds", "athletics vs (5,2)", None,
         "[Odds] Athletics 3 (3d10), vs (5,2)\n"
         "  success               64.8%\n"
         "  failure (partial)     28.8%\n"
         "  failure (no die met)   6.4%\n"
         "  expected dice at 5+: 1.80\n"
         "  Dice at 5+:\n"
         "  0   6.4% ######\n"
         "  1  28.8% ###########################\n"
         "  2  43.2% ########################################\n"
         "  3  21.6% ####################"),
        ("+sheet", "", None, f"{SHEET_TOP}\nSkills\n Body                      Craft                     People"),
    ],
    "dicecheck": [
        ("+stat", "str=3", None, "Your Strength is now 3 (was 1)."),
        # Strength 3 needs 7+
        ("+roll", "STR:3", [10, 10, 2],
         "[Roll] Char rolls Strength 3 = 3d(7+), vs TN 3\n"
         "  Dice: 10 10 2  =>  2 hits: failure (botch margin 1) [code {code}]"),
        ("+roll", "12d(6+):3", [6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 1],
         "[Roll] Char rolls 12d(6+), vs TN 3\n"
         "  Dice: 6 7 8 9 10 1 2 3 4 5 6 1  =>  6 hits: success (Effect 3, Degree of\n"
         "    Success 2) [code {code}]"),
        ("+check", "12:3", [1] * 12,
         "[Roll] Char checks 12d(6+), vs TN 3\n"
         "  Dice: 1 1 1 1 1 1 1 1 1 1 1 1  =>  0 hits: big botch (botch margin 3)\n"
         "    [code {code}]"),
        ("+odds", "12d(6+):3", None,
         "[Odds] 12d(6+), vs TN 3\n"
         "  success    98.1%\n"
         "  failure     1.8%\n"
         "  big botch   0.1%\n"
         "  by Degree of Success: DoS 1 17.5%, DoS 2 41.9%, DoS 3 38.4%, DoS 4 0.3%\n"
         "  Hits:\n"
         "   ≤ 1   0.3% #\n"
         "     2   1.6% ###\n"
         "     3   5.4% ##########\n"
         "     4  12.1% #####################\n"
         "     5  19.3% ##################################\n"
         "     6  22.6% ########################################\n"
         "     7  19.3% ##################################\n"
         "     8  12.1% #####################\n"
         "     9   5.4% ##########\n"
         "    10   1.6% ###\n"
         "  ≥ 11   0.3% #"),
        ("+sheet", "", None, f"{SHEET_TOP}\nAttributes\n Body                      Mind"),
    ],
}


def plain(markup):
    return ansi.parse_ansi(markup, strip_ansi=True).strip()


class TestUnderEachSystem(EvenniaCommandTest):
    def play(self, key):
        from storyteller_dice.rolllog.models import RollEntry

        with override_settings(DICE_SYSTEM=key):
            for command, typed, faces, expected in PLAYS[key]:
                rolls = faces is not None
                with seeded(FixedFaces(faces or [])) as source:
                    got = sent(self, CMDS[command](), typed, [self.char1, self.char2])
                self.assertEqual(source.remaining, [], f"{command} {typed}")
                mine = [plain(text) for text in got[self.char1]]
                self.assertTrue(mine, f"{command} {typed}: no answer")
                self.assertNotIn("Traceback", "\n".join(mine))
                if rolls:
                    entry = RollEntry.objects.order_by("-id").first()
                    self.assertEqual((entry.system, entry.command), (key, f"{command} {typed}"))
                    expected = expected.format(code=entry.code)
                    self.assertEqual(mine[0], expected, f"{command} {typed}")
                    # the other player in the room sees the same roll, with the same code
                    self.assertEqual([plain(text) for text in got[self.char2]][:1], [expected])
                    self.assertEqual(CODE.findall(expected), [entry.code])
                else:
                    self.assertEqual(got[self.char2], [], f"{command} {typed} is not the room's")
                    if command == "+sheet":
                        self.assertEqual(mine[0].split("\n")[:3], expected.split("\n"))
                    else:
                        self.assertEqual(mine[0], expected, f"{command} {typed}")

    def test_v5(self):
        self.play("v5")

    def test_v20(self):
        self.play("v20")

    def test_seyruun(self):
        self.play("seyruun")

    def test_whalefall(self):
        self.play("whalefall")

    def test_dicecheck(self):
        self.play("dicecheck")

    def test_whalefall_partial_failure_asks_the_gm(self):
        from storyteller_dice.rolllog.models import RollEntry

        with override_settings(DICE_SYSTEM="whalefall"):
            with seeded(FixedFaces([1, 2, 3, 5])):
                got = sent(self, CmdCheck(), "4 vs (5,2)", [self.char1, self.char2])
            code = RollEntry.objects.get().code
            roll = ("[Roll] Char checks 4d10, vs (5,2)\n"
                    "  Dice: 1 2 3 5  =>  1 die at 5+: failure (partial) (partial: 1 die met 5+, 2\n"
                    f"    needed; the GM may rule a partial success or failure) [code {code}]")
            self.assertEqual(plain(got[self.char1][0]), roll)
            self.assertEqual(plain(got[self.char2][0]), roll)


class TestUnknownSystem(EvenniaCommandTest):
    MESSAGE = ("DICE_SYSTEM='nonsense' cannot be used: Unknown dice system 'nonsense': available are "
               "v5, v20, seyruun, whalefall, dicecheck. Set DICE_SYSTEM in settings.py to one of: "
               "v5, v20, seyruun, whalefall, dicecheck.")

    def test_refused_at_server_start(self):
        from storyteller_dice.commands.hooks import at_server_init

        with override_settings(DICE_SYSTEM="nonsense"):
            with self.assertRaises(ImproperlyConfigured) as raised:
                at_server_init()
        self.assertEqual(str(raised.exception), self.MESSAGE)

    def test_the_check_names_the_key_and_the_choices(self):
        from storyteller_dice.commands.dice_base import check_configured_system

        with override_settings(DICE_SYSTEM="nonsense"):
            with self.assertRaises(ImproperlyConfigured) as raised:
                check_configured_system()
        self.assertEqual(str(raised.exception), self.MESSAGE)
        with override_settings(DICE_SYSTEM="V20 "):  # case and spaces do not matter
            self.assertEqual(check_configured_system().key, "v20")

    def test_commands_refuse_without_a_traceback(self):
        with override_settings(DICE_SYSTEM="nonsense"):
            for command, typed in (("+roll", "dex vs 3"), ("+check", "3"), ("+odds", "dex"), ("+sheet", "")):
                with seeded(FixedFaces([])):
                    out = self.call(CMDS[command](), typed)
                self.assertEqual(out.split("\n")[:2],
                                 ["Unknown dice system 'nonsense': available are v5, v20, seyruun, whalefall,",
                                  "  dicecheck."], command)
