"""
What a roll costs the server does not grow with its audience: a roll seen by 50 connected
players asks the database exactly what a roll seen by one does (a pinned number of statements,
so a regression shows), and is drawn once per distinct client width, not once per receiver,
while every receiver still gets the roll at their own width, and +nospoof players get speech
tagged and rolls untagged as before.
"""

from unittest import mock

import pytest

from evennia.utils.test_resources import EvenniaCommandTest

from tests.scene_helpers import Scene, cost, run

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

# A public +roll, in a test's transaction: SAVEPOINT, the entry (its receivers in its own
# row), its day's count, the room's visits, its faces, the face tally, the +willpower window
# (one UPDATE), RELEASE: the window is written in the roll's own transaction (one commit
# outside a test). A private roll adds its receivers' rows and its participants (an insert each).
# On PostgreSQL the entry, its counts and the window are one execute
# (rolllog.counting.inserted_first): SAVEPOINT, that execute, RELEASE.
SQLITE_PUBLIC_ROLL_STATEMENTS = 8
POSTGRESQL_PUBLIC_ROLL_STATEMENTS = 3
PRIVATE_ROLL_STATEMENTS = 10


def on_postgresql():
    from django.db import connection

    return connection.vendor == "postgresql"


PUBLIC_ROLL_STATEMENTS = POSTGRESQL_PUBLIC_ROLL_STATEMENTS if on_postgresql() else SQLITE_PUBLIC_ROLL_STATEMENTS


def round_trips(action):
    """How many times `action()` waited on PostgreSQL (psycopg's `Connection.wait`: one
    exchange with the server, each statement's execute, commit and rollback alike)."""
    from django.db import connection

    raw = type(connection.connection)
    original, waits = raw.wait, []

    def counted(self, *args, **kwargs):
        waits.append(1)
        return original(self, *args, **kwargs)

    with mock.patch.object(raw, "wait", counted):
        action()
    return len(waits)
COMMENT = ("she climbs the crumbling facade of the old cathedral in the rain, fingers searching for the "
           "smallest hold while the watchmen below sweep their lanterns across the cobbles")


