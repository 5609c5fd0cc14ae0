"""
The roll log at scale: the faces of every existing roll into RollFace (see `rolllog.fairness` for which
dice count), in batches. Going back empties the table.
"""

from django.db import migrations

from storyteller_dice.rolllog.fairness import face_rows

BATCH = 2000


def forwards(apps, schema_editor):
    RollEntry = apps.get_model("rolllog", "RollEntry")
    RollFace = apps.get_model("rolllog", "RollFace")
    done = set(RollFace.objects.values_list("entry_id", flat=True).distinct())
    rows = []
    query = RollEntry.objects.filter(action=False).order_by("id")
    for entry in query.iterator(chunk_size=BATCH):
        if entry.id in done:
            continue
        rows.extend(face_rows(entry, model=RollFace))
        if len(rows) >= BATCH:
            RollFace.objects.bulk_create(rows)
            rows = []
    if rows:
        RollFace.objects.bulk_create(rows)


def backwards(apps, schema_editor):
    apps.get_model("rolllog", "RollFace").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0005_rollface_and_paging_indexes"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
