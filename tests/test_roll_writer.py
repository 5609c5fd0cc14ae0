"""
The roll writer's group commit (rolllog/writer.py, typeclasses/durable.py), on the real path:
outside a test transaction (`transaction=True`), a roll is queued, not written, until the
writer's commit runs; the state kept with it is written in the same transaction; rolls queued
while a commit is in flight go together in the next; a job that fails fails alone, drops what
its command sent and tells its player, and leaves no state; the session's turn and the
Server's stop wait for the writer.

The writer's thread is a stand-in the test runs itself (`Syncs`): each "thread" runs when the
test says, on the test's own connection, so what is written before and after is seen exactly.
"""

import pytest
from evennia.utils.test_resources import EvenniaCommandTest
from twisted.internet.defer import Deferred
from twisted.python import threadable

from storyteller_dice.typeclasses import durable

pytestmark = pytest.mark.database  # the PostgreSQL pass runs these too


class Syncs:
    """A stand-in for the writer's thread: each run waits until the test finishes it."""

    def __init__(self):
        self.waiting = []

    def __call__(self, function):
        done = Deferred()
        self.waiting.append((function, done))
        return done

    def finish(self):
        function, done = self.waiting.pop(0)
        try:
            result = function()
        except Exception as exc:  # noqa: BLE001 - as deferToThread hands it on
            done.errback(exc)
        else:
            done.callback(result)


@pytest.fixture
def writer(monkeypatch):
    """The Server's barrier with the group commit, its thread run by the test."""
    syncs, logged, commits = Syncs(), [], []

    def commit(jobs):
        commits.append(len(jobs))
        durable.commit_jobs(jobs)

    def send_prepared(sql):
        # On PostgreSQL a group built on the game's thread is sent from it, its answer awaited
        # by the reactor: here the query runs when the test finishes the "thread".
        commits.append(len(held.batch))
        return syncs(lambda: durable.run_prepared(sql))

    held = durable.Barrier(lambda: None, syncs, log=logged.append, commit=commit, send_prepared=send_prepared)
    monkeypatch.setattr(durable, "_BARRIER", [held])
    monkeypatch.setattr(threadable, "isInIOThread", lambda: True)
    monkeypatch.setattr("twisted.internet.reactor.callLater", lambda delay, function, *args: None)
    held.send(lambda: None)  # the barrier's first sync (what was written before it)
    syncs.finish()
    yield held, syncs, logged, commits
    from django.db import connection

    durable._close_sender()  # the prepared groups' connection: the test database is dropped next
    if connection.vendor == "sqlite":
        connection.transaction_mode = None


class Game(EvenniaCommandTest):
    def run(self):  # only its setUp, call and tearDown are used, in the tests below
        pass


@pytest.fixture
def game():
    test = Game("run")
    test.setUp()
    test.char1.set_trait("dexterity", 3)
    yield test
    test.tearDown()


def roll(game, comment):
    from storyteller_dice.commands.rolls import CmdRoll

    return game.call(CmdRoll(), f" dex+2 vs 2 # {comment}", caller=game.char1)


def entries(comment):
    from storyteller_dice.rolllog.models import RollEntry

    return list(RollEntry.objects.filter(comment=comment))


def window_code(character):
    """The +willpower window's entry as the game reads it (Evennia's cache)."""
    from storyteller_dice.commands.v5.willpower import last_roll

    return last_roll(character).entry


def stored_window_code(character):
    """The +willpower window's entry as the database has it (its Attribute read afresh)."""
    from evennia.typeclasses.attributes import Attribute

    from storyteller_dice.commands.last_roll import LastRoll
    from storyteller_dice.commands.pending import PENDING

    attribute = character.attributes.get("last_roll", category=PENDING, return_obj=True)
    value = Attribute.objects.filter(id=attribute.id).values_list("db_value", flat=True)[0]
    from evennia.utils.dbserialize import from_pickle

    return LastRoll.from_data(from_pickle(value)).entry


