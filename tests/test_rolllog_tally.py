"""
The roll log at scale: the per-day face tally (`rolllog.models.FaceTally`) behind the whole game's fairness
report.

- `store_roll` adds each roll's faces to the tally (one row per UTC day, system, label, die
  size and face, summed), and a deleted entry takes its faces off again.
- `face_counts` for everyone (whole days from the tally, the edge part days from RollFace)
  gives exactly the counts RollFace alone gives, on seeded rolls over ten days, for windows
  that cut days anywhere, start or end on midnight, or hold no whole day at all.
- `rolled_characters` (the fairness page's staff choices, by index seeks) is exactly the
  distinct characters of RollFace.
"""

import datetime
import random

import pytest
from django.db.models import Sum
from django.utils import timezone
from evennia.utils import create

from storyteller_dice.rolllog import api, fairness
from storyteller_dice.rolllog.models import FaceTally, RollEntry, RollFace

pytestmark = [pytest.mark.django_db, pytest.mark.database]

UTC = datetime.timezone.utc
# A fixed past, so the windows below cut known days (no clock in the answers).
MIDNIGHT = datetime.datetime(2026, 3, 10, tzinfo=UTC)


def view(groups, system="v5"):
    return {"system": system, "pool": "5 dice", "target": "vs 2",
            "groups": [{"label": label, "sides": sides, "dice": [[face, sorted(marks)] for face, marks in dice]}
                       for label, sides, dice in groups],
            "score": 1, "noun": ["success", "successes"],
            "outcome": {"key": "success", "label": "success", "tone": "good"}, "notes": []}


@pytest.fixture
def people():
    room = create.create_object("typeclasses.rooms.Room", key="Hall", nohome=True)  # no Limbo here
    anna = create.create_object("typeclasses.characters.Character", key="Anna", location=room, home=room)
    bob = create.create_object("typeclasses.characters.Character", key="Bob", location=room, home=room)
    return room, anna, bob


def tally_rows():
    return sorted(FaceTally.objects.values_list("day", "system", "label", "sides", "face", "count"))


def roll_at(who, room, created, shown, number):
    """An entry made at `created`, its faces and tally written by the functions store_roll uses."""
    entry = RollEntry.objects.create(code=f"T{number:07d}", created=created, character=who,
                                     character_name=getattr(who, "key", ""),
                                     room=room, system=shown["system"], view=shown)
    faces = RollFace.objects.bulk_create(fairness.face_rows(entry))
    fairness.add_to_tally(faces)
    return entry


def seeded_rolls(people, count=400, seed=14):
    room, anna, bob = people
    rng = random.Random(seed)
    for number in range(count):
        system, sides = rng.choice([("v5", 10), ("whalefall", 6), ("dicecheck", 20)])
        groups = [("Dice", sides, [(rng.randint(1, sides), ()) for _ in range(rng.randint(1, 6))])]
        if system == "v5" and rng.random() < 0.5:
            groups.append(("Hunger", 10, [(rng.randint(1, 10), ("hunger",)) for _ in range(rng.randint(1, 3))]))
        # Ten days from MIDNIGHT, to the microsecond, some right on a midnight.
        if rng.random() < 0.05:
            created = MIDNIGHT + datetime.timedelta(days=rng.randint(0, 9))
        else:
            created = MIDNIGHT + datetime.timedelta(seconds=rng.uniform(0, 10 * 86400))
        roll_at(rng.choice([anna, bob]), room, created, view(groups, system), number)


def rollface_counts(since=None, until=None, system=None):
    """The old path: one GROUP BY over every RollFace row of the window."""
    query = RollFace.objects.all()
    if since is not None:
        query = query.filter(created__gte=since)
    if until is not None:
        query = query.filter(created__lt=until)
    if system:
        query = query.filter(system=system)
    out = {}
    for label, sides, face, total in query.values_list("label", "sides", "face").annotate(n=Sum("count")).order_by():
        out.setdefault((label, sides), {})[face] = total
    return {key: dict(sorted(faces.items())) for key, faces in sorted(out.items())}


def test_store_roll_adds_to_the_days_tally(people):
    _room, anna, bob = people
    today = fairness.utc_day(timezone.now())
    api.store_roll(anna, {"view": view([("Dice", 10, [(2, ()), (2, ()), (10, ())]), ("Hunger", 10, [(1, ())])])})
    api.store_roll(bob, {"view": view([("Dice", 10, [(2, ()), (7, ())])])})
    api.store_roll(bob, {"view": view([("Dice", 6, [(6, ())])], system="whalefall")})
    api.record_action(anna, bob, "hunger", "Hunger 2 -> 3")  # no dice, no tally
    days = {day for day, *_rest in tally_rows()}
    assert len(days) == 1
    day = days.pop()
    assert day in (today, today + datetime.timedelta(days=1))  # a roll made across midnight
    assert tally_rows() == [(day, "v5", "Dice", 10, 2, 3), (day, "v5", "Dice", 10, 7, 1),
                            (day, "v5", "Dice", 10, 10, 1), (day, "v5", "Hunger", 10, 1, 1),
                            (day, "whalefall", "Dice", 6, 6, 1)]
    assert fairness.face_counts() == {("Dice", 6): {6: 1}, ("Dice", 10): {2: 3, 7: 1, 10: 1}, ("Hunger", 10): {1: 1}}


