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

pytestmark = pytest.mark.django_db


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