@pytest.mark.django_db(transaction=True)
def test_a_roll_is_written_by_the_writer_with_its_window_in_one_commit(writer, game):
    held, syncs, _logged, commits = writer
    roll(game, "first")  # its window's Attribute is made at once, on the game's thread
    syncs.finish()
    [first] = entries("first")
    assert window_code(game.char1) == first.code == stored_window_code(game.char1)

    out = roll(game, "second")
    code = out.split("[code ")[1][:8]
    assert entries("second") == []  # queued, not written: the game did not wait
    assert window_code(game.char1) == code  # the game reads the state it kept...
    assert stored_window_code(game.char1) == first.code  # ...which is written with the roll
    syncs.finish()
    [second] = entries("second")
    assert second.code == code and second.text.endswith(f"[code {code}]")
    assert stored_window_code(game.char1) == code
    assert sum(face.count for face in second.faces.all()) == 5
    assert commits == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_rolls_made_while_a_commit_is_in_flight_are_written_together(writer, game):
    held, syncs, _logged, commits = writer
    roll(game, "one")
    roll(game, "two")  # the first commit is in flight: these wait for the next
    roll(game, "three")
    assert len(syncs.waiting) == 1
    syncs.finish()
    assert [len(entries(name)) for name in ("one", "two", "three")] == [1, 0, 0]
    syncs.finish()
    assert [len(entries(name)) for name in ("one", "two", "three")] == [1, 1, 1]
    assert commits == [1, 2]
    assert syncs.waiting == []


@pytest.mark.django_db(transaction=True)
def test_a_failed_write_is_dropped_with_what_its_command_sent_and_leaves_no_state(writer, game, monkeypatch):
    from django.db import connection

    from storyteller_dice.rolllog import codes

    held, syncs, logged, commits = writer
    roll(game, "kept")
    syncs.finish()
    [kept] = entries("kept")
    told, sent = [], []

    roll(game, "busy")  # its commit in flight: the next two go together
    held.start_command()
    roll(game, "ok")  # written with the one at fault, which fails alone
    with monkeypatch.context() as patch:
        patch.setattr(codes, "new_code", lambda: kept.code)  # a code taken: the write fails
        roll(game, "clash")
    held.send(lambda: sent.append("the clash's line"))
    jobs = held.end_command()
    held.send(lambda: sent.append("the next command's line"))
    monkeypatch.setattr(game.char1, "msg", lambda text=None, **kwargs: told.append(text), raising=False)
    syncs.finish()
    assert sent == [] and told == []
    syncs.finish()
    if connection.vendor == "postgresql":
        # The group built on the game's thread failed whole: the thread writes it again, the
        # usual way (the group, then each job alone), and nothing is sent meanwhile.
        assert (commits, sent, told) == ([1, 1, 2], [], [])
        syncs.finish()
        assert commits == [1, 1, 2, 2]
    else:
        assert commits == [1, 1, 2]
    assert [len(entries(name)) for name in ("ok", "clash")] == [1, 0]
    assert [job.committed for job in jobs] == [True, False]
    assert sent == ["the next command's line"]  # the failed command's send is dropped
    assert told and "could not be stored" in told[0]
    assert any("not stored" in line for line in logged)
    # The window the failed roll had kept is read back from the database: the "ok" roll's.
    [ok] = entries("ok")
    assert window_code(game.char1) == ok.code == stored_window_code(game.char1)


def test_the_sessions_turn_and_the_servers_stop_wait_for_the_commit():
    syncs = Syncs()
    held = durable.Barrier(lambda: None, syncs, log=print, commit=lambda jobs: [
        setattr(job, "committed", True) for job in jobs])
    held.send(lambda: None)
    syncs.finish()
    done = []
    held.start_command()
    held.submit(durable.Job(lambda: None, done=lambda: done.append("stored")))
    jobs = held.end_command()
    turn = jobs[0].when_done()
    turn.addCallback(lambda job: done.append("next line"))
    stop = held.drained()
    stop.addCallback(lambda _result: done.append("stopped"))
    assert done == []
    syncs.finish()
    assert done == ["stored", "next line", "stopped"]
    assert held.end_command() == []  # a command that stored nothing does not hold its turn
    assert held.drained().called


class Table(Game):
    def setUp(self):
        super().setUp()
        self.char2.set_trait("composure", 2)
        self.char2.set_trait("resolve", 3)
        self.char1.set_trait("hunger", 2)


@pytest.fixture
def table():
    test = Table("run")
    test.setUp()
    test.char1.set_trait("athletics", 2)
    yield test
    test.tearDown()


