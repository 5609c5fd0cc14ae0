"""
The game's SQLite database is kept in write-ahead-log mode, each commit synced (FULL) unless
GAME_SQLITE_SYNCHRONOUS says NORMAL; any other value stops the start (game/server/conf/settings.py).
Each case in a fresh process: the settings are read once per process.
"""

import os
import pathlib
import subprocess
import sys

import pytest

GAME = pathlib.Path(__file__).resolve().parent.parent / "game"
PROBE = """
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    mode = cursor.fetchone()[0]
    cursor.execute("PRAGMA synchronous")
    print(mode, cursor.fetchone()[0])
"""


def probe(tmp_path, synchronous=None):
    env = {k: v for k, v in os.environ.items() if k not in ("GAME_DB", "GAME_SQLITE_SYNCHRONOUS")}
    env.update(DJANGO_SETTINGS_MODULE="server.conf.settings", TEST_DB_PATH=str(tmp_path / "game.db3"),
               GAME_RUN_DIR=str(tmp_path))
    if synchronous is not None:
        env["GAME_SQLITE_SYNCHRONOUS"] = synchronous
    return subprocess.run([sys.executable, "-c", PROBE], cwd=GAME, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("given, level", [(None, "2"), ("normal", "1"), ("FULL", "2")])
def test_write_ahead_log_and_the_chosen_sync(tmp_path, given, level):
    done = probe(tmp_path, given)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["wal", level]


def test_anything_else_is_refused(tmp_path):
    done = probe(tmp_path, "OFF")
    assert done.returncode != 0
    assert "GAME_SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA, not 'OFF'" in done.stderr
