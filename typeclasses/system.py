"""
The configured dice system, for everything in the game that needs it: the typeclasses (a
character's sheet), the commands and the web pages. It sits here, below the commands, so the
record and the web pages never import from `commands/`.

`dice_system()` is the `rules.engine.System` named by the `DICE_SYSTEM` setting, built once
with the game's settings (`rules.systems`). The settings are the game's `settings.py` only:
the package never reads the environment (a game may, in its own settings.py).
`settings_problem()` is the one line the app's start check prints (rolllog/apps.py) when the
system cannot be built; `check_configured_system()` raises it at `at_server_init`.
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from evennia.utils import logger

from storyteller_dice.rules import systems
from storyteller_dice.rules.errors import DiceError


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
