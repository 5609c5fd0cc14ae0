"""
scripts/launcher.py hands Django a command line it can parse: `--settings <file>` before a
command Evennia passes through to Django (here `diffsettings`, which needs no database; the
same path as `migrate` on a database that is already set up) used to end in Django's
"Unknown command: '--settings'". The settings Django then runs with are the chosen file's.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("option", [["--settings", "e2e_settings.py"],
                                    ["--settings=e2e_settings.py"]])
def test_settings_option_before_a_django_command(tmp_path, option):
    (tmp_path / "logs").mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("GAME_DB", "DJANGO_SETTINGS_MODULE", "PYTHONPATH")}
    env.update(GAME_RUN_DIR=str(tmp_path), TEST_DB_PATH=str(tmp_path / "unused.db3"))
    result = subprocess.run(
        [sys.executable, str(REPO_DIR / "scripts" / "launcher.py"), *option, "diffsettings"],
        cwd=REPO_DIR / "game", env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Unknown command" not in result.stdout + result.stderr
    assert "Using settings file 'e2e_settings.py' (server.conf.e2e_settings)." in result.stdout
    # Only e2e_settings.py sets this hasher (game/server/conf/e2e_settings.py).
    assert "PASSWORD_HASHERS = ['django.contrib.auth.hashers.MD5PasswordHasher']" in result.stdout
