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

**The writer.** The same barrier holds what is sent behind the roll log's writer thread
(`DICE_GROUP_COMMIT`, on by default; its design: `rolllog/writer.py`): a record is queued
(`Barrier.submit`, a `Job`), and the thread's next run commits every job queued since its last
one in one transaction (`commit_jobs`) before it syncs (on PostgreSQL that commit, which waits
for the server's log, is the sync); a job's command's sends are tagged
with it and dropped if it fails; a session's next line waits for its command's jobs
(`end_command`); the queue is drained before the Server stops (`_drain`). On PostgreSQL a
group whose records can be written without reading anything first is built on the reactor's
thread instead and sent from it, one query (`Job.build`, `send_prepared`): the reactor watches
for the answer, and the thread writes only the groups that cannot be built so, or whose query
failed (nothing of it written). With the writer on,
the barrier is installed whatever `SYNC_BEFORE_SENDING` says (under FULL or ON it holds sends
only behind the writer's commits; the game's own commits sync themselves).

Only with the opt-in bundle (`DICE_HARDEN_GAME`, `typeclasses.hardening`, which installs it at
`at_server_init`) and `SYNC_BEFORE_SENDING` or the writer on (the game's settings), for a
SQLite file or PostgreSQL; the in-process tests (a database in memory, no Portal) never hold
anything unless a test installs a barrier itself. Without them the database commits as the
game configured it, on the game's thread.
"""

import contextlib
import functools
import os
import sys
import threading
import time
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

    def __init__(self, sync, defer, log=print, commit=None, send_prepared=None, poll=None):
        self.sync = sync
        self.defer = defer
        self.log = log
        # the SQL of a group built on this thread (`Job.build`) -> a Deferred firing with its
        # last statement's rows once it is committed and durable (`send_prepared`), or failing:
        # then nothing was written, and the writer thread writes the group the usual way
        self.send_prepared = send_prepared
        # -> None, at each send while a group is out: reads what has come of it without
        # waiting (`poll_prepared`, once it has been out a while), so that its answer is
        # seen before the reactor has handled everything it read ahead of it
        self.poll = poll
        # jobs -> whether that commit made every earlier write durable itself (then the sync
        # is not run), run in the thread before the sync: the group commit (`commit_jobs`)
        self.commit = commit
        self.queue = []  # jobs submitted since the last commit started (`submit`)
        self.batch = []  # the jobs of the sync in flight
        self.tags = []  # the jobs of the command running now: its sends go (or are dropped) with them
        self.idle = []  # Deferreds fired once nothing is queued, in flight or held (`drained`)
        self.writes = 1  # writes made so far (statements and commits); 1: those before it was made
        self.synced = 0  # of those, how many the finished syncs cover, as the game's thread has seen
        self.done = 0  # how many the last finished sync covers, set by its thread as it ends
        self.syncing = 0  # the writes the sync in flight covers (0: none in flight)
        self.releasing = False
        self.held = deque()  # (writes it waits for, send), oldest first

    def wrote(self):
        self.writes += 1

    def submit(self, job):
        """
        Queue `job` (see `Job`) for the next commit, and tag what the running command sends
        from now on with it: held until the commit covering it, dropped if it fails.
        """
        self.queue.append(job)
        self.tags.append(job)
        self.wrote()
        self._start()
        return job

    def start_command(self):
        """A command begins: nothing it sends belongs to an earlier command's roll."""
        self.tags = []

    def end_command(self):
        """
        The running command has ended: its jobs (none: an empty list). Its sends stay tagged
        with them; the next command's are not.
        """
        jobs, self.tags = self.tags, []
        return jobs

    def drained(self):
        """A Deferred fired once every submitted job is committed and every held send sent."""
        from twisted.internet.defer import Deferred, succeed

        if self._is_idle():
            return succeed(None)
        waiter = Deferred()
        self.idle.append(waiter)
        self._start()
        return waiter

    def _is_idle(self):
        return not (self.queue or self.batch or self.held or self.syncing)

    def send(self, action):
        """
        Run `action` (a send) now if nothing waits for a sync (or a held send is being sent:
        what it sends belongs to it), else after the sync, in order. Returns what `action`
        returns, or, held, a Deferred firing with it.
        """
        if not self.releasing:
            if self.poll is not None and self.syncing:
                self.poll()
            self._catch_up()
        if self.releasing or (not self.held and self.synced >= self.writes):
            return action()
        from twisted.internet.defer import Deferred, maybeDeferred

        later = Deferred()
        self.held.append((self.writes, lambda: maybeDeferred(action).chainDeferred(later), tuple(self.tags)))
        self._start()
        return later

    def _start(self):
        if self.syncing or self.synced >= self.writes:
            return
        covered = self.syncing = self.writes
        batch, self.queue = self.queue, []
        self.batch = batch
        prepared = self._prepare(batch)

        def run():  # in the thread
            # Each job's `error` is set in the commit, before `done` says so. The sync in
            # short turns too: after it the thread waits for the interpreter once more.
            with _short_turns():
                if not (batch and self.commit(batch)):
                    self.sync()
            # Seen by the game's thread at its next send: the Deferred's callback reaches it
            # only once the reactor has handled everything it read meanwhile (in a busy room,
            # a batch of commands: tens of milliseconds, during which every player waited).
            self.done = covered

        if prepared is None:
            self.defer(run).addBoth(self._finished, covered)
            return
        began = time.perf_counter()

        def landed(rows):
            for job in batch:
                job.committed = True
            STATS.add(len(batch), time.perf_counter() - began)
            try:
                prepared.landed(rows)
            except Exception as exc:  # noqa: BLE001 - stored all the same: only the ids are missing
                self.log(f"durable: a group was stored, but its ids were not read back: {exc!r}")

        def again(failure):  # nothing was written: the thread writes the group, the usual way
            self.log(f"durable: a group sent from the game's thread failed ({failure.getErrorMessage()}); "
                     f"the writer thread writes it")
            return self.defer(run)

        sending = self.send_prepared(prepared.sql)
        sending.addCallbacks(landed, again)
        sending.addBoth(self._finished, covered)

    def _prepare(self, batch):
        """The group built here, on the reactor's thread, when it can be sent from here (a
        `send_prepared`) and its jobs share a `build` (see `Job`); else None."""
        builds = {job.build for job in batch}
        if self.send_prepared is None or len(builds) != 1 or None in builds:
            return None
        return builds.pop()(batch)

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
        # The jobs the finished sync committed: their commands' sends go out (or, for a job
        # that failed, are dropped) in the loop below; then each job's own follow-up.
        finished, self.batch = self.batch, []
        self.releasing = True
        try:
            while self.held and self.held[0][0] <= self.synced:
                _writes, action, tags = self.held.popleft()
                if all(job.committed for job in tags):
                    action()
        finally:
            self.releasing = False
        for job in finished:
            job.finish(self.log)
        if self.held or self.queue:
            self._start()
        if self.idle and self._is_idle():
            waiters, self.idle = self.idle, []
            for waiter in waiters:
                waiter.callback(None)


class Job:
    """
    A write the game hands the writer thread (`Barrier.submit`): `write()` runs there, on the
    thread's own database connection, in the group's transaction (and again alone, in a
    transaction of its own, if the group's failed). Back on the reactor, once the commit is
    durable, `finish` runs `done()` (or, when it failed, `failed(error)`) and fires the
    Deferreds of `when_done` (a session's turn waits on them). `together`: a context manager
    factory the group's writes run inside (once for all the jobs that share it), so that
    what they write can be written together (`rolllog.counting.grouped`); a job tried alone
    runs without it. `build`: a function (the group's jobs) -> the group built on the
    reactor's thread and sent from there (`Barrier.send_prepared`), or None (the writer
    thread writes it); asked when every job of a group has the same one
    (`rolllog.writer.prepare`).
    """

    def __init__(self, write, done=None, failed=None, together=None, build=None):
        self.write = write
        self.together = together
        self.build = build
        self.done = done
        self.failed = failed
        self.committed = False
        self.error = None
        self.waiters = []
        self.finished = False

    def when_done(self):
        from twisted.internet.defer import Deferred, succeed

        if self.finished:
            return succeed(self)
        waiter = Deferred()
        self.waiters.append(waiter)
        return waiter

    def finish(self, log=print):
        if self.finished:
            return
        self.finished = True
        if not self.committed and self.error is None:
            self.error = RuntimeError("the write was not committed")
        try:
            if self.committed and self.done is not None:
                self.done()
            elif not self.committed:
                log(f"durable: a write was not stored: {self.error!r}")
                if self.failed is not None:
                    self.failed(self.error)
        except Exception as exc:  # noqa: BLE001 - a follow-up's error must not stop the others
            log(f"durable: after a write: {exc!r}")
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.callback(self)


_WRITER = threading.local()  # on in the writer's commit: its statements are not the game's writes


class Stats:
    """What the writer did, for the log at the Server's stop: its groups and how long each
    held the database's write lock (its transaction, BEGIN to COMMIT, without the sync; for
    a group sent from the game's thread, from its sending to its answer being read)."""

    def __init__(self):
        self.groups = self.jobs = 0
        self.seconds = self.longest = 0.0

    def add(self, jobs, seconds):
        self.groups += 1
        self.jobs += jobs
        self.seconds += seconds
        self.longest = max(self.longest, seconds)

    def line(self):
        if not self.groups:
            return "storyteller_dice: the writer stored nothing."
        return (f"storyteller_dice: the writer stored {self.jobs} records in {self.groups} group commits "
                f"({self.jobs / self.groups:.1f} a group); its transactions took "
                f"{1000 * self.seconds / self.groups:.2f} ms on average, {1000 * self.longest:.2f} ms at most.")


STATS = Stats()


def commit_jobs(jobs):
    """
    In the writer thread: every job's `write()` in one transaction on the thread's own
    connection (the group commit: one log append and one sync for all of them). If it fails,
    each job again in a transaction of its own, so that only the job at fault fails (a
    deferred foreign key, say, fails the whole commit). Each job's `committed` or `error` is
    set before the thread says it is done.

    Returns whether a commit it made is itself durable and covers every write the game made
    before it: on PostgreSQL, where the writer's commits wait for the server's log, and the
    log is flushed in order, up to that commit and so past every commit the game's thread
    made before the group began (theirs without waiting). Then the barrier's own flush, one
    more round trip and one more log flush a group, is not needed. On SQLite the writer's
    commit is not synced (the sync follows it, `sync_file`). It relies on every job writing
    a row (the roll log's always insert their entry): PostgreSQL does not wait for its log at
    the commit of a transaction that wrote nothing.
    """
    from django.db import connections, transaction

    _WRITER.on = True
    try:
        _wait_while_held_for_test()
        connection = connections["default"]
        try:
            _prepare_writer(connection)
            began = time.perf_counter()
            with _short_turns(), transaction.atomic(), contextlib.ExitStack() as stack:
                for together in dict.fromkeys(job.together for job in jobs if job.together is not None):
                    stack.enter_context(together())
                for job in jobs:
                    job.write()
            STATS.add(len(jobs), time.perf_counter() - began)
        except Exception:  # noqa: BLE001 - tried again one by one, where each error is kept
            connection.close_if_unusable_or_obsolete()
        else:
            for job in jobs:
                job.committed = True
            return connection.vendor == "postgresql"
        for job in jobs:
            try:
                _prepare_writer(connection)
                with _short_turns(), transaction.atomic():
                    job.write()
                job.committed = True
            except Exception as exc:  # noqa: BLE001 - the job fails, its player is told
                job.error = exc
                connection.close_if_unusable_or_obsolete()
        return connection.vendor == "postgresql" and any(job.committed for job in jobs)
    finally:
        _WRITER.on = False


TURN_SECONDS = 0.0005  # the interpreter's switch interval while the writer holds the lock


@contextlib.contextmanager
def _short_turns():
    """
    While the writer's transaction is open, threads take turns on the interpreter every
    `TURN_SECONDS` rather than every 5 ms (Python's default), put back after the commit.

    Why: the writer runs a few statements a job, and after each (the database lets the
    interpreter go while it works) it waits for the game's thread to hand the interpreter
    back, up to the switch interval each time. With 50 players keeping the game's thread
    busy, those waits held SQLite's write lock for up to 400 ms a group, and every write of
    the game's own (an Attribute, a login) waited behind it. The interval is the process's;
    it is shortened only for the transaction (a few milliseconds) and the host's own value
    is restored, whatever it was. The barrier's thread runs the log's sync after the commit
    in short turns too (`Barrier._start`): at 50 players on SQLite, back to back, a roll
    answered 1.00 to 1.03 as many players a second as a `say` with it and 0.93 to 1.01
    without, the groups 6 records against 9 (the sync's end no longer waiting for the
    interpreter for up to many 5 ms turns).
    """
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, TURN_SECONDS))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _held_for_test():
    """Whether the end-to-end tests hold the writer now (`_wait_while_held_for_test`)."""
    from django.conf import settings

    path = getattr(settings, "DICE_WRITER_HOLD_FILE", None)
    return bool(path and os.path.exists(path))


