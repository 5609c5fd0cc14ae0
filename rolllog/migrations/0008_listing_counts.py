"""
The roll log at scale: what the roll log's long lists count at write time (`rolllog.listing`): the entries
of each UTC day per room and privacy (`DayCount`), the rooms each character was in
(`RoomVisit`), the characters who took part in each private or roomless entry
(`Participant`), counted from the whole log by the database, a batch of ids at a time; and
the index an account's own entries are read from. Going back empties the tables (and then
drops them).
"""

import django.db.models.deletion
from django.db import migrations, models

from storyteller_dice.rolllog.counting import empty
from storyteller_dice.rolllog.listing import rebuild


def forwards(apps, schema_editor):
    rebuild(using=schema_editor.connection.alias, **{name: apps.get_model("rolllog", name) for name in
                                                     ("RollEntry", "DayCount", "RoomVisit", "Participant")})


def backwards(apps, schema_editor):
    for name in ("DayCount", "RoomVisit", "Participant"):
        empty(apps.get_model("rolllog", name), schema_editor.connection.alias)


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0007_facetally"),
    ]

    operations = [
        migrations.CreateModel(
            name="DayCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("day", models.DateField(help_text="The UTC date the entries were made.")),
                ("room", models.IntegerField(default=0, help_text="The room's id (0: none, -1: every room).")),
                ("private", models.BooleanField(default=False)),
                ("count", models.BigIntegerField(default=0)),
            ],
            options={
                "verbose_name": "entries of a day",
                "verbose_name_plural": "entries of each day",
                "constraints": [models.UniqueConstraint(fields=("day", "room", "private"), name="daycount_key")],
            },
        ),
        migrations.CreateModel(
            name="RoomVisit",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("character", models.IntegerField()),
                ("room", models.IntegerField()),
                ("count", models.BigIntegerField(default=0)),
            ],
            options={
                "verbose_name": "room visit",
                "constraints": [models.UniqueConstraint(fields=("character", "room"), name="roomvisit_key")],
            },
        ),
        migrations.CreateModel(
            name="Participant",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("entry", models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="+", to="rolllog.rollentry")),
                ("character", models.IntegerField()),
                ("day", models.DateField(help_text="The entry's UTC date.")),
            ],
            options={
                "verbose_name": "participant",
                "constraints": [models.UniqueConstraint(fields=("entry", "character"), name="participant_key")],
                "indexes": [models.Index(fields=["character", "day", "entry"], name="participant_character_day")],
            },
        ),
        migrations.AddIndex(
            model_name="rollentry",
            index=models.Index(fields=["account", "private", "room", "created", "id"], name="rolllog_account_seen"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
