"""
The roll log at scale: the roll log at scale, on a small log.

- `rolllog.api.page` (keyset from an index seek) gives exactly the rows of the old OFFSET
  reading, page after page, with no duplicates or gaps, also under filters and with many
  entries made in the same instant (the id breaks the tie); the web page too.
- `rolllog.fairness`: the RollFace rows are written for each new roll, the ruling on which
  dice count holds on explicit faces, and `face_counts` (a GROUP BY) equals a Python count over the same rows.

The million-row timings are bench/bench_rolllog.py (not a test).
"""

import datetime
import random
from collections import Counter

import pytest
from django.test import Client
from django.utils import timezone
from evennia.accounts.models import AccountDB
from evennia.utils import create

from storyteller_dice.rolllog import api, fairness, listing
from storyteller_dice.rolllog.models import RollEntry, RollFace

pytestmark = [pytest.mark.django_db, pytest.mark.database]

NOW = timezone.now().replace(microsecond=0)


def view(groups, system="v5"):
    """A RollView dict: groups are (label, sides, [(face, marks), ...])."""
    return {"system": system, "pool": "5 dice", "target": "vs 2",
            "groups": [{"label": label, "sides": sides, "dice": [[face, sorted(marks)] for face, marks in dice]}
                       for label, sides, dice in groups],
            "score": 1, "noun": ["success", "successes"],
            "outcome": {"key": "success", "label": "success", "tone": "good"}, "notes": []}


def random_view(rng):
    system, sides = rng.choice([("v5", 10), ("whalefall", 6), ("dicecheck", 20)])
    groups = [("Dice", sides, [(rng.randint(1, sides), ()) for _ in range(rng.randint(1, 6))])]
    if system == "v5" and rng.random() < 0.5:
        groups.append(("Hunger", 10, [(rng.randint(1, 10), ("hunger",)) for _ in range(rng.randint(1, 3))]))
    return view(groups, system)


@pytest.fixture
def people():
    room = create.create_object("typeclasses.rooms.Room", key="Hall")
    anna = create.create_object("typeclasses.characters.Character", key="Anna", location=room, home=room)
    bob = create.create_object("typeclasses.characters.Character", key="Bob", location=room, home=room)
    return room, anna, bob


def fill(people, count=300, seed=3):
    """`count` entries straight into the table, with many sharing a timestamp."""
    room, anna, bob = people
    rng = random.Random(seed)
    entries = []
    for number in range(count):
        who = rng.choice([anna, bob])
        entries.append(RollEntry(code=f"T{number:07d}", created=NOW - datetime.timedelta(seconds=rng.randint(0, 40)),
                                 character=who, character_name=who.key, room=room, room_name=room.key,
                                 private=rng.random() < 0.3, view=random_view(rng)))
    RollEntry.objects.bulk_create(entries)
    listing.rebuild()  # a bulk insert passes by save(), which keeps the list counts
    return entries


def offset_pages(query, size):
    rows = list(query)
    return [rows[start:start + size] for start in range(0, len(rows), size)] or [[]]


@pytest.mark.parametrize("size", [15, 50, 7])
def test_keyset_pages_are_the_offset_pages(people, size):
    fill(people)
    _room, anna, _bob = people
    for query in (api.search(), api.search(character=anna), api.search(private_only=True),
                  api.search(private_only=True, query=api.search(character=anna))):
        expected = offset_pages(query, size)
        got = []
        for number in range(1, len(expected) + 1):
            rows, total, pages = api.page(query, number, size=size)
            assert (total, pages) == (query.count(), len(expected))
            got.append(rows)
        assert [[e.id for e in p] for p in got] == [[e.id for e in p] for p in expected]
        ids = [e.id for p in got for e in p]
        assert len(ids) == len(set(ids)) == query.count()  # no duplicates, no gaps
        # A page past the end is the last page, as before.
        assert [e.id for e in api.page(query, len(expected) + 5, size=size)[0]] == [e.id for e in expected[-1]]


def test_ties_in_time_are_broken_by_id(people):
    room, anna, _bob = people
    RollEntry.objects.bulk_create([RollEntry(code=f"S{n:07d}", created=NOW, character=anna, room=room)
                                   for n in range(40)])
    listing.rebuild()
    query = api.search()
    ids = [e.id for n in (1, 2, 3) for e in api.page(query, n, size=15)[0]]
    assert ids == sorted(ids, reverse=True) and len(ids) == 40


def test_the_web_pages_read_the_same_rows(people):
    fill(people, count=130)
    staff = AccountDB.objects.create_superuser("Staffer", "s@example.org", "pw-for-tests")
    client = Client()
    client.force_login(staff)
    seen = []
    for number in (1, 2, 3):
        response = client.get(f"/rolls/?page={number}")
        assert response.status_code == 200
        page = response.context["entries_page"]
        assert (page.number, page.paginator.num_pages) == (number, 3)
        seen.extend(row["entry"].id for row in response.context["rows"])
    assert seen == list(RollEntry.objects.order_by("-created", "-id").values_list("id", flat=True))
    response = client.get("/rolls/?character=anna&page=2")
    expected = list(RollEntry.objects.filter(character_name="Anna").order_by("-created", "-id")
                    .values_list("id", flat=True))[50:100]
    assert [row["entry"].id for row in response.context["rows"]] == expected
    assert client.get("/rolls/?page=nonsense").context["entries_page"].number == 1


