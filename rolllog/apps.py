from django.apps import AppConfig


class RollLogConfig(AppConfig):
    name = "rolllog"
    label = "rolllog"
    verbose_name = "Roll log"
    default_auto_field = "django.db.models.BigAutoField"
