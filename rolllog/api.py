"""
The roll log's interface for commands and web views: storing, finding, and who may see what.

Storing
-------
- `store_roll(caller, record, private=..., receivers=..., shared_with=..., text=...)` is what
  `commands.dice_base.announce(..., record=...)` calls, before anyone is told. `record` is a
  dict, and every roll's record has a `view` (one without is refused, before anything is
  stored: `RecordError`); every other key is optional:

  ==================  =========================================================================
  kind                "roll", "check", "contest", "teamwork", "rouse", ... (default "roll")
  command             the command as typed
  comment             the player's comment
  system              the dice system's key (default: the view's, else the DICE_SYSTEM setting)
  view                (required) a `rules.engine.RollView` (or its dict): what was shown. Its
                      pool, target, score, outcome key and dice count are copied to plain
                      columns.
  data                the system's own record (`System.record(result, request)`, JSON)
  initial             the RollView before a reroll made in the same command
  sides               contest/teamwork: `[{"label": str, "view": RollView}]`, each side apart
  verdict             a contest's verdict as the room saw it (plain words; it is the summary)
  subject             the character rolled for, when staff roll for someone else (or the
                      challenger, on a contest answer)
  parent              the entry this one changes (a RollEntry or its code): a Willpower reroll
                      of an earlier roll, the answer to a contest
  pool                a `rules.pools.Pool` (its parts and values are kept) or the pool as text
  summary             the outcome in words (default: the verdict, or made from the view)
  details             a dict of anything else worth keeping (JSON)
  ==================  =========================================================================

  `result` and `difficulty_given`, which a command may keep in its record for itself (the
  rules' own result: `commands/rolls.py` hands the record to its wing), are not stored: the
  view says what was shown, `data` what the system keeps. Any other key is kept in `details`
  too (as JSON, or as text when it is not JSON).

- `record_action(actor, subject, kind, description, ...)` stores a staff action that is not a
  roll (Hunger set, slaked, ...), private to the actor, the subject and staff by default.

Every entry gets a fresh verification code (`rolllog.codes`), unique by a database constraint;
a clash (about one in 10**11 per stored roll while the log is small) is retried.

Seeing
------
- Public entries: anyone may verify them.
- Private entries: the participants (the roller, the subject, everyone the roll was shown to,
  and any character of the same account) and staff (Builder and above).
- `find_visible(code, viewer)` returns the entry, or None both when there is no such code and
  when the viewer may not see it, so a code cannot be probed.
- The web page (`visible_to_account`): staff see everything; a player sees the entries they
  took part in (one of their characters rolled, was rolled for, acted on, or was shown the
  roll) and the public rolls made in any room where one of their characters rolled or was shown
  a roll ("rooms they were in").

Listing
------------------
`search` and `visible_to_account` return queries that `page` counts exactly, per UTC day, from
what `rolllog.listing` keeps at write time (the whole log, its private entries, a room's, a
player's list), so "Page N of M" and a deep page cost about what the first page does at a
million entries; any further filter (a code, a character) is counted by the database as
before. Entries written around `save()` (bulk inserts, raw SQL) need `rolllog.listing.rebuild()`.
"""

import contextlib
import datetime
import json
from collections import Counter

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from evennia.utils.ansi import strip_ansi

from storyteller_dice.rules.display import append_code
from storyteller_dice.rules.engine import RollView
from storyteller_dice.typeclasses.audience import distinct

from . import codes, counting, listing, writer
from .access import account_of as _account_of, is_staff, own_character_ids  # noqa: F401 - the interface
from .fairness import add_to_tally, face_rows
from .counting import inserted_first, insert_object, insert_rows
from .models import DayCount, RollEntry, RollFace


class RecordError(ValueError):
    """A record `store_roll` cannot keep (no view): a command's mistake, refused before storing."""


MAX_CODE_TRIES = 20
PAGE_SIZE = 20

