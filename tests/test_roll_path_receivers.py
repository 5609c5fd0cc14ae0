"""
Who saw a public roll in a room is kept in the entry itself (`RollEntry.receiver_ids`), not as a
`receivers` row per character: a roll writes the same record of its audience, and every count
kept of it (the rooms each player was in, who took part once a room is gone) reads as a rebuild
of the log would count it, through deletions of the entry, of a receiver and of the room.
Private and roomless rolls keep their `receivers` rows (their readers are found by character).
"""

import pytest

from evennia.utils.test_resources import EvenniaCommandTest

from tests.scene_helpers import Scene, run

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class ReceiversInTheEntryTest(Scene, EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.people = self.scene(5, name="Hall")
        self.outputs()

    def roll(self, args=" 3"):
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.rolllog.models import RollEntry

        run(self, CmdRoll, args)
        self.outputs()
        return RollEntry.objects.latest("id")

    def kept_tables(self):
        from storyteller_dice.rolllog.models import DayCount, Participant, RoomVisit

        return (sorted(DayCount.objects.filter(count__gt=0).values_list("day", "room", "private", "count")),
                sorted(RoomVisit.objects.filter(count__gt=0).values_list("character", "room", "count")),
                sorted(Participant.objects.values_list("entry_id", "character", "day")))

    def assert_as_rebuilt(self, step):
        from storyteller_dice.rolllog import listing

        kept = self.kept_tables()
        listing.rebuild()
        self.assertEqual(self.kept_tables(), kept, step)

    def test_a_public_roll_keeps_its_audience_in_its_row(self):
        entry = self.roll()
        ids = [person.id for person in self.people]
        self.assertEqual(entry.receiver_ids, ids)
        self.assertEqual(entry.receivers.count(), 0)
        self.assertEqual(entry.shown_ids(), set(ids))
        self.assertEqual(entry.receiver_names, [person.key for person in self.people])
        from storyteller_dice.rolllog.models import RoomVisit

        room = self.people[0].location.id
        # The roller twice: it rolled there, and was shown it (as a rebuild counts them).
        self.assertEqual(sorted(RoomVisit.objects.filter(room=room).values_list("character", "count")),
                         sorted((ident, 2 if ident == ids[0] else 1) for ident in ids))
        self.assert_as_rebuilt("a public roll")

    def test_a_private_roll_keeps_its_receivers_rows(self):
        entry = self.roll(f"/private 3={self.people[1].key}")
        self.assertIsNone(entry.receiver_ids)
        self.assertEqual(set(entry.receivers.values_list("id", flat=True)), {self.people[0].id, self.people[1].id})
        self.assertEqual(entry.shown_ids(), {self.people[0].id, self.people[1].id})
        self.assert_as_rebuilt("a private roll")

    def test_counts_follow_deletions_as_a_rebuild_would(self):
        from storyteller_dice.rolllog import api
        from storyteller_dice.rolllog.models import Participant, RollEntry

        first, second = self.roll(), self.roll(" 2")
        watcher = self.people[2]
        self.disconnect(watcher)
        watcher.delete()
        self.assert_as_rebuilt("a receiver deleted")
        RollEntry.objects.filter(id=first.id).delete()
        self.assert_as_rebuilt("an entry deleted")
        room = self.people[0].location
        for person in self.people:
            if person.pk:
                person.home = person.location = self.room1
        room.delete()
        second.refresh_from_db()
        self.assertIsNone(second.room_id)
        # The room gone, the roll is read by those who took part: the roller and its audience,
        # less the deleted character.
        alive = {person.id for person in self.people} - {watcher.id}
        self.assertEqual(set(Participant.objects.filter(entry_id=second.id).values_list("character", flat=True)),
                         alive)
        self.assertTrue(api.can_view(second, self.people[1]))
        self.assert_as_rebuilt("the room deleted")
