"""
The roll log's migrations (docs/upgrading.md): 1.0's database is made by one migration,
`0001_initial`, and every later change to the models comes with its own migration.

- `makemigrations rolllog --check --dry-run` finds nothing to write: a model changed without a
  migration fails here, before a game's database and the code disagree.
- The folder holds the migrations that are applied, and no other module.
"""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader
from django.test import override_settings

from storyteller_dice.rolllog import migrations as rolllog_migrations

FOLDER = Path(rolllog_migrations.__file__).parent

pytestmark = pytest.mark.django_db  # makemigrations reads which migrations are applied


def test_no_model_change_lacks_its_migration():
    out = io.StringIO()
    # The suite runs with --no-migrations, which hides every app's migrations.
    with override_settings(MIGRATION_MODULES={}):
        call_command("makemigrations", "rolllog", "--check", "--dry-run", stdout=out, stderr=out)
    assert out.getvalue() == "No changes detected in app 'rolllog'\n"


def test_the_first_migration_is_the_initial_one():
    with override_settings(MIGRATION_MODULES={}):
        loader = MigrationLoader(None, ignore_no_migrations=True)
    names = sorted(name for app, name in loader.disk_migrations if app == "rolllog")
    assert names[0] == "0001_initial"
    assert loader.disk_migrations[("rolllog", "0001_initial")].initial is True
    assert sorted(path.stem for path in FOLDER.glob("*.py")) == [*names, "__init__"]
