"""
The roll log at scale: the roll log's long lists page by what `rolllog.listing` counts at write time
(`DayCount`, `RoomVisit`, `Participant`; `rolllog.api.page`, `visible_to_account`).

- Every saved entry is counted on its UTC day, room and privacy, and a deleted one is taken
  off; the rooms each character was in and the participants of private or roomless entries
  follow saves, receivers set, added and removed, deletions of entries, rooms and
  characters; `listing.rebuild` gives the same tables.
- A player's list is exactly the rule (their rolls, the rolls shown to them, the public rolls
  of the rooms they were in), checked against the rule written out in Python.
- Pages read by the day counts are exactly the pages the database's own count and OFFSET give
  (the old reading), with the same "Page N of M", for the whole log, its private entries, a
  room's, and players who see much, little or nothing, over many days, with entries on the
  same instant and on midnights, roomless ones, and after a room is deleted.
- The plan is dropped as soon as a filter is added (a code, a character): then the database
  counts, as before.
"""

import datetime
import random

import pytest
from django.test import Client
from evennia.utils import create

from storyteller_dice.rolllog import api, listing
from storyteller_dice.rolllog.models import DayCount, Participant, RollEntry, RoomVisit
from storyteller_dice.rules.engine import DiceGroup, Die, Outcome, RollView

# A roll as store_roll needs it (a view); what it shows does not matter to the counts.
A_VIEW = RollView(system="v5", pool="3 dice", target="", groups=(DiceGroup("Dice", (Die(7, frozenset({"success"})),)),),
                  score=1, noun=("success", "successes"), outcome=Outcome("success", "success", "good"))

pytestmark = [pytest.mark.django_db, pytest.mark.database]

UTC = datetime.timezone.utc
MIDNIGHT = datetime.datetime(2026, 3, 10, tzinfo=UTC)
DAYS = 12


def counts(every=False):
    rows = DayCount.objects.filter(count__gt=0)
    rows = rows if every else rows.exclude(room=listing.EVERY_ROOM)
    return sorted(rows.values_list("day", "room", "private", "count"))


def tables():
    return (counts(every=True), sorted(RoomVisit.objects.filter(count__gt=0).values_list("character", "room", "count")),
            sorted(Participant.objects.values_list("entry_id", "character", "day")))


def rule_visible(account):
    """The web page's rule for a player, written out over every entry (api's module docstring)."""
    from evennia.objects.models import ObjectDB

    ids = set(ObjectDB.objects.filter(db_account_id=account.id).values_list("id", flat=True))
    entries = list(RollEntry.objects.order_by("-created", "-id"))
    shown = {}
    for entry_id, who in RollEntry.receivers.through.objects.values_list("rollentry_id", "objectdb_id"):
        shown.setdefault(entry_id, set()).add(who)
    for entry in entries:  # a public roll's receivers, kept in its own row
        shown.setdefault(entry.id, set()).update(entry.receiver_ids or ())

    def took_part(e):
        return e.character_id in ids or e.subject_id in ids or bool(shown.get(e.id, set()) & ids)

    rooms = {e.room_id for e in entries if e.room_id and took_part(e)}
    return [e.id for e in entries
            if e.account_id == account.id or took_part(e) or (not e.private and e.room_id in rooms)]


def counted_from_the_log():
    out = {}
    for created, room, private in RollEntry.objects.values_list("created", "room_id", "private"):
        key = (created.astimezone(UTC).date(), room or 0, private)
        out[key] = out.get(key, 0) + 1
    return sorted((*key, n) for key, n in out.items())


@pytest.fixture
def game():
    """Four rooms; players: Anna (two characters, busy), Bob (one room), Cleo (nothing yet)."""
    rooms = [create.create_object("typeclasses.rooms.Room", key=f"Room {n}", nohome=True) for n in range(4)]
    players = {}
    for name, count in (("anna", 2), ("bob", 1), ("cleo", 1)):
        account = create.create_account(f"{name}acct", email=f"{name}@example.org", password="pw-for-tests")
        chars = []
        for n in range(count):
            char = create.create_object("typeclasses.characters.Character", key=f"{name.title()}{n}",
                                        location=rooms[0], home=rooms[0])
            char.db_account = account
            char.save()
            chars.append(char)
        players[name] = (account, chars)
    extras = [create.create_object("typeclasses.characters.Character", key=f"Extra{n}", location=rooms[0],
                                   home=rooms[0]) for n in range(3)]
    return rooms, players, extras


