"""
The move to the system-neutral record, step 2 of 3: every existing row (all V5) into the system-neutral form, without loss.

The view, sides, verdict and target are built by `rolllog.legacy.convert_row` (frozen code, no
rules import); the old V5 columns are copied whole into `data` (with `"legacy": true`), so
nothing they held is lost when step 3 drops them. A contest row's summary becomes the
verdict as the room saw it (it was "4 to 5: Thorne wins by 1", attacker first and the
defender's successes second, against the room's "Thorne wins by 1 (5 to 4)").

Going back fills the old columns again from `data`.
"""

from django.db import migrations

BATCH = 500


def forwards(apps, schema_editor):
    from storyteller_dice.rolllog.legacy import convert_row

    RollEntry = apps.get_model("rolllog", "RollEntry")
    fields = ("kind", "action", "pool_text", "dice", "difficulty", "regular", "hunger", "successes",
              "outcome", "summary", "details", "character_name")
    changed = []
    for entry in RollEntry.objects.filter(view__isnull=True).order_by("id").iterator(chunk_size=BATCH):
        row = {name: getattr(entry, name) for name in fields}
        new = convert_row(row)
        data = dict(entry.data or {})
        for key, value in new.pop("data").items():
            data.setdefault(key, value)
        entry.data = data
        for key, value in new.items():
            setattr(entry, key, value)
        entry.system = entry.system or "v5"
        if new["verdict"]:
            entry.summary = new["verdict"][:255]
        changed.append(entry)
        if len(changed) >= BATCH:
            RollEntry.objects.bulk_update(changed, ["view", "sides", "initial", "verdict", "target", "score",
                                                    "data", "system", "summary"])
            changed = []
    if changed:
        RollEntry.objects.bulk_update(changed, ["view", "sides", "initial", "verdict", "target", "score",
                                                "data", "system", "summary"])


def backwards(apps, schema_editor):
    RollEntry = apps.get_model("rolllog", "RollEntry")
    for entry in RollEntry.objects.order_by("id").iterator(chunk_size=BATCH):
        data = entry.data or {}
        if not data.get("legacy"):
            continue
        entry.regular = data.get("regular") or []
        entry.hunger = data.get("hunger") or []
        entry.difficulty = data.get("difficulty")
        entry.successes = data.get("successes")
        entry.save(update_fields=["regular", "hunger", "difficulty", "successes"])


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0002_system_neutral_fields"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
