"""
The roll log's move to the system-neutral record: old V5 rows become views without
loss, and still verify and show the same.

- The data migration's frozen code (`convert_row` in rolllog/migrations/0003_v5_rows_to_views.py)
  against the live V5 view (`rules.v5.system`), face by face, over every outcome, and against
  the rows it converted before (tests/rolllog_old_rows.json): it must convert them exactly so.
- The migration itself on a test database: rows written in the old shape at 0002 (old columns
  still there), migrated to the latest state, read back with today's model and display.
"""

import importlib
import json
import pathlib
import random

import pytest
from django.db import connection
from django.utils import timezone

from storyteller_dice.rules import v5
from storyteller_dice.rules.engine import RollRequest, RollView
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.v5.system import SYSTEM as V5

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


# The migration's module (its name starts with a digit: no `import` statement names it).
legacy = importlib.import_module("storyteller_dice.rolllog.migrations.0003_v5_rows_to_views")
OLD_ROWS = pathlib.Path(__file__).with_name("rolllog_old_rows.json")


def live_view(regular, hunger, difficulty, pool=None):
    result = v5.evaluate(regular, hunger, 1 if difficulty is None else difficulty)
    request = RollRequest("v5", "", pool, len(regular) + len(hunger), result.difficulty,
                          target_given=difficulty is not None)
    return result, V5.view(result, request).to_dict()


def old_row(result, difficulty, pool_text="", dice=None, **extra):
    row = {"kind": "roll", "action": False, "pool_text": pool_text, "dice": dice,
           "difficulty": difficulty, "regular": list(result.regular), "hunger": list(result.hunger),
           "successes": result.successes, "outcome": result.outcome, "summary": "", "details": {},
           "character_name": "Anna"}
    row.update(extra)
    return row


def test_old_rows_read_as_the_live_v5_view_for_every_outcome():
    rng = random.Random(10)
    seen = set()
    for _ in range(3000):
        size, hunger = rng.randint(1, 8), rng.randint(0, 5)
        faces = [rng.randint(1, 10) for _ in range(size)]
        regular, hungry = faces[: max(0, size - hunger)], faces[max(0, size - hunger):]
        difficulty = rng.choice([None, 0, 1, 2, 3, 4, 6])
        result, expected = live_view(regular, hungry, difficulty)
        new = legacy.convert_row(old_row(result, difficulty))
        got = dict(new["view"], pool=expected["pool"])
        assert got == expected, (regular, hungry, difficulty)
        assert RollView.from_dict(new["view"]).outcome.key == expected["outcome"]["key"]
        assert new["target"] == expected["target"] and new["score"] == result.successes
        seen.add(expected["outcome"]["key"])
    assert seen == set(legacy.LABELS), seen  # every outcome met


def test_an_old_pool_text_reads_as_the_roll_line_showed_it():
    pool = build_pool("3+2", None)
    result, expected = live_view([2, 6, 10], [1, 10], 3, pool)
    new = legacy.convert_row(old_row(result, 3, pool_text=pool.describe(), dice=5))
    assert new["view"]["pool"] == expected["pool"] == "3 + 2 = 5 (5 dice), Hunger 2"
    plain = build_pool("5", None)
    result, expected = live_view([2, 6, 10], [1, 10], None, plain)
    assert legacy.convert_row(old_row(result, None, pool_text=plain.describe(), dice=5))["view"]["pool"] \
        == expected["pool"] == "5 dice, Hunger 2"


def test_an_old_contest_row_gets_its_sides_and_the_verdict_the_room_saw():
    details = {
        "attacker": {"name": "Thorne", "pool": "Wits 2 + Awareness 2 = 4", "regular": [10, 7], "hunger": [10, 3],
                     "successes": 5},
        "defender": {"name": "Vesper", "pool": "6", "regular": [6, 7, 8], "hunger": [9, 1], "successes": 4},
        "winner": "attacker", "margin": 1, "tie": False,
    }
    new = legacy.convert_row({"kind": "contest", "regular": [10, 7, 6, 7, 8], "hunger": [10, 3, 9, 1],
                              "successes": 5, "outcome": "messy_critical",
                              "summary": "5 to 4: Thorne wins by 1", "details": details})
    assert new["verdict"] == "Thorne wins by 1 (5 to 4)."
    thorne, vesper = new["sides"]
    assert (thorne["label"], vesper["label"]) == ("Thorne", "Vesper")
    assert thorne["view"]["pool"] == "Wits 2 + Awareness 2 = 4 (4 dice), Hunger 2"
    assert thorne["view"]["outcome"]["key"] == "messy_critical"
    assert vesper["view"]["outcome"]["key"] == "bestial_failure"
    assert [[f for f, _ in g["dice"]] for g in vesper["view"]["groups"]] == [[6, 7, 8], [9, 1]]
    # The tie goes to the defender, as the room was told.
    details.update(winner="defender", tie=True, margin=0)
    details["defender"]["successes"] = 5
    assert legacy.contest(details)[1] == "Tie at 5 successes: Vesper wins (ties go to the defender)."


