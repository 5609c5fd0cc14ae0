"""
The entry's one-column indexes on `created` and its links (character, account, subject, room,
parent) go: each column leads one of the entry's own indexes (`rolllog_created_id`,
`rolllog_character_created`, `rolllog_account_seen`, `rolllog_subject_created`,
`rolllog_room_created`, `rolllog_parent_created`), which serves every query and every
deletion's SET_NULL by it as well (a partial index serves `subject_id = ...`, which implies
NOT NULL, on SQLite and PostgreSQL). Each roll wrote a page of each.

Only the indexes are dropped (found by their columns, whatever their names), never the table:
Django's AlterField would copy the whole log into a new table on SQLite.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

COLUMNS = ("created", "character_id", "account_id", "subject_id", "room_id", "parent_id")
FIELDS = ("created", "character", "account", "subject", "room", "parent")


def _single_column_indexes(schema_editor, table):
    """{column: [index names]} of the table's plain one-column indexes on COLUMNS (the Meta
    indexes all have two columns or more)."""
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    found = {}
    for name, info in constraints.items():
        columns = info.get("columns") or []
        plain = info.get("index") and not info.get("unique") and not info.get("primary_key")
        if plain and len(columns) == 1 and columns[0] in COLUMNS:
            found.setdefault(columns[0], []).append(name)
    return found


def drop(apps, schema_editor):
    model = apps.get_model("rolllog", "RollEntry")
    quote = schema_editor.quote_name
    for names in _single_column_indexes(schema_editor, model._meta.db_table).values():
        for name in names:
            schema_editor.execute(f"DROP INDEX {quote(name)}")


def create(apps, schema_editor):
    model = apps.get_model("rolllog", "RollEntry")
    present = _single_column_indexes(schema_editor, model._meta.db_table)
    for name in FIELDS:
        field = model._meta.get_field(name)
        if field.column not in present:
            schema_editor.execute(schema_editor._create_index_sql(model, fields=[field]))


def _link(to, help_text="", related_name="+"):
    return models.ForeignKey(blank=True, db_index=False, help_text=help_text, null=True,
                             on_delete=django.db.models.deletion.SET_NULL, related_name=related_name, to=to)


class Migration(migrations.Migration):
    dependencies = [
        ("objects", "0013_defaultobject_alter_objectdb_id_defaultcharacter_and_more"),
        ("rolllog", "0011_public_receivers_in_entry"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField("rollentry", "account", _link(
                    settings.AUTH_USER_MODEL, "The account playing that character at the time.")),
                migrations.AlterField("rollentry", "character", _link(
                    "objects.objectdb", "The character who rolled (or the staff member who acted).")),
                migrations.AlterField("rollentry", "created", models.DateTimeField(default=django.utils.timezone.now)),
                migrations.AlterField("rollentry", "parent", _link(
                    "rolllog.rollentry", "The roll this entry changes (a willpower reroll, a contest answer).",
                    related_name="changes")),
                migrations.AlterField("rollentry", "room", _link("objects.objectdb")),
                migrations.AlterField("rollentry", "subject", _link(
                    "objects.objectdb", "The character rolled for or acted on, when not the roller (staff-run).")),
            ],
            database_operations=[migrations.RunPython(drop, create)],
        ),
    ]
