"""
V20's words for a character, read through the shared sheet: Willpower left, the health track,
the Blood Pool; and what the wing keeps on the character (Attributes, category "dice"):
the `/retry` counts per action and the extended action in progress. Both survive a restart.
"""

from storyteller_dice.rules import v20_health, v20_system
from storyteller_dice.rules.errors import DiceError

CATEGORY = "dice"
RETRIES = "v20_retries"  # {action key: failed attempts since the last success}


def has_sheet(obj):
    return hasattr(obj, "roller") and hasattr(obj, "set_trait")


def state(character):
    return character.roller().state


def willpower_left(character):
    return state(character).get("willpower_left", 0)


def pay(character, costs):
    """Take `costs` ({trait: points}, from `System.costs`) off the sheet; refused when short."""
    for trait, points in costs.items():
        have = character.trait(trait)
        if have < points:
            raise DiceError(f"That needs {points} {v20_system.title(trait)} and you have {have} left.")
    for trait, points in costs.items():
        if points:
            character.set_trait(trait, character.trait(trait) - points)


def track(character):
    return v20_system.health_track(character.sheet_values)


def set_track(character, new):
    """Write a `HealthTrack` to the sheet, lowering before raising so the 7 levels always fit."""
    values = character.sheet_values
    wanted = {v20_system.HEALTH[kind]: new.count(kind) for kind in v20_health.DAMAGE_TYPES}
    for trait in sorted(wanted, key=lambda name: wanted[name] - values[name]):
        if values[trait] != wanted[trait]:
            character.set_trait(trait, wanted[trait])


def retries(character):
    return dict(character.attributes.get(RETRIES, category=CATEGORY) or {})


def retry_count(character, key):
    return int(retries(character).get(key, 0))


def set_retry_count(character, key, count):
    counts = retries(character)
    if count:
        counts[key] = count
    else:
        counts.pop(key, None)
    character.attributes.add(RETRIES, counts, category=CATEGORY)
