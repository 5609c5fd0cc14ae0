"""The tests run on the database the settings choose: SQLite by default, PostgreSQL with GAME_DB."""

import os

import pytest
from django.db import connection

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too


@pytest.mark.django_db
def test_database_backend_is_the_one_configured():
    wanted = "postgresql" if os.environ.get("GAME_DB", "sqlite").lower() in ("postgres", "postgresql") else "sqlite"
    assert connection.vendor == wanted


@pytest.mark.django_db
def test_sheet_round_trip_through_the_database():
    from evennia.utils import create

    from typeclasses.characters import Character

    alice = create.create_object(Character, key="Alice")
    alice.set_trait("dexterity", 4)
    alice.set_trait("stealth", 1)
    alice.add_specialty("stealth", "Urban")
    fresh = Character.objects.get(id=alice.id)
    assert fresh.trait("dexterity") == 4
    assert fresh.specialties == {"stealth": ("Urban",)}