def _wait_while_held_for_test():
    """
    The end-to-end tests' hold on the writer: while the file named by the setting
    `DICE_WRITER_HOLD_FILE` exists (only `e2e_settings.py` sets it, from the environment),
    the writer waits before it writes, so a test can see that nothing is sent meanwhile (a
    group sent from the reactor's thread waits too: `send_prepared`).
    """
    waited = 0
    while _held_for_test() and waited < HOLD_SECONDS * 100:
        time.sleep(0.01)
        waited += 1


HOLD_SECONDS = 60  # a test's hold that is never lifted ends by itself


def _prepare_writer(connection):
    """
    The writer's own connection, once per connection made: on SQLite its transactions take the
    write lock at BEGIN (a read first and a write later would fail, not wait, when the game's
    thread wrote in between) and commit without a sync, the sync coming after the lock is
    let go (`sync_file`, run after the commit: the game's own writes wait on the lock for the
    write, not for the disk); on PostgreSQL its commits wait for the server's log (whatever
    the game's do), so a committed job is on disk.
    """
    connection.ensure_connection()
    if getattr(_WRITER, "prepared", None) is connection.connection:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            connection.transaction_mode = "IMMEDIATE"
            cursor.execute("PRAGMA synchronous=NORMAL")
        elif connection.vendor == "postgresql":
            cursor.execute("SET synchronous_commit TO on")
    _WRITER.prepared = connection.connection


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
        if not str(sql).lstrip()[:6].upper().startswith(_READ_ONLY) and not getattr(_WRITER, "on", False):
            held.wrote()
        return result

    connection.execute_wrappers.append(counted)
    commit = connection._commit

    def _commit():
        commit()
        if not getattr(_WRITER, "on", False):
            held.wrote()

    connection._commit = _commit


