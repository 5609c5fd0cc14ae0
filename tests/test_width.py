"""
Output fits the player's screen: with a fixed client width (the session's
`protocol_flags["SCREENWIDTH"]`, what Evennia learns from NAWS and `commands.dice_base.width_of`
reads), under each system no line of a roll (with a 180-character comment and a private list
of 10 names), `+odds`, `+roll/verify` or `+rolls` is wider than the screen in visible columns
(`rules.display.visible_len` of the markup as sent), and a `[code XXXX]` is never split across
lines. At 50 columns too, for +roll.
"""

import re

from django.test import override_settings
from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.dice_base import width_of
from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolllog import CmdRolls
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.rules.display import visible_len
from storyteller_dice.rules.randomness import seeded
from tests.table_helpers import Connected
from tests.test_engine_contract import TYPICAL, sent

NAMES = ("Alessandrina", "Bartholomew", "Cassiopeia", "Desdemona", "Evangeline", "Florentino",
         "Guinevere", "Hieronymus", "Isadora", "Jacqueline")
COMMENT = ("she climbs the crumbling |rred|n facade of the old cathedral in the rain, fingers "
           "searching for the smallest hold while the watchmen below sweep their lanterns across the cobbles!!")
GM_HINT = "  |wGM|n: rule on it"
FULL_CODE = re.compile(r"\[code [0-9A-Z]{8}\]")


class WidthTest(Connected, EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.named = [create.create_object(self.character_typeclass, key=name, location=self.room1,
                                           home=self.room1) for name in NAMES]
        # Each played (a private roll reaches only connected characters), on an 80-column client.
        for character in self.named:
            account = create.create_account(f"{character.key}Player", email="width@example.com",
                                            password="width-password", typeclass=self.account_typeclass)
            self.connect(account, character).protocol_flags["SCREENWIDTH"] = {0: 80}

    def screen(self, width):
        self.session.protocol_flags["SCREENWIDTH"] = {0: width}
        self.assertEqual(width_of(self.char1), width)

    def assert_fits(self, texts, width, what):
        self.assertTrue(texts, f"{what}: nothing was sent")
        for text in texts:
            for line in text.split("\n"):
                self.assertLessEqual(visible_len(line), width, f"{what}: {line!r}")
                # a code is whole on its line: every "[code" starts a full `[code XXXXXXXX]`
                self.assertEqual(line.count("[code"), len(FULL_CODE.findall(line)), f"{what}: {line!r}")

    def private_roll(self, key, seed):
        cmd, typed, _, direct = TYPICAL[key]
        for trait, value in direct.items():
            self.char1.set_trait(trait, value)
        self.char1.set_trait({"whalefall": "athletics", "dicecheck": "strength"}.get(key, "dexterity"), 3)
        args = f"/private {typed}={', '.join(NAMES)} # {COMMENT}"
        with seeded(seed):
            got = sent(self, cmd(), args, [self.char1, self.char2, *self.named])
        self.assertEqual(got[self.char2], [], "char2 was not named: a private roll is not theirs")
        return got

    def check_system(self, key, width):
        from storyteller_dice.rolllog.models import RollEntry

        self.assertEqual(len(COMMENT), 180)
        self.screen(width)
        with override_settings(DICE_SYSTEM=key):
            for seed in (1, 2, 3):
                got = self.private_roll(key, seed)
                # Whalefall's hint to staff on a partial check is its wing's own message
                # (test_whalefall_gm_hint_fits_50_columns)
                self.assert_fits([t for t in got[self.char1] if not t.startswith(GM_HINT)], width, f"{key} roll")
                for obj in self.named:  # their clients: 80 columns
                    self.assert_fits(got[obj], 80, f"{key} roll seen by {obj.key}")
                text = "\n".join(got[self.char1])
                self.assertIn("Alessandrina", text)
                self.assertIn("Jacqueline", text)
                self.assertEqual(len(FULL_CODE.findall(text)), 1, text)
            if width != 80:
                return
            cmd, typed, _, _ = TYPICAL[key]
            with seeded(4):
                self.call(cmd(), f"{typed} # {COMMENT}")  # a public one too
            code = RollEntry.objects.order_by("-id").first().code
            odds = sent(self, CmdOdds(), typed, [self.char1])[self.char1]
            self.assert_fits(odds, width, f"{key} +odds")
            for entry in RollEntry.objects.all():
                verify = sent(self, CmdRoll(), f"/verify {entry.code}", [self.char1])[self.char1]
                self.assert_fits(verify, width, f"{key} +roll/verify")
                self.assertIn(f"[Verify]|n Roll |w{entry.code}|n", verify[0])
            rolls = sent(self, CmdRolls(), "", [self.char1])[self.char1]
            self.assert_fits(rolls, width, f"{key} +rolls")
            self.assertIn(code, "\n".join(rolls))

    def test_v5_at_80(self):
        self.check_system("v5", 80)

    def test_v20_at_80(self):
        self.check_system("v20", 80)

    def test_seyruun_at_80(self):
        self.check_system("seyruun", 80)

    def test_whalefall_at_80(self):
        self.check_system("whalefall", 80)

    def test_dicecheck_at_80(self):
        self.check_system("dicecheck", 80)

    def test_v5_at_50(self):
        self.check_system("v5", 50)

    def test_v20_at_50(self):
        self.check_system("v20", 50)

    def test_seyruun_at_50(self):
        self.check_system("seyruun", 50)

    def test_whalefall_at_50(self):
        self.check_system("whalefall", 50)

    def test_dicecheck_at_50(self):
        self.check_system("dicecheck", 50)

    def test_typical_rolls_at_80_without_comment(self):
        # before wrapping, an ordinary roll line was 87-92 columns
        self.screen(80)
        for key, (cmd, typed, _, _) in TYPICAL.items():
            with override_settings(DICE_SYSTEM=key):
                with seeded(5):
                    got = sent(self, cmd(), typed, [self.char1, self.char2])
                self.assert_fits(got[self.char1], 80, key)
                self.assert_fits(got[self.char2], 80, key)

    def test_whalefall_gm_hint_fits_50_columns(self):
        from storyteller_dice.rules.randomness import FixedFaces

        self.screen(50)
        with override_settings(DICE_SYSTEM="whalefall"):
            with seeded(FixedFaces([1, 2, 3, 5])):  # one die met 5+: a partial failure
                got = sent(self, CmdCheck(), "4 vs (5,2)", [self.char1])
        hints = [t for t in got[self.char1] if t.startswith(GM_HINT)]
        self.assertEqual(len(hints), 1, got)  # char1 is staff: told how to rule
        self.assert_fits(got[self.char1], 50, "whalefall roll with the GM hint")