_STANDARD_KEYS = {
    # the record's shape
    "kind", "command", "comment", "system", "view", "data", "initial", "sides", "verdict", "subject",
    "parent", "details", "summary", "pool", "dice",
    # kept by a command with its record for itself, not stored (see the module docstring)
    "result", "difficulty_given",
}
# A RollFace row as `_count_faces` inserts it (the attribute names of its fields' values).
FACE_COLUMNS = ("entry_id", "character_id", "created", "system", "label", "sides", "face", "count", "private")


# ------------------------------------------------------------------------------ helpers


def with_code(text, code):
    """
    The text with the code as the room is sent it at 80 columns (`rules.display.append_code`:
    ` [code ABCD2345]` at the end of the last line, or on a line of its own when it would not
    fit), so the stored text is exactly what an 80-column receiver saw.
    """
    return append_code(text, code, width=80)


def _plain(text):
    return strip_ansi(str(text)).replace("||", "|")


def _name(obj):
    return getattr(obj, "key", None) or (str(obj) if obj is not None else "")


def _jsonable(value):
    if isinstance(value, tuple):
        value = list(value)
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        if hasattr(value, "key") and hasattr(value, "id"):
            return {"id": value.id, "name": value.key}
        return str(value)


def _connected(obj):
    """Whether someone is playing `obj` now (it has a session): only they can see a message."""
    try:
        return bool(obj.sessions.count())
    except AttributeError:
        return bool(getattr(obj, "has_account", False))


def _saw_it(obj, caller, room):
    """
    Whether `obj`, a receiver, goes on the entry's "seen by" (its `receivers`): the roller,
    and characters that were connected and in the room. An offline character in the room got
    nothing, so it must not later read the roll on the web page as one it was shown; exits and
    things are never listed.
    """
    if obj is caller or obj == caller:
        return True
    if not _connected(obj):
        return False
    return room is None or getattr(obj, "location", None) == room


def _int_or_none(value):
    """A number for the integer columns (bools count as 0/1); anything else is not stored."""
    if isinstance(value, bool):
        return int(value)
    return value if isinstance(value, int) else None


def _resolve_parent(parent):
    if parent is None or isinstance(parent, RollEntry):
        return parent
    if isinstance(parent, int):
        return RollEntry.objects.filter(id=parent).first()
    code = codes.normalize(parent)
    return RollEntry.objects.filter(code=code).first() if code else None


def _pool_fields(pool):
    """(text, parts) for a Pool object or text."""
    if pool is None:
        return "", []
    if hasattr(pool, "parts") and hasattr(pool, "describe"):
        parts = [
            {"label": p.label, "value": p.value, "sign": p.sign, "trait": p.trait, "specialty": p.specialty}
            for p in pool.parts
        ]
        return _plain(pool.describe()), parts
    return _plain(pool), []


def _with_fresh_code(entry, text, write, alone=False):
    """
    Give `entry` a fresh verification code (its text ending in it) and `write(entry)` in one
    transaction; a clash of codes (unique) undoes the transaction and is tried again with a
    new code. Returns the entry. `alone`: `write` is one `counting.inserted_first` block,
    which on PostgreSQL outside a transaction runs as its one execute (`counting.alone`).
    """
    for _ in range(MAX_CODE_TRIES):
        entry.pk = None
        entry.code = codes.new_code()
        entry.text = with_code(text, entry.code) if text else ""
        try:
            if alone and counting.sends_alone(RollEntry):
                try:
                    with counting.alone(RollEntry):
                        write(entry)
                    return entry
                except counting.NeedsTransaction:
                    pass  # nothing was written (`inserted_first` dropped the entry's id): again, in a transaction
            with transaction.atomic():
                write(entry)
            return entry
        except IntegrityError:
            if not RollEntry.objects.filter(code=entry.code).exists():
                raise
    raise RuntimeError(f"could not find a free verification code in {MAX_CODE_TRIES} tries")


def _save_with_code(entry, text, receivers=()):
    """Give `entry` a fresh code and save it with its receivers (Django's `save()`, whose
    signals keep the counts: a staff action is rare)."""

    def write(entry):
        entry.save()
        if receivers:
            entry.receivers.set(receivers)

    return _with_fresh_code(entry, text, write)


