"""
Where a character's trait values come from.

By default the sheet keeps them itself (Attributes of the plugin's own category, see
`typeclasses.characters`). A game whose stats already live elsewhere names a source in its
settings instead:

    DICE_TRAIT_SOURCE = "storyteller_dice.typeclasses.traits.TraitHandlerSource"
    DICE_TRAIT_HANDLERS = ["traits"]      # the character's TraitHandler properties, in order

A source is a class built with no arguments (or any callable returning an object) with two
methods, and two more it may have (docs/host-stats.md has a complete example):

- `read(character, names)`: {sheet trait name: int} for the traits it holds (others are left
  to the sheet, which keeps them as before). Hunger and every other value the rules read come
  this way: there is no other path.
- `write(character, name, value)`: store a value set with `+stat` (or moved in play: Hunger,
  Willpower damage) and return True, or return False to let the sheet keep it.
- optional `specialties(character)`: {skill: [specialty, ...]}. Without it the Specialties
  are the sheet's own.
- optional `write_specialties(character, skill, names)`: store a skill's whole new list of
  Specialties (after `+stat spec` or `+stat/remove spec`) and return True, or return False.

Every reader of traits (rolls, odds, contests, the web panel, `+sheet`, the website's sheet
page) reads them from the character's `sheet_values` and `specialties`, which ask the source.

**Rulings:**

- A name the source gives back is kept only if it was asked for, and a value only if it is a
  whole number (`int()` of it: a float rounds down, "3" is 3); anything else is left to the
  sheet. The range is still the dice system's: a value outside it reads as the nearest end
  (the sheet's own clamp).
- A skill `specialties` names is matched to the sheet's trait of that name in any case,
  underscores read as spaces (`animal_ken` is "animal ken"), as `TraitHandlerSource` matches
  its traits; a name that is no trait of the sheet is left out. A skill the source names (even
  with an empty list) has the source's Specialties; any other skill keeps the sheet's own, as
  a trait `read` does not return keeps the sheet's value. A single string is one Specialty.
- `+stat spec` on a skill: `write_specialties` (asked only of a source that has `specialties`)
  gets the sheet's name of the skill and its whole new list. When it returns False (or the
  source has no such method), a skill the source names is refused with a clear message
  (storing it in the sheet would be hidden behind the source's list), and any other skill's
  Specialties are stored in the sheet.
- A source that raises while reading or writing is the game's own bug: it goes to the server
  log, and the player is told the stats could not be read (or saved), never a traceback.

`TraitHandlerSource` reads Evennia's traits contrib (`evennia.contrib.rpg.traits`): a sheet
trait is the handler's trait whose key (underscores read as spaces) or name is the trait's
name, any case ("animal ken" is `animal_ken`). **Ruling:** a value is the trait's `value`
rounded down to a whole number (static traits give floats, and their `mod`/`mult` count);
`+stat` sets a counter or gauge trait's `current` and any other trait's `base`, the parts a
player's own sheet owns, leaving the host's modifiers alone. The traits contrib has no
Specialties: with this source they stay the sheet's own.

`source_problem()` is the start-time check of the setting (called from the roll log's
`AppConfig.ready()`, before Evennia's flat API exists: this module imports nothing of
Evennia's at import time). **Ruling:** it builds the source, so a source's `__init__` must need
neither Evennia's flat API nor the database (its methods may).
"""

import math

from django.conf import settings
from django.utils.module_loading import import_string

from storyteller_dice.rules.errors import DiceError

_SOURCES = {}
SETTING = "DICE_TRAIT_SOURCE"


class SheetOnly:
    """No outside source: every trait is the sheet's own (the default)."""

    def read(self, character, names):
        return {}

    def write(self, character, name, value):
        return False


class TraitHandlerSource:
    """Traits from the character's `evennia.contrib.rpg.traits` TraitHandlers."""

    def __init__(self, handlers=None):
        self.handlers = tuple(handlers or getattr(settings, "DICE_TRAIT_HANDLERS", None) or ("traits",))

    def _traits(self, character):
        """{lower-case name: Trait} over the handlers, the first handler winning a name."""
        found = {}
        for attribute in self.handlers:
            handler = getattr(character, attribute, None)
            if handler is None:
                continue
            for key in handler.all():
                trait = handler.get(key)
                if trait is None:
                    continue
                for name in (str(key).replace("_", " ").lower(), str(getattr(trait, "name", "") or "").lower()):
                    if name:
                        found.setdefault(name, trait)
        return found

    def read(self, character, names):
        traits = self._traits(character)
        values = {}
        for name in names:
            trait = traits.get(name.lower())
            if trait is not None:
                try:
                    values[name] = int(trait.value)
                except (TypeError, ValueError):
                    continue
        return values

    def write(self, character, name, value):
        trait = self._traits(character).get(name.lower())
        if trait is None:
            return False
        if getattr(trait, "trait_type", "") in ("counter", "gauge"):
            trait.current = value
        else:
            trait.base = value
        return True


