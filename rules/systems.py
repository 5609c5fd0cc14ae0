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

SYSTEMS = {
    "v5": "storyteller_dice.rules.v5_system:SYSTEM",
    "v20": "storyteller_dice.rules.v20_system:SYSTEM",
    "seyruun": "storyteller_dice.rules.seyruun_system:SYSTEM",
    "whalefall": "storyteller_dice.rules.whalefall_system:SYSTEM",
    "dicecheck": "storyteller_dice.rules.dicecheck_system:SYSTEM",
}
DEFAULT_SYSTEM = "v5"

# Systems registered as objects (tests' toy systems), over the paths above.
_REGISTERED = {}
_CONFIGURED = {}


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
    return system


def unregister(key):
    _REGISTERED.pop(_key(key), None)
    _CONFIGURED.pop(_key(key), None)


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
