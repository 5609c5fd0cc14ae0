"""
A public roll in a room keeps who was shown it in its own row (`RollEntry.receiver_ids`)
instead of one `receivers` row per character (see the field's comment in rolllog.models).

Existing entries keep their `receivers` rows: every reader takes both (`RollEntry.shown_ids`,
rolllog.listing), so nothing is moved and nothing reads differently. Nullable, without a
default, so the column is added in place (SQLite copies the whole table to add any other).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("rolllog", "0010_sheet_category")]

    operations = [
        migrations.AddField(
            model_name="rollentry",
            name="receiver_ids",
            field=models.JSONField(blank=True, null=True,
                                   help_text="A public roll's receivers (character ids), in the entry."),
        ),
    ]
