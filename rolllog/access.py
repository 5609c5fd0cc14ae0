"""
Whose the roll log's entries are: the account behind a character, a viewer's own characters,
and staff. `rolllog.api` decides who may see what from these; `rolllog.fairness` counts what a
viewer was shown by the same rule.
"""

from evennia.objects.models import ObjectDB

from storyteller_dice.typeclasses.access import is_staff  # noqa: F401 - Builder or above, as everywhere


def account_of(obj):
    """The account behind a character (or the account itself)."""
    if obj is None:
        return None
    if hasattr(obj, "characters") and hasattr(obj, "username"):
        return obj
    return getattr(obj, "account", None)


def own_character_ids(viewer):
    """The viewer character's id and those of every character of its account."""
    ids = set()
    if viewer is None:
        return ids
    if getattr(viewer, "id", None) and not hasattr(viewer, "username"):
        ids.add(viewer.id)
    account = account_of(viewer)
    if account is not None and getattr(account, "id", None):
        # Read, not `account.characters.all()`: that saves the list back to the database on
        # every call (Evennia's handler drops deleted characters first), a write per look-up.
        try:
            playable = account.attributes.get("_playable_characters", default=None) or []
        except AttributeError:
            playable = []
        ids.update(obj.id for obj in playable if obj and getattr(obj, "id", None))
        # Characters it puppets now (not always on its list of playable characters).
        ids.update(ObjectDB.objects.filter(db_account_id=account.id).values_list("id", flat=True))
    return ids
