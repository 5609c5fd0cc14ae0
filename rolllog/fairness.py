"""
The fairness report's counts, from the database: how often each face came up, per
dice group label and die size, for one character (or everyone) over a time window.

The dice live in each entry's JSON `view`; counting JSON portably (SQLite and PostgreSQL) is
awkward and slow, so every stored roll also writes `RollFace` rows (one per group label, die
size and face, with its count) in one bulk insert (`rolllog.api.store_roll`), and
`face_counts` is one GROUP BY over that table.

**Ruling (which dice count):** a chi-square test of the dice wants every die the random source
actually threw, once:

- a roll: every die of its view (a contest or teamwork entry: every die of each side's view,
  the sides being the dice as rolled);
- a reroll made in the same command (the entry keeps `initial`, the view before): every die
  of `initial` *and* the new faces of the rerolled dice (marked `rerolled` in the view);
  the kept dice are counted once, from `initial`;
- a later change to a roll (`parent` set: a Willpower reroll) whose view marks rerolled dice:
  only those new faces (the rest were counted on the parent). A change without any rerolled
  mark is a new throw (a contest answer) and counts whole;
- staff actions (no view) count nothing.

Group labels are kept as shown ("Dice", "Hunger", "Chance die" ...), so under V5 Hunger dice
and regular dice are counted apart; a report may merge labels of one size if it wants.
`character` is whose dice they were: the subject when staff rolled for someone, else the roller.

**Ruling (the whole game at a million rows):** counting every RollFace row of the
whole game took 9 s on SQLite at a million entries, and the report is a page. So the faces are
also summed per UTC day, system, group label, die size and face in `FaceTally`:

- `store_roll` adds an entry's faces to the tally by one upsert (`INSERT ... ON CONFLICT DO
  UPDATE SET count = count + excluded.count`) in the transaction that inserts its RollFace
  rows, so the two never disagree; deleting RollFace rows through Django (an entry's deletion
  cascades to them) takes their counts off again (`rolllog.models`). RollFace rows written
  around `add_to_tally` (raw SQL, a hand-made fix) need `rebuild_tally`.
- `face_counts` for everyone reads the whole UTC days inside the window from the tally and
  the part days at its edges (a window that starts 30 days ago to the second) from RollFace:
  exactly the counts RollFace alone gives, in a few thousand rows.
- One character's report stays on RollFace (through its index `rollface_character_created`:
  tens of ms at a million entries, bench/bench_rolllog.py); the tally has no character.

**Ruling (whose private rolls a report counts):** a report is what its viewer could see. A
private roll's faces are counted only in the reports of those it was shown to (the roller,
the character rolled for, the named receivers, their accounts) and of staff, exactly the
people `+roll/verify` shows it to; everyone else's report counts public rolls only. Were it
otherwise, running the report before and after another player's private roll would give its
exact faces. So RollFace and FaceTally keep `private` (copied from the entry),
the tally sums public and private faces apart, and a player's whole-game report is the public
tally plus the private RollFace rows of the entries they took part in (`Participant`): a
few rows more than the public report, however large the game.
"""

import datetime
from collections import Counter

from django.db.models import Max, Min, Q, Sum
from django.db.models.functions import TruncDate

from storyteller_dice.rules.engine import REROLLED

from . import access, listing
from .counting import add_counts, connection_for, empty
from .listing import utc_day
from .models import FaceTally, RollEntry, RollFace

REBUILD_BATCH = 200_000  # RollFace ids summed per query when the tally is rebuilt


def _groups(view):
    return (view or {}).get("groups") or ()


def _count(counter, view, only_rerolled=False):
    for group in _groups(view):
        label, sides = str(group.get("label", ""))[:64], int(group.get("sides", 10) or 10)
        for face, marks in group.get("dice", ()):
            if not only_rerolled or REROLLED in (marks or ()):
                counter[(label, sides, int(face))] += 1


def _has_rerolled(view):
    return any(REROLLED in (marks or ()) for group in _groups(view) for _face, marks in group.get("dice", ()))


def faces_of(view, initial=None, sides=(), parent_id=None, action=False):
    """
    Counter {(label, sides, face): count} of the dice an entry threw (see the module's ruling),
    from its stored fields.
    """
    counter = Counter()
    if action:
        return counter
    side_views = [side.get("view") for side in sides or () if side.get("view") and _groups(side.get("view"))]
    views = side_views or ([view] if view else [])
    for shown in views:
        if initial:
            _count(counter, initial)
            _count(counter, shown, only_rerolled=True)
        elif parent_id and _has_rerolled(shown):
            _count(counter, shown, only_rerolled=True)
        else:
            _count(counter, shown)
    return counter