@pytest.mark.django_db(transaction=True)
def test_every_command_that_stores_goes_through_the_writer(writer, table):
    """A check, a contest and its answer, teamwork, +rouse and a staff action: each one's record
    is queued, not written on the game's thread, and written by the writer's commit."""
    import random

    from storyteller_dice.commands.rolls import CmdCheck
    from storyteller_dice.commands.v5.contest import CmdContest
    from storyteller_dice.commands.v5.hunger import CmdHunger, CmdRouse
    from storyteller_dice.commands.v5.teamwork import CmdTeamwork
    from storyteller_dice.rolllog.models import RollEntry
    from storyteller_dice.rules.randomness import seeded

    _held, syncs, _logged, _commits = writer
    char1, char2 = table.char1, table.char2
    steps = [
        (CmdCheck, "5 vs 2", char1, "check"),
        (CmdContest, "dex+athletics vs Char2", char1, None),  # a challenge: nothing stored
        (CmdContest, "/answer com+res", char2, "contest"),
        (CmdTeamwork, "dex+athletics vs 3", char1, None),
        (CmdTeamwork, "/join Char=com+res", char2, None),
        (CmdTeamwork, "/roll", char1, "teamwork"),
        (CmdRouse, "", char1, "rouse"),
        (CmdHunger, " Char2=3", char1, "hunger"),
    ]
    with seeded(random.Random(7)):
        for cmd, args, caller, kind in steps:
            before = RollEntry.objects.count()
            table.call(cmd(), args, caller=caller)
            assert RollEntry.objects.count() == before, f"{cmd.key} {args} wrote on the game's thread"
            if kind is None:
                assert syncs.waiting == [], f"{cmd.key} {args} queued something"
                continue
            syncs.finish()
            assert RollEntry.objects.count() == before + 1 and RollEntry.objects.latest("id").kind == kind


def test_a_sessions_next_line_waits_for_its_commands_record(monkeypatch):
    """The input filter's turn (typeclasses/serversession.py): a line whose command queued a
    record is the session's last until the record is committed; then the next runs."""
    from unittest.mock import MagicMock

    from storyteller_dice.typeclasses.serversession import ServerSession

    syncs = Syncs()
    held = durable.Barrier(lambda: None, syncs, log=print, commit=lambda jobs: [
        setattr(job, "committed", True) for job in jobs])
    monkeypatch.setattr(durable, "_BARRIER", [held])
    monkeypatch.setattr("twisted.internet.reactor.callLater", lambda delay, function, *args: None)
    held.send(lambda: None)
    syncs.finish()
    ran, later = [], []

    def command(session, **kwargs):
        line = kwargs["text"][0][0]
        ran.append(line)
        if line.startswith("+roll"):
            held.submit(durable.Job(lambda: None))

    session = ServerSession()
    session.sessionhandler = MagicMock()
    session.sessionhandler.call_inputfuncs.side_effect = command
    session.call_later = lambda delay, function: later.append(function)

    session.data_in(text=(["+roll 3"], {}))
    session.data_in(text=(["say after"], {}))
    assert ran == ["+roll 3"] and later == []  # the say waits for the roll's commit
    syncs.finish()
    assert len(later) == 1
    later.pop()()  # the reactor's next turn
    assert ran == ["+roll 3", "say after"]
    later.pop()()
    session.data_in(text=(["say again"], {}))  # nothing stored: the turn passes at once
    assert ran == ["+roll 3", "say after", "say again"] and len(later) == 1


@pytest.mark.django_db(transaction=True)
def test_the_writers_transaction_takes_short_turns_on_the_interpreter_and_gives_back_the_hosts():
    import sys

    seen = []
    host = 0.004  # a host's own value, not Python's default, so that its return is seen
    before = sys.getswitchinterval()
    sys.setswitchinterval(host)
    try:
        good = durable.Job(lambda: seen.append(sys.getswitchinterval()))
        durable.commit_jobs([good])

        def fails():
            seen.append(sys.getswitchinterval())
            raise RuntimeError("a record at fault")

        bad = durable.Job(fails)
        durable.commit_jobs([bad])  # the group, then the job alone: both inside short turns
        assert sys.getswitchinterval() == pytest.approx(host)
    finally:
        sys.setswitchinterval(before)
    assert seen == [pytest.approx(durable.TURN_SECONDS)] * 3
    assert good.committed and isinstance(bad.error, RuntimeError)


def test_the_sync_after_a_group_runs_in_short_turns_too():
    """After the log's sync (SQLite's fdatasync) the thread waits for the interpreter again:
    the barrier runs it in short turns as well, and gives the host's value back after it."""
    import sys

    seen, threads = [], Syncs()
    host = 0.004
    before = sys.getswitchinterval()
    sys.setswitchinterval(host)
    try:
        held = durable.Barrier(lambda: seen.append(sys.getswitchinterval()), threads, log=print,
                               commit=lambda jobs: False)
        held.submit(durable.Job(lambda: None))
        threads.finish()
        assert sys.getswitchinterval() == pytest.approx(host)
    finally:
        sys.setswitchinterval(before)
    assert seen == [pytest.approx(durable.TURN_SECONDS)]


