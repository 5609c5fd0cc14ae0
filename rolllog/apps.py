from django.apps import AppConfig


class RollLogConfig(AppConfig):
    # Installed as "storyteller_dice.rolllog"; the label stays "rolllog", so an existing game's
    # tables (rolllog_rollentry, ...) and migration history are the same app's.
    name = "storyteller_dice.rolllog"
    label = "rolllog"
    verbose_name = "Roll log"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Imported here, not at the top: the receivers need every app's models loaded (Django's
        # start order), which they are only once the registry calls `ready()`.
        from django.conf import settings

        from storyteller_dice.typeclasses import hardening

        from . import signals

        # The opt-in bundle's settings (DICE_HARDEN_GAME; nothing when it is off): read by
        # Evennia only after django.setup(), in the Server and the Portal alike.
        hardening.complete_settings(settings)
        signals.connect()
