"""
`rolllog.counting.insert_object`, the roll log's one-statement insert of an entry: the row it
writes is the row `bulk_create` wrote (defaults, JSON, links), the entry gets its id and is
saved (not adding), in one statement, and a clash on the unique code raises IntegrityError
as before (what `_with_fresh_code` retries on).
"""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from evennia.utils import create

from storyteller_dice.rolllog.counting import insert_object
from storyteller_dice.rolllog.models import RollEntry

pytestmark = [pytest.mark.django_db, pytest.mark.database]


def entry(code, **fields):
    return RollEntry(code=code, character_name="Alice", command="+roll dex", pool=[{"label": "Dexterity", "value": 3}],
                     details={"comment": "a \"quoted\" ünïcode"}, receiver_names=["Alice", "Bob"], **fields)


def columns(obj):
    return {field.attname: getattr(obj, field.attname) for field in RollEntry._meta.concrete_fields
            if field.attname != "id"}


def test_the_row_is_the_one_bulk_create_writes():
    from typeclasses.characters import Character

    alice = create.create_object(Character, key="Alice", nohome=True)  # no Limbo in this database
    ours, theirs = entry("AAAA2222", character=alice), entry("BBBB3333", character=alice)
    with CaptureQueriesContext(connection) as queries:
        insert_object(ours)
    RollEntry.objects.bulk_create([theirs])
    assert len(queries.captured_queries) == 1
    assert ours.id is not None and not ours._state.adding and ours._state.db == "default"
    ours_read, theirs_read = RollEntry.objects.get(id=ours.id), RollEntry.objects.get(id=theirs.id)
    mine, other = columns(ours_read), columns(theirs_read)
    assert mine.pop("code") == "AAAA2222" and other.pop("code") == "BBBB3333"
    assert mine.pop("created") <= other.pop("created")
    assert mine == other
    assert ours_read.character == alice and ours_read.details == {"comment": "a \"quoted\" ünïcode"}


def test_a_code_clash_raises_integrity_error():
    insert_object(entry("CCCC4444"))
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_object(entry("CCCC4444"))
    assert RollEntry.objects.filter(code="CCCC4444").count() == 1


def face(of, number):
    """A RollFace row of `of` (its id: a `NewId` in an `inserted_first` block)."""
    return (of.id, None, of.created, "v5", "Regular", 10, number, 1, False)


FACE_FIELDS = ("entry_id", "character_id", "created", "system", "label", "sides", "face", "count", "private")


def test_what_is_written_with_the_entry_refers_to_it_in_one_execute_on_postgresql():
    from storyteller_dice.rolllog.counting import add_counts, inserted_first, insert_rows
    from storyteller_dice.rolllog.models import FaceTally, RollFace

    first = entry("DDDD5555")
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        with inserted_first(first) as held:
            insert_rows(RollFace, FACE_FIELDS, [face(held, 7)])
            add_counts(FaceTally, ("day", "private", "system", "label", "sides", "face"),
                       {(held.created.date(), False, "v5", "Regular", 10, 7): 1})
    assert isinstance(first.id, int) and not first._state.adding
    assert list(RollFace.objects.filter(entry_id=first.id).values_list("face", flat=True)) == [7]
    assert FaceTally.objects.get(face=7, label="Regular").count == 1
    statements = [query["sql"] for query in queries.captured_queries if "SAVEPOINT" not in query["sql"]]
    if connection.vendor == "postgresql":
        assert len(statements) == 1 and statements[0].startswith('INSERT INTO "rolllog_rollentry"'), statements
        assert "currval(pg_get_serial_sequence(" in statements[0]
    else:  # SQLite: one by one, the entry first, as before
        assert len(statements) == 3 and statements[0].startswith('INSERT INTO "rolllog_rollentry"'), statements


def test_a_clash_with_held_rows_writes_none_of_them():
    from storyteller_dice.rolllog.counting import add_counts, inserted_first
    from storyteller_dice.rolllog.models import FaceTally

    insert_object(entry("EEEE6666"))
    clashing = entry("EEEE6666")
    with pytest.raises(IntegrityError), transaction.atomic():
        with inserted_first(clashing) as held:
            add_counts(FaceTally, ("day", "private", "system", "label", "sides", "face"),
                       {(held.created.date(), False, "v5", "Clash", 10, 3): 1})
    assert RollEntry.objects.filter(code="EEEE6666").count() == 1
    assert not FaceTally.objects.filter(label="Clash").exists()


