"""
V20's words for a character, read through the shared sheet: Willpower left, the health track,
the Blood Pool; and what the wing keeps on the character (Attributes, category "dice"):
the `/retry` counts per action and the extended action in progress. Both survive a restart.
"""

from storyteller_dice.rules.v20 import health as v20_health, system as v20_system
from storyteller_dice.rules.errors import DiceError

from ..dice_base import has_sheet  # noqa: F401 - the wing's commands import it from here

CATEGORY = "dice"
RETRIES = "v20_retries"  # {action key: failed attempts since the last success}


def state(character):
    return character.roller().state


def pay(character, costs):
    """Spend what a roll costs (`V20System.costs`: temporary Willpower only) through the sheet's
    one way to spend Willpower (`DiceCharacterMixin.spend_willpower`); refused when short."""
    unknown = set(costs) - {v20_system.WILLPOWER_LEFT}
    if unknown:
        raise DiceError(f"Nothing on a V20 sheet pays {', '.join(sorted(unknown))}.")
    points = costs.get(v20_system.WILLPOWER_LEFT, 0)
    if points:
        character.spend_willpower(points)


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
