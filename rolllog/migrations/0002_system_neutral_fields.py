"""The move to the system-neutral record, step 1 of 3: the system-neutral columns, next to the old V5 ones."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="rollentry", name="target",
            field=models.CharField(blank=True, help_text="The target as text (vs 3, difficulty 6).", max_length=255),
        ),
        migrations.AddField(
            model_name="rollentry", name="score",
            field=models.IntegerField(blank=True, help_text="Successes, hits, net successes ...", null=True),
        ),
        migrations.AddField(
            model_name="rollentry", name="view",
            field=models.JSONField(blank=True, null=True, help_text=(
                "What was shown: labelled dice groups with marks, score, outcome (RollView).")),
        ),
        migrations.AddField(
            model_name="rollentry", name="initial",
            field=models.JSONField(blank=True, help_text="The view before a reroll made at once.", null=True),
        ),
        migrations.AddField(
            model_name="rollentry", name="sides",
            field=models.JSONField(blank=True, default=list,
                                   help_text="Contest or teamwork: each side apart, [{label, view}]."),
        ),
        migrations.AddField(
            model_name="rollentry", name="verdict",
            field=models.TextField(blank=True, help_text="A contest's verdict as the room saw it."),
        ),
        migrations.AddField(
            model_name="rollentry", name="data",
            field=models.JSONField(blank=True, default=dict, help_text="The system's own record of the result."),
        ),
    ]