def test_an_error_in_the_block_sends_nothing():
    from storyteller_dice.rolllog.counting import inserted_first

    unsent = entry("FFFF7777")
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        with inserted_first(unsent):
            1 / 0
    assert unsent.pk is None or connection.vendor != "postgresql"
    assert not RollEntry.objects.filter(code="FFFF7777").exists()


TALLY_KEY = ("day", "private", "system", "label", "sides", "face")


def test_a_group_gives_each_entry_its_own_id_and_its_own_faces():
    """`grouped` (the writer's group commit): three entries with their faces and counts; on
    PostgreSQL one execute, each entry's id read from its own insert; the counts summed into
    one upsert; a read in the middle sees every entry before it."""
    from storyteller_dice.rolllog.counting import add_counts, grouped, inserted_first, insert_rows
    from storyteller_dice.rolllog.models import FaceTally, RollFace

    made, seen = [entry(code) for code in ("GGGG2222", "HHHH3333", "JJJJ4444")], []
    with CaptureQueriesContext(connection) as queries, transaction.atomic(), grouped():
        for number, obj in enumerate(made, start=2):
            with inserted_first(obj) as held:
                insert_rows(RollFace, FACE_FIELDS, [face(held, number)])
                add_counts(FaceTally, TALLY_KEY, {(held.created.date(), False, "v5", "Grouped", 10, 7): number})
            if number == 3:  # a read: what is held is sent first, so it sees both entries
                seen = list(RollEntry.objects.filter(code__in=["GGGG2222", "HHHH3333"]).values_list("code", flat=True))
    assert sorted(seen) == ["GGGG2222", "HHHH3333"]
    for number, obj in enumerate(made, start=2):
        assert isinstance(obj.id, int) and RollEntry.objects.get(id=obj.id).code == obj.code
        assert list(RollFace.objects.filter(entry_id=obj.id).values_list("face", flat=True)) == [number]
    assert FaceTally.objects.get(label="Grouped").count == 2 + 3 + 4
    statements = [query["sql"] for query in queries.captured_queries if "SAVEPOINT" not in query["sql"]]
    assert sum(text.count('INSERT INTO "rolllog_facetally"') for text in statements) == 1, statements
    if connection.vendor == "postgresql":  # two entries, the read, then the third and the counts
        assert len(statements) == 3 and statements[1].startswith("SELECT"), statements


def test_an_error_in_a_group_sends_nothing_and_leaves_no_id():
    from storyteller_dice.rolllog.counting import grouped, inserted_first

    first, second = entry("KKKK5555"), entry("LLLL6666")
    with pytest.raises(ZeroDivisionError), transaction.atomic(), grouped():
        with inserted_first(first):
            pass
        with inserted_first(second):
            1 / 0
    assert first.pk is None or connection.vendor != "postgresql"
    assert second.pk is None or connection.vendor != "postgresql"
    assert not RollEntry.objects.filter(code__in=["KKKK5555", "LLLL6666"]).exists()


def test_a_clash_in_a_group_writes_none_of_it_and_leaves_no_id():
    from storyteller_dice.rolllog.counting import grouped, inserted_first

    insert_object(entry("MMMM7777"))
    fine, clashing = entry("NNNN8888"), entry("MMMM7777")
    with pytest.raises(IntegrityError), transaction.atomic(), grouped():
        for obj in (fine, clashing):
            with inserted_first(obj):
                pass
    if connection.vendor == "postgresql":  # on SQLite each ran as it came, and was rolled back
        assert fine.pk is None and clashing.pk is None
    assert not RollEntry.objects.filter(code="NNNN8888").exists()


