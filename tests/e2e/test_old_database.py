"""
End to end: a game made before the dice system was a package starts and plays after it.

The code of the last commit before the change (found in this checkout's history: the newest
one whose pyproject.toml still said `packages = []` and whose code still imported the top-level
`rules`) is exported with `git archive` and played first: two characters, a sheet set and
approved, a public roll, an extended roll left open, a challenge left open. Then this
checkout's game is started on the same database (after `evennia migrate`): the stored typeclass
paths resolve, the sheet reads (values and approval, moved to the package's Attribute category
by migration 0010), the old roll verifies, the extended roll stands where it stood and rolls on
(carried into today's state at the start, `commands.extended_upgrade`), and the open challenge
is answered.

Built from history rather than kept as a database file: the challenge's five minutes run on
wall-clock time, so a stored database would hold only expired challenges; and the old code is
exactly what made the players' databases.
"""

import io
import re
import subprocess
import tarfile

import pytest

from .harness import REPO_DIR, on_throwaway_postgres
from .test_install import CODE, HostServer

pytestmark = pytest.mark.e2e
EXTENDED = re.compile(r"Extended: (\d+)/10 after 1 roll")


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO_DIR, capture_output=True, text=True).stdout.strip()


def commit_before_the_package():
    """The newest commit with the top-level layout (None without the history)."""
    removed = git("log", "-1", "--format=%H", r"-G^packages = \[\]", "--", "pyproject.toml")
    if not removed:
        return None
    for commit in git("rev-list", "--first-parent", "--max-count=30", f"{removed}^").split():
        if "\nfrom rules." in git("show", f"{commit}:commands/dice_base.py"):
            return commit
    return None


@pytest.fixture(scope="module")
def old_tree(tmp_path_factory):
    commit = commit_before_the_package()
    if commit is None:
        pytest.skip("no git history with the code from before the package")
    archive = subprocess.run(["git", "archive", commit], cwd=REPO_DIR, capture_output=True, check=True).stdout
    where = tmp_path_factory.mktemp("old-code")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    (where / "game" / "server" / "logs").mkdir(parents=True, exist_ok=True)
    return where


def server_for(game_dir, run_dir, password):
    return HostServer(run_dir=run_dir, game_dir=game_dir, settings_file="e2e_settings.py",
                      superuser_password=password)


def login(server, name, password, new=False):
    client = server.client()
    client.wait_for_connection_screen()
    (client.create_and_connect if new else client.login)(name, password)
    client.read_available()
    client.name = name
    return client


def test_a_database_made_before_the_package_plays_after_it(old_tree, tmp_path):
    if on_throwaway_postgres():
        pytest.skip("each harness server makes its own PostgreSQL database; the old one is SQLite here")
    run_dir = tmp_path / "run"
    old = server_for(old_tree / "game", run_dir, "old-admin-pw-1")
    old.start()
    clients = []
    try:
        anna = login(old, "Anna", "anna-pw-123", new=True)
        bruno = login(old, "Bruno", "bruno-pw-123", new=True)
        admin = login(old, old.superuser, old.superuser_password)
        clients += [anna, bruno, admin]
        anna.command("+stat str=3", "Your Strength is now 3 (was 1).")
        anna.command("+stat brawl=2", "Your Brawl is now 2 (was 0).")
        admin.command("+approve Anna", "Anna's sheet is approved.")
        anna.send("+roll str+brawl vs 2")
        code = CODE.search(anna.read_until(CODE, timeout=15)).group(1)
        anna.send("+roll/extended str+brawl vs 10")  # 5 dice make at most 9 successes: it stays open
        total = int(EXTENDED.search(anna.read_until(EXTENDED, timeout=15)).group(1))
        anna.command("+contest str+brawl vs Bruno", "Bruno answers with +contest/answer")
    finally:
        for client in clients:
            client.close()
        old.stop()

    new = server_for(REPO_DIR / "game", run_dir, "old-admin-pw-1")
    new.start()  # `evennia migrate` on the old database first (no cache: it is that database)
    clients = []
    try:
        anna = login(new, "Anna", "anna-pw-123")
        bruno = login(new, "Bruno", "bruno-pw-123")
        clients += [anna, bruno]
        anna.command("+stat str=4", "Your sheet is approved; ask staff to change it.")
        anna.send("+roll str vs 1")
        assert "Strength 3" in anna.read_until(CODE, timeout=15)
        anna.command("+roll/status", f"Your extended roll: str+brawl toward 10: {total}/10 after 1 roll.")
        anna.send("+roll/extended")
        rolled = anna.read_until(re.compile(r"Extended: \d+/10 after 2 rolls"), timeout=15)
        assert "Anna continues an extended roll toward 10 (roll 2)" in rolled
        bruno.send(f"+roll/verify {code}")
        assert f"[Verify] Roll {code} (roll, public)" in bruno.read_until("(roll, public)", timeout=10)
        answered = bruno.command("+contest/answer 3", re.compile(r"=> .* wins"))
        assert "[Contest] Anna vs Bruno" in answered
    finally:
        for client in clients:
            client.close()
        new.stop()
