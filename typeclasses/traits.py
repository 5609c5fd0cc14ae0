"""
Where a character's trait values come from.

By default the sheet keeps them itself (Attributes of the plugin's own category, see
`typeclasses.characters`). A game whose stats already live elsewhere names a source in its
settings instead:

    DICE_TRAIT_SOURCE = "storyteller_dice.typeclasses.traits.TraitHandlerSource"
    DICE_TRAIT_HANDLERS = ["traits"]      # the character's TraitHandler properties, in order

A source is a class (or any callable returning an object) with two methods:

- `read(character, names)`: {sheet trait name: int} for the traits it holds (others are left
  to the sheet, which keeps them as before);
- `write(character, name, value)`: store a value set with `+stat` and return True, or return
  False to let the sheet keep it.

`TraitHandlerSource` reads Evennia's traits contrib (`evennia.contrib.rpg.traits`): a sheet
trait is the handler's trait whose key (underscores read as spaces) or name is the trait's
name, any case ("animal ken" is `animal_ken`). **Ruling:** a value is the trait's `value`
rounded down to a whole number (static traits give floats, and their `mod`/`mult` count);
`+stat` sets a counter or gauge trait's `current` and any other trait's `base`, the parts a
player's own sheet owns, leaving the host's modifiers alone. The range is still the dice
system's: a value outside it reads as the nearest end (the sheet's own clamp).
"""

from django.conf import settings
from django.utils.module_loading import import_string

_SOURCES = {}


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
    path = getattr(settings, "DICE_TRAIT_SOURCE", None)
    if path not in _SOURCES:
        _SOURCES[path] = (import_string(path) if isinstance(path, str) else path or SheetOnly)()
    return _SOURCES[path]


def source_problem():
    """What is wrong with `DICE_TRAIT_SOURCE` (one line naming it), or None."""
    # stub: replaced by the keys/bundle/traits work
    path = getattr(settings, "DICE_TRAIT_SOURCE", None)
    if not isinstance(path, str):
        return None
    try:
        import_string(path)
    except ImportError as err:
        return f"DICE_TRAIT_SOURCE={path!r} cannot be imported: {err}"
    return None