def fill(game, count=700, seed=14):
    """Entries over DAYS days by save() (as store_roll saves them), some sharing an instant."""
    rooms, players, extras = game
    anna, bob = players["anna"][1], players["bob"][1]
    rng = random.Random(seed)
    made = []
    for number in range(count):
        pick = rng.random()
        if pick < 0.6:
            roller, room = rng.choice(anna + extras), rng.choice(rooms[:3])
        elif pick < 0.7:
            roller, room = bob[0], rooms[3]
        else:
            roller, room = rng.choice(extras), rng.choice(rooms)
        if rng.random() < 0.03:
            room = None
        roll = rng.random()
        if roll < 0.1 and made:
            created = made[-1].created  # the same instant: the id breaks the tie
        elif roll < 0.15:
            created = MIDNIGHT + datetime.timedelta(days=rng.randint(0, DAYS))
        else:
            created = MIDNIGHT + datetime.timedelta(seconds=rng.uniform(0, DAYS * 86400))
        entry = RollEntry.objects.create(
            code=f"D{number:07d}", created=created, character=roller, character_name=roller.key,
            account=roller.account, subject=rng.choice(anna) if rng.random() < 0.03 else None,
            room=room, room_name=room.key if room else "", private=rng.random() < 0.3,
            action=rng.random() < 0.05)
        # Shown to the room's regulars: Bob keeps to the last room.
        shown = rng.sample((bob if room is rooms[3] else anna) + extras, rng.randint(0, 2))
        if shown:
            entry.receivers.set(shown)
        made.append(entry)
    return made


def offset_reading(query, number, size):
    """The old reading: the database's count, then the page by OFFSET."""
    query = query.all()
    query.page_plan = None
    return api.page(query, number, size)