# ------------------------------------------------------------------------------ storing


def store_roll(caller, record, private=False, receivers=(), shared_with=(), text="", room=None, keep=None):
    """
    Store a roll (or a later change to one) and return the saved `RollEntry`.

    Args:
        caller: the character who rolled (or the staff member rolling for `record["subject"]`).
        record (dict): what was rolled (see the module docstring), its `view` required.
        private (bool): shown only to `receivers`.
        receivers: everyone who is shown it (for a public roll, the room's contents); the
            entry's "seen by" keeps the roller and those of them that were connected and in
            the room (`_saw_it`).
        shared_with: the characters a private roll was explicitly shared with.
        text (str): what is shown (colour markup allowed, player text already escaped);
            stored with the code appended, exactly as `announce` then sends it.
        room: where it happened (default: the caller's location).
        keep (callable, optional): entry -> None, state kept with the roll (e.g. the
            +willpower window), written in the entry's own transaction: one commit for both,
            and never the state of a roll that was not stored.
    """
    record = dict(record or {})
    room = room if room is not None else getattr(caller, "location", None)
    fields = _record_fields(record)
    # Only a private roll is shared with someone in particular (a public one reaches the room).
    shared = [obj for obj in shared_with or () if obj is not None and obj != caller] if private else []
    if shared:
        fields["details"]["shared_with"] = [_name(obj) for obj in shared]
    listeners = [obj for obj in distinct(receivers) if _saw_it(obj, caller, room)]
    held = writer.writer()
    entry = RollEntry(
        parent=None if held else _resolve_parent(record.get("parent")),
        **_people_and_place(caller, _account_of(caller), record.get("subject"), room),
        private=bool(private),
        receiver_names=[_name(obj) for obj in listeners],
        **fields,
    )
    if held is not None:
        return _store_by_writer(held, caller, entry, text, listeners, keep, record.get("parent"))
    return _store(entry, text, listeners, keep)


def _details(record):
    """The record's `details`, and every key of it that is not the record's shape, as JSON."""
    details = {k: _jsonable(v) for k, v in dict(record.get("details") or {}).items()}
    for key, value in record.items():
        if key not in _STANDARD_KEYS:
            details[key] = _jsonable(value)
    return details


def _record_fields(record):
    """The entry's columns that come from the record: what was rolled and how it looked."""
    kind = str(record.get("kind") or "roll")[:32]
    if record.get("view") is None:
        raise RecordError(f"A {kind!r} record has no view: store_roll needs the RollView of what was shown "
                          "(a staff action that is not a roll goes to record_action).")
    fields = _new_shape(record)
    system = str(record.get("system") or fields["view"].get("system") or getattr(settings, "DICE_SYSTEM", "v5"))[:16]
    pool_text, parts = _pool_fields(record.get("pool"))
    summary = _plain(record.get("summary") or "") or fields.pop("summary")
    fields.pop("summary", None)
    return dict(fields, kind=kind, system=system, command=str(record.get("command") or ""),
                comment=str(record.get("comment") or ""), pool_text=(fields["view"].get("pool") or pool_text)[:255],
                pool=parts, summary=summary[:255], details=_details(record))


def _store(entry, text, listeners, keep=None):
    """
    Save a new entry with its code, its receivers and every count kept of it, in one
    transaction and a fixed number of statements whatever the audience (a roll seen by 50
    costs what a roll seen by one does): the entry, its receivers (one insert), then each
    count in one statement of its own (`_count_day`, `_count_reach`, `_count_faces`). On
    PostgreSQL a public entry and its counts are sent in one execute (`inserted_first`): the
    Server waits on one round trip for them, where it waited on one a statement.

    The entry (`counting.insert_object`) and its receivers (in bulk) are inserted around
    `save()` and the many-to-many `set()` (a select, an insert and a signal per call), and
    `keep` (state kept with the roll) is written last: so the model signals that count
    saved entries (`rolllog.models`) do not run, and the counts they keep are made here, the
    same rows a rebuild would give (`rolllog.listing.rebuild`). A code clash undoes it all and
    is tried again (`_with_fresh_code`).
    """

    write, by_row = _writing(entry, listeners, keep)
    return _with_fresh_code(entry, text, write, alone=not by_row)


