"""
Pending dice state kept in the database, so that it survives `evennia reload` and a full
stop/start: open +contest challenges, open +teamwork rolls, the last roll kept for
+willpower, and notices for characters who were not connected when they were sent.

Everything lives in Attributes (category `PENDING`) on the characters concerned, as plain
data: numbers, strings, lists, tuples, dicts and database objects, which Evennia's
`dbserialize` stores safely at any depth. The frozen result dataclasses of `rules/` (and
`rules.pools.Pool`) are stored as dicts tagged with their class (`to_plain` / `from_plain`)
and rebuilt on reading; nothing is pickled as a Python object, so a code change never
leaves an unreadable Attribute behind. Times are wall-clock (`time.time()`): a challenge's
5 minutes and the Willpower window's 10 run on while the server is down. A roll changes this
state every time, so it is written cheaply: an existing value in one UPDATE
(`typeclasses.stored.replace_value`), and a value no longer pending is emptied (None reads
as nothing), not deleted.

**Rulings**:
- A notice for a character who is not connected (a challenge expired or made void, a
  challenge withdrawn) is queued and shown when they next connect, worded for someone who
  was away ("... expired while you were away."). At most `MAX_NOTICES` are kept (the oldest
  are dropped): nothing a player does can grow another's queue without bound.

This module is the state alone, and imports nothing of `commands/`: the flows that keep state
here (contests, teamwork, extended rolls, the wings) import it. What happens to pending state
when a character connects and when the server starts is `commands.pending_lifecycle`, which
imports those flows.
"""

import dataclasses
import importlib

from evennia.objects.models import ObjectDB
from evennia.utils.dbserialize import deserialize

from storyteller_dice.rolllog import api as rolllog_api
from storyteller_dice.typeclasses.events import pending_changed
from storyteller_dice.typeclasses.stored import replace_value

PENDING = "dice_pending"
NOTICES = "notices"
MAX_NOTICES = 20

_DATACLASS = "__dataclass__"
# Rebuilt classes must come from here: a stored name never imports arbitrary code.
_ALLOWED_PREFIXES = ("storyteller_dice.rules.",)


# ---------------------------------------------------------------- plain data


def _is_db_object(value):
    # Only typeclassed entities: Evennia packs those by id; other models are stored as ids.
    return hasattr(value, "__dbclass__") and hasattr(value, "db_date_created")


def to_plain(value):
    """`value` as plain data: rules dataclasses become tagged dicts; DB objects stay as they are."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        data = {_DATACLASS: f"{cls.__module__}:{cls.__qualname__}"}
        for item in dataclasses.fields(value):
            data[item.name] = to_plain(getattr(value, item.name))
        return data
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(to_plain(item) for item in value)
    if isinstance(value, (list, set, frozenset)):
        return [to_plain(item) for item in value]
    if _is_db_object(value):
        return value
    raise TypeError(f"cannot store {type(value).__name__} as pending state")


def _dataclass(path):
    module, _, name = path.partition(":")
    if not module.startswith(_ALLOWED_PREFIXES):
        raise ValueError(f"refusing to rebuild {path}")
    cls = getattr(importlib.import_module(module), name)
    if not dataclasses.is_dataclass(cls):
        raise ValueError(f"{path} is not a dataclass")
    return cls


def from_plain(value):
    """The inverse of `to_plain` (Evennia's Saver lists and dicts come back as plain ones)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        if _DATACLASS in value:
            cls = _dataclass(value[_DATACLASS])
            given = {item.name for item in dataclasses.fields(cls) if item.init}
            values = {key: from_plain(item) for key, item in value.items() if key != _DATACLASS}
            obj = cls(**{key: item for key, item in values.items() if key in given})
            for key, item in values.items():
                if key not in given:
                    object.__setattr__(obj, key, item)
            return obj
        return {key: from_plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(from_plain(item) for item in value)
    if isinstance(value, list) or type(value).__name__.startswith("_Saver"):
        try:
            return [from_plain(item) for item in value]
        except TypeError:
            return value
    return value


def load(obj, key):
    """The stored pending value `key` of `obj` as plain data, or None."""
    if obj is None or not hasattr(obj, "attributes"):
        return None
    value = obj.attributes.get(key, category=PENDING)
    if value is None:
        return None
    return deserialize(value)


def save(obj, key, value):
    """Keep `value` as the pending value `key` of `obj` (an existing one in one UPDATE; on
    PostgreSQL, written with a roll, in the roll's own execute: `rolllog.api.kept_with_roll`)."""
    replace_value(obj, key, value, category=PENDING, execute=rolllog_api.kept_with_roll)
    pending_changed(obj, key)


def remove(obj, key):
    """
    Forget the pending value `key` of `obj`. It is emptied (None reads as nothing pending,
    see `load`) rather than deleted: deleting an Attribute costs eight statements (Evennia
    looks for it in every table that can hold Attributes), and the next challenge or team
    fills the same row again in one.
    """
    if obj is not None and hasattr(obj, "attributes") and obj.attributes.has(key, category=PENDING):
        save(obj, key, None)


def holders(key):
    """Every object with the pending value `key` (for the sweep at server start)."""
    return [obj for obj in ObjectDB.objects.get_by_attribute(key=key, category=PENDING)
            if load(obj, key) is not None]


# ---------------------------------------------------------------- notices


def connected(character):
    """True if a player is puppeting `character` now."""
    sessions = getattr(character, "sessions", None)
    try:
        return bool(sessions and sessions.count())
    except Exception:  # noqa: BLE001 - a half-built object counts as not connected
        return False


def notify(character, text, away=None):
    """
    Tell `character` now, or keep the notice for their next connection (`away`, if given, is
    the wording for someone who was not there).
    """
    if character is None:
        return
    if connected(character):
        character.msg(text)
        return
    queue = list(load(character, NOTICES) or [])
    queue.append(away or text)
    save(character, NOTICES, queue[-MAX_NOTICES:])


def deliver_notices(character):
    """Show and forget the notices kept for `character`; return them."""
    queue = list(load(character, NOTICES) or [])
    if queue:
        remove(character, NOTICES)
        character.msg("\n".join(queue))
    return queue


def minutes(seconds):
    left = max(1, int(seconds + 59) // 60)
    return f"{left} minute{'s' if left != 1 else ''}"
