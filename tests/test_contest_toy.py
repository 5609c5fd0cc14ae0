"""
The shared contest works for a system no shared file names: a toy sixth system ("Tessera": a pool
is d6s, each 5 or 6 a hit) registered here alone (`rules.systems.register`) with its wing
(`commands.dice_base.register_wing`), which supplies only its contest rules: how a side is read
and rolled, who wins (more hits; a tie goes to the defender) and the verdict's words. Played
through the shared flow: a challenge, the answer, a decline, a private contest, the odds, and
the challenge rebuilt from the pending store after a restart.
"""

from fractions import Fraction
from math import comb
from pathlib import Path
from unittest import mock

from django.test import override_settings
from evennia.objects.models import ObjectDB
from evennia.utils.idmapper.models import flush_cache

from storyteller_dice.commands import contest as shared
from storyteller_dice.commands.contest import INCOMING, OUTGOING, ContestCommand, load_challenge
from storyteller_dice.commands.contest_odds import distribution_odds
from storyteller_dice.commands.dice_base import Wing, register_wing, unregister_wing
from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.rolllog.models import RollEntry
from storyteller_dice.rules import systems
from storyteller_dice.rules.contest import Outcome, Side
from storyteller_dice.rules.engine import (FAIL, SUCCESS, Chance, DiceGroup, Die, OddsView, Outcome as Look,
                                           RollRequest, RollView, Sheet, System)
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import TraitTable, build_pool, match_name
from storyteller_dice.rules.randomness import get_rng, roll_faces

from .table_helpers import TableTest

KEY = "tessera"
REPO = Path(__file__).resolve().parent.parent


class TesseraSheet(Sheet):
    def defaults(self):
        return {"grit": 3}

    def match(self, typed):
        return match_name(typed, ("grit",))

    def check_value(self, trait, value, values):
        return value

    def traits(self, values, specialties):
        return TraitTable(values={"grit": values["grit"]}, specialties={}, aliases={}, specialty_traits=frozenset())


class TesseraSystem(System):
    key = KEY
    title = "Tessera"
    sheet = TesseraSheet()

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        pool = build_pool(text, None if numbers_only or roller is None else roller.traits)
        return RollRequest(system=KEY, text=text, pool=pool, dice=pool.dice)

    def roll(self, request, roller=None, rng=None):
        return (request.pool.describe(), roll_faces(request.dice, rng, sides=6))

    def view(self, result, request=None):
        pool, faces = result
        hits = sum(face >= 5 for face in faces)
        dice = tuple(Die(face, frozenset({SUCCESS if face >= 5 else FAIL})) for face in faces)
        return RollView(system=KEY, pool=pool, target="", groups=(DiceGroup("Tessera", dice, sides=6),), score=hits,
                        noun=("hit", "hits"), outcome=Look("rolled", "rolled", "neutral"))

    def odds(self, request, roller=None):
        n = request.dice
        dist = tuple((k, Fraction(comb(n, k) * 2**k * 4 ** (n - k), 6**n)) for k in range(n + 1))
        return OddsView(system=KEY, pool=request.pool.describe(), target="",
                        chances=(Chance("rolled", "rolled", Fraction(1)),), distribution=dist, noun=("hit", "hits"))


def tessera_outcome(sides):
    """More hits wins; a tie goes to the defender (the one challenged)."""
    system, rng, rolled = systems.get_system(KEY), get_rng(), []
    for name, request in sides:
        rolled.append(Side(name, system.view(system.roll(request, rng=rng), request), {"tessera": True}))
    a, d = (side.view.score for side in rolled)
    winner = rolled[0].label if a > d else rolled[1].label
    verdict = f"{winner} wins, {a} to {d}" + (" (a tie: the defender's)." if a == d else ".")
    return Outcome(tuple(rolled), verdict, verdict, {"winner": winner})


class CmdJoust(ContestCommand):
    """
    A toy contest: more hits wins, a tie goes to the one challenged.

    Usage:
      +joust <pool> vs <character>
      +joust/answer <pool>
    """

    key = "+joust"
    usage = "+joust <pool> vs <character>; +joust/answer <pool>"

    def start(self, text, comment):
        pool, _, name = text.partition(" vs ")
        request = systems.get_system(KEY).parse(pool, roller=self.caller.roller())
        self.challenge(self.find_defender(name), pool, request.pool.describe(), comment)

    def read_answer(self, challenge, text):
        return systems.get_system(KEY).parse(super().read_answer(challenge, text), roller=self.caller.roller())

    def roll_contest(self, challenge, answer):
        mine = systems.get_system(KEY).parse(challenge.pool, roller=challenge.challenger.roller())
        return tessera_outcome([(challenge.challenger.key, mine), (self.caller.key, answer)])