def _writing(entry, listeners, keep):
    """(write(entry): the entry, its receivers, its counts and `keep`, as `_store` describes;
    whether the entry's receivers and participants are rows of their own)."""
    shown = [obj.id for obj in listeners if getattr(obj, "id", None)]
    by_row = listing.needs_participants(entry)
    entry.receiver_ids = None if by_row else shown

    def write(entry):
        # A private entry's participants (`listing.reach`) go through the ORM, which needs
        # the entry's id as a number: its statements are sent one by one. `keep` writes in
        # the block, so on PostgreSQL an existing Attribute's UPDATE joins the execute
        # (`counting.execute`); it must not read the entry's id there (`commands.last_roll`
        # keeps the entry by its code).
        with (contextlib.nullcontext(insert_object(entry)) if by_row else inserted_first(entry)):
            if by_row:
                _insert_receivers(entry, shown)
            _count_day(entry)
            _count_reach(entry, shown)
            _count_faces(entry)
            if keep is not None:
                keep(entry)

    return write, by_row


def _store_by_writer(held, caller, entry, text, listeners, keep, parent):
    """
    `_store` by the writer thread (`rolllog.writer`): the entry gets its code and text here,
    `keep` runs here (its statements captured, to run in the entry's transaction), and the
    entry, its counts and those statements are queued; what the command sends from now waits
    for their commit. Returns the entry, its id given once it is written.
    """
    entry.code = codes.new_code()
    entry.text = with_code(text, entry.code) if text else ""
    statements = []
    if keep is not None:
        with writer.capturing() as statements:
            keep(entry)

    def kept(entry):
        writer.replay(statements, counting.execute)

    write, _by_row = _writing(entry, listeners, kept)

    def in_thread():
        entry.pk = None  # a group that failed is tried again job by job
        # The roll this one changes, found by its code in the writer's own transaction: it
        # may have been written in the same group, or not at all.
        entry.parent = _resolve_parent(getattr(parent, "code", parent))
        write(entry)

    def failed(error):
        writer.forget_cached(statements)
        writer.tell_not_stored(caller)

    writer.submit(held, in_thread, failed=failed)
    return entry


def kept_with_roll(connection, sql, params):
    """
    Run a statement that writes state kept with a roll (a `store_roll` `keep`, such as
    `commands.pending.save`): at once, or, inside a roll's write on PostgreSQL, held for the
    roll's one execute (`counting.execute`), so the state and the roll are one transaction
    and one round trip; or, when the roll goes to the writer thread, captured to run in the
    roll's transaction there (`rolllog.writer`).
    """
    statements = writer.captured()
    if statements is not None:
        statements.append((sql, list(params)))
        return
    counting.execute(connection, sql, params)


def _insert_receivers(entry, ids):
    """A private or roomless entry's "seen by" rows (`receivers`), in one insert: a public
    roll in a room keeps them in the entry itself (`RollEntry.receiver_ids`)."""
    insert_rows(RollEntry.receivers.through, ("rollentry", "objectdb"), [(entry.id, ident) for ident in ids])


def _count_day(entry):
    """The entry on its UTC day's counts (`DayCount`: its room and every room), one upsert."""
    listing.count_entries([entry])


def _count_reach(entry, shown):
    """Who it places in its room (`RoomVisit`, one upsert) and, when private or roomless, who
    took part (`Participant`, one insert): the roller, the subject and those shown it."""
    listing.reach(entry, listing.roles(entry) + list(shown))


