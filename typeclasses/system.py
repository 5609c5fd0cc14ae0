"""
The configured dice system, for everything in the game that needs it: the typeclasses (a
character's sheet), the commands and the web pages. It sits here, below the commands, so the
record and the web pages never import from `commands/`.

`dice_system()` is the `rules.engine.System` named by the `DICE_SYSTEM` setting, built once
with the game's settings (`rules.systems`). The settings are the game's `settings.py` only:
the package never reads the environment (a game may, in its own settings.py).
`settings_problem()` is the one line the app's start check prints (rolllog/apps.py) when the
system cannot be built; `check_configured_system()` raises it at `at_server_init`.

A system from outside the package is registered by the setting `DICE_EXTRA_SYSTEMS`, a list of
dotted paths each to a `rules.engine.System` instance (`["my_game.dice.SYSTEM"]`):
`register_extra_systems()` registers them when Django starts (the app's start check, before
`DICE_SYSTEM` is checked, so `DICE_SYSTEM` may name one), or gives the one line naming the
setting and its bad entry: a path that does not import, an object that is not a System, a key
that is not one `DICE_SYSTEM` can name, or the key of one of the package's own systems or of
an earlier entry. The system names its own wing (`System.wing`).
"""

import json
import re

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string
from evennia.utils import logger

from storyteller_dice.rules import systems
from storyteller_dice.rules.engine import System
from storyteller_dice.rules.errors import DiceError

EXTRA_SYSTEMS = "DICE_EXTRA_SYSTEMS"
_EXAMPLE = '"my_game.dice.SYSTEM"'
# What `DICE_SYSTEM` can name: it is read stripped and in lower case (`system_key`).
_SYSTEM_KEY = re.compile(r"[a-z][a-z0-9_]*")


class _Settings:
    """The game's settings as the mapping `System.configure` reads (upper-case names only)."""

    def get(self, name, default=None):
        return getattr(settings, name, default) if name.isupper() else default

    def __getitem__(self, name):
        if not name.isupper() or not hasattr(settings, name):
            raise KeyError(name)
        return getattr(settings, name)

    def __contains__(self, name):
        return name.isupper() and hasattr(settings, name)

    def keys(self):
        return [name for name in dir(settings) if name.isupper()]


def system_key():
    return str(getattr(settings, "DICE_SYSTEM", systems.DEFAULT_SYSTEM) or systems.DEFAULT_SYSTEM).strip().lower()


def dice_system():
    """The configured `rules.engine.System` (built once from the settings; see `rules.systems`)."""
    return systems.configure(system_key(), _Settings())


def _problem(err):
    return (f"DICE_SYSTEM={system_key()!r} cannot be used: {err} "
            f"Set DICE_SYSTEM in settings.py to one of: {', '.join(systems.installed())}.")


def settings_problem():
    """
    The one line naming `DICE_SYSTEM` when the configured system cannot be built (an unknown
    key, a system not installed, a bad setting such as V5_BESTIAL_FAILURE), or None.
    """
    try:
        dice_system()
    except DiceError as err:
        return _problem(err)
    return None


def _quoted(text, limit=120):
    """A setting's text as the start line quotes it: in double quotes, escaped, cut at `limit`."""
    text = str(text)
    return json.dumps(text[:limit]) if len(text) <= limit else json.dumps(text[:limit])[:-1] + '..."'


def extra_systems():
    """[(path, System)] of `DICE_EXTRA_SYSTEMS`, in order; DiceError with the start line for a
    bad entry (see the module). Registers nothing."""
    setting = getattr(settings, EXTRA_SYSTEMS, None)
    if setting is None:
        return []
    if isinstance(setting, str) or not isinstance(setting, (list, tuple)):
        raise DiceError(f"{EXTRA_SYSTEMS} must be a list of dotted paths to dice systems ({_EXAMPLE}), "
                        f"not {type(setting).__name__}.")
    found, keys = [], {}
    for index, path in enumerate(setting):
        entry = f"{EXTRA_SYSTEMS}[{index}]"
        if not isinstance(path, str):
            raise DiceError(f"{entry} must be a dotted path to a dice system ({_EXAMPLE}), "
                            f"not {type(path).__name__}.")
        entry = f"{entry} {_quoted(path)}"
        try:
            system = import_string(path.strip())
        except ImportError as err:
            raise DiceError(f"{entry} cannot be imported ({err}).") from None
        if isinstance(system, type) and issubclass(system, System):
            raise DiceError(f"{entry} is the class {system.__name__}: name an instance of it (a System object).")
        if not isinstance(system, System) or not system.key or not system.title:
            what = type(system).__name__ if not isinstance(system, System) else "a System without a key or a title"
            raise DiceError(f"{entry} is not a dice system (a rules.engine.System with a key and a title): "
                            f"it is {what}.")
        key = system.key
        if not isinstance(key, str) or not _SYSTEM_KEY.fullmatch(key):
            raise DiceError(f"{entry} has the key {_quoted(key)}: a key is lower-case letters, digits and _, "
                            f"starting with a letter, as DICE_SYSTEM names it.")
        if key in systems.SYSTEMS:
            raise DiceError(f"{entry} has the key {_quoted(key)} of the package's own system; "
                            f"give it a key of its own.")
        if key in keys:
            raise DiceError(f"{entry} has the key {_quoted(key)} of {EXTRA_SYSTEMS}[{keys[key]}] too.")
        keys[key] = index
        found.append((path, system))
    return found


def register_extra_systems():
    """
    Register every system `DICE_EXTRA_SYSTEMS` lists (`rules.systems.register`), or none when
    an entry is bad: then the one line naming the setting and the entry, else None. The app's
    start check calls this before `settings_problem()` (rolllog/apps.py); registering again is
    harmless (the same object under the same key).
    """
    try:
        found = extra_systems()
    except DiceError as err:
        return str(err)
    for _, system in found:
        systems.register(system)
    return None


def check_configured_system():
    """
    At server start: the configured system, or the start refused with a clear message (an
    unknown `DICE_SYSTEM`, a system not installed, a bad setting such as V5_BESTIAL_FAILURE).
    """
    try:
        return dice_system()
    except DiceError as err:
        message = _problem(err)
        try:
            logger.log_err(message)
        except Exception:  # noqa: BLE001 - the refusal below is what matters
            pass
        raise ImproperlyConfigured(message) from None


def _settings_changed(**kwargs):
    # `override_settings(DICE_SYSTEM=...)` in tests: the next roll builds the system again.
    if kwargs.get("setting", "").isupper():
        systems.reset()


try:
    from django.test.signals import setting_changed

    setting_changed.connect(_settings_changed, dispatch_uid="dice_system_settings")
except ImportError:  # pragma: no cover - Django always has it
    pass
