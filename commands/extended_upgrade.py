"""
Extended rolls left open by an earlier version, carried into today's state at server start.

Before every system's extended roll was the one shared flow (`commands.extended`), each system
kept its own, in its own shape; a game upgraded with one open would otherwise lose it without
a word. These are the shapes those versions wrote, frozen here as history (like a data
migration): nothing writes them any more.

- V5: Attribute `extended_roll`, category `dice`: `{"private", "numbers_only", "run",
  "state": {"pool", "target", "total", "rolls", "last", "bestial_failures",
  "messy_criticals"}}` (complete ones were kept too).
- V20: Attribute `v20_extended`, category `dice`: `{"text", "spec", "private", "target",
  "total", "rolls"}` (dropped once complete).
- Seyruun: pending value `seyruun_extended`: `{"text", "private", "progress": <the dataclass
  rules.seyruun:Extended, {"target", "total", "rolls", "botches"}>}`. That class is gone; its
  fields are read as the plain data they are stored as.

**Rulings**: only the configured system's old shape is carried over (the old code of another
system never read it either; it is carried over at a start under that system). The old
shapes did not say what the latest roll was counted as, so a Willpower reroll of it (V5)
corrects the total by its successes alone; V5's old tallies of bestial failures and messy
criticals are not kept (today's V5 tallies none); V20's botches were not counted, so none are.
A value that does not read is dropped, with a line in the server log, never a refusal to the
player. A character who already has an extended roll in today's shape keeps it.
"""

from evennia.objects.models import ObjectDB
from evennia.utils import logger

from storyteller_dice.rules import extended as rules_extended
from storyteller_dice.rules.errors import DiceError

from . import extended, pending

OLD_CATEGORY = "dice"  # the Attribute category V5's and V20's wings used


def _v5(character, data):
    data = dict(data)
    state = dict(data["state"])
    total, last = state.get("total", 0), state.get("last", 0)
    return {"pool": state["pool"], "target": state["target"], "total": total, "rolls": state.get("rolls", 0),
            "before": max(0, total - last) if isinstance(total, int) and isinstance(last, int) else 0,
            "private": bool(data.get("private")), "numbers_only": bool(data.get("numbers_only")),
            "run": data.get("run") or _run(character)}


def _v20(character, data):
    return {"pool": data["text"], "target": data["target"], "total": data["total"], "rolls": data["rolls"],
            "before": data["total"], "switches": ["spec"] if data.get("spec") else [],
            "private": bool(data.get("private")), "run": _run(character)}


def _seyruun(character, data):
    progress = dict(data["progress"])
    botches = progress.get("botches", 0)
    return {"pool": data["text"], "target": progress["target"], "total": progress.get("total", 0),
            "rolls": progress.get("rolls", 0), "before": progress.get("total", 0),
            "marks": [["botch", botches]] if botches else [], "private": bool(data.get("private")),
            "run": _run(character)}


def _run(character):
    return f"{character.id}-upgraded"


# system key -> (Attribute key, category, reader of the stored value into `ExtendedRoll.to_dict`'s shape)
OLD_SHAPES = {
    "v5": ("extended_roll", OLD_CATEGORY, _v5),
    "v20": ("v20_extended", OLD_CATEGORY, _v20),
    "seyruun": ("seyruun_extended", pending.PENDING, _seyruun),
}


def convert(character, key, category, reader):
    """Carry one character's old extended roll into today's state; the old value goes either way.
    Returns the new state, or None (nothing there, unreadable, or a new one already kept)."""
    stored = character.attributes.get(key, category=category)
    character.attributes.remove(key, category=category)
    if not stored:
        return None
    try:
        state = rules_extended.ExtendedRoll.from_dict(reader(character, stored))
    except (DiceError, KeyError, TypeError, ValueError, AttributeError):
        logger.log_warn(f"Dropped the extended roll of {character.key} (#{character.id}) kept by an earlier "
                        f"version ({key}): it does not read: {stored!r:.200}")
        return None
    try:
        if extended.load(character) is not None:
            return None
    except DiceError:
        pass  # a damaged new one is replaced by the old one that reads
    extended.save(character, state)
    return state


def upgrade(system_key):
    """At server start: every open extended roll the configured system's earlier version kept,
    in today's shape (`commands.extended`). Returns how many were carried over."""
    shape = OLD_SHAPES.get(system_key)
    if shape is None:
        return 0
    key, category, reader = shape
    carried = 0
    for character in ObjectDB.objects.get_by_attribute(key=key, category=category):
        if convert(character, key, category, reader) is not None:
            carried += 1
    if carried:
        logger.log_info(f"Carried {carried} extended roll(s) kept by an earlier version into today's state.")
    return carried