def trait_source():
    """The configured source (built once per setting value)."""
    path = getattr(settings, SETTING, None)
    if path not in _SOURCES:
        _SOURCES[path] = (import_string(path) if isinstance(path, str) else path or SheetOnly)()
    return _SOURCES[path]


# ------------------------------------------------------------ asking the source


def _whole(value):
    """`value` as a whole number, or None when it is none (bool, NaN and text that is no number too)."""
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _failed(character, what):
    """The source raised: the trace to the server log, a clear line for the player."""
    from evennia.utils import logger  # here, not at import: this module loads before Evennia's API

    logger.log_trace(f"{SETTING}: {what} for {character}")
    verb = "read" if what.startswith("read") else "saved"
    return DiceError(f"This game's stats could not be {verb} ({SETTING}); staff can see why in the server log.")


def read_values(source, character, names):
    """{name: whole number} of the traits among `names` that the source holds (rulings above)."""
    try:
        found = source.read(character, list(names))
    except Exception as err:  # noqa: BLE001 - a host's source must not become a player's traceback
        raise _failed(character, "reading traits") from err
    wanted = set(names)
    values = {}
    for name, value in dict(found or {}).items():
        number = _whole(value)
        if name in wanted and number is not None:
            values[name] = number
    return values


def write_value(source, character, name, value):
    """Whether the source stored `value` (False: the sheet keeps it)."""
    try:
        return bool(source.write(character, name, value))
    except Exception as err:  # noqa: BLE001
        raise _failed(character, f"writing {name}") from err


def sheet_name(key, names):
    """The sheet trait among `names` that the source's `key` names (any case, `_` as a space), or None."""
    wanted = " ".join(str(key).replace("_", " ").split()).lower()
    return wanted if wanted in names else None


def read_specialties(source, character, names):
    """
    {sheet skill: tuple of Specialty names} of the skills the source names, or None when the
    source has no `specialties` (they are all the sheet's own). `names`: the sheet's traits.
    """
    reader = getattr(source, "specialties", None)
    if not callable(reader):
        return None
    try:
        found = reader(character)
    except Exception as err:  # noqa: BLE001
        raise _failed(character, "reading specialties") from err
    names = set(names)
    result = {}
    for key, listed in dict(found or {}).items():
        skill = sheet_name(key, names)
        if skill is None:
            continue
        listed = [listed] if isinstance(listed, str) else list(listed or ())
        kept = result.setdefault(skill, [])
        for each in listed:
            text = str(each).strip()
            if text and text not in kept:
                kept.append(text)
    return {skill: tuple(kept) for skill, kept in result.items()}


def write_specialties(source, character, skill, names):
    """Whether the source stored `skill`'s new list of Specialties (False: not the source's)."""
    writer = getattr(source, "write_specialties", None)
    if not callable(writer) or not callable(getattr(source, "specialties", None)):
        return False
    try:
        return bool(writer(character, skill, list(names)))
    except Exception as err:  # noqa: BLE001
        raise _failed(character, f"writing {skill} specialties") from err


# ------------------------------------------------------------ the start-time check


def _one_line(err):
    text = " ".join(f"{type(err).__name__}: {err}".split())
    return text if len(text) <= 160 else text[:157] + "..."


def source_problem():
    """
    One line naming DICE_TRAIT_SOURCE when it is set but cannot serve (its module or class
    cannot be imported, the class cannot be built with no arguments, or what it builds has no
    `read`/`write`), else None. Safe in `AppConfig.ready()`: it imports only the host's module.
    """
    path = getattr(settings, SETTING, None)
    if path is None or path == "":
        return None
    shown = f"{SETTING} = {path!r}"
    if isinstance(path, str):
        if "." not in path.strip(".") or path != path.strip():
            return f"{shown}: give the dotted path of a class, such as \"mygame.stats.StatsSource\"."
        try:
            made = import_string(path)
        except Exception as err:  # noqa: BLE001 - any failure of the host's module is the setting's problem
            return f"{shown}: cannot import it ({_one_line(err)})."
    elif callable(path):
        made = path
    else:
        return f"{shown}: give the dotted path of a class, such as \"mygame.stats.StatsSource\"."
    if not callable(made):
        return f"{shown}: that is no class (it cannot be called)."
    try:
        source = made()
    except Exception as err:  # noqa: BLE001
        return f"{shown}: cannot build it with no arguments ({_one_line(err)})."
    missing = [name for name in ("read", "write") if not callable(getattr(source, name, None))]
    if missing:
        needs = " and ".join(f"{name}()" for name in missing)
        return f"{shown}: it has no {needs} (a trait source reads and writes a character's traits)."
    return None