def test_the_migration_converts_old_rows_exactly_as_before():
    """A roll with a reroll, one without a difficulty, a contest, a teamwork roll, a Rouse check
    and a staff action, as the migration converted them when it was written: frozen."""
    known = json.loads(OLD_ROWS.read_text())
    assert set(known["rows"]) == {"roll", "no_difficulty", "contest", "teamwork", "rouse", "action"}
    for name, row in known["rows"].items():
        assert json.loads(json.dumps(legacy.convert_row(row))) == known["converted"][name], name


def test_a_staff_action_row_keeps_no_view():
    new = legacy.convert_row({"kind": "hunger", "action": True, "summary": "Hunger 1 -> 3", "details": {}})
    assert new["view"] is None and new["sides"] == []


# ---------------------------------------------------------------- the migration, on a database

def _loader():
    # The suite runs with --no-migrations: read rolllog's migrations as they are on disk.
    from django.db.migrations.loader import MigrationLoader
    from django.test import override_settings

    with override_settings(MIGRATION_MODULES={}):
        return MigrationLoader(None, ignore_no_migrations=True)


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_old_rows_and_they_verify_and_show_the_same():
    """The table as it was at 0002 (old columns), old rows in it, then 0003 and 0004 applied."""
    from storyteller_dice.rolllog.models import RollEntry as Current

    loader = _loader()
    state = loader.project_state(("rolllog", "0002_system_neutral_fields"))
    with connection.schema_editor() as editor:
        editor.delete_model(Current)
        editor.create_model(state.apps.get_model("rolllog", "RollEntry"))
    old = state.apps.get_model("rolllog", "RollEntry")
    text = "|w[Roll]|n Anna rolls 3 + 2 = 5 (5 dice), Hunger 2, vs 3|n  [code ABCD2345]"
    roll = old.objects.create(
        code="ABCD2345", kind="roll", character_name="Anna", room_name="Hall", system="v5",
        command="+roll 3+2 vs 3", pool_text="3 + 2 = 5", dice=5, difficulty=3, regular=[2, 6, 10],
        hunger=[1, 10], successes=5, outcome="messy_critical",
        summary="5 successes: messy critical (margin +2, solid success)", text=text,
        details={"rerolled": [0]}, created=timezone.now())
    contest = old.objects.create(
        code="EFGH2345", kind="contest", character_name="Vesper", subject_name="Thorne", system="v5",
        regular=[10, 7, 6, 7, 8], hunger=[10, 3, 9, 1], successes=5, outcome="",
        summary="5 to 4: Thorne wins by 1", text="|w[Contest]|n Thorne vs Vesper|n  [code EFGH2345]",
        details={"attacker": {"name": "Thorne", "pool": "4", "regular": [10, 7], "hunger": [10, 3],
                              "successes": 5},
                 "defender": {"name": "Vesper", "pool": "5", "regular": [6, 7, 8], "hunger": [9, 1],
                              "successes": 4},
                 "winner": "attacker", "margin": 1, "tie": False})
    action = old.objects.create(code="JKMN2345", kind="hunger", action=True, character_name="ST",
                                summary="Hunger 1 -> 3", system="v5")
    ids = (roll.id, contest.id, action.id)
    # 0011 too: the entry's later column, so today's model reads the table (and so do the
    # tests that run after this one on the table it leaves).
    for name in ("0003_v5_rows_to_views", "0004_drop_v5_columns", "0011_public_receivers_in_entry"):
        with connection.schema_editor() as editor:
            state = loader.get_migration("rolllog", name).apply(state, editor)

    from storyteller_dice.rolllog import display
    from storyteller_dice.rolllog.models import RollEntry

    roll, contest, action = (RollEntry.objects.get(id=i) for i in ids)
    # Nothing lost: the old columns are in `data`, the view is the V5 view.
    assert roll.data["regular"] == [2, 6, 10] and roll.data["hunger"] == [1, 10]
    assert (roll.data["difficulty"], roll.data["successes"], roll.data["legacy"]) == (3, 5, True)
    result, expected = live_view([2, 6, 10], [1, 10], 3, build_pool("3+2", None))
    expected["groups"][0]["dice"][0][1] = ["fail", "rerolled"]
    assert roll.view == expected
    assert (roll.target, roll.score, roll.outcome) == ("vs 3", 5, "messy_critical")
    assert roll.summary == "5 successes: messy critical (margin +2, solid success)"  # unchanged
    # It verifies and shows the same: the stored text, exactly.
    shown = display.format_verify(roll, None)
    assert text in shown.splitlines()
    assert display.what(roll) == ("3 + 2 = 5 (5 dice), Hunger 2, vs 3 => "
                                  "5 successes: messy critical (margin +2, solid success)")
    # The contest reads right now.
    assert contest.summary == contest.verdict == "Thorne wins by 1 (5 to 4)."
    assert [s["label"] for s in contest.sides] == ["Thorne", "Vesper"]
    assert display.who(contest) == "Thorne vs Vesper"
    assert display.what(contest) == ("Thorne 5 (messy critical), Vesper 4 (bestial failure): "
                                     "Thorne wins by 1 (5 to 4).")
    assert action.view is None and action.summary == "Hunger 1 -> 3"
    assert display.what(action) == "Hunger 1 -> 3"