def _count_faces(entry):
    """Its dice (`RollFace`, one insert) and the whole game's tally of them (`FaceTally`, one
    upsert): an entry is never kept without its faces, nor its faces without their place in
    the per-day tally (rolllog.fairness)."""
    faces = face_rows(entry)
    insert_rows(RollFace, FACE_COLUMNS, [tuple(getattr(row, name) for name in FACE_COLUMNS) for row in faces])
    add_to_tally(faces)


def _view_dict(view):
    """A RollView (or its dict) as checked plain data; None stays None."""
    if view is None:
        return None
    if not isinstance(view, RollView):
        view = RollView.from_dict(view)
    return view.to_dict()


def view_summary(view):
    """A view's outcome in words: `5 successes: messy critical (margin +2, solid success)`."""
    if not view:
        return ""
    shown = RollView.from_dict(view) if isinstance(view, dict) else view
    text = shown.outcome.label
    if shown.score_text:
        text = f"{shown.score_text}: {text}" if text else shown.score_text
    if shown.notes:
        text += f" ({'; '.join(shown.notes)})"
    return _plain(text)


def _view_columns(view):
    dice = sum(len(group["dice"]) for group in view["groups"]) if view else None
    return {
        "view": view,
        "target": (view or {}).get("target", "")[:255] if view else "",
        "score": _int_or_none((view or {}).get("score")),
        "outcome": str(((view or {}).get("outcome") or {}).get("key") or "")[:32],
        "dice": dice or None,
    }


def _new_shape(record):
    """The columns of a record in the new shape (see "The contract" in the module docstring)."""
    view = _view_dict(record["view"])
    sides = [{"label": _plain(side.get("label", "")), "view": _view_dict(side.get("view"))}
             for side in record.get("sides") or ()]
    verdict = _plain(record.get("verdict") or "")
    fields = _view_columns(view)
    dice = _int_or_none(record.get("dice"))
    if dice is not None:
        fields["dice"] = dice
    elif sides and not fields["dice"]:
        fields["dice"] = sum(len(g["dice"]) for side in sides if side["view"] for g in side["view"]["groups"]) or None
    data = _jsonable(dict(record.get("data") or {}))
    fields.update(initial=_view_dict(record.get("initial")), sides=sides, verdict=verdict,
                  data=data if isinstance(data, dict) else {"value": data},
                  summary=verdict or view_summary(view))
    return fields


def _people_and_place(character, account, subject, room):
    """The entry's who and where: links to what exists, and names copied (they may change)."""
    return {
        "character": character if getattr(character, "id", None) else None,
        "character_name": _name(character)[:255],
        "account": account if getattr(account, "id", None) else None,
        "account_name": (getattr(account, "username", "") or "")[:255],
        "subject": subject if getattr(subject, "id", None) else None,
        "subject_name": _name(subject)[:255] if subject is not None else "",
        "room": room if getattr(room, "id", None) else None,
        "room_name": _name(room)[:255] if room is not None else "",
    }


def record_action(actor, subject, kind, description, command="", private=True, receivers=(),
                  room=None, parent=None, details=None, text=""):
    """
    Store a staff action that is not a roll (Hunger set, slaked, ...) and return the entry.

    Nothing is sent to anyone: the caller tells whom it wants (and may show `entry.code`).

    Args:
        actor: who did it (a character, usually staff).
        subject: the character it was done to (or None).
        kind (str): a short word: "hunger", "slake", ...
        description (str): what happened, in words ("Hunger 2 -> 3").
        command (str): the command as typed.
        private (bool): by default only the actor, the subject and staff may see it.
        receivers: who else was told (the actor and the subject are always included).
        room: where (default: the actor's location).
        parent: an entry (or code) this action belongs to.
        details (dict): anything else to keep (JSON).
        text (str): what was shown, if anything (stored with the code).
    """
    everyone = [actor, subject, *receivers]
    listeners = []
    for obj in everyone:
        if obj is not None and getattr(obj, "id", None) and obj not in listeners:
            listeners.append(obj)
    account = _account_of(actor)
    room = room if room is not None else getattr(actor, "location", None)
    held = writer.writer()
    entry = RollEntry(
        kind=str(kind or "action")[:32],
        action=True,
        parent=None if held else _resolve_parent(parent),
        **_people_and_place(actor, account, subject, room),
        system=str(getattr(settings, "DICE_SYSTEM", "v5"))[:16],
        command=str(command or ""),
        summary=_plain(description)[:255],
        private=bool(private),
        receiver_names=[_name(obj) for obj in listeners],
        details={k: _jsonable(v) for k, v in dict(details or {}).items()},
    )
    if held is not None:
        return _save_by_writer(held, actor, entry, text, listeners, parent)
    return _save_with_code(entry, text, listeners)


