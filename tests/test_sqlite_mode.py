"""
The game's SQLite database is kept in write-ahead-log mode, its log synced before the Server sends
anything (SENDING: SQLite's NORMAL, the sync made by typeclasses/durable.py) unless
GAME_SQLITE_SYNCHRONOUS says FULL (each commit synced) or NORMAL; any other value stops the start
(game/server/conf/settings.py).
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
    from django.conf import settings
    print(mode, cursor.fetchone()[0], settings.SYNC_BEFORE_SENDING)
"""


def probe(tmp_path, synchronous=None):
    env = {k: v for k, v in os.environ.items() if k not in ("GAME_DB", "GAME_SQLITE_SYNCHRONOUS")}
    env.update(DJANGO_SETTINGS_MODULE="server.conf.settings", TEST_DB_PATH=str(tmp_path / "game.db3"),
               GAME_RUN_DIR=str(tmp_path))
    if synchronous is not None:
        env["GAME_SQLITE_SYNCHRONOUS"] = synchronous
    return subprocess.run([sys.executable, "-c", PROBE], cwd=GAME, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("given, level, before_sending", [
    (None, "1", "True"), ("sending", "1", "True"), ("normal", "1", "False"), ("FULL", "2", "False")])
def test_write_ahead_log_and_the_chosen_sync(tmp_path, given, level, before_sending):
    done = probe(tmp_path, given)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["wal", level, before_sending]


def test_anything_else_is_refused(tmp_path):
    done = probe(tmp_path, "OFF")
    assert done.returncode != 0
    assert "GAME_SQLITE_SYNCHRONOUS must be SENDING, FULL, NORMAL or EXTRA, not 'OFF'" in done.stderr
