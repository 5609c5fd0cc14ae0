"""
The roll log's writes off the game's thread: group commit.

**Why.** Evennia runs every command on one thread (the reactor's). A roll's record is
committed before anyone is told of it, and with the commit on that thread the whole game
waited for it: on SQLite with `synchronous=FULL` one fdatasync and about 47 pages of the
write-ahead log a roll, on PostgreSQL a round trip to the server and its log flush. In a room
of 50 that wait is most of what a roll costs more than a `say`.

**What.** The record is written by a thread of its own, on its own database connection, and
the game goes on serving everyone else meanwhile; the rolls that arrive while a commit is in
flight are written together in the next one (one transaction, one sync for all of them).

- **The queue and the thread** (`typeclasses.durable`: `Barrier.submit`, `commit_jobs`). On the
  reactor, `rolllog.api.store_roll` (and `record_action`) prepare the entry as before (who,
  where, what was shown, its verification code, the text with the code), run the state kept
  with the roll (`keep`: the `+willpower` window, a challenge...), whose statements are
  captured here (`kept_with_roll`) rather than run, and queue a job. One thread (a twisted
  `ThreadPool` of one, "storyteller-writer") takes every job queued since its last commit and
  runs their writes in one transaction, then syncs: one log append and one fdatasync for the
  group. Django's connections are per thread, so the writer's is its own: on SQLite its
  transactions begin `IMMEDIATE` (they take the write lock at once, and wait for it rather
  than fail) and commit with `synchronous=NORMAL`, the log being synced after the commit, the
  lock let go: Evennia's own writes on the game's thread (Attributes, logins) wait on the lock
  for the group's statements only, never for the disk, and SQLite's busy timeout (5 s) is far
  above that (measured: the writer's transactions took 3.2 ms on average and 10 ms at most,
  1.7 rolls a group, 24 rolls typed at once by 8 players with `synchronous=FULL`, on the
  shared 2-core machine at load 3; with 50 players in a closed loop, 12 to 16 ms on average
  and about 100 ms at most, the interpreter switching threads every 0.5 ms while the writer's
  transaction is open (`durable._short_turns`): docs/performance.md; the Server logs the
  figures at its stop).
  Every SQLite connection of the game begins its transactions `IMMEDIATE` too
  (`durable._begin_immediate`): one that read, then wrote, would fail at once, not wait, had
  the writer committed between. On PostgreSQL the writer's commits wait for the server's log
  (`synchronous_commit` on for its connection), whatever the game's do. If the group's
  transaction fails, each job is tried again alone, so that one bad record (a character
  deleted meanwhile: a foreign key checked at the commit) fails alone.
- **A group is written together** (`counting.grouped`, each job's `together`): the counts its
  records add to are summed into one upsert a table, written at the group's end, and on
  PostgreSQL the group's statements go in one execute (a statement that is not held, such as
  a reroll reading the roll it changes, sends them first). A job tried again alone is written
  without it. On PostgreSQL the writer's commit waits for the server's log, which is flushed
  in order: it covers the game's earlier commits too, so the barrier does not flush again
  (`commit_jobs` returns whether its commit was durable itself).
- **On PostgreSQL, no thread for most groups** (`prepare`, `durable.send_prepared`): a
  group whose records read nothing first (every public roll) is built on the reactor when it
  is handed over, its statements made literal SQL by the game's connection, and sent from
  there as one query, one implicit transaction whose answer comes once the server's log is
  flushed; the reactor reads the answer from the connection's socket. A thread of ours
  waited for the interpreter each time the game's thread let it go (measured: tens of
  milliseconds to start a group, as long to write it), and handing it over more often cost
  the game more than the writing. The thread still writes a group that cannot be built so
  (a reroll reading the roll it changes, a private record's rows) and one whose query failed.
- **Nobody is told before the roll is durable.** Everything the Server sends the Portal passes
  through the barrier (`durable.send`): once a job is queued, every later message (the roll's
  own lines and anyone else's) waits, in order, until the commit that holds the job is on
  disk. The reactor learns it from the thread (`deferToThreadPool`: `reactor.callFromThread`)
  or at its next send, whichever comes first, and sends what was held.
- **A player's own commands are answered in the order typed.** The session's input filter
  already runs one line of a session at a time (`typeclasses.serversession`: taking turns);
  a command that queued a job keeps the session's turn until the job is done
  (`durable.end_command`), so that player's next line waits, and runs on the state the roll
  left, while everyone else's input runs.
- **A write error.** What the command sent after queueing the job is tagged with it and is
  dropped: nothing reaches anyone else. The player is told that the roll was not stored (and
  may roll again), the error is logged, and the state captured with it was in the failed
  transaction: nothing was kept; the Attributes it had updated in Evennia's cache are read
  back from the database. (State a command writes on the game's thread around the roll, as
  before this change, is written as it was then.)
- **Shutdown and reload.** Before the Server stops (a reload stops it too), the queue is
  drained: every job committed and every held message sent (`durable._drain`, a "before
  shutdown" trigger, at most `DRAIN_SECONDS`).
- **Where it does not run.** Off the reactor's thread, without the opt-in bundle, with
  `DICE_GROUP_COMMIT = False`, for a database in memory, and inside a transaction of the
  game's own (the in-process tests run in one: the writer's connection could not see what it
  holds), the record is written at once on the game's thread, as before.
"""

import threading

from django.db import connections

