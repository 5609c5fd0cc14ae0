"""
The roll log's one table.

A `RollEntry` is a roll (kind "roll", "check", "rouse", ...), a later change to a roll (kind
"willpower", "contest", ...; `parent` is the roll it changes) or a staff action that is not a
roll (`action` is true; kind "hunger", "slake", ...). Links to characters, accounts and rooms
are kept with a copy of their names at the time, so the record still reads right after a
rename or a deletion.

The record is system-neutral: the roll as people saw it is `view`, a
`rules.engine.RollView` dict (labelled groups of dice whose faces carry marks, the target as
text, the score, the outcome with its label and tone), so any row can be shown again without
the system that made it; a contest or teamwork roll keeps each side apart in `sides` and the
verdict the room saw; `data` is the system's own record (`System.record`).

`RollFace` keeps every rolled die's face apart from the JSON view, one row per
(entry, group label, die size, face) with its count, so the fairness report counts faces in
the database (GROUP BY) on any backend; see `rolllog.fairness` for which dice count.
`FaceTally` sums those rows per UTC day, system, label, die size and face, kept exact at write
time, so the whole game's report reads a few thousand rows instead of every face ever rolled.

Paging: lists are read newest first by (created, id), through the index
`rolllog_created_id`; see `rolllog.api.page` and `rolllog.views`. `DayCount` (the entries of
each UTC day per room, public and private), `RoomVisit` (the rooms each character was in) and
`Participant` (who took part in each private or roomless entry) are kept exact at write time
by the receivers in `rolllog.signals` (`rolllog.listing`), so the long lists (staff: the
whole log; a player: everything they may see) count their pages and find a deep page's day
without reading the log.
"""

from django.db import models
from django.utils import timezone

from storyteller_dice.rules.engine import RollView


class RollQuerySet(models.QuerySet):
    """
    Entries, carrying `page_plan` (set by `rolllog.api`: how to count this very list per day
    from DayCount) through the clones that keep its rows (order_by, select_related); the plan
    itself checks that no filter was added since (`rolllog.api.page`).
    """

    page_plan = None

    def _clone(self):
        clone = super()._clone()
        clone.page_plan = self.page_plan
        return clone