def counted_rows():
    """Every row of the three counting tables a roll adds to, as plain tuples."""
    from storyteller_dice.rolllog.models import DayCount, FaceTally, RoomVisit

    return {model.__name__: sorted(model.objects.values_list(*[f.name for f in model._meta.concrete_fields
                                                               if f.name != "id"]))
            for model in (DayCount, FaceTally, RoomVisit)}


@pytest.mark.django_db(transaction=True)
def test_a_groups_counts_are_written_once_a_table_and_are_what_a_rebuild_gives(writer, game, monkeypatch):
    """Three rolls in one group commit: each counting table gets one upsert for the group (on
    PostgreSQL the whole group is built on the game's thread and sent in one call, Django's
    connections sending nothing), the sums a rebuild from the entries gives, and every entry
    its own faces and its own id."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from storyteller_dice.rolllog import fairness, listing
    from storyteller_dice.rolllog.models import DayCount, FaceTally, RoomVisit

    held, syncs, _logged, commits = writer
    sent = []
    run = durable.run_prepared
    monkeypatch.setattr(durable, "run_prepared", lambda sql: sent.append(sql) or run(sql))
    roll(game, "busy")
    for name in ("one", "two", "three"):
        roll(game, name)
    syncs.finish()  # the first group written, the second built and handed to the thread
    with CaptureQueriesContext(connection) as seen:
        syncs.finish()
    assert commits == [1, 3]
    sql = [query["sql"] for query in seen.captured_queries if query["sql"] not in ("BEGIN", "COMMIT")]
    if connection.vendor == "postgresql":
        assert (len(sent), sql) == (2, [])  # the group's entries, faces, windows and counts: one call
        sql = sent[1:]
    for model in (DayCount, FaceTally, RoomVisit):
        assert sum(text.count(f'INSERT INTO "{model._meta.db_table}"') for text in sql) == 1, (model, sql)
    for name in ("one", "two", "three"):
        [entry] = entries(name)
        assert sum(face.count for face in entry.faces.all()) == 5, name
    assert window_code(game.char1) == entries("three")[0].code == stored_window_code(game.char1)
    written = counted_rows()
    listing.rebuild()
    fairness.rebuild_tally()
    assert counted_rows() == written
    assert dict(DayCount.objects.filter(room=listing.EVERY_ROOM).values_list("private", "count")) == {False: 4}


@pytest.mark.django_db(transaction=True)
def test_a_record_finds_its_parent_written_earlier_in_the_same_group(writer, game):
    """A +willpower reroll of a roll still queued: both go in one group, and the reroll's
    parent is found (on PostgreSQL, the held statements are sent before the parent is read)."""
    from storyteller_dice.commands.v5.willpower import CmdWillpower

    held, syncs, _logged, commits = writer
    roll(game, "busy")
    roll(game, "first")
    out = game.call(CmdWillpower(), "/position 1", caller=game.char1)  # never refused as unhelpful
    syncs.finish()
    syncs.finish()
    assert commits == [1, 2], out
    [first] = entries("first")
    [reroll] = first.changes.all()
    assert reroll.kind == "willpower" and reroll.parent_id == first.id


def test_a_commit_that_is_durable_itself_is_not_synced_again():
    """The barrier runs its sync after a group commit only when the commit says it did not
    make the earlier writes durable (SQLite's writer commits; PostgreSQL's wait for the log)."""
    for durable_commit, syncs_run in ((True, 0), (False, 1), (None, 1)):
        synced, threads = [], Syncs()

        def commit(jobs, answer=durable_commit):
            for job in jobs:
                job.committed = True
            return answer

        held = durable.Barrier(lambda: synced.append(1), threads, log=print, commit=commit)
        held.send(lambda: None)
        threads.finish()
        synced.clear()
        held.submit(durable.Job(lambda: None))
        sent = []
        held.send(lambda: sent.append("line"))
        threads.finish()
        assert (len(synced), sent) == (syncs_run, ["line"]), durable_commit


@pytest.mark.django_db(transaction=True)
def test_the_writers_commit_is_durable_itself_only_on_postgresql():
    from django.db import connection

    assert durable.commit_jobs([durable.Job(lambda: None)]) is (connection.vendor == "postgresql")
    bad = durable.Job(lambda: 1 / 0)
    assert durable.commit_jobs([bad]) is False and isinstance(bad.error, ZeroDivisionError)


def answer_of(sending):
    """Drive `durable.send_prepared`'s answer without a running reactor: read the socket as
    the reactor would, until the Deferred has fired; its result (or failure)."""
    import select

    from twisted.internet import reactor

    results = []
    sending.addBoth(results.append)
    for _ in range(500):
        if results:
            break
        select.select([durable._ANSWER[0].socket], [], [], 0.02)
        durable._ANSWER[0].doRead()
    assert results and durable._ANSWER == []
    assert not any(isinstance(reader, durable._Answer) for reader in reactor.getReaders())
    return results[0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_prepared_group_is_committed_and_durable_before_its_answer_is_whole():
    """`send_prepared`: the statements of one query are one transaction; the Deferred fires
    once the server has answered the whole query (after its commit, which waited for the
    log), with the last statement's rows; an error anywhere writes none of it."""
    from django.db import connection
    from psycopg import ClientCursor

    from storyteller_dice.rolllog.counting import _insert_sql
    from storyteller_dice.rolllog.models import RollEntry

    def insert(code):  # as `rolllog.writer.prepare` makes it: literal, by the game's connection
        connection.ensure_connection()
        return ClientCursor(connection.connection).mogrify(*_insert_sql(RollEntry(code=code, details={"a": "'"}),
                                                                        connection))

    try:
        rows = answer_of(durable.send_prepared(
            f"{insert('RRRR1111')}; SELECT code, id FROM rolllog_rollentry WHERE code = 'RRRR1111'"))
        stored = RollEntry.objects.get(code="RRRR1111")  # read on another connection: committed
        assert rows == [[b"RRRR1111", str(stored.id).encode()]] and stored.details == {"a": "'"}
        failure = answer_of(durable.send_prepared(f"{insert('SSSS2222')}; {insert('RRRR1111')}; SELECT 1"))
        assert "duplicate key" in failure.getErrorMessage()
        assert not RollEntry.objects.filter(code="SSSS2222").exists()
        assert durable._sender().execute("SHOW synchronous_commit").fetchone() == ("on",)
    finally:
        durable._close_sender()


