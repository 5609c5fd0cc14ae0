"""The roll log in Django's admin (read-only: the record is not edited by hand)."""

from django.contrib import admin

from .models import RollEntry


@admin.register(RollEntry)
class RollEntryAdmin(admin.ModelAdmin):
    list_display = ("code", "created", "kind", "character_name", "subject_name", "room_name",
                    "summary", "private", "action")
    list_filter = ("kind", "private", "action", "system")
    search_fields = ("code", "character_name", "subject_name", "account_name", "room_name", "command")
    date_hierarchy = "created"
    raw_id_fields = ("parent", "character", "account", "subject", "room", "receivers")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
