"""
The character sheet moves from the Attribute category "sheet" to the package's own,
"storyteller_dice" (typeclasses/characters.py `SHEET`; **ruling** there): a host game may well
keep its own data under a plain word like "sheet".

Only what this code wrote moves: Attributes (not nicks) of the category "sheet" on objects,
with the keys the sheet uses: `values`, `specialties`, `approved` and the one sheet flag a
command sets, V5's `frenzy`. Anything else a host keeps under "sheet" stays where it is.
"""

from django.db import migrations

OLD, NEW = "sheet", "storyteller_dice"
KEYS = ("values", "specialties", "approved", "frenzy")


def _move(apps, old, new):
    Attribute = apps.get_model("typeclasses", "Attribute")
    ObjectDB = apps.get_model("objects", "ObjectDB")
    on_objects = ObjectDB.db_attributes.through.objects.values("attribute_id")
    Attribute.objects.filter(db_category=old, db_key__in=KEYS, db_attrtype__isnull=True,
                             id__in=on_objects).update(db_category=new)


def forwards(apps, schema_editor):
    _move(apps, OLD, NEW)


def backwards(apps, schema_editor):
    _move(apps, NEW, OLD)


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0009_private_faces"),
        ("objects", "0013_defaultobject_alter_objectdb_id_defaultcharacter_and_more"),
        ("typeclasses", "0017_use_index_instead_of_index_together_in_tags"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
