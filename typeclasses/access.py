"""
Who may read or change another character's state (traits, pools, trackers): the one check
every command calls before it reads a sheet that is not the caller's own or changes one.

**Ruling** (a MUSH's staff would decide it so): a character's sheet is its player's. Another
character's traits are read, rolled or changed only

- by staff (Builder and above: the Storyteller runs both sides, applies damage, fixes sheets);
- by the same player (a character of the caller's own account);
- with that player's consent, which is always an act of theirs in the game: answering a
  challenge, joining a team roll. A command passes `consent=True` only for a side that has
  so acted; naming someone is never consent.

A change to another character is always told to that character, even when the roll was
private and they were not among those shown it (`tell_changed`): nobody's sheet changes
behind their back. Commands word their own refusals (`require`), so the player reads what
to do instead.
"""

from storyteller_dice.rules.errors import DiceError

STAFF_LOCK = "perm(Builder)"


def is_staff(obj):
    """Builder or above: a character (through its account when puppeted) or an account."""
    if obj is None or not hasattr(obj, "locks"):
        return False
    if getattr(obj, "is_superuser", False):
        return True
    return bool(obj.locks.check_lockstring(obj, f"staff:{STAFF_LOCK}"))


def _account_id(obj):
    if obj is None:
        return None
    if hasattr(obj, "username"):
        return obj.id
    account = getattr(obj, "account", None)
    return getattr(account, "id", None)


def same_player(actor, target):
    """Whether `target` is `actor`, or a character of the same account (played now or listed)."""
    if actor is None or target is None:
        return False
    if actor == target:
        return True
    account = _account_id(actor)
    if account is None:
        return False
    if getattr(target, "db_account_id", None) == account:
        return True
    owner = getattr(target, "account", None)
    if getattr(owner, "id", None) == account:
        return True
    characters = getattr(getattr(actor, "account", None) or actor, "characters", None)
    try:
        return target in list(characters.all()) if characters is not None else False
    except (AttributeError, TypeError):
        return False


def may_use(actor, target, consent=False):
    """Whether `actor` may read or change `target`'s sheet (see the module's ruling)."""
    return bool(consent) or same_player(actor, target) or is_staff(actor)


def require(actor, target, refusal, consent=False):
    """`target` if `actor` may use its sheet; else DiceError(`refusal`), before anything is read."""
    if not may_use(actor, target, consent=consent):
        raise DiceError(refusal)
    return target


def read_traits(actor, target, refusal, consent=False):
    """
    `target`'s traits as the rules read them (its `Roller`: name, traits, state), for `actor`:
    the one way a command reads a sheet that is not the caller's own (a helper's pool, a
    contest's other side, staff rolling for someone, a sheet shown to someone else).

    Raises:
        DiceError(`refusal`): `actor` may not (see the module's ruling); nothing is read.
    """
    require(actor, target, refusal, consent=consent)
    return target.roller() if hasattr(target, "roller") else None


def tell_changed(target, text, told=(), notify=None):
    """
    Tell `target` of a change to their sheet unless they were already shown it (`told`: the
    characters the change's lines reached). `notify(character, text)` keeps it for an absent
    player (the command layer's queue of notices); without one, a plain message.
    """
    if target is None or target in list(told or ()):
        return
    (notify or (lambda obj, message: obj.msg(message)))(target, text)
