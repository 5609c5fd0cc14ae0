"""
The roll log at scale: the per-day face tally (`FaceTally`, see `rolllog.fairness`), filled from every
RollFace row that exists, summed by the database a batch of ids at a time. Going back empties
it (and then drops the table).
"""

from django.db import migrations, models

from storyteller_dice.rolllog.counting import empty
from storyteller_dice.rolllog.fairness import rebuild_tally


def forwards(apps, schema_editor):
    rebuild_tally(model=apps.get_model("rolllog", "FaceTally"), face_model=apps.get_model("rolllog", "RollFace"),
                  using=schema_editor.connection.alias)


def backwards(apps, schema_editor):
    empty(apps.get_model("rolllog", "FaceTally"), schema_editor.connection.alias)


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0006_fill_rollface"),
    ]

    operations = [
        migrations.CreateModel(
            name="FaceTally",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("day", models.DateField(help_text="The UTC date the entries were made.")),
                ("system", models.CharField(blank=True, max_length=16)),
                ("label", models.CharField(max_length=64)),
                ("sides", models.SmallIntegerField()),
                ("face", models.SmallIntegerField()),
                ("count", models.BigIntegerField(default=0)),
            ],
            options={
                "verbose_name": "face tally",
                "constraints": [models.UniqueConstraint(fields=("day", "system", "label", "sides", "face"),
                                                        name="facetally_key")],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
