r"""
Evennia settings for the Storyteller dice game.

The game directory is `game/`, a host game like any other: the dice system is the installed
package `storyteller_dice` (`pip install -e .`, which scripts/setup.sh does), added with the
lines of README.md's "Add to an existing game" and docs/install.md's optional ones
(here and in game/commands/, game/typeclasses/, game/web/urls.py).

Environment variables (all optional):

- `GAME_PORT_BASE` (default 4000): telnet = base, web = base + 1, websocket = base + 2,
  SSL = base + 3, SSH = base + 4, internal web = base + 5, AMP = base + 6.
- `TEST_DB_PATH`: a throwaway SQLite file (Evennia's own default setting honours it).
- `DATABASE_URL`-style PostgreSQL: set `GAME_DB=postgres` and `PGHOST`, `PGPORT`,
  `PGUSER`, `PGPASSWORD`, `PGDATABASE` (defaults: localhost, 5432, evennia, evennia, evennia).
- `DICE_SYSTEM` (default "v5") and `V5_BESTIAL_FAILURE` ("official" or "total_failure").
- `DICE_HARDEN_GAME` (default on): `0` plays the game without the opt-in bundle.
"""

import os

_GAME_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_REPO_DIR = os.path.dirname(_GAME_DIR)

# evennia.settings_default finds the game dir from the current directory (and chdirs
# upwards while looking); import it from inside game/ and restore the cwd afterwards.
_cwd = os.getcwd()
os.chdir(_GAME_DIR)
try:
    from evennia.settings_default import *  # noqa: F401,F403
finally:
    os.chdir(_cwd)

GAME_DIR = _GAME_DIR
REPO_DIR = _REPO_DIR

######################################################################
# Evennia base server config
######################################################################

SERVERNAME = "Storyteller Dice"

_PORT_BASE = int(os.environ.get("GAME_PORT_BASE", "4000"))
TELNET_PORTS = [_PORT_BASE]
WEBSERVER_PORTS = [(_PORT_BASE + 1, _PORT_BASE + 5)]
WEBSOCKET_CLIENT_PORT = _PORT_BASE + 2
SSL_PORTS = [_PORT_BASE + 3]
SSH_PORTS = [_PORT_BASE + 4]
AMP_PORT = _PORT_BASE + 6

# The opt-in bundle (DICE_HARDEN_GAME, set with the package's lines at the end) is on for this
# hardened demo; the environment's DICE_HARDEN_GAME=0 leaves it out, so the end-to-end tests
# play the game without it too. Read here: the database settings below depend on it.
_HARDEN = os.environ.get("DICE_HARDEN_GAME", "1") != "0"

# GAME_RUN_DIR (optional): keep this server's log files, collected static files and uploads
# under that directory instead of game/server/, so that a second server (the end-to-end tests)
# can run from the same game dir beside a development server. Evennia's launcher always puts
# its pid files in game/server/; tests/e2e/harness.py moves those for its own server.
_RUN_DIR = os.environ.get("GAME_RUN_DIR")
if _RUN_DIR:
    _RUN_DIR = os.path.abspath(_RUN_DIR)
    LOG_DIR = os.path.join(_RUN_DIR, "logs")
    SERVER_LOG_FILE = os.path.join(LOG_DIR, "server.log")
    PORTAL_LOG_FILE = os.path.join(LOG_DIR, "portal.log")
    HTTP_LOG_FILE = os.path.join(LOG_DIR, "http_requests.log")
    LOCKWARNING_LOG_FILE = os.path.join(LOG_DIR, "lockwarnings.log")
    STATIC_ROOT = os.path.join(_RUN_DIR, "static")
    MEDIA_ROOT = os.path.join(_RUN_DIR, "media")

if os.environ.get("GAME_DB", "sqlite").lower() in ("postgres", "postgresql"):
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ.get("PGDATABASE", "evennia"),
            "USER": os.environ.get("PGUSER", "evennia"),
            "PASSWORD": os.environ.get("PGPASSWORD", "evennia"),
            "HOST": os.environ.get("PGHOST", "localhost"),
            "PORT": os.environ.get("PGPORT", "5432"),
        }
    }
    # GAME_PG_SYNCHRONOUS_COMMIT: SENDING (the default) commits without waiting for the
    # server's log (synchronous_commit=off) and has it flushed, from a thread, before the
    # Server sends anything (typeclasses/durable.py): as durable as `on` for anything a player
    # was told, without the game waiting. ON waits at every commit (the default without the
    # bundle, DICE_HARDEN_GAME, whose barrier SENDING needs). Anything else is refused.
    _PG_COMMIT = os.environ.get("GAME_PG_SYNCHRONOUS_COMMIT", "SENDING" if _HARDEN else "ON").strip().upper()
    if _PG_COMMIT not in ("SENDING", "ON"):
        raise ValueError(f"GAME_PG_SYNCHRONOUS_COMMIT must be SENDING or ON, not {_PG_COMMIT!r}")
    SYNC_BEFORE_SENDING = _PG_COMMIT == "SENDING"
    if SYNC_BEFORE_SENDING:
        DATABASES["default"]["OPTIONS"] = {"options": "-c synchronous_commit=off"}
