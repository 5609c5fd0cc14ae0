"""
What the roll log's long lists count at write time, so a page of a million-entry
log reads a few hundred rows whoever asks (`rolllog.api.page`, `visible_to_account`):

- `DayCount`: the entries of each UTC day per room (0: none; -1: every room at once), public
  and private. The whole log's "Page N of M", its private entries', a room's, a player's
  public part, and the day a deep page starts on.
- `RoomVisit`: how many entries place each character in each room (rolled, was rolled for
  or was shown it there): the rooms a player "was in", whose public entries they may read.
- `Participant`: the characters who took part in each entry that is private or has no room:
  what else a player may read, per day.

Kept by the model signals in `rolllog.models`, in the transaction that saves (or deletes) the
entry: `entry_saved` (a new entry: its day, its roller and subject), `receivers_changed`
(those it was shown to, set just after), `entry_deleting`/`entry_deleted`, and
`object_deleting` (a character or room the log is about to forget; a room's entries lose it,
and the public ones become readable by their participants only). A roll
(`rolllog.api.store_roll`) is inserted with its receivers in bulk, without those signals, and
counted there by the same functions (`count_entries`, `reach`) in the same transaction: one
statement per table, whatever the audience.

**Ruling:** anything that writes entries around `save()` (a bulk insert, raw SQL, an edited
time or room) must `rebuild()` afterwards.
The tables always read as a rebuild would count the log at that moment (the tests check it
after every kind of change).
"""

import datetime
from collections import Counter

from django.db.models import Count, Max, Min, Q
from django.db.models.functions import TruncDate
from evennia.objects.models import ObjectDB

from . import models
from .counting import add_counts, connection_for, empty
from .models import Participant, RollEntry, RoomVisit

DAY_COUNT_KEY = ("day", "room", "private")
EVERY_ROOM = -1  # DayCount's rows for every room (and none) at once: the whole log's, read by staff
VISIT_KEY = ("character", "room")
REBUILD_BATCH = 100_000  # entry ids per query when the counts are rebuilt
INSERT_BATCH = 2000