def test_a_group_sent_from_the_games_thread_holds_the_sends_and_falls_back_to_the_thread():
    """The barrier's side: what is sent after a prepared group's job waits for its answer; a
    group whose answer fails is written by the thread (logged), and its sends wait for that."""
    threads, logged, answers, landed = Syncs(), [], [], []

    class Built:
        sql = "the group"

        def landed(self, rows):
            landed.append(rows)

    def send_prepared(sql):
        answers.append(Deferred())
        return answers[-1]

    def commit(jobs):
        for job in jobs:
            job.committed = True
        return True

    held = durable.Barrier(lambda: None, threads, log=logged.append, commit=commit, send_prepared=send_prepared)
    held.send(lambda: None)
    threads.finish()
    sent = []
    for outcome in ("answered", "failed"):
        job = held.submit(durable.Job(lambda: None, build=lambda jobs: Built()))
        held.send(lambda outcome=outcome: sent.append(outcome))
        assert (len(answers), threads.waiting, sent) == (1, [], [] if outcome == "answered" else ["answered"])
        if outcome == "answered":
            answers.pop().callback([["code", "1"]])
            assert (landed, sent, job.committed) == ([[["code", "1"]]], ["answered"], True)
        else:
            answers.pop().errback(RuntimeError("the connection was lost"))
            assert sent == ["answered"] and len(threads.waiting) == 1  # written by the thread now
            assert "failed (the connection was lost); the writer thread writes it" in logged[0]
            threads.finish()
            assert sent == ["answered", "failed"] and job.committed


def test_a_prepared_group_whose_ids_cannot_be_read_back_is_still_stored_and_sent():
    threads, logged, answers = Syncs(), [], []

    class Built:
        sql = "the group"

        def landed(self, rows):
            raise KeyError("ABCD2345")

    def send_prepared(sql):
        answers.append(Deferred())
        return answers[-1]

    held = durable.Barrier(lambda: None, threads, log=logged.append, commit=lambda jobs: True,
                           send_prepared=send_prepared)
    held.send(lambda: None)
    threads.finish()
    sent = []
    job = held.submit(durable.Job(lambda: None, build=lambda jobs: Built()))
    held.send(lambda: sent.append("line"))
    answers.pop().callback([])
    assert (sent, job.committed, threads.waiting) == (["line"], True, [])
    assert any("stored, but its ids were not read back" in line for line in logged)