def _save_by_writer(held, actor, entry, text, receivers, parent):
    """`_save_with_code` by the writer thread (see `_store_by_writer`)."""
    entry.code = codes.new_code()
    entry.text = with_code(text, entry.code) if text else ""

    def in_thread():
        entry.pk = None
        entry._state.adding = True
        entry.parent = _resolve_parent(getattr(parent, "code", parent))
        entry.save()
        if receivers:
            entry.receivers.set(receivers)

    writer.submit(held, in_thread, failed=lambda error: writer.tell_not_stored(
        actor, "|rThe roll log could not store that, so it is not on the record and nobody else was told. "
        "Please tell staff.|n"))
    return entry


# ------------------------------------------------------------------------------ finding


def find(code):
    """The entry with this code (typed any case, spaces and dashes ignored), or None."""
    code = codes.normalize(code)
    if not code:
        return None
    return RollEntry.objects.filter(code=code).first()


def latest(character, kinds=None, include_actions=False):
    """The newest entry rolled by (or for) `character`, optionally of the given kinds."""
    query = RollEntry.objects.filter(Q(character=character) | Q(subject=character))
    if kinds:
        query = query.filter(kind__in=list(kinds))
    if not include_actions:
        query = query.filter(action=False)
    return query.order_by("-created", "-id").first()


def participant_ids(entry):
    ids = {entry.character_id, entry.subject_id}
    ids.update(entry.shown_ids())
    ids.discard(None)
    return ids


def can_view(entry, viewer):
    """Whether `viewer` (a character or an account) may see `entry`."""
    if entry is None:
        return False
    if not entry.private or is_staff(viewer):
        return True
    account = _account_of(viewer)
    if account is not None and getattr(account, "id", None) and entry.account_id == account.id:
        return True
    return bool(own_character_ids(viewer) & participant_ids(entry))


def visible_filter(viewer):
    """
    `can_view` as a query filter (a `Q`), or None for staff (everything): public entries, the
    viewer's account's own, and those one of its characters took part in.
    """
    if is_staff(viewer):
        return None
    ids = own_character_ids(viewer)
    seen = Q(private=False) | Q(character_id__in=ids) | Q(subject_id__in=ids)
    seen |= Q(id__in=RollEntry.receivers.through.objects.filter(objectdb_id__in=ids).values("rollentry_id"))
    account = _account_of(viewer)
    if account is not None and getattr(account, "id", None):
        seen |= Q(account_id=account.id)
    return seen


def find_visible(code, viewer):
    """
    The entry if it exists and `viewer` may see it; None otherwise (the same for both).

    The same for both in cost too: who the viewer is and what they may see is worked out
    before the code is looked up, whatever the code, and one query then finds the entry only
    if it is theirs to see. "No such code" and "a private code you may not see" run the same
    statements (it took about 2 ms more to refuse an existing private code, which told them
    apart).
    """
    code = codes.normalize(code)
    if not code:
        return None
    seen = visible_filter(viewer)
    query = RollEntry.objects.filter(code=code)
    if seen is not None:
        query = query.filter(seen)
    return query.first()


# ------------------------------------------------------------------------------ counting


def _day_start(day):
    return datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.timezone.utc)