def utc_day(moment):
    """The UTC date of a datetime (a naive one is taken as UTC, as the database keeps it)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc)
    return moment.date()


def _models(**given):
    return {name: given.get(name) or getattr(models, name)
            for name in ("RollEntry", "DayCount", "RoomVisit", "Participant")}


def roles(entry):
    """The characters an entry places in its room besides its receivers: roller and subject."""
    return [ident for ident in (entry.character_id, entry.subject_id) if ident]


def needs_participants(entry):
    """Whether who took part in `entry` is kept by character (`Participant`, and a stored
    roll's `receivers` rows): a private or roomless entry. A public one in a room is read by
    anyone, and places its audience in the room (`RoomVisit`)."""
    return bool(entry.private) or not entry.room_id


def existing(ids, using=None):
    """The ids of `ids` that are still game objects: an entry's `receiver_ids` keep a deleted
    character's id (its `receivers` row went with it), and what is counted of it went too."""
    ids = sorted({int(ident) for ident in ids if isinstance(ident, int)})
    if not ids:
        return set()
    return set(ObjectDB.objects.using(using or "default").filter(id__in=ids).values_list("id", flat=True))


def _keeps_shown(model):
    """Whether entries have `receiver_ids` (not yet in the older migrations' models)."""
    return any(field.name == "receiver_ids" for field in model._meta.concrete_fields)


def _shown_in_entries(pairs, using=None):
    """[(entry id, receiver id)] from (entry id, `receiver_ids`) pairs, deleted characters left out."""
    pairs = [(entry_id, list(ids or ())) for entry_id, ids in pairs]
    alive = existing([ident for _entry, ids in pairs for ident in ids], using)
    return [(entry_id, ident) for entry_id, ids in pairs for ident in ids if ident in alive]


# ---------------------------------------------------------------- kept at write time


def count_entries(entries, sign=1, using=None, model=None):
    """Add saved entries to `DayCount` (`sign=-1`: take them off), in one upsert."""
    model = model or _models()["DayCount"]
    counter = Counter()
    for entry in entries:
        day, private = utc_day(entry.created), bool(entry.private)
        counter[(day, entry.room_id or 0, private)] += sign
        counter[(day, EVERY_ROOM, private)] += sign
    add_counts(model, DAY_COUNT_KEY, counter, using)


def reach(entry, characters, sign=1, using=None):
    """`characters` (ids, repeats counted) took part in `entry`: their visits and participation."""
    found = _models()
    characters = [int(ident) for ident in characters if ident]
    if not characters:
        return
    if entry.room_id:
        visits = Counter()
        for ident in characters:
            visits[(ident, entry.room_id)] += sign
        add_counts(found["RoomVisit"], VISIT_KEY, visits, using)
    if sign > 0 and needs_participants(entry):
        day = utc_day(entry.created)
        found["Participant"].objects.using(using or connection_for(found["Participant"]).alias).bulk_create(
            [found["Participant"](entry_id=entry.id, character=ident, day=day) for ident in sorted(set(characters))],
            ignore_conflicts=True)


def entry_saved(entry, using=None):
    count_entries([entry], using=using)
    reach(entry, roles(entry), using=using)


def _receiver_ids(entry, using=None):
    return list(entry.receivers.through.objects.using(using or "default").filter(rollentry_id=entry.id)
                .values_list("objectdb_id", flat=True))


def receivers_changed(instance, action, reverse, pk_set, using=None):
    """m2m_changed of `RollEntry.receivers`: add or take off the characters shown an entry."""
    if reverse:  # a character's entries changed (no such accessor today): one entry at a time
        if pk_set is None:
            pk_set = set(RollEntry.receivers.through.objects.using(using or "default")
                         .filter(objectdb_id=instance.pk).values_list("rollentry_id", flat=True))
        for entry in RollEntry.objects.using(using or "default").filter(id__in=sorted(pk_set)):
            receivers_changed(entry, "pre_remove" if action == "pre_clear" else action, False, {instance.pk}, using)
        return
    entry = instance
    if action == "post_add":
        reach(entry, sorted(pk_set or ()), using=using)
    elif action in ("pre_remove", "pre_clear"):
        current = _receiver_ids(entry, using)
        going = [ident for ident in current if action == "pre_clear" or ident in (pk_set or ())]
        reach(entry, going, sign=-1, using=using)
        if needs_participants(entry):
            staying = set(roles(entry)) | (set(current) - set(going))
            gone = set(going) - staying
            if gone:
                _models()["Participant"].objects.using(using or "default").filter(
                    entry_id=entry.id, character__in=sorted(gone)).delete()


def entry_deleting(entry, using=None):
    """Before an entry is deleted (its receivers and participants go with it)."""
    if entry.room_id:
        shown = [ident for _entry, ident in _shown_in_entries([(entry.id, getattr(entry, "receiver_ids", ()))], using)]
        reach(entry, roles(entry) + _receiver_ids(entry, using) + shown, sign=-1, using=using)


def entry_deleted(entry, using=None):
    count_entries([entry], sign=-1, using=using)


def object_deleting(obj, using=None):
    """
    Before a game object is deleted, the log is about to forget it (SET_NULL, its receiver
    rows deleted): as a character, its visits and participations go; as a room, its entries
    lose it, so the public ones (the private ones have theirs) get their participants, the
    room leaves everyone's visits, and its day counts move to "no room". Each as a rebuild
    would count the log afterwards.
    """
    found = _models()
    db = using or "default"
    found["RoomVisit"].objects.using(db).filter(character=obj.pk).delete()
    found["Participant"].objects.using(db).filter(character=obj.pk).delete()
    entries = found["RollEntry"].objects.using(db).filter(room_id=obj.pk)
    if not entries.exists():
        return
    _add_participants(entries.filter(private=False), found, db)
    found["RoomVisit"].objects.using(db).filter(room=obj.pk).delete()
    days = found["DayCount"].objects.using(db).filter(room=obj.pk)  # EVERY_ROOM's stay as they are
    add_counts(found["DayCount"], DAY_COUNT_KEY,
               Counter({(day, 0, private): n for day, private, n in days.values_list("day", "private", "count")}), db)
    days.delete()


# ---------------------------------------------------------------- rebuilt from the log


def _add_participants(entries, found, db):
    """Participant rows for every roller, subject and receiver of `entries` (a query)."""
    Participant = found["Participant"]
    through = found["RollEntry"].receivers.through
    days = {}
    rows = []

    def flush(force=False):
        if rows and (force or len(rows) >= INSERT_BATCH):
            Participant.objects.using(db).bulk_create(rows, ignore_conflicts=True)
            rows.clear()

    in_entries = []
    columns = ("id", "created", "character_id", "subject_id") + (("receiver_ids",) if _keeps_shown(entries.model) else ())
    for ident, created, character, subject, *shown in entries.values_list(*columns).order_by("id") \
            .iterator(chunk_size=INSERT_BATCH):
        shown = shown[0] if shown else None
        days[ident] = day = utc_day(created)
        for who in {character, subject} - {None}:
            rows.append(Participant(entry_id=ident, character=who, day=day))
        if shown:
            in_entries.append((ident, shown))
        flush()
    flush(force=True)
    idents = sorted(days)
    for start in range(0, len(idents), INSERT_BATCH):
        chunk = idents[start:start + INSERT_BATCH]
        for entry_id, who in through.objects.using(db).filter(rollentry_id__in=chunk) \
                .values_list("rollentry_id", "objectdb_id"):
            rows.append(Participant(entry_id=entry_id, character=who, day=days[entry_id]))
        flush()
    for start in range(0, len(in_entries), INSERT_BATCH):
        for entry_id, who in _shown_in_entries(in_entries[start:start + INSERT_BATCH], db):
            rows.append(Participant(entry_id=entry_id, character=who, day=days[entry_id]))
        flush()
    flush(force=True)


def rebuild(using=None, batch=REBUILD_BATCH, **given):
    """
    Empty `DayCount`, `RoomVisit` and `Participant` and count the whole log into them again,
    a batch of entry ids at a time (the database counting each): the way back after entries
    were written around `save()`. Returns the three tables' row counts.
    """
    found = _models(**given)
    RollEntry, DayCount, RoomVisit, Participant = (found[name] for name in
                                                   ("RollEntry", "DayCount", "RoomVisit", "Participant"))
    db = using or connection_for(DayCount).alias
    for model in (DayCount, RoomVisit, Participant):
        empty(model, db)
    entries = RollEntry.objects.using(db).order_by()
    through = RollEntry.receivers.through
    bounds = entries.aggregate(low=Min("id"), high=Max("id"))
    if bounds["low"] is not None:
        for low in range(bounds["low"], bounds["high"] + 1, batch):
            part = entries.filter(id__gte=low, id__lt=low + batch)
            days = Counter()
            for day, room, private, number in (part.annotate(day=TruncDate("created", tzinfo=datetime.timezone.utc))
                                               .values_list("day", "room_id", "private").annotate(n=Count("id"))
                                               .order_by()):
                days[(day, room or 0, bool(private))] += number
                days[(day, EVERY_ROOM, bool(private))] += number
            add_counts(DayCount, DAY_COUNT_KEY, days, db)
            visits = Counter()
            roomed = part.filter(room_id__isnull=False)
            for column in ("character_id", "subject_id"):
                for who, room, number in (roomed.filter(**{f"{column}__isnull": False})
                                          .values_list(column, "room_id").annotate(n=Count("id")).order_by()):
                    visits[(who, room)] += number
            for who, room, number in (through.objects.using(db).filter(rollentry_id__gte=low, rollentry_id__lt=low + batch,
                                                                       rollentry__room_id__isnull=False)
                                      .values_list("objectdb_id", "rollentry__room_id").annotate(n=Count("id"))
                                      .order_by()):
                visits[(who, room)] += number
            _count_shown_in_entries(roomed, visits, db)
            add_counts(RoomVisit, VISIT_KEY, visits, db)
            _add_participants(part.filter(Q(private=True) | Q(room_id__isnull=True)), found, db)
    return tuple(model.objects.using(db).count() for model in (DayCount, RoomVisit, Participant))


def _count_shown_in_entries(roomed, visits, db):
    """Add the receivers kept in the entries themselves (`receiver_ids`) to `visits`."""
    if not _keeps_shown(roomed.model):
        return
    pairs = roomed.filter(receiver_ids__isnull=False).values_list("id", "receiver_ids", "room_id")
    rooms = {}
    kept = []
    for entry_id, shown, room in pairs.iterator(chunk_size=INSERT_BATCH):
        rooms[entry_id] = room
        kept.append((entry_id, shown))
    for entry_id, who in _shown_in_entries(kept, db):
        visits[(who, rooms[entry_id])] += 1


# ---------------------------------------------------------------- read by the lists


def rooms_visited(character_ids):
    """The rooms (ids, sorted) where any of these characters rolled, was rolled for or shown a roll."""
    ids = sorted(character_ids)
    if not ids:
        return []
    rooms = set(RoomVisit.objects.filter(character__in=ids, count__gt=0).values_list("room", flat=True))
    # Only rooms that exist: a room deleted without its signal (raw SQL) reads as none.
    return sorted(ObjectDB.objects.filter(id__in=sorted(rooms)).values_list("id", flat=True)) if rooms else []


def participated(character_ids):
    """The Participant rows of these characters: the private or roomless entries they took part in."""
    return Participant.objects.filter(character__in=sorted(character_ids)).order_by()
