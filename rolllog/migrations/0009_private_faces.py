"""
Whose private faces a fairness report may count (`rolllog.fairness`): RollFace copies its
entry's `private`, and the per-day tally sums public and private faces apart (its key gains
`private`). The existing RollFace rows take their entries' flag in one UPDATE, then the tally
is rebuilt from them. Going back sums the two halves together again.
"""

from django.db import migrations, models

from storyteller_dice.rolllog.counting import empty
from storyteller_dice.rolllog.fairness import rebuild_tally


def forwards(apps, schema_editor):
    RollEntry = apps.get_model("rolllog", "RollEntry")
    RollFace = apps.get_model("rolllog", "RollFace")
    db = schema_editor.connection.alias
    RollFace.objects.using(db).filter(
        entry_id__in=RollEntry.objects.using(db).filter(private=True).order_by().values("id")).update(private=True)
    rebuild_tally(model=apps.get_model("rolllog", "FaceTally"), face_model=RollFace, using=db)


def backwards(apps, schema_editor):
    # The old key cannot hold a day's public and private rows apart: refilled once the old
    # constraint is back (`rebuild_without_private`, the first operation's way back).
    empty(apps.get_model("rolllog", "FaceTally"), schema_editor.connection.alias)


def rebuild_without_private(apps, schema_editor):
    """Going back: the tally as migration 0007 filled it, every face together."""
    rebuild_tally(model=apps.get_model("rolllog", "FaceTally"), face_model=apps.get_model("rolllog", "RollFace"),
                  using=schema_editor.connection.alias)


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0008_listing_counts"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, rebuild_without_private),
        migrations.RemoveConstraint(model_name="facetally", name="facetally_key"),
        migrations.AddField(
            model_name="facetally",
            name="private",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="rollface",
            name="private",
            field=models.BooleanField(default=False, help_text="Copied from the entry: who may count these faces."),
        ),
        migrations.AddConstraint(
            model_name="facetally",
            constraint=models.UniqueConstraint(fields=("day", "private", "system", "label", "sides", "face"),
                                               name="facetally_key"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