class _DayPlan:
    """
    How `page` counts a long list per UTC day without reading it: `days()` is
    [(day, entries)] newest first, exactly the list's entries (see `page`). The plan is for the
    query it was made with; a filter added since (a code, a name) makes it not `fit`.
    """

    def __init__(self, query, private=None, room=None):
        self.where = query.query.where.clone()
        self.private, self.room = private, room

    def fits(self, query):
        inner = query.query
        return (query.model is RollEntry and inner.where == self.where and not inner.is_sliced
                and not inner.distinct and inner.combinator is None)

    def _counted(self):
        """DayCount rows of the list's entries (the whole log, its private entries, a room's)."""
        rows = DayCount.objects.filter(room=listing.EVERY_ROOM if self.room is None else self.room)
        if self.private is not None:
            rows = rows.filter(private=self.private)
        return rows

    def days(self):
        counts = Counter(dict(self._counted().values_list("day").annotate(n=Sum("count")).order_by()))
        return sorted(((day, n) for day, n in counts.items() if n > 0), reverse=True)


class _PlayerPlan(_DayPlan):
    """
    A player's list (`visible_to_account`): the public entries of the rooms they were in are
    counted from DayCount; the rest they may read are the private or roomless entries their
    characters took part in (`Participant`) and their account's own entries outside those
    rooms, a few thousand at most, counted per day here.
    """

    def __init__(self, query, account_id, character_ids, rooms):
        super().__init__(query)
        self.account_id, self.character_ids, self.rooms = account_id, character_ids, rooms

    def _counted(self):
        return DayCount.objects.filter(private=False, room__in=self.rooms)

    def days(self):
        # Three parts that never overlap, each counted per day by the database.
        counts = Counter()
        if self.rooms:
            counts.update(dict(self._counted().values_list("day").annotate(n=Sum("count")).order_by()))
        took_part = listing.participated(self.character_ids)
        counts.update(dict(took_part.values_list("day").annotate(n=Count("entry_id", distinct=True)).order_by()))
        own = RollEntry.objects.filter(account_id=self.account_id)
        if self.rooms:
            own = own.exclude(private=False, room_id__in=self.rooms)
        if self.character_ids:
            own = own.exclude(id__in=took_part.values("entry_id"))
        counts.update(dict(own.annotate(day=TruncDate("created", tzinfo=datetime.timezone.utc))
                           .values_list("day").annotate(n=Count("id")).order_by()))
        return sorted(((day, n) for day, n in counts.items() if n > 0), reverse=True)


def _planned(query, plan):
    query.page_plan = plan
    return query


# ------------------------------------------------------------------------------ listing


def search(character=None, private_only=False, room=None, kinds=None, query=None):
    """
    Entries, newest first: by or for `character`, only private ones, only in `room`. The whole
    log, its private entries and a room's (alone or narrowing such a list) page by their day
    counts (`page`).
    """
    plan = None
    if query is None:
        query, plan = RollEntry.objects.all(), _DayPlan(RollEntry.objects.all())
    else:
        known = getattr(query, "page_plan", None)
        if type(known) is _DayPlan and known.fits(query):
            plan = known
    if character is not None:
        query = query.filter(Q(character=character) | Q(subject=character))
    if private_only:
        query = query.filter(private=True)
    if room is not None:
        query = query.filter(room=room)
    if kinds:
        query = query.filter(kind__in=list(kinds))
    query = query.order_by("-created", "-id")
    room_id = getattr(room, "id", room)
    if plan is None or character is not None or kinds or not isinstance(room_id, (int, type(None))) or \
            (room_id is not None and plan.room not in (None, room_id)):
        return _planned(query, None)  # counted by the database
    return _planned(query, _DayPlan(query, private=True if private_only else plan.private,
                                    room=plan.room if room_id is None else room_id))


def search_names(name):
    """
    (entries by or for a character called `name`, the name as stored), or None: for
    characters that were renamed or no longer exist.
    """
    name = " ".join(str(name).split())
    if not name:
        return None
    query = RollEntry.objects.filter(Q(character_name__iexact=name) | Q(subject_name__iexact=name))
    first = query.first()
    if first is None:
        return None
    label = first.character_name if first.character_name.lower() == name.lower() else first.subject_name
    return query.order_by("-created", "-id"), label


