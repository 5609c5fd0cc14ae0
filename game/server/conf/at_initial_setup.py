"""
At the very first start (Evennia's initial setup, evennia/server/initial_setup.py, creates
Account #1 and Limbo, then calls `at_initial_setup()` here, once): Limbo reads as this game's.

Evennia writes its own Limbo description ("Welcome to your new Evennia-based game! ...");
`describe_limbo()` replaces it with ours. For a database made before this existed, run it once:

    py from server.conf.at_initial_setup import describe_limbo; describe_limbo()

It changes Limbo only while Limbo still has Evennia's own text (or none), so a description a
builder wrote is never overwritten. Tracebacks in `at_initial_setup` are silently ignored by
Evennia, so this module keeps it simple.
"""

LIMBO_DESC = (
    "The quiet place between scenes. Nothing here is in character: this is where everyone "
    "arrives and where the night's story is set up.\n\n"
    "Rolling here: |w+roll <pool> vs <difficulty>|n (|w+roll dex+stealth vs 2|n) rolls your "
    "dice in the room, with your Hunger dice apart; everyone sees the same result and its "
    "code. |whelp dice|n is the guide, |w+sheet|n your character, |wooc <text>|n speaks out "
    "of character."
)
# How Evennia's own description starts (it is translated, so only its start is compared).
_EVENNIA_LIMBO_STARTS = ("Welcome to your new |wEvennia|n-based game", "Welcome to your new Evennia")


def _limbo():
    from django.conf import settings
    from evennia.objects.models import ObjectDB

    # Evennia makes Limbo #2 (settings.DEFAULT_HOME); find it by that, else by name.
    home = str(getattr(settings, "DEFAULT_HOME", "#2")).lstrip("#")
    limbo = ObjectDB.objects.filter(id=int(home)).first() if home.isdigit() else None
    if limbo is None:
        limbo = ObjectDB.objects.filter(db_key__iexact="Limbo").first()
    return limbo


def describe_limbo(force=False):
    """Give Limbo this game's description; return True if it changed."""
    limbo = _limbo()
    if limbo is None:
        return False
    current = (limbo.db.desc or "").strip()
    if not force and current and not current.startswith(_EVENNIA_LIMBO_STARTS):
        return False
    if current == LIMBO_DESC:
        return False
    limbo.db.desc = LIMBO_DESC
    return True


def at_initial_setup():
    describe_limbo()