class RollEntry(models.Model):
    code = models.CharField(
        max_length=16, unique=True, help_text="The verification code players type (see rolllog.codes)."
    )
    # Not indexed alone, nor are the links below: each leads one of the indexes in Meta
    # (`rolllog_created_id`, `rolllog_character_created`, ...), which serve every query and
    # deletion by it as well, and an index less is a page less written a roll.
    created = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=32, default="roll", help_text="roll, check, rouse, willpower, hunger, ...")
    action = models.BooleanField(default=False, help_text="A staff action on a sheet, not a roll.")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="changes", db_index=False,
        help_text="The roll this entry changes (a willpower reroll, a contest answer).",
    )

    # Who rolled, for whom, where.
    character = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
        help_text="The character who rolled (or the staff member who acted).",
    )
    character_name = models.CharField(max_length=255, blank=True)
    account = models.ForeignKey(
        "accounts.AccountDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
        help_text="The account playing that character at the time.",
    )
    account_name = models.CharField(max_length=255, blank=True)
    subject = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
        help_text="The character rolled for or acted on, when not the roller (staff-run).",
    )
    subject_name = models.CharField(max_length=255, blank=True)
    room = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
    )
    room_name = models.CharField(max_length=255, blank=True)

    # What was rolled, in any system: the view is what people saw (`rules.engine.RollView`
    # as a dict), the plain columns copy what queries and lists need from it.
    system = models.CharField(max_length=16, blank=True, help_text="The dice system's key (v5, v20, ...).")
    command = models.TextField(blank=True, help_text="The command as typed.")
    comment = models.TextField(blank=True)
    pool_text = models.CharField(max_length=255, blank=True, help_text="The pool as shown, with trait values.")
    pool = models.JSONField(default=list, blank=True, help_text="The pool's parts: label, value, sign, trait.")
    dice = models.SmallIntegerField(null=True, blank=True, help_text="How many dice were rolled.")
    target = models.CharField(max_length=255, blank=True, help_text="The target as text (vs 3, difficulty 6).")
    score = models.IntegerField(null=True, blank=True, help_text="Successes, hits, net successes ...")
    outcome = models.CharField(max_length=32, blank=True, help_text="The outcome's key (critical, botch, ...).")
    summary = models.CharField(max_length=255, blank=True, help_text="The outcome in words (a contest: its verdict).")
    view = models.JSONField(null=True, blank=True,
                            help_text="What was shown: labelled dice groups with marks, score, outcome (RollView).")
    initial = models.JSONField(null=True, blank=True, help_text="The view before a reroll made at once.")
    sides = models.JSONField(default=list, blank=True,
                             help_text="Contest or teamwork: each side apart, [{label, view}].")
    verdict = models.TextField(blank=True, help_text="A contest's verdict as the room saw it.")
    data = models.JSONField(default=dict, blank=True, help_text="The system's own record of the result.")

    # Who was told.
    private = models.BooleanField(default=False)
    receivers = models.ManyToManyField(
        "objects.ObjectDB", blank=True, related_name="+",
        help_text="The characters who were shown it (for a public roll: those in the room).",
    )
    # A public roll in a room keeps who saw it here, in its own row, not as a row per
    # character in `receivers`: those rows land in a different page of that table's
    # per-character index for each receiver (50 of a full room's ~90 pages written a roll),
    # and nothing reads a public roll's audience by character (anyone may read it; the rooms
    # a player was in are `RoomVisit`'s). Private and roomless entries, whose readers are
    # found by character, keep `receivers`. `shown_ids()` reads both.
    # Empty (NULL, not []) elsewhere: a nullable column without a default is added to an
    # existing log in place (SQLite copies the whole table for any other).
    receiver_ids = models.JSONField(null=True, blank=True,
                                    help_text="A public roll's receivers (character ids), in the entry.")
    receiver_names = models.JSONField(default=list, blank=True)
    text = models.TextField(blank=True, help_text="What was shown, with colour markup and the code.")
    details = models.JSONField(default=dict, blank=True)

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "roll log entry"
        verbose_name_plural = "roll log entries"
        indexes = [
            models.Index(fields=["character", "created"], name="rolllog_character_created"),
            models.Index(fields=["room", "created"], name="rolllog_room_created"),
            # The order every list is read in, so a page seeks instead of sorting.
            models.Index(fields=["created", "id"], name="rolllog_created_id"),
            # Partial: subject and parent are empty on most rows, and an index full of NULLs
            # reads (to SQLite's planner) as matching everything, so `character OR subject`
            # and a roll's later changes were read by scanning the whole log.
            models.Index(fields=["subject", "created"], name="rolllog_subject_created",
                         condition=models.Q(subject__isnull=False)),
            models.Index(fields=["parent", "created"], name="rolllog_parent_created",
                         condition=models.Q(parent__isnull=False)),
            # An account's own entries outside the rooms it was in (rolllog.api's player
            # lists), read from the index alone.
            models.Index(fields=["account", "private", "room", "created", "id"], name="rolllog_account_seen"),
        ]

    def __str__(self):
        return f"{self.code} {self.kind} by {self.character_name}"

    @property
    def roll_view(self):
        """The stored view as a `rules.engine.RollView` (None for a staff action)."""
        return RollView.from_dict(self.view) if self.view else None

    def shown_ids(self, using=None):
        """The ids of the characters shown this entry: `receiver_ids` and `receivers`' rows."""
        through = type(self).receivers.through.objects.using(using or self._state.db or "default")
        ids = set(through.filter(rollentry_id=self.id).values_list("objectdb_id", flat=True)) if self.id else set()
        return ids | {int(ident) for ident in self.receiver_ids or () if isinstance(ident, int)}

    @property
    def who(self):
        """`Alice`, or `Storyteller for Alice` when staff rolled or acted for someone."""
        if self.subject_name and self.subject_id != self.character_id:
            return f"{self.character_name} for {self.subject_name}"
        return self.character_name


class RollFace(models.Model):
    """
    How often one face came up on one entry's dice of one group and size: the fairness
    report's unit (`rolllog.fairness`). `character` (whose dice: the subject when staff rolled
    for someone, else the roller), `created` and `system` are copied from the entry, so the
    report filters and counts this one table through its own index, without a join; `private`
    too, so a player's report counts the public faces without reading the entries.
    """

    entry = models.ForeignKey(RollEntry, on_delete=models.CASCADE, related_name="faces")
    character = models.ForeignKey(
        "objects.ObjectDB", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
    )
    created = models.DateTimeField()
    system = models.CharField(max_length=16, blank=True)
    label = models.CharField(max_length=64, help_text="The dice group's label (Dice, Hunger, ...).")
    sides = models.SmallIntegerField(help_text="The die size (10 for a d10).")
    face = models.SmallIntegerField()
    count = models.IntegerField()
    private = models.BooleanField(default=False, help_text="Copied from the entry: who may count these faces.")

    class Meta:
        verbose_name = "rolled face"
        indexes = [
            models.Index(fields=["created"], name="rollface_created"),
            models.Index(fields=["character", "created"], name="rollface_character_created"),
        ]

    def __str__(self):
        return f"{self.entry_id} {self.label} d{self.sides}: {self.face} x{self.count}"


