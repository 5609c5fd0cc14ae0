"""
The registry of game systems, chosen by the `DICE_SYSTEM` setting.

Each system is a module in `rules/` with at least `KEY`, `TITLE`, `evaluate`, `roll` and
`odds` (RULES.md §0). Commands ask the registry for the configured system instead of
importing one, so a new system plugs in by adding a line here.
"""

import importlib

from .errors import DiceError

SYSTEMS = {
    "v5": "rules.v5",
}
DEFAULT_SYSTEM = "v5"


def available():
    return tuple(SYSTEMS)


def get_system(key=None):
    """The rules module of a system ("v5" by default)."""
    key = (key or DEFAULT_SYSTEM).lower()
    if key not in SYSTEMS:
        raise DiceError(f"Unknown dice system '{key}': available are {', '.join(SYSTEMS)}.")
    return importlib.import_module(SYSTEMS[key])