def _connection_created(sender, connection, **kwargs):
    if barrier() is not None and connection.alias == "default" and not getattr(_WRITER, "on", False):
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


def run_prepared(sql):
    """
    PostgreSQL, blocking (the in-process tests' stand-in for `send_prepared`): `sql` on the
    sender's connection; its last statement's rows, or raises.
    """
    import psycopg

    connection = _sender()
    result = connection.pgconn.exec_(sql.encode())
    if result.status != psycopg.pq.ExecStatus.TUPLES_OK:
        raise psycopg.DatabaseError(result.error_message.decode("utf-8", "replace"))
    return _rows(result)


def _rows(result):
    return [[result.get_value(row, column) for column in range(result.nfields)] for row in range(result.ntuples)]


def send_prepared(sql):
    """
    PostgreSQL, on the reactor's thread: send `sql` (literal statements, the values bound
    already: `rolllog.writer.prepare`) on the sender's own connection (autocommit,
    `synchronous_commit` on) and return a Deferred that fires with its last statement's rows
    once the server has answered it whole, or fails. The statements of one such query are one
    transaction, committed after the last, and the server answers only once its log is
    flushed past that commit: so the Deferred fires once the group is durable, and a failure
    means none of it was written (but for a connection lost between the server's commit and
    its answer: the ruling in docs/performance.md, "On PostgreSQL, most groups without the
    thread"). The reactor watches the connection's socket (`_Answer`),
    so no thread waits on the database, and none takes the interpreter from the game's.
    """
    from twisted.internet import reactor, task
    from twisted.internet.defer import Deferred, fail

    if _held_for_test():  # the end-to-end tests' hold (`_wait_while_held_for_test`): not yet
        return task.deferLater(reactor, 0.01, send_prepared, sql)
    try:
        connection = _sender()
        connection.pgconn.send_query(sql.encode())
    except Exception as exc:  # noqa: BLE001 - the caller writes the group the usual way
        _close_sender()
        return fail(exc)
    answer = _Answer(connection, Deferred())
    reactor.addReader(answer)
    _ANSWER[:] = [answer]
    return answer.deferred


