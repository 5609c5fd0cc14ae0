"""
The counts the roll log keeps at write time (`rolllog.listing`: DayCount, RoomVisit,
Participant; `rolllog.fairness`: FaceTally), kept exact when entries are saved or deleted
through Django, inside the transaction that saves or deletes them. Connected once, in
`RollLogConfig.ready()` (rolllog/apps.py), when every app's models are loaded.

`rolllog.api` stores a roll around `save()` (a bulk insert sends no signal) and makes the same
counts itself; these receivers serve everything else (a staff action, the admin, a deletion;
see `rolllog.listing.rebuild` for rows written by raw SQL). The record is not deleted in play
(the admin is read-only), but a deletion takes its counts off too; these receivers make Django
load what it deletes, which only costs when something is deleted.
"""

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from evennia.objects.models import ObjectDB

from . import listing
from .fairness import remove_from_tally
from .models import RollEntry, RollFace


def entry_saved(sender, instance, created, raw=False, using=None, **kwargs):
    if created:
        listing.entry_saved(instance, using)


def receivers_changed(sender, instance, action, reverse, pk_set, using=None, **kwargs):
    listing.receivers_changed(instance, action, reverse, pk_set, using)


def entry_deleting(sender, instance, using, **kwargs):
    listing.entry_deleting(instance, using)


def object_deleting(sender, instance, using, **kwargs):
    # Any sender: characters and rooms are typeclasses, proxies of ObjectDB, each its own
    # sender (Evennia already listens to every deletion, so this costs no fast deletes). Sent
    # before Django takes the object off the log's entries (SET_NULL).
    if isinstance(instance, ObjectDB):
        listing.object_deleting(instance, using)


def entry_deleted(sender, instance, using, **kwargs):
    listing.entry_deleted(instance, using)


def face_deleted(sender, instance, using, **kwargs):
    # A deleted entry's faces (a cascade) leave the whole game's counts too.
    remove_from_tally([instance], using=using)


def connect():
    """Connect the receivers (each once: `dispatch_uid`)."""
    post_save.connect(entry_saved, sender=RollEntry, dispatch_uid="rolllog_rollentry_count")
    m2m_changed.connect(receivers_changed, sender=RollEntry.receivers.through, dispatch_uid="rolllog_receivers_reach")
    pre_delete.connect(entry_deleting, sender=RollEntry, dispatch_uid="rolllog_rollentry_unreach")
    pre_delete.connect(object_deleting, dispatch_uid="rolllog_object_deleting")
    post_delete.connect(entry_deleted, sender=RollEntry, dispatch_uid="rolllog_rollentry_uncount")
    post_delete.connect(face_deleted, sender=RollFace, dispatch_uid="rolllog_rollface_untally")
