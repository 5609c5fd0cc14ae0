"""
Nothing reaches a player before what the game wrote is on disk, and the game never waits for
the disk to say so.

**Why.** Evennia runs every command on one thread. With the database syncing its log at every
commit (SQLite's `synchronous=FULL`, PostgreSQL's `synchronous_commit=on`), a stored roll held
the whole game for that sync: on the shared machine the load bench runs on, an fdatasync takes
1 to 15 ms, more than the rest of the roll, and in a full room that wait was most of what a
roll cost against a `say`.

**What.** The game's commits do not wait for the disk (SQLite's `synchronous=NORMAL`: a commit
is written to the log, which survives any crash of the game itself; PostgreSQL's
`synchronous_commit=off`), and this module makes sure the log is on disk before anything is
sent that could show what was written: every message from the Server to the Portal waits, in
order, until a sync that started after the last write has finished. The sync runs in a thread
(`sync_file`, `flush_postgresql`), so the game goes on serving everyone else meanwhile; one
sync covers every write made before it started, so a busy game syncs once for many commands.
What a finished sync covers goes out at the game's next send (the sync's thread marks it
done), not only once the reactor comes round to the thread's callback: in a full room that
callback waited behind the whole batch of commands the reactor had read, 60 to 110 ms on
average, for a sync of 2 to 4 ms.
So a roll is on disk before anyone sees it (as with a sync at each commit), its players' lines
and everyone else's keep their order, and a power cut can only undo what nobody was told.
Writes are counted by every database connection's statements and commits (`wrote`), from any
thread; messages are held only on the reactor's thread.

Only with the opt-in bundle (`DICE_HARDEN_GAME`, `typeclasses.hardening`, which installs it at
`at_server_init`) and `SYNC_BEFORE_SENDING` on (the game's settings), for a SQLite file or
PostgreSQL; the in-process tests (a database in memory, no Portal) never hold anything. Without
them the database commits as the game configured it.
"""

import functools
import os
from collections import deque

# Start order: this module is imported by the Portal too (through typeclasses.amp_batch) and
# before Django's apps are ready, so Django, Evennia's Server-side modules and twisted's thread
# pieces are imported inside the functions that run in the Server only.

_READ_ONLY = ("SELECT", "PRAGMA")  # statements that write nothing the log must keep


class Barrier:
    """
    Messages held until a sync covers the writes made before them.

    Args:
        sync (callable): makes everything written so far durable (run in a thread).
        defer (callable): function -> Deferred running it in a thread (twisted's deferToThread).
        log (callable): message -> None, for a failed sync.
    """

    def __init__(self, sync, defer, log=print):
        self.sync = sync
        self.defer = defer
        self.log = log
        self.writes = 1  # writes made so far (statements and commits); 1: those before it was made
        self.synced = 0  # of those, how many the finished syncs cover, as the game's thread has seen
        self.done = 0  # how many the last finished sync covers, set by its thread as it ends
        self.syncing = 0  # the writes the sync in flight covers (0: none in flight)
        self.releasing = False
        self.held = deque()  # (writes it waits for, send), oldest first

    def wrote(self):
        self.writes += 1

    def send(self, action):
        """
        Run `action` (a send) now if nothing waits for a sync (or a held send is being sent:
        what it sends belongs to it), else after the sync, in order. Returns what `action`
        returns, or, held, a Deferred firing with it.
        """
        if not self.releasing:
            self._catch_up()
        if self.releasing or (not self.held and self.synced >= self.writes):
            return action()
        from twisted.internet.defer import Deferred, maybeDeferred

        later = Deferred()
        self.held.append((self.writes, lambda: maybeDeferred(action).chainDeferred(later)))
        self._start()
        return later

    def _start(self):
        if self.syncing or self.synced >= self.writes:
            return
        covered = self.syncing = self.writes

        def run():  # in the thread
            self.sync()
            # Seen by the game's thread at its next send: the Deferred's callback reaches it
            # only once the reactor has handled everything it read meanwhile (in a busy room,
            # a batch of commands: tens of milliseconds, during which every player waited).
            self.done = covered

        self.defer(run).addBoth(self._finished, covered)

    def _finished(self, result, covered):
        if result is not None and hasattr(result, "getErrorMessage"):
            # The disk refused: what was written may not survive a power cut. Sending on keeps
            # the game alive (SQLite would have failed the commit itself under FULL).
            self.log(f"durable: syncing the database failed: {result.getErrorMessage()}")
        self.done = max(self.done, covered)
        self._catch_up()

    def _catch_up(self):
        """Send what the finished syncs cover, in order, and start the next sync if writes wait."""
        if self.done <= self.synced:
            return
        self.synced = self.done
        if self.syncing and self.syncing <= self.synced:
            self.syncing = 0
        self.releasing = True
        try:
            while self.held and self.held[0][0] <= self.synced:
                self.held.popleft()[1]()
        finally:
            self.releasing = False
        if self.held:
            self._start()


_BARRIER = []  # the Server's one Barrier, once installed
_ASKED = []  # install() has run (whether or not it installed one)