_ANSWER = []  # the `_Answer` of the group in flight


LOOK_AFTER_SECONDS = 0.03


def poll_prepared():
    """
    At the game's sends: read what has come of the group in flight (`send_prepared`),
    without waiting, once it has been out `LOOK_AFTER_SECONDS`.

    Why: the reactor reads the connection's socket only once it has handled what it read
    before, in a busy room a batch of commands: 75 ms a group on average with 50 players,
    every roll of the group waiting for it. Looking at every send instead started each group
    as soon as the one before was in, a record a group, and each group costs the game's
    thread its counts and its text (about 1 ms): the rolls got slower. After 30 ms, a group
    held 6 records on average and was in after 26 ms (docs/performance.md).
    """
    if _ANSWER and time.monotonic() >= _ANSWER[0].sent + LOOK_AFTER_SECONDS:
        _ANSWER[0].doRead()


class _Answer:
    """The reactor's reader of one query's answer on the sender's connection (`send_prepared`)."""

    def __init__(self, connection, deferred):
        self.connection = connection
        self.deferred = deferred
        self.rows = None
        self.error = None
        self.socket = connection.pgconn.socket
        self.sent = time.monotonic()

    def fileno(self):
        return self.socket

    def logPrefix(self):
        return "storyteller-writer"

    def doRead(self):
        import psycopg

        status = psycopg.pq.ExecStatus
        pgconn = self.connection.pgconn
        try:
            pgconn.consume_input()
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:  # the whole answer: the server is ready for the next query
                    self._end()
                    return None
                if result.status == status.TUPLES_OK:
                    self.rows = _rows(result)
                elif result.status != status.COMMAND_OK and self.error is None:
                    self.error = psycopg.DatabaseError(result.error_message.decode("utf-8", "replace"))
        except Exception as exc:  # noqa: BLE001 - a lost connection: connect again next time
            self.error = self.error or exc
            _close_sender()
            self._end()
        return None

    def connectionLost(self, reason):
        self.error = self.error or reason.value
        _close_sender()
        self._end()

    def _end(self):
        from twisted.internet import reactor

        if self.deferred.called:
            return
        reactor.removeReader(self)
        if _ANSWER and _ANSWER[0] is self:
            _ANSWER.clear()
        if self.error is not None:
            self.deferred.errback(self.error)
        else:
            self.deferred.callback(self.rows)