def face_rows(entry, model=None):
    """The unsaved `RollFace` rows of a saved entry (`model`: the migration's historical model)."""
    model = model or RollFace
    counter = faces_of(entry.view, entry.initial, entry.sides, entry.parent_id, entry.action)
    character_id = entry.subject_id or entry.character_id
    return [model(entry_id=entry.id, character_id=character_id, created=entry.created, system=entry.system or "",
                  label=label, sides=size, face=face, count=count, private=bool(entry.private))
            for (label, size, face), count in sorted(counter.items())]


def _aware(moment):
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def _day_start(day):
    return datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.timezone.utc)


TALLY_KEY = ("day", "private", "system", "label", "sides", "face")


def _tally_counter(faces, sign=1):
    counter = Counter()
    for row in faces:
        key = (utc_day(row.created), bool(getattr(row, "private", False)), row.system or "", row.label, row.sides,
               row.face)
        counter[key] += sign * row.count
    return counter


def add_to_tally(faces, model=None, using=None):
    """
    Add `RollFace` rows (saved or not) to the per-day tally (`FaceTally`), public and private
    apart, in one upsert statement (a chunk of 150 keys each) whatever the roll's audience.
    Call it in the transaction that inserts them (`rolllog.api.store_roll` does), so the two
    never disagree.
    """
    model = model or FaceTally
    add_counts(model, TALLY_KEY, _tally_counter(faces), using)


def remove_from_tally(faces, model=None, using=None):
    """Take deleted `RollFace` rows' counts off the tally (and drop the keys that reach 0)."""
    model = model or FaceTally
    counter = _tally_counter(faces, sign=-1)
    add_counts(model, TALLY_KEY, counter, using)
    for key in counter:
        model.objects.using(connection_for(model, using).alias).filter(
            count__lte=0, **dict(zip(TALLY_KEY, key))).delete()


def rebuild_tally(model=None, face_model=None, using=None, batch=REBUILD_BATCH):
    """
    Empty the tally and sum every RollFace row into it again, a batch of ids at a time (each
    summed by the database): the way back after anything wrote RollFace rows around
    `add_to_tally`. Returns the number of tally rows.
    """
    model, face_model = model or FaceTally, face_model or RollFace
    db = using or connection_for(model).alias
    empty(model, db)
    # Migration 0007's models (before 0009) have no `private`: then the old key.
    key = TALLY_KEY if any(field.name == "private" for field in model._meta.get_fields()) else \
        tuple(name for name in TALLY_KEY if name != "private")
    faces = face_model.objects.using(db)
    bounds = faces.aggregate(low=Min("id"), high=Max("id"))
    if bounds["low"] is None:
        return 0
    for low in range(bounds["low"], bounds["high"] + 1, batch):
        rows = (faces.filter(id__gte=low, id__lt=low + batch)
                .annotate(day=TruncDate("created", tzinfo=datetime.timezone.utc))
                .values_list(*key).annotate(total=Sum("count")).order_by())
        add_counts(model, key, Counter({tuple(values): total for *values, total in rows}), db)
    return model.objects.using(db).count()


def rolled_characters(using=None):
    """
    The ids of the characters whose dice are counted (RollFace's `character`), sorted: what the
    fairness page offers staff. Read as one index seek per character (a recursive query
    walking `rollface_character_created` from one id to the next), the same on SQLite and
    PostgreSQL, where `SELECT DISTINCT` reads every face ever rolled (0.3 s at a million
    entries on PostgreSQL, which has no skip scan).
    """
    connection = connection_for(RollFace, using)
    quote = connection.ops.quote_name
    table, column = quote(RollFace._meta.db_table), quote(RollFace._meta.get_field("character").column)
    sql = (f"WITH RECURSIVE walk (ident) AS ("
           f" SELECT MIN({column}) FROM {table}"
           f" UNION ALL"
           f" SELECT (SELECT MIN({column}) FROM {table} WHERE {column} > walk.ident) FROM walk"
           f" WHERE walk.ident IS NOT NULL)"
           f" SELECT ident FROM walk WHERE ident IS NOT NULL")
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [ident for (ident,) in cursor.fetchall()]


