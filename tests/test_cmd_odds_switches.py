"""
`+odds` takes the system's own roll switches, so the odds are those of the roll the player
means: V20's `/spec` (10s count double) and `/willpower` (one success that cannot be
cancelled) change them; an unknown switch is still refused.
"""

from django.test import override_settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.rules.display import format_odds
from tests.test_engine_contract import sent
from storyteller_dice.typeclasses.system import dice_system


def plain(markup):
    return ansi.parse_ansi(markup, strip_ansi=True).strip()


class TestOddsSwitches(EvenniaCommandTest):
    def odds(self, switches, typed="dex+brawl vs 6"):
        got = sent(self, CmdOdds(), f"{switches} {typed}" if switches else typed, [self.char1])
        return plain(got[self.char1][0])

    def expected(self, options, typed="dex+brawl vs 6"):
        system = dice_system()
        roller = self.char1.roller()
        request = system.parse(typed, frozenset(options), roller=roller)
        return plain(format_odds(system.odds(request, roller)))

    @override_settings(DICE_SYSTEM="v20")
    def test_v20_spec_and_willpower_change_the_odds(self):
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("brawl", 2)
        plain_odds, spec, willpower = self.odds(""), self.odds("/spec"), self.odds("/willpower")
        self.assertEqual(plain_odds, self.expected(()))
        self.assertEqual(spec, self.expected(("spec",)))
        self.assertEqual(willpower, self.expected(("willpower",)))
        self.assertEqual(len({plain_odds, spec, willpower}), 3)
        self.assertIn("botch", plain_odds)

    @override_settings(DICE_SYSTEM="v20")
    def test_unknown_switch_is_refused(self):
        self.assertIn("Unknown switch /nonsense", self.odds("/nonsense"))
