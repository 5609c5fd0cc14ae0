"""
The roll log's one table.

A `RollEntry` is a roll (kind "roll", "check", "rouse", ...), a later change to a roll (kind
"willpower", "contest", ...; `parent` is the roll it changes) or a staff action that is not a
roll (`action` is true; kind "hunger", "slake", ...). Links to characters, accounts and rooms
are kept with a copy of their names at the time, so the record still reads right after a
rename or a deletion.
"""

from django.db import models
from django.utils import timezone


class RollEntry(models.Model):
    code = models.CharField(
        max_length=16, unique=True, help_text="The verification code players type (see rolllog.codes)."
    )
    created = models.DateTimeField(default=timezone.now, db_index=True)
    kind = models.CharField(max_length=32, default="roll", help_text="roll, check, rouse, willpower, hunger, ...")
    action = models.BooleanField(default=False, help_text="A staff action on a sheet, not a roll.")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="changes",
        help_text="The roll this entry changes (a willpower reroll, a contest answer).",
    )

    # Who rolled, for whom, where.
    character = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The character who rolled (or the staff member who acted).",
    )
    character_name = models.CharField(max_length=255, blank=True)
    account = models.ForeignKey(
        "accounts.AccountDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The account playing that character at the time.",
    )
    account_name = models.CharField(max_length=255, blank=True)
    subject = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The character rolled for or acted on, when not the roller (staff-run).",
    )
    subject_name = models.CharField(max_length=255, blank=True)
    room = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    room_name = models.CharField(max_length=255, blank=True)

    # What was rolled.
    system = models.CharField(max_length=16, blank=True)
    command = models.TextField(blank=True, help_text="The command as typed.")
    comment = models.TextField(blank=True)
    pool_text = models.CharField(max_length=255, blank=True, help_text="The pool with each trait's value.")
    pool = models.JSONField(default=list, blank=True, help_text="The pool's parts: label, value, sign, trait.")
    dice = models.SmallIntegerField(null=True, blank=True)
    difficulty = models.SmallIntegerField(null=True, blank=True)
    regular = models.JSONField(default=list, blank=True, help_text="Regular dice faces.")
    hunger = models.JSONField(default=list, blank=True, help_text="Hunger dice faces.")
    successes = models.SmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=32, blank=True, help_text="The outcome's key (critical, ...).")
    summary = models.CharField(max_length=255, blank=True, help_text="The outcome in words.")

    # Who was told.
    private = models.BooleanField(default=False)
    receivers = models.ManyToManyField(
        "objects.ObjectDB", blank=True, related_name="+",
        help_text="The characters who were shown it (for a public roll: those in the room).",
    )
    receiver_names = models.JSONField(default=list, blank=True)
    text = models.TextField(blank=True, help_text="What was shown, with colour markup and the code.")
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "roll log entry"
        verbose_name_plural = "roll log entries"
        indexes = [
            models.Index(fields=["character", "created"], name="rolllog_character_created"),
            models.Index(fields=["room", "created"], name="rolllog_room_created"),
        ]

    def __str__(self):
        return f"{self.code} {self.kind} by {self.character_name}"

    @property
    def who(self):
        """`Alice`, or `Storyteller for Alice` when staff rolled or acted for someone."""
        if self.subject_name and self.subject_id != self.character_id:
            return f"{self.character_name} for {self.subject_name}"
        return self.character_name