def barrier():
    return _BARRIER[0] if _BARRIER else None


def send(action):
    """Send (run `action`) once what was written before is on disk; at once without a barrier."""
    from twisted.python import threadable

    held = barrier()
    if held is None or not threadable.isInIOThread():
        return action()
    return held.send(action)


def _count_writes(connection):
    """Count the writes of a database connection: its write statements and its commits (once:
    Django keeps the wrapper, and its hooks, when it connects again)."""
    held = barrier()
    if getattr(connection, "_storyteller_counted", False):
        return
    connection._storyteller_counted = True

    def counted(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not str(sql).lstrip()[:6].upper().startswith(_READ_ONLY):
            held.wrote()
        return result

    connection.execute_wrappers.append(counted)
    commit = connection._commit

    def _commit():
        commit()
        held.wrote()

    connection._commit = _commit


def _connection_created(sender, connection, **kwargs):
    if barrier() is not None and connection.alias == "default":
        _count_writes(connection)


def sync_file(path):
    """SQLite: the write-ahead log `path` on disk (fdatasync), every commit written to it so far."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:  # no log yet (nothing written), or checkpointed away
        return
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)


def flush_postgresql():
    """
    PostgreSQL: everything committed so far on disk, in one round trip. The game's commits do
    not wait for the server's log (`synchronous_commit=off`, settings.py); the sync's own
    connection (`_flusher`: autocommit, `synchronous_commit` on) runs a statement that takes a
    transaction id, and so commits with a log record of its own: it returns only once the
    server's log is flushed up to that record, and so past every commit made before it. Its own
    connection, not Django's: nothing it runs is counted as a write of the game's, and it
    needs the GIL for one statement, not for a transaction's four.
    """
    import psycopg

    connection = _flusher()
    try:
        # libpq's own blocking call, which psycopg's C wrapper runs without the interpreter
        # lock: the thread takes the lock back once, not at each step of psycopg's wait loop
        # (each up to the interpreter's 5 ms switch interval while the game's thread runs).
        result = connection.pgconn.exec_(b"SELECT txid_current()")
        if result.status != psycopg.pq.ExecStatus.TUPLES_OK:
            raise psycopg.OperationalError(result.error_message.decode("utf-8", "replace") or "flush failed")
    except Exception:
        _close_flusher()  # connect again next time (a restarted database server)
        raise


_FLUSHER = []  # the sync's own PostgreSQL connection, once made; one sync runs at a time (Barrier)


def _flusher():
    if _FLUSHER and not _FLUSHER[0].closed:
        return _FLUSHER[0]
    import psycopg
    from django.db import connections

    params = connections["default"].get_connection_params()
    for name in ("cursor_factory", "context"):  # Django's cursor and adapters: it reads nothing
        params.pop(name, None)
    connection = psycopg.connect(**params, autocommit=True)
    connection.execute("SET synchronous_commit TO on")
    _FLUSHER[:] = [connection]
    return connection


def _close_flusher():
    while _FLUSHER:
        try:
            _FLUSHER.pop().close()
        except Exception:  # noqa: BLE001 - already gone with its server
            pass


def sync_for(database, enabled):
    """
    The sync for `database` (a DATABASES entry), or None: a SQLite file (its -wal file) or
    PostgreSQL, and only when the game syncs before sending (`enabled`, the setting); never a
    database in memory (the tests).
    """
    engine, name = database.get("ENGINE", ""), str(database.get("NAME") or "")
    if not enabled:
        return None
    if "postgresql" in engine:
        return flush_postgresql
    if "sqlite" not in engine or not name or name == ":memory:" or name.startswith("file:"):
        return None
    return functools.partial(sync_file, name + "-wal")


def _sync_setting():
    from django.conf import settings

    return sync_for(settings.DATABASES.get("default", {}), getattr(settings, "SYNC_BEFORE_SENDING", False))


def install():
    """
    In the Server (`hardening.at_server_init`): count writes and hold what the
    Server sends the Portal (`send_MsgServer2Portal`, `send_AdminServer2Portal`: messages and
    disconnections, which must not overtake them) behind the sync. Idempotent.
    """
    if _ASKED:
        return
    _ASKED.append(True)
    sync = _sync_setting()
    if sync is None:
        return
    from django.db import connections
    from django.db.backends.signals import connection_created
    from evennia.server.amp_client import AMPServerClientProtocol
    from evennia.utils import logger
    from twisted.internet.threads import deferToThread

    _BARRIER.append(Barrier(sync, deferToThread, log=logger.log_err))
    connection_created.connect(_connection_created, dispatch_uid="storyteller_durable")
    _count_writes(connections["default"])  # this thread's, open already
    for name in ("send_MsgServer2Portal", "send_AdminServer2Portal"):
        _hold_method(AMPServerClientProtocol, name)


def _hold_method(cls, name):
    original = getattr(cls, name)

    def held(self, *args, **kwargs):
        return send(lambda: original(self, *args, **kwargs))

    held.__wrapped__ = original
    setattr(cls, name, held)
