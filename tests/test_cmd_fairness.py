"""+dice/fairness: the fairness report of a seeded game, exact figures, and a biased source."""

import random
import time

import pytest

from evennia.utils import create
from evennia.utils.ansi import strip_ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.fairness import CmdDice, format_report, scope_text
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.rolllog import api
from storyteller_dice.rolllog.fairness import face_counts
from storyteller_dice.rules.engine import Roller
from storyteller_dice.rules.fairness import fairness_report, tally, text_chart
from storyteller_dice.rules.randomness import seeded
from storyteller_dice.rules.v5.system import SYSTEM

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

BULK = 3000  # rolls stored through rolllog.api (a few thousand, as a game accumulates)
TYPED = 60  # rolls made through the real +roll command


class Loaded(random.Random):
    """A biased test source: a 10 comes up twice as often as any other face."""

    def randint(self, a, b):
        if (a, b) != (1, 10):
            return super().randint(a, b)
        face = super().randint(1, 11)
        return 10 if face == 11 else face


def bulk_rolls(caller, count, pool, hunger, rng):
    """Store `count` V5 rolls made with `rng`; returns their views (for an independent tally)."""
    roller = Roller(name=caller.key, state={"hunger": hunger})
    request = SYSTEM.parse(str(pool), numbers_only=True)
    views = []
    for _ in range(count):
        result = SYSTEM.roll(request, roller, rng=rng)
        record = {**SYSTEM.record(result, request), "kind": "roll", "command": f"+roll {pool}"}
        api.store_roll(caller, record, text="")
        views.append(record["view"])
    return views