def page(query, number, size=PAGE_SIZE):
    """
    (entries on page `number` (1-based), total count, number of pages) of a query ordered
    newest first by (created, id). A number past the end is the last page.

    Measured at a million rows by bench/bench_rolllog.py. The count is exact, never capped or cached:

    - A long list with a day plan (`search` without a character or kinds, `visible_to_account`)
      is counted per UTC day from `DayCount` (a few thousand rows, not a million entries). The
      page's rows lie in a known run of days: from the day where entry number `start` falls
      to the day where the page's last one does. They are read from the log within those days
      only (`created` between their midnights, through the index `rolllog_created_id`), OFFSET
      by the entries of the first day that come before, so a deep page costs what the first does.
    - Any other query (a filter added: a code, a character) is counted by the database, and a
      deep page's first (created, id) is found by skipping through the index alone (a covering,
      index-only read), then read from there by keyset: `(created, id) <= that edge`.
    """
    plan = getattr(query, "page_plan", None)
    if plan is not None and plan.fits(query):
        return _page_by_days(query, plan.days(), number, size)
    total = query.count()
    pages = max(1, -(-total // size))
    number = min(max(1, number), pages)
    start = (number - 1) * size
    if start == 0:
        return list(query[:size]), total, pages
    edge = list(query.values_list("created", "id")[start:start + 1])
    if not edge:
        return [], total, pages
    created, ident = edge[0]
    # `created <= edge` alone is the range both planners seek by (an OR of the two halves is
    # read as a scan from the newest); the exclusion drops the edge instant's newer ids.
    rows = query.filter(created__lte=created).exclude(created=created, id__gt=ident)
    return list(rows[:size]), total, pages


def _page_by_days(query, days, number, size):
    """`page` from [(day, entries)] newest first: the days holding the page, read alone."""
    total = sum(n for _day, n in days)
    pages = max(1, -(-total // size))
    number = min(max(1, number), pages)
    start = (number - 1) * size
    if not total:
        return [], total, pages
    before, first = 0, 0
    while before + days[first][1] <= start:
        before += days[first][1]
        first += 1
    last, held = first, days[first][1]
    while held < start - before + size and last + 1 < len(days):
        last += 1
        held += days[last][1]
    newest, oldest = days[first][0], days[last][0]
    rows = query.filter(created__gte=_day_start(oldest), created__lt=_day_start(newest + datetime.timedelta(days=1)))
    skip = start - before
    return list(rows[skip:skip + size]), total, pages


def rooms_been_in(character_ids):
    """Rooms (ids) where one of these characters rolled, was rolled for, or was shown a roll."""
    return listing.rooms_visited(character_ids)


def visible_to_account(account):
    """
    Everything for staff; for a player, see the module docstring ("rooms they were in"). Both
    page by their day counts (`page`).

    A player's rule is read from what `rolllog.listing` keeps at write time: the rooms they
    were in (`RoomVisit`), whose public entries they may read, and the private or roomless
    entries their characters took part in (`Participant`); with their account's own entries,
    that is every entry they took part in. Each part is a seek, checked row by row, so a page
    reads only the days it shows.
    """
    if account is None or not getattr(account, "is_authenticated", True):
        return _planned(RollEntry.objects.none(), None)
    if is_staff(account) or getattr(account, "is_staff", False):
        everything = RollEntry.objects.all()
        return _planned(everything, _DayPlan(everything))
    ids = sorted(own_character_ids(account))
    rooms = rooms_been_in(ids)
    visible = Q(account_id=account.id)
    if ids:
        visible |= Q(id__in=listing.participated(ids).values("entry_id"))
    if rooms:
        visible |= Q(private=False, room_id__in=rooms)
    query = RollEntry.objects.filter(visible)
    return _planned(query, _PlayerPlan(query, account.id, ids, rooms))