class TesseraWing(Wing):
    odds_switches = ("contest",)

    def handle_odds(self, cmd):
        if "contest" not in cmd.switches:
            return False
        distribution_odds(cmd, tie_winner="defender")
        return True


@override_settings(DICE_SYSTEM=KEY)
class TestToyContest(TableTest):
    def setUp(self):
        systems.register(TesseraSystem())
        self.addCleanup(systems.unregister, KEY)
        register_wing(TesseraWing(KEY))
        self.addCleanup(unregister_wing, KEY)
        super(TableTest, self).setUp()
        self.online = {self.char1.id, self.char2.id}
        patcher = mock.patch("storyteller_dice.commands.pending.connected",
                             side_effect=lambda obj: obj.id in self.online)
        patcher.start()
        self.addCleanup(patcher.stop)

    def challenge(self, args="grit vs Char2", expected=None):
        with mock.patch.object(shared, "delay"):
            self.do(CmdJoust, args, [], expected)
        return load_challenge(self.char1, OUTGOING)

    def test_challenge_and_answer(self):
        self.challenge(expected={self.char2: "[Contest] Char challenges Char2: Grit 3\n"
                                              "  Char2 answers with +joust/answer <pool> or +joust/decline (within 5"})
        expected = ("[Contest] Char vs Char2\n"
                    "  Char: Grit 3\n"
                    "    Tessera (d6): 5 6 1  =>  2 hits: rolled\n"
                    "  Char2: 2\n"
                    "    Tessera (d6): 6 6  =>  2 hits: rolled\n"
                    "  => Char2 wins, 2 to 2 (a tie: the defender's).")
        self.do(CmdJoust, "/answer 2", [5, 6, 1, 6, 6], {self.char1: expected, self.char2: expected},
                caller=self.char2)
        entry = RollEntry.objects.get()
        self.assertEqual((entry.system, entry.kind, entry.verdict), (KEY, "contest", "Char2 wins, 2 to 2 (a tie: the defender's)."))
        self.assertIsNone(load_challenge(self.char2, INCOMING))

    def test_decline(self):
        self.challenge()
        self.do(CmdJoust, "/decline", [], {self.char1: "[Contest] Char2 declines Char's challenge."}, caller=self.char2)
        self.refused(CmdJoust, "/answer 2", "No one has challenged you.", caller=self.char2)

    def test_private(self):
        self.challenge("/private grit vs Char2")
        out = self.do(CmdJoust, "/answer 1", [1, 1, 1, 5], caller=self.char2)
        self.assertTrue(out.startswith("[Private contest] Char vs Char2\n"), out)
        self.assertIn("(private: shown to Char2, Char, staff)", out)
        self.assertTrue(RollEntry.objects.get().private)

    def test_odds(self):
        out = self.call(CmdOdds(), "/contest grit vs 2")
        self.assertEqual(out.split("\n")[:5], [
            "[Contest odds] you: Grit 3",
            "  vs they: 2",
            "  you win (more hits)    43.2%",
            "  tie (they take it)     35.4%",
            "  they win (more hits)   21.4%",
        ])

    def test_the_challenge_is_rebuilt_from_the_store_after_a_restart(self):
        made = self.challenge()
        flush_cache()
        self.char1, self.char2 = (ObjectDB.objects.get(id=obj.id) for obj in (self.char1, self.char2))
        with mock.patch.object(shared, "delay") as delay:
            shared.restore_challenges()
        (_, _, restored), = [call.args for call in delay.call_args_list]
        self.assertEqual((restored.id, restored.pool, restored.key), (made.id, "grit", "+joust"))
        out = self.do(CmdJoust, "/answer 1", [5, 5, 5, 1], caller=self.char2)
        self.assertIn("  => Char wins, 3 to 0.", out)

    def test_no_shared_file_names_the_toy(self):
        shared_files = [REPO / "commands" / name for name in ("contest.py", "contest_odds.py", "pending.py",
                                                              "dice_base.py")]
        shared_files += [REPO / "rules" / name for name in ("contest.py", "contest_odds.py", "engine.py")]
        for path in shared_files:
            text = path.read_text().lower()
            self.assertNotIn("tessera", text, path)
            self.assertNotIn("joust", text, path)
        with self.assertRaises(DiceError):
            systems.get_system("nosuch")
