from django.apps import AppConfig


class RollLogConfig(AppConfig):
    # Installed as "storyteller_dice.rolllog"; the label stays "rolllog", so an existing game's
    # tables (rolllog_rollentry, ...) and migration history are the same app's.
    name = "storyteller_dice.rolllog"
    label = "rolllog"
    verbose_name = "Roll log"
    default_auto_field = "django.db.models.BigAutoField"