_SENDER = []  # the prepared groups' own PostgreSQL connection, used on the reactor's thread


def _sender():
    return _own(_SENDER)


def _close_sender():
    _close(_SENDER)


_FLUSHER = []  # the sync's own PostgreSQL connection, once made; one sync runs at a time (Barrier)


def _flusher():
    return _own(_FLUSHER)


def _own(held):
    """The connection kept in `held` (`_SENDER`, `_FLUSHER`), made again once closed."""
    if not held or held[0].closed:
        held[:] = [_connect_own()]
    return held[0]


def _connect_own():
    """A PostgreSQL connection of our own to the game's database: autocommit, its commits
    waiting for the server's log, without Django's cursor and adapters (what it sends is
    literal, and what it reads is read as text)."""
    import psycopg
    from django.db import connections

    params = connections["default"].get_connection_params()
    for name in ("cursor_factory", "context"):
        params.pop(name, None)
    connection = psycopg.connect(**params, autocommit=True)
    connection.execute("SET synchronous_commit TO on")
    return connection


def _close_flusher():
    _close(_FLUSHER)


def _close(held):
    while held:
        try:
            held.pop().close()
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
    In the Server (`hardening.at_server_init`): hold what the Server sends the Portal
    (`send_MsgServer2Portal`, `send_AdminServer2Portal`: messages and disconnections, which
    must not overtake them) behind the writer's commits (`DICE_GROUP_COMMIT`, on by default)
    and, with `SYNC_BEFORE_SENDING`, behind a sync of every write the game made; the writer's
    thread started, and drained before the Server stops (a reload too). Idempotent.
    """
    if _ASKED:
        return
    _ASKED.append(True)
    from django.conf import settings

    database = settings.DATABASES.get("default", {})
    sending = bool(getattr(settings, "SYNC_BEFORE_SENDING", False))
    group = bool(getattr(settings, "DICE_GROUP_COMMIT", True))
    sync = sync_for(database, sending)
    if sync is None and group:
        # FULL (or ON): the game's own commits sync themselves; the writer's SQLite commits
        # do not (`_prepare_writer`), its log is synced after them, and its PostgreSQL
        # commits wait for the server's log.
        sync = sync_for(database, True)
        if sync is flush_postgresql:
            sync = _nothing
    if sync is None:
        return
    from django.db import connections
    from django.db.backends.signals import connection_created
    from evennia.server.amp_client import AMPServerClientProtocol
    from evennia.utils import logger
    from twisted.internet import reactor
    from twisted.internet.threads import deferToThreadPool
    from twisted.python.threadpool import ThreadPool

    # One thread: one writer, one connection of its own, its jobs in the order submitted.
    pool = ThreadPool(1, 1, "storyteller-writer")
    pool.start()
    reactor.addSystemEventTrigger("before", "shutdown", _drain, logger.log_err)
    reactor.addSystemEventTrigger("during", "shutdown", pool.stop)
    _BARRIER.append(Barrier(sync, functools.partial(deferToThreadPool, reactor, pool), log=logger.log_err,
                            commit=commit_jobs if group else None,
                            send_prepared=send_prepared if group and sync in (flush_postgresql, _nothing) else None,
                            poll=poll_prepared))
    if group:
        logger.log_info("storyteller_dice: rolls are stored by the writer thread, in group commits.")
        connection_created.connect(_begin_immediate, dispatch_uid="storyteller_begin_immediate")
        _begin_immediate(None, connections["default"])
    if sending:
        connection_created.connect(_connection_created, dispatch_uid="storyteller_durable")
        _count_writes(connections["default"])  # this thread's, open already
    for name in ("send_MsgServer2Portal", "send_AdminServer2Portal"):
        _hold_method(AMPServerClientProtocol, name)


def _begin_immediate(sender, connection, **kwargs):
    """
    SQLite, with the writer: every connection's transactions take the write lock at BEGIN.
    A deferred transaction that reads, then writes (Django's many-to-many `add`, as Evennia
    makes a new Attribute) fails at once, without waiting, when another connection (the
    writer's) committed in between; one that begins IMMEDIATE waits for the lock instead.
    """
    if connection.vendor == "sqlite" and connection.alias == "default":
        connection.transaction_mode = "IMMEDIATE"  # (set again at each connect: this signal)


def _nothing():
    """No sync: what the writer committed is on disk already."""


DRAIN_SECONDS = 30  # at most this long a stopping Server waits for the writer


def _drain(log):
    """Before the Server stops: every queued job committed and every held send sent (a
    database that does not answer holds the stop for `DRAIN_SECONDS` at most)."""
    from twisted.internet import reactor

    from evennia.utils import logger

    held = barrier()
    if held is None:
        return None
    waiting = held.drained()
    waiting.addTimeout(DRAIN_SECONDS, reactor)
    waiting.addErrback(lambda failure: log(f"durable: stopping before the writer was done: "
                                           f"{failure.getErrorMessage()}"))
    waiting.addBoth(lambda _result: logger.log_info(STATS.line()))
    return waiting


def group_commit():
    """The barrier, when writes go to the writer thread: the Server's reactor thread, with the
    group commit installed."""
    from twisted.python import threadable

    held = barrier()
    if held is None or held.commit is None or not threadable.isInIOThread():
        return None
    return held


def submit(held, job):
    """Hand `job` to the writer (`held`: `group_commit()`). What is sent from now until the
    command ends goes with it; outside a session's command (a script, a timer), until the
    reactor's next turn."""
    from twisted.internet import reactor

    held.submit(job)
    if len(held.tags) == 1:
        tags = held.tags
        reactor.callLater(0, _untag, held, tags)
    return job


def _untag(held, tags):
    if held.tags is tags:
        held.tags = []


def start_command():
    held = barrier()
    if held is not None:
        held.start_command()


def end_command():
    """
    The running command has ended: a Deferred fired once every job it submitted is done
    (committed and its sends out, or failed), or None when it submitted none. The session's
    next input waits on it (`typeclasses.serversession`).
    """
    held = barrier()
    jobs = held.end_command() if held is not None else []
    if not jobs:
        return None
    from twisted.internet.defer import DeferredList

    return DeferredList([job.when_done() for job in jobs], consumeErrors=True)


def _hold_method(cls, name):
    original = getattr(cls, name)

    def held(self, *args, **kwargs):
        return send(lambda: original(self, *args, **kwargs))

    held.__wrapped__ = original
    setattr(cls, name, held)