@pytest.mark.postgres
def test_held_rows_are_one_text_for_any_number_and_bind_each_value_once():
    """On PostgreSQL the held statements read their rows from arrays (`unnest`): the text is
    the same for 2 faces and for 40, a value every row shares is bound once, and equal values
    anywhere in the execute share one parameter (psycopg parses a text again each time above
    50 parameters)."""
    from storyteller_dice.rolllog.counting import add_counts, inserted_first, insert_rows
    from storyteller_dice.rolllog.models import FaceTally, RollFace

    key = ("day", "private", "system", "label", "sides", "face")
    sent = []
    for number, code in ((2, "GGGG2222"), (40, "HHHH3333")):
        first = entry(code)
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            with inserted_first(first) as held:
                insert_rows(RollFace, FACE_FIELDS, [(held.id, None, held.created, "v5", "Regular", 10, face, index + 1,
                                                     False) for index, face in enumerate(range(1, number + 1))])
                add_counts(FaceTally, key, {(held.created.date(), False, "v5", "Regular", 10, face): index + 1
                                            for index, face in enumerate(range(1, number + 1))})
        sent.append([query["sql"] for query in queries.captured_queries if "SAVEPOINT" not in query["sql"]][0])
        faces = RollFace.objects.filter(entry_id=first.id).order_by("face")
        assert [(row.face, row.count, row.label, row.sides, row.private) for row in faces] == \
            [(face, face, "Regular", 10, False) for face in range(1, number + 1)]
    assert FaceTally.objects.get(face=2, label="Regular").count == 4  # 2 from each entry: added, not replaced
    assert FaceTally.objects.get(face=40, label="Regular").count == 40

    def shape(sql):  # the text without its values (the entry's code and time differ)
        import re

        return re.sub(r"'[^']*'(::[a-z0-9 ]+)?", "?", re.sub(r"'\{[^}]*\}'(::[a-z0-9 \[\]]+)?", "?", sql))

    assert shape(sent[0]) == shape(sent[1])
    # The label: once in each of the two statements (its one parameter, as sent), not once a row.
    assert "unnest(" in sent[1] and sent[1].count("'Regular'") == 2


def test_named_binds_equal_values_once_and_keeps_types_apart():
    import datetime

    from storyteller_dice.rolllog.counting import named

    class Wrapped:  # as psycopg's Jsonb: a value wrapped for its adapter, equal or not
        def __init__(self, obj):
            self.obj = obj

    day = datetime.date(2026, 12, 2)
    first, second = Wrapped({"a": 1}), Wrapped({"a": 1})
    sql, params = named("SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s",
                        [1, True, 1, None, None, day, [1, 2], [1, 2], first, second])
    assert sql == ("SELECT %(p0)s, %(p1)s, %(p0)s, %(p2)s, %(p2)s, %(p3)s, %(p4)s, %(p4)s, %(p5)s, %(p6)s")
    assert params == {"p0": 1, "p1": True, "p2": None, "p3": day, "p4": [1, 2], "p5": first, "p6": second}
    assert type(params["p1"]) is bool  # True is not 1: a boolean column is not sent the number
    with pytest.raises(ValueError):
        named("SELECT %s", [1, 2])


def test_a_group_is_built_without_sending_anything():
    """`built`: the group's statements held, nothing reaching the database (a read raises
    before it runs), and the records' ids None until the statements are committed. Only on
    PostgreSQL: elsewhere it refuses at once."""
    from storyteller_dice.rolllog.counting import NotHeld, built, inserted_first

    if connection.vendor != "postgresql":
        with pytest.raises(NotHeld), built():
            pass
        return
    from storyteller_dice.rolllog.counting import add_counts, insert_rows
    from storyteller_dice.rolllog.models import FaceTally, RollFace

    first = entry("PPPP1111")
    key = ("day", "private", "system", "label", "sides", "face")
    with CaptureQueriesContext(connection) as seen, built() as group:
        with inserted_first(first) as held:
            insert_rows(RollFace, FACE_FIELDS, [face(held, 4)])
            add_counts(FaceTally, key, {(held.created.date(), False, "v5", "Regular", 10, 4): 1})
        with pytest.raises(NotHeld):
            RollEntry.objects.count()
    # (the refused read is logged by Django's cursor without a text: it never ran)
    assert [query["sql"] for query in seen.captured_queries] in ([], [None])
    assert first.pk is None and [index for index, _obj in group.inserted] == [0]
    # the entry, its face, then the group's counts, summed at its end
    assert [sql.split("(")[0].strip() for sql, _params in group.held] == [
        'INSERT INTO "rolllog_rollentry"', 'INSERT INTO "rolllog_rollface"', 'INSERT INTO "rolllog_facetally"']
    assert "currval(pg_get_serial_sequence(" in group.held[1][0]
    assert not RollEntry.objects.filter(code="PPPP1111").exists()


def test_a_group_cannot_be_built_inside_a_records_own_block():
    from storyteller_dice.rolllog.counting import NotHeld, built, inserted_first

    with pytest.raises(NotHeld), transaction.atomic(), inserted_first(entry("QQQQ2222")):
        with built():
            pass
