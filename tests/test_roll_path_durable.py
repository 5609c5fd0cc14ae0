"""
Nothing is sent before what was written is on disk, and the game does not wait for the disk
(typeclasses/durable.py): a send after a write is held until a sync that started after that
write has finished (in a thread), sends keep their order, one sync covers every write made
before it started, and a send made while a held one is being sent belongs to it.
The syncs here are Deferreds the test fires itself: no thread, no disk, deterministic.
"""

import pytest
from twisted.internet.defer import Deferred

from storyteller_dice.typeclasses import durable

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


class Syncs:
    """A stand-in for deferToThread: each sync waits until the test finishes it."""

    def __init__(self):
        self.waiting = []
        self.functions = []

    def __call__(self, function):
        done = Deferred()
        self.waiting.append(done)
        self.functions.append(function)
        return done

    def end_in_thread(self):
        """The oldest sync's thread ends (its function runs), its Deferred not yet fired: the
        reactor has not come round to its callback."""
        self.functions.pop(0)()

    def finish(self, failure=None):
        if len(self.functions) == len(self.waiting):
            self.functions.pop(0)
        done = self.waiting.pop(0)
        if failure is None:
            done.callback(None)
        else:
            done.errback(failure)


def barrier():
    syncs, logged = Syncs(), []
    held = durable.Barrier(lambda: None, syncs, log=logged.append)
    return held, syncs, logged


def test_the_first_send_waits_for_what_was_written_before_the_barrier():
    held, syncs, _logged = barrier()
    sent = []
    held.send(lambda: sent.append("welcome"))
    assert sent == [] and len(syncs.waiting) == 1
    syncs.finish()
    assert sent == ["welcome"]
    held.send(lambda: sent.append("nothing written since"))
    assert sent == ["welcome", "nothing written since"] and syncs.waiting == []


def test_a_send_after_a_write_waits_for_a_sync_that_started_after_it():
    held, syncs, _logged = barrier()
    syncs_started = len(syncs.waiting)
    held.send(lambda: None)
    syncs.finish()
    sent = []
    held.wrote()  # a roll stored
    held.send(lambda: sent.append("roll"))
    held.send(lambda: sent.append("say"))  # someone else's line, after it: after it too
    assert sent == [] and len(syncs.waiting) == syncs_started + 1
    held.wrote()  # another roll stored while the disk syncs: the running sync may miss it
    held.send(lambda: sent.append("second roll"))
    assert len(syncs.waiting) == 1  # one sync at a time
    syncs.finish()
    assert sent == ["roll", "say"]
    assert len(syncs.waiting) == 1  # the next covers the second roll
    held.wrote()
    held.wrote()
    held.send(lambda: sent.append("third"))
    syncs.finish()
    assert sent == ["roll", "say", "second roll"]  # the third roll was written after it began
    syncs.finish()
    assert sent == ["roll", "say", "second roll", "third"]
    assert syncs.waiting == []


def test_what_a_held_send_sends_goes_with_it_and_a_held_send_gives_its_result_later():
    held, syncs, _logged = barrier()
    sent = []

    def window():  # a batch of messages: it sends its own, which must not queue behind others
        held.send(lambda: sent.append("window: one"))
        held.send(lambda: sent.append("window: two"))
        return "flushed"

    results = []
    held.send(window).addCallback(results.append)
    held.send(lambda: sent.append("after the window"))
    syncs.finish()
    assert sent == ["window: one", "window: two", "after the window"]
    assert results == ["flushed"]
    assert held.send(lambda: "now") == "now"  # nothing held, nothing written: at once


def test_a_sync_its_thread_has_ended_releases_at_the_next_send_before_its_callback():
    held, syncs, _logged = barrier()
    sent = []
    held.send(lambda: sent.append("welcome"))
    syncs.finish()
    held.wrote()  # a roll stored
    held.send(lambda: sent.append("roll"))
    assert sent == ["welcome"]
    syncs.end_in_thread()  # on disk; the reactor is still busy with the commands it read
    held.send(lambda: sent.append("say"))  # the next command's line: the roll goes first
    assert sent == ["welcome", "roll", "say"] and held.syncing == 0
    held.wrote()
    held.send(lambda: sent.append("second roll"))  # the next sync starts while the old
    assert len(syncs.waiting) == 2  # callback is still on its way
    syncs.finish()  # the old callback at last: nothing is sent twice, the new sync still runs
    assert sent == ["welcome", "roll", "say"] and held.syncing
    syncs.finish()
    assert sent == ["welcome", "roll", "say", "second roll"]


