"""
Evennia's launcher (`evennia ...`), with its pid files moved to $GAME_RUN_DIR when that is set.

    cd game && ../.venv/bin/python ../scripts/launcher.py start|stop|migrate|...

Evennia's launcher always writes its pid files to <game dir>/server/*.pid, so a second server
started from the same game dir (the end-to-end tests, a throwaway measuring run) would clash
with the development server's. The game's settings already move the logs to $GAME_RUN_DIR/logs;
this moves the pid files to $GAME_RUN_DIR too (the launcher passes the Server's pid file on to
the Portal, which starts the Server). Without GAME_RUN_DIR it is exactly `evennia`.

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
sys.argv[0] = "evennia"
sys.exit(launcher.main())