def _add(out, rows):
    for label, size, face, total in rows:
        faces = out.setdefault((label, size), {})
        faces[face] = faces.get(face, 0) + total


def shown_private(viewer, since=None, until=None):
    """
    A filter on RollFace: the private faces `viewer` (a character or an account) was shown,
    by the rule of `rolllog.api.can_view` (one of their characters rolled, was rolled for or
    was shown the roll, or their account rolled it), read from `Participant` (its index
    `participant_character_day`, narrowed to the window's UTC days) and the account's own
    entries: a seek each, as small as what the viewer took part in.
    """
    shown = Q(pk__in=[])
    ids = access.own_character_ids(viewer)
    if ids:
        took_part = listing.participated(ids)
        if since is not None:
            took_part = took_part.filter(day__gte=utc_day(since))
        if until is not None:
            took_part = took_part.filter(day__lte=utc_day(until))
        shown |= Q(entry_id__in=took_part.values("entry_id"))
    account = access.account_of(viewer)
    if account is not None and getattr(account, "id", None):
        own = RollEntry.objects.filter(account_id=account.id, private=True)
        if since is not None:
            own = own.filter(created__gte=since)
        if until is not None:
            own = own.filter(created__lt=until)
        shown |= Q(entry_id__in=own.order_by().values("id"))
    return Q(private=True) & shown


def _whole_days(since, until):
    """(first, last): the whole UTC days inside [since, until) (None: open), or None if none."""
    first = None if since is None else utc_day(since)
    if first is not None and _day_start(first) < since:
        first += datetime.timedelta(days=1)
    last = None if until is None else utc_day(until)
    if first is not None and last is not None and first >= last:
        return None
    return first, last


def _faces_in(which, character, start, end, system):
    """RollFace rows matching `which` by (or for) `character` in [start, end), summed by face."""
    query = RollFace.objects.filter(which)
    if character is not None:
        query = query.filter(character_id=getattr(character, "id", character))
    if start is not None:
        query = query.filter(created__gte=start)
    if end is not None:
        query = query.filter(created__lt=end)
    if system:
        query = query.filter(system=system)
    return query.values_list("label", "sides", "face").annotate(total=Sum("count")).order_by()


def _add_tallied(out, days, since, until, public, system, from_faces):
    """The whole UTC days `days` (first, last) from FaceTally, the part days at the edges from RollFace."""
    first, last = days
    tally = FaceTally.objects.filter(public)
    if first is not None:
        tally = tally.filter(day__gte=first)
        if _day_start(first) > since:
            _add(out, from_faces(since, _day_start(first), public))
    if last is not None:
        tally = tally.filter(day__lt=last)
        if _day_start(last) < until:
            _add(out, from_faces(_day_start(last), until, public))
    if system:
        tally = tally.filter(system=system)
    _add(out, tally.values_list("label", "sides", "face").annotate(total=Sum("count")).order_by())


def face_counts(character=None, since=None, until=None, system=None, shown_to=None):
    """
    {(label, sides): {face: count}}: the faces rolled by (or for) `character` (an object or
    its id; None: everyone), from `since` (inclusive) to `until` (exclusive; datetimes), in the
    database by GROUP BY. Faces that never came up are absent (the report knows the size).

    `shown_to` (a character or an account; None: the whole record) counts what that viewer
    could see: every public face, and the private faces only of rolls they were shown
    (`shown_private`); staff see the whole record. A report that counted every private roll
    would give away another player's private faces as its difference before and after.

    One character: one GROUP BY over RollFace (through `rollface_character_created`).
    Everyone: the whole UTC days inside the window from FaceTally (its public rows only, for
    a player), the part days at its edges (a window starting 30 days ago to the second) from
    RollFace, and a player's private faces from RollFace by the entries they were shown.
    """
    if shown_to is not None and access.is_staff(shown_to):
        shown_to = None
    public = Q() if shown_to is None else Q(private=False)

    def from_faces(start, end, which):
        return _faces_in(which, character, start, end, system)

    since, until = _aware(since), _aware(until)
    out = {}
    days = None if character is not None else _whole_days(since, until)
    if days is None:
        _add(out, from_faces(since, until, public))  # one character, or no whole day inside
    else:
        _add_tallied(out, days, since, until, public, system, from_faces)
    if shown_to is not None:
        _add(out, from_faces(since, until, shown_private(shown_to, since, until)))
    return {key: dict(sorted(faces.items())) for key, faces in sorted(out.items())}
