"""
The roll log app, and what the whole package does when Django starts (README: "Add to an
existing game"): `RollLogConfig.ready()` checks the dice settings and completes the host's
settings, so a host writes only its few required lines.

`ready()` runs in every process that sets Django up: the launcher (`evennia start` calls
`django.setup()` before it starts anything), the Portal and the Server (each calls
`django.setup()` first thing, before `evennia._init()`), and the tests.

- **The start checks.** A bad `DICE_EXTRA_SYSTEMS` (a path that does not import, not a
  System, a key of the package's own systems), a bad `DICE_SYSTEM`, an unimportable
  `DICE_TRAIT_SOURCE` or a `DICE_COMMAND_KEYS` naming no command of ours prints one line
  naming the setting to stderr and raises `SystemExit(1)`: in the launcher that stops
  `evennia start` before a Portal or a Server exists. It is `SystemExit`, not an exception:
  the launcher catches an `Exception` from `django.setup()`, prints a traceback and a generic
  line, and exits 0.
- **The settings completed** (appended to, never replaced, and only once however often
  `ready()` runs): `AT_SERVER_STARTSTOP_MODULE` (Evennia takes a module path or a list; it
  becomes a list with `storyteller_dice.commands.hooks` last, so the host's own hooks run
  first), `FILE_HELP_ENTRY_MODULES` (the Dice help topics), `INPUT_FUNC_MODULES` (the web
  panel's input functions) and `TEMPLATES[0]["DIRS"]` (the web panel's templates first, unless
  `DICE_WEB_PANEL = False`); then the opt-in bundle's own (`hardening.complete_settings`,
  nothing unless `DICE_HARDEN_GAME = True`).

**Ruling (when a setting is read):** each of these is read after `ready()` on Evennia 5.0 and
6.1, so completing it here is enough, with no private name touched:
`AT_SERVER_STARTSTOP_MODULE` when `evennia.server.service` builds the Server's service (in
`evennia._init()`, after `django.setup()`); `INPUT_FUNC_MODULES` when
`evennia.server.sessionhandler` is first imported (also in `evennia._init()`);
`FILE_HELP_ENTRY_MODULES` when `evennia.help.filehelp` is first imported (by the `help`
command and the website's help pages, both loaded after set-up); `TEMPLATES` when Django
first renders a template (its engines are built on first use). None of those modules is
imported while apps are set up (tests/test_package.py checks this).
"""

import sys

from django.apps import AppConfig

HOOKS_MODULE = "storyteller_dice.commands.hooks"
# The command keys' check is the commands' own (commands/keys.py). The roll log sits below the
# commands, so, as with the hooks above, it names it by its dotted path (the way settings name
# modules) rather than importing upwards; it is loaded only when `ready()` runs.
KEYS_CHECK = "storyteller_dice.commands.keys.settings_problem"
HELP_MODULE = "storyteller_dice.commands.help_entries"
INPUTFUNC_MODULE = "storyteller_dice.typeclasses.inputfuncs"


def start_problem():
    """The first thing that must stop the start (one line naming the setting), or None."""
    from django.utils.module_loading import import_string

    from storyteller_dice.typeclasses import system, traits

    # The systems `DICE_EXTRA_SYSTEMS` lists are registered first: `DICE_SYSTEM` may name one.
    for check in (system.register_extra_systems, system.settings_problem, traits.source_problem,
                  import_string(KEYS_CHECK)):
        problem = check()
        if problem:
            return problem
    return None


def _appended(value, item):
    """`value` (a module path, a list or tuple of them, or None) as a list ending with `item`."""
    if value is None:
        modules = []
    elif isinstance(value, str):
        modules = [value]
    else:
        modules = list(value)
    if item not in modules:
        modules.append(item)
    return modules


def complete_settings(settings):
    """Append what the package needs to the host's settings (idempotent; see the module)."""
    settings.AT_SERVER_STARTSTOP_MODULE = _appended(getattr(settings, "AT_SERVER_STARTSTOP_MODULE", None),
                                                    HOOKS_MODULE)
    settings.FILE_HELP_ENTRY_MODULES = _appended(getattr(settings, "FILE_HELP_ENTRY_MODULES", None), HELP_MODULE)
    settings.INPUT_FUNC_MODULES = _appended(getattr(settings, "INPUT_FUNC_MODULES", None), INPUTFUNC_MODULE)
    templates = getattr(settings, "TEMPLATES", None)
    if getattr(settings, "DICE_WEB_PANEL", True) and templates:
        from .webclient import PANEL_TEMPLATES

        dirs = list(templates[0].get("DIRS", []))
        if PANEL_TEMPLATES not in dirs:
            # First on the search path: its webclient/base.html and website/base.html extend
            # the next ones (the host's own, else Evennia's).
            templates[0]["DIRS"] = [PANEL_TEMPLATES, *dirs]


class RollLogConfig(AppConfig):
    # Installed as "storyteller_dice.rolllog"; the label stays "rolllog", so an existing game's
    # tables (rolllog_rollentry, ...) and migration history are the same app's.
    name = "storyteller_dice.rolllog"
    label = "rolllog"
    verbose_name = "Roll log"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Imported here, not at the top: the receivers need every app's models loaded (Django's
        # start order), which they are only once the registry calls `ready()`.
        from django.conf import settings

        from storyteller_dice.typeclasses import hardening

        problem = start_problem()
        if problem:
            print(problem, file=sys.stderr, flush=True)
            raise SystemExit(1)
        complete_settings(settings)
        # The opt-in bundle's settings (DICE_HARDEN_GAME; nothing when it is off): read by
        # Evennia only after django.setup(), in the Server and the Portal alike.
        hardening.complete_settings(settings)
        # After the settings are complete: what these import may read them.
        from . import server_errors, signals

        signals.connect()
        # Every HTTP 500 of the website logged, with a reference (rolllog/server_errors.py).
        server_errors.connect()