class TestFairness(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char1.permissions.remove("Developer")
        self.account.permissions.remove("Developer")
        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("stealth", 2)
        self.char1.set_trait("hunger", 2)

    def seed_game(self):
        start = time.perf_counter()
        views = bulk_rolls(self.char1, BULK, 5, 2, random.Random(14))
        views += bulk_rolls(self.char2, BULK // 3, 4, 0, random.Random(41))
        with seeded(1414):
            for _ in range(TYPED):
                self.call(CmdRoll(), "dex+stealth", caller=self.char1)
        self.seconds = time.perf_counter() - start
        return views

    def test_seeded_game_report(self):
        views = self.seed_game()
        # The typed rolls, replayed from the same seed, independently of the log.
        typed = []
        rng = random.Random(1414)
        request = SYSTEM.parse("5", numbers_only=True)
        for _ in range(TYPED):
            typed.append(SYSTEM.view(SYSTEM.roll(request, Roller(name="Char", state={"hunger": 2}), rng=rng),
                                     request).to_dict())
        expected_counts = tally(group for view in views + typed for group in view["groups"])
        self.assertEqual(face_counts(), {key: dict(sorted(v.items())) for key, v in sorted(expected_counts.items())})
        tests = fairness_report(expected_counts)
        self.assertEqual([t.title for t in tests], ["d10 Dice", "d10 Hunger"])
        out = self.call(CmdDice(), "/fairness", caller=self.char1)
        self.assertEqual(out, strip_ansi(format_report(tests, scope_text("", None))))
        for test in tests:
            self.assertIn(text_chart(test), out)
            self.assertEqual(test.verdict, "consistent with fair dice")
        regular, hunger = tests
        self.assertEqual(regular.total, BULK * 3 + BULK // 3 * 4 + TYPED * 3)
        self.assertEqual(hunger.total, BULK * 2 + TYPED * 2)
        self.assertTrue(all(len(line) <= 80 for line in out.split("\n")))
        print(f"\n{BULK + BULK // 3 + TYPED} rolls stored in {self.seconds:.1f} s\n" + out)

        # Your own character, a window of days; narrow clients get every line within width.
        mine = self.call(CmdDice(), "/fairness me 30", caller=self.char1)
        self.assertIn("Dice fairness: Char, the last 30 days", mine)
        own = fairness_report(tally(group for view in views[:BULK] + typed for group in view["groups"]))
        self.assertIn(text_chart(own[0]), mine)
        self.char1.msg = lambda *a, **k: None
        narrow = format_report(tests, "the whole game", width=40)
        self.assertTrue(all(len(strip_ansi(line)) <= 40 for line in narrow.split("\n")))

    def test_biased_source_reads_unusual(self):
        bulk_rolls(self.char1, 1000, 5, 0, Loaded(3))
        out = self.call(CmdDice(), "/fairness", caller=self.char1)
        self.assertIn("d10 Dice: 5,000 dice, 500 expected per face", out)
        self.assertIn("unusual: p < 0.0001", out)

    def test_who_may_see_what(self):
        bulk_rolls(self.char2, 10, 2, 0, random.Random(1))
        self.call(CmdDice(), "/fairness Char2", "You may check your own characters or the whole game, not 'Char2'.",
                  caller=self.char1)
        self.call(CmdDice(), "/fairness Nobody", "You may check your own characters or the whole game, not 'Nobody'.",
                  caller=self.char1)
        staff = create.create_object(self.character_typeclass, key="Storyteller", location=self.room1,
                                     home=self.room1)
        staff.permissions.add("Builder")
        out = self.call(CmdDice(), "/fairness Char2 7", "Dice fairness: Char2, the last 7 days", caller=staff)
        self.assertIn("d10 Dice: 20 dice, 2 expected per face", out)
        self.assertIn("not enough rolls to tell (at least 50 dice are needed)", out)

    def test_refusals(self):
        self.call(CmdDice(), "", "Say what to check: +dice/fairness.\nUsage: +dice/fairness [<character>] [<days>]")
        self.call(CmdDice(), "/fairness 0", "Days are from 1 to 3650, not 0.")
        self.call(CmdDice(), "/fair 99999", "Days are from 1 to 3650, not 99999.")
        self.call(CmdDice(), "/fairness", "Dice fairness: the whole game, every roll kept\nNo dice rolled")


class TestFairnessWeb(EvenniaCommandTest):
    def test_pages(self):
        self.account.permissions.remove("Developer")
        self.account.is_superuser = False
        self.account.save()
        bulk_rolls(self.char1, 100, 5, 2, random.Random(7))
        self.assertEqual(self.client.get("/rolls/fairness/").status_code, 302)
        self.client.force_login(self.account)
        page = self.client.get("/rolls/fairness/").content.decode()
        self.assertIn('<svg xmlns="http://www.w3.org/2000/svg" class="fairness-chart"', page)
        self.assertIn("d10 Dice: consistent with fair dice", page)
        self.assertIn("d10 Hunger: consistent with fair dice", page)
        page = self.client.get(f"/rolls/fairness/?character={self.char2.id}&days=5").content.decode()
        self.assertIn("You may see your own characters or the whole game.", page)
        page = self.client.get("/rolls/odds/?pool=2&target=1").content.decode()
        self.assertIn('<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart"', page)
        self.assertIn("<title>4 successes: 1.0%</title>", page)
        page = self.client.get("/rolls/odds/?pool=51").content.decode()
        self.assertIn("pools are limited to 50", page)

    def test_bad_days_are_refused(self):
        self.client.force_login(self.account)
        for typed, message in (("abc", "Days are a whole number, not &#x27;abc&#x27;."),
                               ("0", "Days are from 1 to 3650, not 0."),
                               ("-2", "Days are from 1 to 3650, not -2."),
                               ("99999", "Days are from 1 to 3650, not 99999.")):
            page = self.client.get(f"/rolls/fairness/?days={typed}").content.decode()
            self.assertIn(f'<p class="text-danger" id="fairness-refused">{message}</p>', page)
            self.assertIn('<h2 class="h5" id="fairness-scope">The whole game, every roll kept</h2>', page)
            self.assertNotIn("the last 1 day", page)
        page = self.client.get("/rolls/fairness/?days=7").content.decode()
        self.assertNotIn('id="fairness-refused"', page)
        self.assertIn('<h2 class="h5" id="fairness-scope">The whole game, the last 7 days</h2>', page)