def same_pages(query, size):
    assert query.page_plan is not None and query.page_plan.fits(query)
    total = query.count()
    pages = max(1, -(-total // size))
    seen = []
    for number in list(range(1, pages + 1)) + [pages + 3, 0, -2]:
        rows, got_total, got_pages = api.page(query, number, size)
        old_rows, old_total, old_pages = offset_reading(query, number, size)
        assert (got_total, got_pages) == (old_total, old_pages) == (total, pages), number
        assert [e.id for e in rows] == [e.id for e in old_rows], (number, size)
        if 1 <= number <= pages:
            seen.extend(e.id for e in rows)
    assert seen == list(query.values_list("id", flat=True))  # every entry once, newest first
    return total


def test_saved_entries_are_counted_per_day_room_and_privacy(game):
    rooms, players, _extras = game
    anna = players["anna"][1][0]
    late = datetime.datetime(2026, 3, 10, 23, 59, 59, 999999, tzinfo=UTC)
    RollEntry.objects.create(code="C0000001", created=late, character=anna, room=rooms[0])
    RollEntry.objects.create(code="C0000002", created=late + datetime.timedelta(microseconds=1), character=anna,
                             room=rooms[0])
    RollEntry.objects.create(code="C0000003", created=late, character=anna, room=rooms[0], private=True)
    RollEntry.objects.create(code="C0000004", created=late, character=anna)
    ten, eleven = datetime.date(2026, 3, 10), datetime.date(2026, 3, 11)
    assert counts() == [(ten, 0, False, 1), (ten, rooms[0].id, False, 1), (ten, rooms[0].id, True, 1),
                        (eleven, rooms[0].id, False, 1)]
    # Through the record's own calls too: a roll and a staff action, made now.
    api.store_roll(anna, {"view": A_VIEW, "command": "+roll 3"})
    api.record_action(anna, anna, "hunger", "Hunger 1 -> 2")
    assert sum(n for *_key, n in counts()) == 6 == RollEntry.objects.count()
    assert counts() == counted_from_the_log()
    RollEntry.objects.filter(code__in=["C0000001", "C0000003"]).delete()
    assert counts() == counted_from_the_log()
    assert (ten, rooms[0].id, False, 1) not in counts()
    # The every-room rows: the day's totals, public and private.
    every = [(day, private, n) for day, room, private, n in counts(every=True) if room == listing.EVERY_ROOM]
    totals = {}
    for day, _room, private, n in counts():
        totals[(day, private)] = totals.get((day, private), 0) + n
    assert every == sorted((day, private, n) for (day, private), n in totals.items())


def test_rebuild_gives_the_tables_kept_at_write_time(game):
    fill(game, count=300)
    kept = tables()
    assert counts() == counted_from_the_log()
    assert len(kept[1]) > 10 and len(kept[2]) > 100
    for model in (DayCount, RoomVisit, Participant):
        model.objects.all().delete()
    assert listing.rebuild(batch=17) == tuple(len(rows) for rows in kept)
    assert tables() == kept


def test_players_read_the_rule_through_every_change(game):
    made = fill(game, count=400, seed=21)
    rooms, players, extras = game
    accounts = [players[name][0] for name in ("anna", "bob", "cleo")]
    anna0, anna1 = players["anna"][1]
    bob0, cleo0 = players["bob"][1][0], players["cleo"][1][0]

    def check(step):
        kept = tables()
        listing.rebuild()
        assert tables() == kept, step  # what was kept is what the log says
        for account in accounts:
            expected = rule_visible(account)
            query = api.visible_to_account(account)
            assert list(query.values_list("id", flat=True)) == expected, (step, account)
            assert same_pages(query, 20) == len(expected), (step, account)

    check("filled")
    # Receivers changed after the save: added, removed, cleared, set anew.
    public = [e for e in made if not e.private and e.room_id == rooms[3].id][:3]
    private = [e for e in made if e.private][:3]
    public[0].receivers.add(cleo0)  # Cleo was shown a public roll: she was in that room
    private[0].receivers.add(cleo0, bob0)
    private[1].receivers.set([cleo0])
    private[2].receivers.clear()
    public[1].receivers.remove(*public[1].receivers.all())
    check("receivers")
    private[0].receivers.remove(cleo0)
    check("a receiver removed")
    # Entries deleted, a room deleted (its entries lose it), a character deleted, a character
    # moved to another account.
    RollEntry.objects.filter(id__in=[e.id for e in made[::9]]).delete()
    check("entries deleted")
    rooms[2].delete()
    check("a room deleted")
    extras[0].delete()
    anna1.db_account = accounts[1]
    anna1.save()
    check("a character deleted, another moved")
    # New entries after all that, through the record's own call.
    for number in range(30):
        api.store_roll(bob0 if number % 2 else anna0, {"view": A_VIEW, "command": "+roll 2"},
                       private=number % 3 == 0, receivers=[cleo0] if number % 5 == 0 else [])
    check("new rolls")


@pytest.mark.parametrize("size", [20, 7, 50])
def test_day_pages_are_the_offset_pages_for_staff_lists(game, size):
    fill(game)
    rooms = game[0]
    assert same_pages(api.search(), size) == 700
    assert same_pages(api.search(private_only=True), size) > 150
    assert same_pages(api.search(room=rooms[1]), size) > 100
    assert same_pages(api.search(room=rooms[2], query=api.search(private_only=True)), size) > 20
    assert same_pages(api.search(private_only=True, query=api.search(room=rooms[2])), size) > 20
    staff = create.create_account("staffer", email="s@example.org", password="pw-for-tests", is_superuser=True)
    assert same_pages(api.visible_to_account(staff).select_related("parent").order_by("-created", "-id"), size) == 700


@pytest.mark.parametrize("size", [20, 50])
def test_day_pages_are_the_offset_pages_for_players(game, size):
    fill(game)
    rooms, players, extras = game
    anna, bob, cleo = (players[name][0] for name in ("anna", "bob", "cleo"))
    many = same_pages(api.visible_to_account(anna), size)
    few = same_pages(api.visible_to_account(bob), size)
    assert many > 400 and 30 < few < 200
    assert same_pages(api.visible_to_account(cleo), size) == 0
    assert api.page(api.visible_to_account(cleo), 3, size) == ([], 0, 1)
    # A room deleted: its entries lose their room (so Anna no longer "was" there), its counts
    # stay under an id nobody asks for, and the pages still agree.
    rooms[1].delete()
    assert RollEntry.objects.filter(room_id=None).count() > 100
    assert same_pages(api.visible_to_account(anna), size) < many
    assert same_pages(api.search(), size) == 700


def test_a_filter_drops_the_plan(game):
    fill(game, count=120)
    rooms, players, _extras = game
    query = api.search()
    assert query.page_plan.fits(query.select_related("parent").order_by("-created", "-id"))
    mine = api.visible_to_account(players["anna"][0])
    assert mine.page_plan.fits(mine.select_related("parent").order_by("-created", "-id"))  # as the web page reads it
    code = query.first().code
    for narrowed in (query.filter(code=code), query.exclude(private=True), query.none(), query.distinct(),
                     api.search(character=players["anna"][1][0]), api.search(kinds=["roll"]),
                     api.visible_to_account(players["anna"][0]).filter(character_name="Anna0")):
        plan = narrowed.page_plan
        assert plan is None or not plan.fits(narrowed)
        rows, total, pages = api.page(narrowed, 1, 20)
        assert total == narrowed.count() and [e.id for e in rows] == list(narrowed.values_list("id", flat=True)[:20])


def test_the_web_page_says_the_same_page_of_the_same_count(game):
    fill(game, count=260)
    anna = game[1]["anna"][0]
    client = Client()
    client.force_login(anna)
    expected = list(api.visible_to_account(anna).values_list("id", flat=True))
    pages = -(-len(expected) // 50)
    for number in (1, 2, pages):
        response = client.get(f"/rolls/?page={number}")
        page = response.context["entries_page"]
        assert (page.number, page.paginator.num_pages, page.count) == (number, pages, len(expected))
        assert [row["entry"].id for row in response.context["rows"]] == expected[(number - 1) * 50:number * 50]
    assert f"Page 2 of {pages}" in client.get("/rolls/?page=2").content.decode()