else:
    # SQLite's write-ahead log: a commit is one append and one fsync of the log, where the
    # default rollback journal writes, syncs and deletes a journal file and syncs the database
    # too (about 1 ms against 0.3 on the 2-core machine the load bench runs on, and several
    # ms under load). Evennia runs every command on one thread, so each stored roll held the
    # whole game for its commit. The mode is kept in the database file (its -wal and -shm
    # files sit beside it); readers (the website) no longer wait for a writer either. WAL
    # needs a local filesystem, as SQLite itself does.
    #
    # GAME_SQLITE_SYNCHRONOUS: SENDING (the default) commits without a sync (SQLite's NORMAL)
    # and syncs the log in a thread before the Server sends anything (typeclasses/durable.py):
    # a roll is on disk, through a power cut, before anyone is told of it, as with FULL, and
    # the game serves everyone else while the disk syncs. FULL syncs the log at every commit,
    # the game waiting for it. NORMAL syncs it only at checkpoints: safe from any crash of the
    # game itself, but an OS crash or a power cut may undo the last moments' rolls, whose lines
    # the players already saw. The load bench measures them (docs/performance.md, Load bench). Anything
    # else is refused at start. Without the bundle (DICE_HARDEN_GAME), whose barrier SENDING
    # needs, the default is FULL.
    _SYNCHRONOUS = os.environ.get("GAME_SQLITE_SYNCHRONOUS", "SENDING" if _HARDEN else "FULL").strip().upper()
    if _SYNCHRONOUS not in ("SENDING", "FULL", "NORMAL", "EXTRA"):
        raise ValueError(f"GAME_SQLITE_SYNCHRONOUS must be SENDING, FULL, NORMAL or EXTRA, not {_SYNCHRONOUS!r}")
    SYNC_BEFORE_SENDING = _SYNCHRONOUS == "SENDING"
    if SYNC_BEFORE_SENDING:
        _SYNCHRONOUS = "NORMAL"
    _SQLITE = dict(DATABASES["default"])  # noqa: F405 - a copy: Evennia's defaults stay as they are
    _SQLITE["OPTIONS"] = {**_SQLITE.get("OPTIONS", {}),
                          "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={_SYNCHRONOUS}"}
    DATABASES = {**DATABASES, "default": _SQLITE}  # noqa: F405

######################################################################
# Dice system
######################################################################

# Which game system the dice commands use (see rules/systems.py for the registry).
DICE_SYSTEM = os.environ.get("DICE_SYSTEM", "v5")
# The game's slogan is the dice system's own (Evennia's pages show it); an unknown system is
# refused at start (commands/hooks.py), with a clear message, not here.
from storyteller_dice.rules.systems import slogan_of  # noqa: E402
GAME_SLOGAN = slogan_of(DICE_SYSTEM)
# "official" (V5 core: any non-win with a Hunger 1) or "total_failure" (the reading where a
# bestial failure is 0 successes with Hunger dice rolled).
V5_BESTIAL_FAILURE = os.environ.get("V5_BESTIAL_FAILURE", "official")
# V5 teamwork: "seed" (helpers roll and add successes) or "core" (each helper with a dot in the
# Skill adds +1 die; the leader rolls once). docs/v5.md.
V5_TEAMWORK = os.environ.get("V5_TEAMWORK", "seed")

######################################################################
# The dice package (README: "Add to an existing game"): its required lines (DICE_SYSTEM is
# the environment's, above) and every optional one: the hardening bundle (this is the
# hardened demo) and the welcome screen. They come last, after every list they extend;
# the app completes the rest itself (the start hooks, the help topics, the web panel).
######################################################################
INSTALLED_APPS += ["storyteller_dice.rolllog"]  # noqa: F405
DICE_HARDEN_GAME = True
CONNECTION_SCREEN_MODULE = "storyteller_dice.typeclasses.welcome"
if not _HARDEN:
    DICE_HARDEN_GAME = False

######################################################################
# Settings given in secret_settings.py override those in this file.
######################################################################
try:
    from server.conf.secret_settings import *  # noqa: F401,F403
except ImportError:
    pass