class FaceTally(models.Model):
    """
    How often one face came up on one UTC day, summed over every entry's `RollFace` rows of
    that (system, group label, die size, face): the whole game's fairness report reads whole
    days from here (`rolllog.fairness.face_counts`). Kept exact where faces are written
    (`rolllog.fairness.add_to_tally`, in the transaction of the RollFace insert); rebuilt from
    RollFace by `rolllog.fairness.rebuild_tally` (migrations 0007 and 0009).

    Public and private faces are summed apart (`private`): a player's report reads only the
    public rows here and adds the private rolls they were shown from RollFace, so it cannot
    tell another player's private faces by its difference before and after their roll.
    """

    day = models.DateField(help_text="The UTC date the entries were made.")
    private = models.BooleanField(default=False)
    system = models.CharField(max_length=16, blank=True)
    label = models.CharField(max_length=64)
    sides = models.SmallIntegerField()
    face = models.SmallIntegerField()
    count = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = "face tally"
        constraints = [
            # The upsert's conflict target, and (day first) the index a window of days reads.
            models.UniqueConstraint(fields=["day", "private", "system", "label", "sides", "face"],
                                    name="facetally_key"),
        ]

    def __str__(self):
        return f"{self.day} {self.system} {self.label} d{self.sides}: {self.face} x{self.count}"


class DayCount(models.Model):
    """
    How many entries were made on one UTC day in one room, public or private: the count behind
    a long list's "Page N of M" and the day a deep page starts on (`rolllog.api.page`). Kept
    exact where entries are saved and deleted (the signals below, in the entry's transaction);
    rebuilt from the log by `rolllog.listing.rebuild`.

    `room` is the id of the entries' room (0: none; -1: every room and none at once, the whole
    log's rows), a plain number rather than a link: when a room is deleted its entries lose
    their room, and its counts move to 0 with them (`rolllog.listing.object_deleting`).
    """

    day = models.DateField(help_text="The UTC date the entries were made.")
    room = models.IntegerField(default=0, help_text="The room's id (0: none, -1: every room).")
    private = models.BooleanField(default=False)
    count = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = "entries of a day"
        verbose_name_plural = "entries of each day"
        constraints = [
            models.UniqueConstraint(fields=["day", "room", "private"], name="daycount_key"),
        ]

    def __str__(self):
        return f"{self.day} room {self.room}{' private' if self.private else ''}: {self.count}"


class RoomVisit(models.Model):
    """
    How many entries place a character in a room (it rolled, was rolled for or was shown the
    roll there): the rooms a player "was in" (`rolllog.api.visible_to_account`), read without
    reading their entries. Plain ids, not links: the counts of a deleted character or room
    are dropped when it goes (`rolllog.listing.object_deleting`).
    """

    character = models.IntegerField()
    room = models.IntegerField()
    count = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = "room visit"
        constraints = [models.UniqueConstraint(fields=["character", "room"], name="roomvisit_key")]

    def __str__(self):
        return f"character {self.character} in room {self.room}: {self.count}"


class Participant(models.Model):
    """
    A character who took part in an entry (rolled, was rolled for, was shown it) that is
    private or has no room: beyond the public entries of their rooms, what a player may read
    (`rolllog.api.visible_to_account`), counted per UTC day without reading the log.
    """

    # Not indexed alone: the unique (entry, character) serves a deletion's cascade.
    entry = models.ForeignKey(RollEntry, on_delete=models.CASCADE, related_name="+", db_index=False)
    character = models.IntegerField()
    day = models.DateField(help_text="The entry's UTC date.")

    class Meta:
        verbose_name = "participant"
        constraints = [models.UniqueConstraint(fields=["entry", "character"], name="participant_key")]
        indexes = [models.Index(fields=["character", "day", "entry"], name="participant_character_day")]

    def __str__(self):
        return f"character {self.character} in entry {self.entry_id}"
