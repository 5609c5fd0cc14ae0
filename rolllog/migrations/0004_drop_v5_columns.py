"""The move to the system-neutral record, step 3 of 3: the V5-only columns go (their values are in `data` since 0003)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("rolllog", "0003_v5_rows_to_views"),
    ]

    operations = [
        migrations.RemoveField(model_name="rollentry", name="regular"),
        migrations.RemoveField(model_name="rollentry", name="hunger"),
        migrations.RemoveField(model_name="rollentry", name="difficulty"),
        migrations.RemoveField(model_name="rollentry", name="successes"),
        migrations.AlterField(
            model_name="rollentry", name="system",
            field=models.CharField(blank=True, help_text="The dice system's key (v5, v20, ...).", max_length=16),
        ),
        migrations.AlterField(
            model_name="rollentry", name="pool_text",
            field=models.CharField(blank=True, help_text="The pool as shown, with trait values.", max_length=255),
        ),
        migrations.AlterField(
            model_name="rollentry", name="dice",
            field=models.SmallIntegerField(blank=True, help_text="How many dice were rolled.", null=True),
        ),
        migrations.AlterField(
            model_name="rollentry", name="outcome",
            field=models.CharField(blank=True, help_text="The outcome's key (critical, botch, ...).", max_length=32),
        ),
        migrations.AlterField(
            model_name="rollentry", name="summary",
            field=models.CharField(blank=True, help_text="The outcome in words (a contest: its verdict).",
                                   max_length=255),
        ),
    ]
