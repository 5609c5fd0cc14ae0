"""
MSSP (game/server/conf/mssp.py): what MUD listing sites read is this game's, from the
settings: the telnet port (following GAME_PORT_BASE), SSL off, the configured dice system,
the real Evennia version.
"""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import evennia
import pytest
from django.test import override_settings

from server.conf import mssp

ROOT = Path(__file__).resolve().parent.parent
VERSION = evennia.__version__.split()[0]


def test_defaults():
    table = mssp.mssp_table()
    from django.conf import settings

    assert table["PORT"] == [str(settings.TELNET_PORTS[0])]
    assert table["SSL"] == "0"
    assert table["CODEBASE"] == f"Evennia {VERSION}"
    assert VERSION == "6.1.0"
    assert table["GAMESYSTEM"] == "Vampire: The Masquerade 5th edition"
    assert table["GENRE"] == "Horror"
    assert table["SUBGENRE"] == "Vampire"
    # Evennia's portal puts the module's MSSPTable over its own defaults.
    assert mssp.MSSPTable["PORT"] == table["PORT"]


@pytest.mark.parametrize(
    "key, title, genre",
    [
        ("v5", "Vampire: The Masquerade 5th edition", "Horror"),
        ("V20", "Classic Storyteller (V20)", "Horror"),
        ("seyruun", "Seyruun", "None"),
        ("dicecheck", "The Dice Check", "None"),
        ("nosuchsystem", "nosuchsystem", "None"),
    ],
)
def test_gamesystem_follows_dice_system(key, title, genre):
    with override_settings(DICE_SYSTEM=key):
        table = mssp.mssp_table()
    assert table["GAMESYSTEM"] == title
    assert table["GENRE"] == genre


def test_port_and_ssl_follow_the_settings():
    with override_settings(TELNET_PORTS=[5000, 5100], SSL_ENABLED=False):
        table = mssp.mssp_table()
    assert table["PORT"] == ["5100", "5000"]  # the main port last, as MSSP asks
    assert table["SSL"] == "0"
    with override_settings(SSL_ENABLED=True, SSL_PORTS=[5003]):
        assert mssp.mssp_table()["SSL"] == "5003"


def test_game_port_base_from_the_environment():
    """The settings module read fresh with GAME_PORT_BASE and DICE_SYSTEM set, as at start."""
    script = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'server.conf.settings';"
        "django.setup();"
        "from server.conf.mssp import MSSPTable as t;"
        "print(t['PORT'], t['SSL'], t['GAMESYSTEM'], t['CODEBASE'], sep='|')"
    )
    env = dict(os.environ, GAME_PORT_BASE="5270", DICE_SYSTEM="v20",
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "game")]))
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT / "game", env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == f"['5270']|0|Classic Storyteller (V20)|Evennia {VERSION}"


def test_the_portal_reads_it():
    """Evennia's Portal takes the table from settings.MSSP_META_MODULE: ours."""
    from django.conf import settings

    assert importlib.import_module(settings.MSSP_META_MODULE) is mssp