class RollCostTest(Scene, EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("dexterity", 3)

    def statements(self, args, cmd=None, caller=None):
        from storyteller_dice.commands.rolls import CmdRoll

        count, _ms, sql = cost(lambda: self.call((cmd or CmdRoll)(), args, caller=caller or self.char1))
        return count, sql

    def roll_statements(self, people, args):
        self.statements(args)  # the first roll makes the +willpower window's Attribute
        count, sql = self.statements(args)
        self.outputs()
        return count, sql

    def test_a_roll_costs_the_same_statements_for_1_and_for_50_receivers(self):
        alone = self.scene(1, name="Alone")
        one, _ = self.roll_statements(alone, " dex+2 vs 2 # up the wall")
        full = self.scene(50, widths=(80, 100), name="Full")
        fifty, sql = self.roll_statements(full, " dex+2 vs 2 # up the wall")
        self.assertEqual((one, fifty), (PUBLIC_ROLL_STATEMENTS, PUBLIC_ROLL_STATEMENTS), "\n".join(sql))
        from storyteller_dice.rolllog.models import RollEntry

        entry = RollEntry.objects.latest("id")
        self.assertEqual(len(entry.shown_ids()), 50)  # all 50, in the entry's own row
        self.assertEqual(entry.receivers.count(), 0)
        self.assertEqual(len(entry.receiver_names), 50)

    @pytest.mark.postgres
    def test_on_postgresql_a_roll_waits_on_the_same_few_round_trips_for_1_and_for_50(self):
        from storyteller_dice.commands.rolls import CmdRoll

        def trips(people):
            self.statements(" dex+2 vs 2")  # the first roll makes the +willpower window's Attribute
            return round_trips(lambda: self.call(CmdRoll(), " dex+2 vs 2 # up the wall", caller=self.char1))

        from storyteller_dice.rolllog import counting

        bound = []

        def named(sql, params):
            bound.append(counting_named(sql, params))
            return bound[-1]

        counting_named = counting.named
        self.scene(1, name="Alone")
        one = trips(None)
        self.scene(50, widths=(80, 100), name="Full")
        with mock.patch.object(counting, "named", named):
            fifty = trips(None)
        # psycopg keeps a parsed text for the next execute up to 50 parameters: 50 receivers' ids
        # are one array, and a value the statements share is bound once.
        self.assertLessEqual(len(bound[-1][1]), 50, bound[-1][0])
        # SAVEPOINT, the entry with its counts and the window, RELEASE (outside a test: BEGIN and COMMIT).
        self.assertEqual((one, fifty), (3, 3))
        _count, sql = self.statements(" dex+2 vs 2")
        held = [line for line in sql if line.startswith('INSERT INTO "rolllog_rollentry"')]
        self.assertEqual(len(held), 1, "\n".join(sql))
        for table in ("rolllog_daycount", "rolllog_roomvisit", "rolllog_rollface", "rolllog_facetally"):
            self.assertIn(f'INSERT INTO "{table}"', held[0])
        self.assertIn('UPDATE "typeclasses_attribute"', held[0])  # the +willpower window

    def test_the_willpower_window_is_written_in_the_rolls_own_transaction(self):
        self.scene(10, name="Ten")
        _count, sql = self.roll_statements(None, " dex+2 vs 2")
        self.assertTrue(sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE SAVEPOINT"), "\n".join(sql))
        if on_postgresql():  # in the roll's one execute, after the entry
            self.assertIn(';\nUPDATE "typeclasses_attribute"', sql[-2], "\n".join(sql))
        else:
            self.assertTrue(sql[-2].startswith('UPDATE "typeclasses_attribute"'), "\n".join(sql))
        from storyteller_dice.commands.v5.willpower import last_roll
        from storyteller_dice.rolllog.models import RollEntry

        self.assertEqual(last_roll(self.char1).entry, RollEntry.objects.latest("id").code)  # kept by its code

    def test_a_check_and_a_private_roll_too(self):
        from storyteller_dice.commands.rolls import CmdCheck

        full = self.scene(50, name="Full")
        self.statements(" 5 vs 2", cmd=CmdCheck)
        self.assertEqual(self.statements(" 5 vs 2", cmd=CmdCheck)[0], PUBLIC_ROLL_STATEMENTS)
        named = ", ".join(obj.key for obj in full[1:11])
        self.statements(f"/private 3={full[1].key}")
        self.assertEqual(self.statements(f"/private 3={full[1].key}")[0], PRIVATE_ROLL_STATEMENTS)
        self.assertEqual(self.statements(f"/private 3={named}")[0], PRIVATE_ROLL_STATEMENTS)

    def test_drawn_once_per_width_and_each_receiver_gets_their_own(self):
        from storyteller_dice.commands import nospoof
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.rolllog.models import RollEntry
        from storyteller_dice.rules import display

        people = self.scene(50, widths=(80, 100), name="Wide")
        for character in people[1::3]:
            nospoof.set_nospoof(character.account, True)
        run(self, CmdRoll, " 1")  # warm
        self.outputs()
        drawn = mock.Mock(wraps=display.format_roll)
        with mock.patch.object(display, "format_roll", drawn):
            run(self, CmdRoll, f" dex+2 vs 2 # {COMMENT}")
        self.assertEqual(drawn.call_count, 2)
        self.assertEqual(sorted(call.kwargs["width"] for call in drawn.call_args_list), [80, 100])
        entry = RollEntry.objects.latest("id")
        wide = display.append_code(display.format_roll(entry.roll_view, "Char", comment=COMMENT, width=100),
                                   entry.code, width=100)
        self.assertNotEqual(wide, entry.text)
        got = self.outputs()
        self.assertEqual(len(got), 50)
        for number, character in enumerate(people):
            session = character.sessions.all()[0]
            self.assertEqual(got[session], [entry.text if number % 2 == 0 else wide], character.key)
        # Speech still gets each +nospoof player's tag, and only theirs.
        from storyteller_dice.commands.speech import CmdSay

        run(self, CmdSay, " hello")
        got = self.outputs()
        tagged = f"[Char(#{self.char1.id})] Char says, \"hello|n\""
        for number, character in enumerate(people[1:], start=1):
            text = got[character.sessions.all()[0]][0]
            self.assertEqual(text, tagged if number % 3 == 1 else 'Char says, "hello|n"', character.key)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_outside_a_transaction_a_roll_is_one_round_trip(monkeypatch):
    """As the game runs a command (no transaction open): the entry, its counts and the
    +willpower window are one execute, PostgreSQL's own transaction, and the Server waits on
    that one round trip; a first roll, whose window Evennia creates, falls back to a
    transaction and writes everything once."""
    from django.db import connection

    from storyteller_dice.commands.rolls import CmdRoll
    from storyteller_dice.commands.v5.willpower import last_roll
    from storyteller_dice.rolllog.models import FaceTally, RollEntry, RollFace

    test = OutsideATransaction("run")
    test.setUp()
    try:
        roller = test.char1
        roller.set_trait("dexterity", 3)
        test.call(CmdRoll(), " dex+2 vs 2", caller=roller)  # the first: its window is created
        first = RollEntry.objects.latest("id")
        assert last_roll(roller).entry == first.code
        assert RollFace.objects.filter(entry_id=first.id).exists()
        trips = round_trips(lambda: test.call(CmdRoll(), " dex+2 vs 2 # up the wall", caller=roller))
        assert trips == 1
        second = RollEntry.objects.latest("id")
        assert second.id != first.id and second.comment == "up the wall"
        assert last_roll(roller).entry == second.code
        assert sum(row.count for row in RollFace.objects.filter(entry_id=second.id)) == 5
        assert sum(FaceTally.objects.values_list("count", flat=True)) == 10  # both rolls, once each
    finally:
        test.tearDown()


class OutsideATransaction(EvenniaCommandTest):
    def run(self):  # only its setUp and call are used, in the test above
        pass
