"""
The registry of game systems, chosen by the `DICE_SYSTEM` setting.

Each system is one `rules.engine.System` object, named here by its key and the place it lives
(`"module:ATTRIBUTE"`), imported only when asked for: a game running V5 never imports the
other four, and a system whose module is not there (yet) is refused with a clear message, not
a traceback. Shared code asks for `configured_system()`, never for a system's own module, so a
new system plugs in by one line in `SYSTEMS` (or, in tests, `register(system)`).

Pure: nothing here reads Django. The game builds the configured system once from a mapping of
its settings (`configure(settings)`, called by `commands.dice_base`), which is cached until
`reset()`.
"""

import importlib

from .engine import System, check_system
from .errors import DiceError

# Named from this package (`storyteller_dice.rules`): the systems are always its own modules.
SYSTEMS = {
    "v5": f"{__package__}.v5.system:SYSTEM",
    "v20": f"{__package__}.v20.system:SYSTEM",
    "seyruun": f"{__package__}.seyruun.system:SYSTEM",
    "whalefall": f"{__package__}.whalefall.system:SYSTEM",
    "dicecheck": f"{__package__}.dicecheck.system:SYSTEM",
}
DEFAULT_SYSTEM = "v5"

# Where each system's wing is (its commands: `commands.dice_base.Wing`), as "module:ATTRIBUTE"
# text: a system names its own (`System.wing`), and the registry names the package's five here
# (`commands/<key>/wing.py`), since the rules never import the commands. `wing_of` is the one
# place that reads either.
PACKAGE_WINGS = {key: f"{__package__.rpartition('.')[0]}.commands.{key}.wing:WING" for key in SYSTEMS}

# Systems registered as objects (tests' toy systems), over the paths above.
_REGISTERED = {}
_CONFIGURED = {}
# What every installed system declares (`declared`), gathered once until the registry changes.
_DECLARED = {}


def available():
    """Every known key (whether or not its module is installed)."""
    return tuple(dict.fromkeys([*SYSTEMS, *_REGISTERED]))


def _key(key):
    return str(key or DEFAULT_SYSTEM).strip().lower()


def register(system):
    """Make a `System` object available under its key (replacing any); return it."""
    check_system(system)
    _REGISTERED[system.key] = system
    _CONFIGURED.pop(system.key, None)
    _DECLARED.clear()
    return system


def unregister(key):
    _REGISTERED.pop(_key(key), None)
    _CONFIGURED.pop(_key(key), None)
    _DECLARED.clear()


def get_system(key=None):
    """
    The (unconfigured) `System` of a key ("v5" by default).

    Raises:
        DiceError: an unknown key, or a known one whose module is not installed.
    """
    key = _key(key)
    if key in _REGISTERED:
        return _REGISTERED[key]
    if key not in SYSTEMS:
        raise DiceError(f"Unknown dice system '{key}': available are {', '.join(available())}.")
    module_name, _, attribute = SYSTEMS[key].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name:
            raise  # the system's module is there but imports something missing: a real bug
        raise DiceError(f"The dice system '{key}' is not installed (no module {module_name}).") from None
    system = getattr(module, attribute or "SYSTEM", None)
    if not isinstance(system, System):
        raise DiceError(f"The dice system '{key}' is not installed ({module_name} has no {attribute or 'SYSTEM'}).")
    return check_system(system)


def wing_of(system):
    """
    Where `system`'s wing is ("module:ATTRIBUTE", the attribute `WING` when left out): the
    system's own `wing`, else the package's wing for one of its five keys; "" for none (the
    system's commands are the shared ones alone).
    """
    return system.wing or PACKAGE_WINGS.get(system.key, "")


def slogan_of(system=None):
    """The slogan of a system or key (`System.slogan`, or one made of its name); a neutral one
    for a key that does not load (the game's start refuses it later, with a clear message)."""
    try:
        system = system if isinstance(system, System) else get_system(system)
    except DiceError:
        return "Storyteller dice and an honest record"
    return system.slogan or f"{system.name} dice and an honest record"


def installed():
    """The keys whose systems import, in registry order."""
    found = []
    for key in available():
        try:
            get_system(key)
        except DiceError:
            continue
        found.append(key)
    return tuple(found)


def configure(key=None, settings=None):
    """
    The system of `key`, configured with `settings` (a mapping of setting names to values,
    e.g. {"V5_BESTIAL_FAILURE": "official"}), built once per key and kept until `reset()`.

    Raises:
        DiceError: unknown key, not installed, or a setting the system refuses.
    """
    key = _key(key)
    if key not in _CONFIGURED:
        system = get_system(key).configure(dict(settings or {}))
        _CONFIGURED[key] = check_system(system)
    return _CONFIGURED[key]


def reset():
    """Forget every configured system (tests that change the settings call this)."""
    _CONFIGURED.clear()


def declared(attribute):
    """
    Every installed system's `attribute` (a tuple: its tags, its mark looks, ...), joined in
    registry order, each item once: what the shared display and speech read instead of a
    table of systems, so a system registered later is served like the five. Gathered once
    (every installed system imported, as the roll log may show any system's old rolls) and
    again after `register`/`unregister`.
    """
    if attribute not in _DECLARED:
        items = [item for key in installed() for item in getattr(get_system(key), attribute, ())]
        _DECLARED[attribute] = tuple(dict.fromkeys(items))
    return _DECLARED[attribute]


class Declared:
    """
    A read-only sequence of `declared(attribute)` (with `shared` items after or before), read
    afresh on each use: a module-level name (`SYSTEM_TAGS`, `MARK_STYLES`) that stays right
    when a system is registered after the module was imported.
    """

    def __init__(self, attribute, convert=tuple, before=(), after=()):
        self.attribute, self.convert, self.before, self.after = attribute, convert, tuple(before), tuple(after)
        self._seen = None

    def items(self):
        found = declared(self.attribute)
        if self._seen is None or self._seen[0] is not found:
            self._seen = (found, tuple(dict.fromkeys((*self.before, *self.convert(found), *self.after))))
        return self._seen[1]

    def __iter__(self):
        return iter(self.items())

    def __len__(self):
        return len(self.items())

    def __getitem__(self, index):
        return self.items()[index]

    def __contains__(self, item):
        return item in self.items()

    def __repr__(self):
        return f"Declared({self.attribute!r}: {self.items()!r})"