def test_a_failed_sync_is_logged_and_the_game_goes_on():
    from twisted.python.failure import Failure

    held, syncs, logged = barrier()
    sent = []
    held.send(lambda: sent.append("line"))
    syncs.finish(Failure(OSError(5, "Input/output error")))
    assert sent == ["line"]
    assert len(logged) == 1 and "Input/output error" in logged[0]


def test_a_missing_log_file_is_nothing_to_sync(tmp_path):
    durable.sync_file(str(tmp_path / "game.db3-wal"))  # no file: nothing written yet
    (tmp_path / "game.db3-wal").write_bytes(b"frames")
    durable.sync_file(str(tmp_path / "game.db3-wal"))


class FakeConnection:
    def __init__(self):
        self.execute_wrappers = []
        self.commits = 0

    def _commit(self):
        self.commits += 1

    def execute(self, sql):
        def run(sql, params, many, context):
            return "rows"

        call = run
        for wrapper in reversed(self.execute_wrappers):
            call = (lambda wrapper, inner: lambda *args: wrapper(inner, *args))(wrapper, call)
        return call(sql, (), False, {})


def test_writes_are_counted_by_statement_and_commit_once_per_connection(monkeypatch):
    held, _syncs, _logged = barrier()
    monkeypatch.setattr(durable, "_BARRIER", [held])
    connection = FakeConnection()
    durable._count_writes(connection)
    durable._count_writes(connection)  # connected again: the same hooks, not twice
    start = held.writes
    assert connection.execute("  select 1") == "rows"
    connection.execute("PRAGMA synchronous")
    assert held.writes == start
    connection.execute('INSERT INTO "rolllog_rollentry" ...')
    connection.execute("UPDATE x SET y = 1")
    assert held.writes == start + 2
    connection._commit()
    assert held.writes == start + 3 and connection.commits == 1


def test_on_for_a_sqlite_file_and_postgresql_only_with_the_setting():
    sqlite = "django.db.backends.sqlite3"
    sync = durable.sync_for({"ENGINE": sqlite, "NAME": "/srv/game/evennia.db3"}, True)
    assert (sync.func, sync.args) == (durable.sync_file, ("/srv/game/evennia.db3-wal",))
    assert durable.sync_for({"ENGINE": sqlite, "NAME": "/srv/game/evennia.db3"}, False) is None
    assert durable.sync_for({"ENGINE": sqlite, "NAME": ":memory:"}, True) is None
    assert durable.sync_for({"ENGINE": sqlite, "NAME": "file:memorydb_default?mode=memory&cache=shared"}, True) is None
    assert durable.sync_for({"ENGINE": "django.db.backends.postgresql", "NAME": "evennia"}, True) \
        is durable.flush_postgresql
    assert durable.sync_for({"ENGINE": "django.db.backends.postgresql", "NAME": "evennia"}, False) is None


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresqls_flush_runs_on_its_own_connection_without_counting_itself(monkeypatch):
    from django.db import connection

    held, _syncs, _logged = barrier()
    monkeypatch.setattr(durable, "_BARRIER", [held])
    durable._count_writes(connection)
    start = held.writes
    durable.flush_postgresql()
    assert held.writes == start
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        before = cursor.fetchone()[0]
    own = durable._FLUSHER[0]
    assert own is not connection.connection and own.autocommit
    assert own.execute("SHOW synchronous_commit").fetchone()[0] == "on"
    durable.flush_postgresql()  # one statement on the same connection
    assert durable._FLUSHER == [own]
    own.close()  # a lost connection is made again
    durable.flush_postgresql()
    assert durable._FLUSHER[0] is not own and not durable._FLUSHER[0].closed
    durable._close_flusher()
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == before  # the game's own connection is left as it was