# ---------------------------------------------------------------- the faces


def test_which_dice_count():
    plain = view([("Dice", 10, [(2, ()), (6, ()), (10, ())]), ("Hunger", 10, [(1, ("hunger",))])])
    assert fairness.faces_of(plain) == Counter({("Dice", 10, 2): 1, ("Dice", 10, 6): 1, ("Dice", 10, 10): 1,
                                                ("Hunger", 10, 1): 1})
    # A reroll made at once: every die of the first throw, and the new faces of the rerolled.
    before = view([("Dice", 10, [(2, ()), (3, ()), (7, ())])])
    after = view([("Dice", 10, [(9, ("rerolled",)), (3, ()), (7, ())])])
    assert fairness.faces_of(after, initial=before) == Counter({("Dice", 10, 2): 1, ("Dice", 10, 3): 1,
                                                               ("Dice", 10, 7): 1, ("Dice", 10, 9): 1})
    # A later Willpower reroll of a parent roll: only the new faces.
    assert fairness.faces_of(after, parent_id=5) == Counter({("Dice", 10, 9): 1})
    # A change without rerolled dice (a contest answer) is a new throw.
    assert fairness.faces_of(before, parent_id=5) == Counter({("Dice", 10, 2): 1, ("Dice", 10, 3): 1,
                                                             ("Dice", 10, 7): 1})
    # Sides: each side's dice (not the combined view as well).
    sides = [{"label": "A", "view": view([("Dice", 10, [(4, ())])])},
             {"label": "B", "view": view([("Dice", 10, [(4, ())]), ("Hunger", 10, [(10, ("hunger",))])])}]
    assert fairness.faces_of(plain, sides=sides) == Counter({("Dice", 10, 4): 2, ("Hunger", 10, 10): 1})
    assert fairness.faces_of(plain, action=True) == Counter()


def test_store_roll_writes_the_faces(people):
    _room, anna, bob = people
    shown = view([("Dice", 10, [(2, ()), (2, ()), (10, ())]), ("Hunger", 10, [(1, ("hunger",))])])
    entry = api.store_roll(anna, {"view": shown, "command": "+roll 4"})
    got = sorted(RollFace.objects.filter(entry=entry).values_list("label", "sides", "face", "count",
                                                                  "character_id", "system"))
    assert got == [("Dice", 10, 2, 2, anna.id, "v5"), ("Dice", 10, 10, 1, anna.id, "v5"),
                   ("Hunger", 10, 1, 1, anna.id, "v5")]
    assert RollFace.objects.get(entry=entry, face=10).created == entry.created
    # Staff rolling for Bob: the dice are Bob's.
    other = api.store_roll(anna, {"view": shown, "subject": bob})
    assert set(RollFace.objects.filter(entry=other).values_list("character_id", flat=True)) == {bob.id}
    # A staff action has no dice.
    action = api.record_action(anna, bob, "hunger", "Hunger 2 -> 3")
    assert not RollFace.objects.filter(entry=action).exists()


def python_counts(entries, character=None, since=None, until=None):
    out = {}
    for entry in entries:
        who = entry.subject_id or entry.character_id
        if character is not None and who != character.id:
            continue
        if (since is not None and entry.created < since) or (until is not None and entry.created >= until):
            continue
        for group in entry.view["groups"]:
            for face, _marks in group["dice"]:
                faces = out.setdefault((group["label"], group["sides"]), {})
                faces[face] = faces.get(face, 0) + 1
    return {key: dict(sorted(faces.items())) for key, faces in sorted(out.items())}


def test_face_counts_equal_a_python_count(people):
    _room, anna, bob = people
    rng = random.Random(14)
    for _ in range(120):
        entry = api.store_roll(rng.choice([anna, bob]), {"view": random_view(rng)})
        RollEntry.objects.filter(id=entry.id).update(created=NOW - datetime.timedelta(days=rng.randint(0, 60)))
        RollFace.objects.filter(entry=entry).update(created=NOW - datetime.timedelta(days=0))
    # The copied time follows the entry's (set above by hand): copy it again as store_roll would.
    for entry in RollEntry.objects.all():
        RollFace.objects.filter(entry=entry).update(created=entry.created)
    fairness.rebuild_tally()  # the whole game's days, from the times set by hand
    entries = list(RollEntry.objects.all())
    since, until = NOW - datetime.timedelta(days=30), NOW - datetime.timedelta(days=5)
    assert fairness.face_counts() == python_counts(entries)
    assert fairness.face_counts(character=anna) == python_counts(entries, character=anna)
    assert fairness.face_counts(character=bob.id, since=since, until=until) == \
        python_counts(entries, character=bob, since=since, until=until)
    assert fairness.face_counts(since=since) == python_counts(entries, since=since)
    assert sum(sum(f.values()) for f in fairness.face_counts().values()) == \
        sum(len(g["dice"]) for e in entries for g in e.view["groups"])
    assert fairness.face_counts(system="dicecheck") == python_counts([e for e in entries if e.system == "dicecheck"])