def test_days_are_utc_days_and_a_deleted_entry_leaves_the_tally(people):
    room, anna, _bob = people
    # 23:30 on the 9th in UTC+2 is 21:30 UTC: the 9th; 01:00 on the 10th in UTC+2 is the 9th too.
    plus_two = datetime.timezone(datetime.timedelta(hours=2))
    first = roll_at(anna, room, datetime.datetime(2026, 3, 9, 23, 30, tzinfo=plus_two),
                    view([("Dice", 10, [(4, ()), (4, ())])]), 1)
    roll_at(anna, room, datetime.datetime(2026, 3, 10, 1, 0, tzinfo=plus_two), view([("Dice", 10, [(4, ())])]), 2)
    roll_at(anna, room, MIDNIGHT, view([("Dice", 10, [(5, ())])]), 3)
    nine, ten = datetime.date(2026, 3, 9), datetime.date(2026, 3, 10)
    assert tally_rows() == [(nine, "v5", "Dice", 10, 4, 3), (ten, "v5", "Dice", 10, 5, 1)]
    first.delete()
    assert tally_rows() == [(nine, "v5", "Dice", 10, 4, 1), (ten, "v5", "Dice", 10, 5, 1)]
    RollEntry.objects.filter(code="T0000003").delete()  # its face's count reaches 0: the row goes
    assert tally_rows() == [(nine, "v5", "Dice", 10, 4, 1)]
    assert fairness.face_counts() == rollface_counts() == {("Dice", 10): {4: 1}}


def test_the_whole_game_reads_whole_days_from_the_tally(people):
    room, anna, _bob = people
    roll_at(anna, room, MIDNIGHT + datetime.timedelta(hours=12), view([("Dice", 10, [(3, ())])]), 1)
    # A count only the tally has (as if RollFace rows were lost): it shows exactly when the
    # window holds that whole day, so the whole days are read from the tally and no more.
    FaceTally.objects.create(day=MIDNIGHT.date(), system="v5", label="Dice", sides=10, face=9, count=5)
    assert fairness.face_counts() == {("Dice", 10): {3: 1, 9: 5}}
    day = datetime.timedelta(days=1)
    assert fairness.face_counts(since=MIDNIGHT, until=MIDNIGHT + day) == {("Dice", 10): {3: 1, 9: 5}}
    cut = datetime.timedelta(seconds=1)
    assert fairness.face_counts(since=MIDNIGHT + cut, until=MIDNIGHT + day) == {("Dice", 10): {3: 1}}
    assert fairness.face_counts(since=MIDNIGHT, until=MIDNIGHT + day - cut) == {("Dice", 10): {3: 1}}
    # One character: RollFace alone.
    assert fairness.face_counts(character=anna) == {("Dice", 10): {3: 1}}


def test_the_tally_path_equals_rollface_alone_for_windows_that_cut_days(people):
    seeded_rolls(people)
    rng = random.Random(1414)
    day = datetime.timedelta(days=1)
    windows = [(None, None), (MIDNIGHT, None), (None, MIDNIGHT + 4 * day), (MIDNIGHT + 2 * day, MIDNIGHT + 5 * day),
               (MIDNIGHT + 3 * day, MIDNIGHT + 3 * day), (MIDNIGHT + 6 * day, MIDNIGHT + 2 * day),
               (MIDNIGHT - 3 * day, MIDNIGHT + 30 * day)]
    for _ in range(150):
        since = MIDNIGHT + datetime.timedelta(seconds=rng.uniform(-86400, 11 * 86400))
        length = datetime.timedelta(seconds=rng.choice([rng.uniform(0, 86400), rng.uniform(0, 2 * 86400),
                                                        rng.uniform(0, 11 * 86400)]))
        windows.append((since, since + length))
        windows.append((since, None))
        windows.append((None, since))
    whole = 0
    for since, until in windows:
        expected = rollface_counts(since, until)
        assert fairness.face_counts(since=since, until=until) == expected, (since, until)
        whole += bool(expected)
    assert whole > 300  # most windows hold dice: the comparisons compare something
    for system in ("v5", "whalefall"):
        since = MIDNIGHT + datetime.timedelta(hours=30, minutes=7)
        assert fairness.face_counts(since=since, system=system) == rollface_counts(since, system=system)
    # A naive datetime is UTC, as the database keeps it.
    naive = (MIDNIGHT + datetime.timedelta(hours=50)).replace(tzinfo=None)
    assert fairness.face_counts(since=naive) == rollface_counts(naive.replace(tzinfo=UTC))
    # And the seeded game's totals, against the views themselves.
    dice = sum(len(g["dice"]) for e in RollEntry.objects.all() for g in e.view["groups"])
    assert sum(sum(faces.values()) for faces in fairness.face_counts().values()) == dice


def test_rebuild_gives_the_tally_written_at_roll_time(people):
    seeded_rolls(people, count=150, seed=5)
    written = tally_rows()
    assert len(written) > 100
    FaceTally.objects.all().delete()
    assert fairness.rebuild_tally(batch=7) == len(written)  # small batches: a key summed across them
    assert tally_rows() == written


def test_rolled_characters_are_the_distinct_characters_of_the_faces(people):
    room, anna, bob = people
    assert fairness.rolled_characters() == []
    carl = create.create_object("typeclasses.characters.Character", key="Carl", location=room, home=room)
    for number, who in enumerate([bob, anna, bob, carl, None, anna]):
        roll_at(who, room, MIDNIGHT, view([("Dice", 10, [(number + 1, ())])]), number)
    RollFace.objects.filter(entry__code="T0000003").update(character=None)  # Carl's, its link gone
    expected = sorted(RollFace.objects.exclude(character_id=None).values_list("character_id", flat=True).distinct())
    assert fairness.rolled_characters() == expected == sorted([anna.id, bob.id])