from storyteller_dice.typeclasses import durable

from . import counting
from .counting import grouped

# The statements of the state kept with a roll (`kept_with_roll`) while `capturing`.
_CAPTURE = threading.local()


def writer():
    """The group commit's barrier, when a record may be written off this thread; else None."""
    held = durable.group_commit()
    if held is None:
        return None
    connection = connections["default"]
    if connection.in_atomic_block or connection.settings_dict.get("NAME") in (None, "", ":memory:"):
        return None
    return held


class capturing:
    """Collect, rather than run, the statements `kept_with_roll` is handed inside (a list)."""

    def __enter__(self):
        self.statements = []
        _CAPTURE.statements = self.statements
        return self.statements

    def __exit__(self, *exc):
        _CAPTURE.statements = None
        return False


def captured():
    """The list statements are being captured into, or None."""
    return getattr(_CAPTURE, "statements", None)


def replay(statements, execute):
    """Run captured statements with `execute(connection, sql, params)` on this thread's
    connection (the writer's: the game's connection they were captured with is not used)."""
    connection = connections["default"]
    for sql, params in statements:
        execute(connection, sql, params)


def forget_cached(statements):
    """
    After a failed write: the Attributes the captured statements updated read back from the
    database, so Evennia's cache does not keep state of a roll that was not stored.
    """
    from evennia.typeclasses.attributes import Attribute

    table = Attribute._meta.db_table
    ids = [params[-1] for sql, params in statements
           if table in sql and sql.lstrip().upper().startswith("UPDATE") and isinstance(params[-1], int)]
    # Evennia's idmapper hands back the cached object itself (so `refresh_from_db` would copy
    # it onto itself): its value is set from the row as the database has it.
    stored = dict(Attribute.objects.filter(id__in=ids).values_list("id", "db_value"))
    for ident, value in stored.items():
        cached = Attribute.get_cached_instance(ident)
        if cached is not None:
            cached.db_value = value


def submit(held, write, done=None, failed=None):
    """Queue `write` (run in the writer thread; on PostgreSQL first on the game's thread with
    nothing sent, `prepare`, and again in the thread if that group cannot be sent so: it must
    be safe to run twice, changing nothing but what it writes through the database) with its follow-ups on the reactor
    (see `durable.Job`); returns the job. The group's records are written together
    (`counting.grouped`: their counts summed, and on PostgreSQL one execute), and on
    PostgreSQL built on the game's thread when they can be (`prepare`)."""
    return durable.submit(held, durable.Job(write, done=done, failed=failed, together=grouped, build=prepare))


def prepare(jobs):
    """
    On the game's thread, as the group is handed to the writer (PostgreSQL): the group's
    writes run here with nothing sent (`counting.built`), their statements made literal SQL
    by the game's own connection (as Django's cursor makes every statement it sends, the
    values bound by the client), and one statement more that reads back each new record's
    id by its code. The barrier sends that text from this thread and the reactor watches for
    the answer (`durable.send_prepared`): one query, one implicit transaction, and no thread.

    Why: a thread of ours shares the interpreter with the game's. In a busy room the game's
    thread lets the interpreter go at every turn of its event loop, and a thread waiting for
    it starts its wait again each time: the writer took tens of milliseconds to start a
    group and as long again to write it, and every roll waited for that before it was
    shown; where it was given the interpreter more often, the handovers cost the game more
    than the writing.

    Returns None when the group cannot be built so (a record that reads the database first,
    such as a reroll finding the roll it changes; a private record's rows, which need the
    record's id; any error): the writer thread writes it, as on SQLite.
    """
    from .models import RollEntry

    connection = connections["default"]
    try:
        from psycopg import ClientCursor

        with counting.built(connection.alias) as group:
            for job in jobs:
                job.write()
        entries = [obj for _index, obj in group.inserted]
        if len(entries) != len(jobs) or not all(isinstance(obj, RollEntry) for obj in entries):
            return None
        connection.ensure_connection()
        cursor = ClientCursor(connection.connection)
        quote, meta = connection.ops.quote_name, RollEntry._meta
        code, ident = quote(meta.get_field("code").column), quote(meta.pk.column)
        texts = [cursor.mogrify(sql, params) for sql, params in group.held]
        texts.append(cursor.mogrify(f"SELECT {code}, {ident} FROM {quote(meta.db_table)} WHERE {code} = ANY(%s)",
                                    [[obj.code for obj in entries]]))
    except Exception:  # noqa: BLE001 - built in the thread instead, where an error is the job's
        return None
    return Prepared(";\n".join(texts), entries, connection.alias)


class Prepared:
    """A group built on the game's thread (`prepare`): its SQL, and the records it inserts."""

    def __init__(self, sql, entries, using):
        self.sql = sql
        self.entries = entries
        self.using = using

    def landed(self, rows):
        """The group is committed: each record given its id, from the last statement's rows."""
        ids = {bytes(code).decode(): int(ident) for code, ident in rows}
        for entry in self.entries:
            counting.given_id(entry, ids[entry.code], self.using)


NOT_STORED = ("|rYour roll could not be stored, so nobody was shown it. Please try again; if it "
              "happens again, tell staff.|n")


def tell_not_stored(caller, message=NOT_STORED):
    """The roller (or the staff member who acted) is told their write failed."""
    try:
        caller.msg(message)
    except Exception:  # noqa: BLE001 - a character gone meanwhile: the log has it
        pass
