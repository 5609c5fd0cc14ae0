"""
Evennia's launcher (`evennia ...`), with its pid files moved to $GAME_RUN_DIR when that is set.

    cd game && ../.venv/bin/python ../scripts/launcher.py start|stop|migrate|...

Evennia's launcher always writes its pid files to <game dir>/server/*.pid, so a second server
started from the same game dir (the end-to-end tests, a throwaway measuring run) would clash
with the development server's. The game's settings already move the logs to $GAME_RUN_DIR/logs;
this moves the pid files to $GAME_RUN_DIR too (the launcher passes the Server's pid file on to
the Portal, which starts the Server). Without GAME_RUN_DIR it is exactly `evennia`, with one
fix: `--settings <file>` (and `--gamedir <dir>`) before a Django command.

Evennia's launcher reads its own options, then hands a command it does not know (`migrate` on
a database that already has Account #1, `shell`, `diffsettings`, ...) to Django with the whole
command line, so `evennia --settings e2e_settings.py migrate` became Django's
"Unknown command: '--settings'" (Django takes the first argument as the command; and its own
`--settings` wants a module path, not a file name). The launcher has already put the chosen
settings in DJANGO_SETTINGS_MODULE by then, so those options are dropped from what Django sees.

tests/e2e/harness.py runs this file's text with `python -c`, so it must stay one self-contained
script (standard library and Evennia only).
"""

import os
import sys

from evennia.server import evennia_launcher as launcher

_init_game_directory = launcher.init_game_directory


def init_game_directory(*args, **kwargs):
    _init_game_directory(*args, **kwargs)
    run_dir = os.environ.get("GAME_RUN_DIR")
    if run_dir:
        run_dir = os.path.abspath(run_dir)
        launcher.SERVER_PIDFILE = os.path.join(run_dir, "server.pid")
        launcher.PORTAL_PIDFILE = os.path.join(run_dir, "portal.pid")
        launcher.SPROFILER_LOGFILE = os.path.join(run_dir, "logs", "server.prof")
        launcher.PPROFILER_LOGFILE = os.path.join(run_dir, "logs", "portal.prof")


launcher.init_game_directory = init_game_directory

# The launcher's options that take a value and mean nothing to Django (see the docstring).
_LAUNCHER_ONLY = ("--settings", "--gamedir")


def django_argv(argv):
    """`argv` without the launcher-only options, in either form (`--settings x`, `--settings=x`)."""
    out = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _LAUNCHER_ONLY:
            skip = True
        elif not arg.startswith(tuple(option + "=" for option in _LAUNCHER_ONLY)):
            out.append(arg)
    return out


_execute_from_command_line = launcher.execute_from_command_line


def execute_from_command_line(argv=None):
    return _execute_from_command_line(django_argv(sys.argv if argv is None else argv))


launcher.execute_from_command_line = execute_from_command_line
sys.argv[0] = "evennia"
sys.exit(launcher.main())
