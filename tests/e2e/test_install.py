"""
End to end: the package installed into a game that is not ours (README: "Add to an existing
game").

One fresh virtualenv gets `pip install <this checkout>` (uv, with this machine's Python; no
editable install, so only the built package is there) and Evennia; `python -c "import
storyteller_dice.rules"` works in it with no settings. Then three stock `evennia --init` games,
each with the README's blocks applied (read from README.md) plus a command and a Character
attribute of the host's own, are migrated and started on spare ports and played over telnet by
two players: `+stat`, `+sheet`, `+roll` seen by the other, `+roll/verify`; under V5 also
`+rouse` and a `+contest`; the same under `DICE_SYSTEM=v20`; and once with the host's stats in
traits-contrib TraitHandlers (`DICE_TRAIT_SOURCE`). The host's command still answers and its
own Attribute is untouched.
"""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import host_edits

from .harness import REPO_DIR, GameServer, wrapped_text

pytestmark = pytest.mark.e2e

CODE = re.compile(r"\[code ([A-Z0-9]+)\]")

# Test-only lines for each host: ports and throttles from the environment (the harness's), the
# system from DICE_SYSTEM, and the host's own command and Character data.
HOST_SETTINGS = '''
import os as _os
_BASE = int(_os.environ["GAME_PORT_BASE"])
TELNET_PORTS = [_BASE]
WEBSERVER_PORTS = [(_BASE + 1, _BASE + 5)]
WEBSOCKET_CLIENT_PORT = _BASE + 2
SSL_PORTS = [_BASE + 3]
SSH_PORTS = [_BASE + 4]
AMP_PORT = _BASE + 6
DICE_SYSTEM = _os.environ.get("DICE_SYSTEM", DICE_SYSTEM)
CREATION_THROTTLE_LIMIT = None
LOGIN_THROTTLE_LIMIT = None
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
'''
HOST_COMMAND = '''
from evennia import Command


class CmdHostStats(Command):
    """The host's own command: shows the host's own Character data."""

    key = "hoststats"

    def func(self):
        traits = getattr(self.caller, "traits", None)
        strength = traits.strength.base if traits is not None else None
        self.caller.msg(f"Host says: strength={self.caller.db.strength!r} trait={strength!r}")
'''
HOST_CHARACTER = '''

    def at_object_creation(self):
        super().at_object_creation()
        self.db.strength = "the host's own strength"
'''
TRAITS_CHARACTER = '''

    @lazy_property
    def traits(self):
        return TraitHandler(self)

    def at_object_creation(self):
        super().at_object_creation()
        self.db.strength = "the host's own strength"
        self.traits.add("strength", "Strength", trait_type="static", base=4)
        self.traits.add("brawl", "Brawl", trait_type="static", base=2)
'''
TRAITS_SETTINGS = '''
DICE_TRAIT_SOURCE = "storyteller_dice.typeclasses.traits.TraitHandlerSource"
DICE_TRAIT_HANDLERS = ["traits"]
'''


def run(*args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A fresh virtualenv with the checkout installed (not editable): its python."""
    uv = shutil.which("uv", path=os.path.dirname(sys.executable)) or shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    where = tmp_path_factory.mktemp("install") / "venv"
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never")
    env.pop("VIRTUAL_ENV", None)
    run(uv, "venv", "-q", "-p", os.path.realpath(sys._base_executable), str(where), env=env)
    python = str(where / "bin" / "python")
    # From a copy: building writes build/ and *.egg-info next to the sources.
    source = where.parent / "checkout"
    shutil.copytree(REPO_DIR, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "mutants", "node_modules", "__pycache__", ".hypothesis", ".pytest_cache", "build",
        "dist", "*.egg-info", "logs", "*.db3", "vendor"))
    run(uv, "pip", "install", "-q", "--python", python, str(source), env=env)
    return python


def clean_env(python):
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    return env


def test_rules_import_with_only_the_package_installed(venv, tmp_path):
    code = ("import sys, storyteller_dice.rules, storyteller_dice.rules.v5 as v5;"
            "print(storyteller_dice.rules.__file__);"
            "print(sorted(m for m in ('django', 'evennia', 'rules', 'commands') if m in sys.modules))")
    out = run(venv, "-c", code, cwd=tmp_path, env=clean_env(venv)).stdout.splitlines()
    assert "site-packages" in out[0] and out[-1] == "[]"
    listing = run(venv, "-c", "import importlib.util as u; print([bool(u.find_spec(n)) for n in "
                  "('rules', 'commands', 'typeclasses', 'rolllog', 'storyteller_dice.rolllog.migrations')])",
                  cwd=tmp_path, env=clean_env(venv)).stdout.strip()
    assert listing == "[False, False, False, False, True]"  # only storyteller_dice.* was installed


def make_host(python, where, traits=False):
    """`evennia --init` a stock game, then the README's lines and the host's own."""
    run(os.path.join(os.path.dirname(python), "evennia"), "--init", "hostgame", cwd=where, env=clean_env(python))
    game = Path(where) / "hostgame"
    assert host_edits.apply_readme(game)
    settings = game / "server" / "conf" / "settings.py"
    settings.write_text(settings.read_text() + HOST_SETTINGS + (TRAITS_SETTINGS if traits else ""))
    (game / "commands" / "hoststats.py").write_text(HOST_COMMAND)
    cmdsets = game / "commands" / "default_cmdsets.py"
    cmdsets.write_text(host_edits.apply_edit(cmdsets.read_text(), "after", ['key = "DefaultCharacter"', "self.add(DiceCmdSet)"],
                                             ["        from .hoststats import CmdHostStats\n",
                                              "        self.add(CmdHostStats)\n"]))
    characters = game / "typeclasses" / "characters.py"
    text = characters.read_text() + (TRAITS_CHARACTER if traits else HOST_CHARACTER)
    if traits:
        text = ("from evennia.contrib.rpg.traits import TraitHandler\nfrom evennia.utils import lazy_property\n"
                + text)
    characters.write_text(text)
    return game


@dataclass
class HostServer(GameServer):
    """A GameServer for a game directory of its own, run with its own settings.py."""

    game_dir: Path = None
    settings_file: str = "settings.py"

    def evennia(self, *args, timeout=120):
        return subprocess.run([self.python, "-c", _launcher(), "--settings", self.settings_file, *args],
                              cwd=self.game_dir, env=self.env(), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)

    def game(self):
        from .harness import gamectl

        return gamectl.Game(self.port_base, str(self.run_dir), str(self.log_dir),
                            launcher=[self.python, "-c", _launcher(), "--settings", self.settings_file],
                            cwd=str(self.game_dir), env=self.env(),
                            launcher_log=str(self.log_dir / "start.out"), host=self.host)


def _launcher():
    return (REPO_DIR / "scripts" / "launcher.py").read_text()


def started(python, game, cache, **env):
    server = HostServer(run_dir=game / "server", python=python, game_dir=game, db_cache_dir=cache, extra_env=env)
    server.start()
    return server


def players(server, new):
    out = []
    for name in ("Anna", "Bruno"):
        client = server.client()
        new.append(client)
        client.wait_for_connection_screen()
        client.create_and_connect(name, "pw-" + name.lower() + "-123")
        client.read_available()
        client.name = name
        out.append(client)
    return out


def roll_seen_and_verified(anna, bruno, pool):
    anna.send(f"+roll {pool}")
    code = CODE.search(anna.read_until(CODE, timeout=15)).group(1)
    assert f"[Roll] {anna.name} rolls" in bruno.read_until(f"[code {code}]", timeout=15)
    bruno.read_available(0.3)
    bruno.send(f"+roll/verify {code}")
    assert f"[Verify] Roll {code} (roll, public)" in bruno.read_until("(roll, public)", timeout=10)
    return code


def host_untouched(client, trait=None):
    client.command("hoststats", f"Host says: strength=\"the host's own strength\" trait={trait!r}")


@pytest.fixture(scope="module")
def hosts(venv, tmp_path_factory):
    """The two stock hosts (the second with traits), made once."""
    root = tmp_path_factory.mktemp("hosts")
    (root / "plain").mkdir()
    (root / "traits").mkdir()
    return {"plain": make_host(venv, root / "plain"), "traits": make_host(venv, root / "traits", traits=True),
            "cache": root / "db-cache"}


@pytest.fixture
def clients():
    made = []
    yield made
    for client in made:
        client.close()


def test_v5_in_a_stock_game(venv, hosts, clients):
    server = started(venv, hosts["plain"], hosts["cache"], DICE_SYSTEM="v5")
    try:
        anna, bruno = players(server, clients)
        anna.command("+stat str=3", "Your Strength is now 3 (was 1).")
        anna.command("+stat brawl=2", "Your Brawl is now 2 (was 0).")
        anna.command("+sheet", "Hunger 1   Humanity 7 (Stains 0)")
        roll_seen_and_verified(anna, bruno, "str+brawl vs 2")
        anna.send("+rouse")
        assert "Rouse" in anna.read_until(CODE, timeout=15)
        anna.command(f"+contest str+brawl vs {bruno.name}", f"{bruno.name} answers with +contest/answer")
        answered = bruno.command("+contest/answer 3", re.compile(r"=> .* wins"))
        assert f"[Contest] {anna.name} vs {bruno.name}" in answered
        host_untouched(anna)
        assert rolls_page_status(server) == 302  # the roll log's pages are there: log in first
        dice_panel_served(server)
    finally:
        server.stop()


def dice_panel_served(server):
    """The web client page is Evennia's stock one with the dice panel's plugin added (the
    settings block's TEMPLATES lines), and the plugin is served from the package."""
    import urllib.request

    page = urllib.request.urlopen(f"{server.web_url}/webclient/", timeout=20).read().decode()
    assert "webclient/js/evennia.js" in page and "plugins/goldenlayout.js" in page
    assert page.index("plugins/goldenlayout.js") < page.index("storyteller_dice/dice_panel.js")
    script = urllib.request.urlopen(f"{server.web_url}/static/storyteller_dice/dice_panel.js", timeout=20)
    assert script.status == 200 and b'plugin_handler.add("dice_panel"' in script.read()


def rolls_page_status(server):
    """The status of GET /rolls/ (not following a redirect)."""
    import urllib.error
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        return urllib.request.build_opener(NoRedirect).open(f"{server.web_url}/rolls/", timeout=20).status
    except urllib.error.HTTPError as err:
        return err.code


def test_v20_in_a_stock_game(venv, hosts, clients):
    game = hosts["plain"]
    (game / "server" / "e2e.db3").unlink(missing_ok=True)
    server = started(venv, game, hosts["cache"], DICE_SYSTEM="v20")
    try:
        anna, bruno = players(server, clients)
        anna.command("+stat dex=3", "Your Dexterity is now 3 (was 1).")
        anna.command("+stat brawl=2", "Your Brawl is now 2 (was 0).")
        anna.command("+sheet", "Health")
        roll_seen_and_verified(anna, bruno, "dex+brawl vs 6")
        host_untouched(anna)
    finally:
        server.stop()


def test_traits_contrib_host(venv, hosts, clients):
    server = started(venv, hosts["traits"], hosts["cache"], DICE_SYSTEM="v5")
    try:
        anna, bruno = players(server, clients)
        anna.command("+stat str=2", "Your Strength is now 2 (was 4).")  # the TraitHandler's 4
        host_untouched(anna, trait=2)
        anna.send("+roll str+brawl vs 2")
        text = anna.read_until(CODE, timeout=15)
        assert "Strength 2" in text and "(4 dice)" in " ".join(text.split())
        roll_seen_and_verified(anna, bruno, "str vs 1")
    finally:
        server.stop()
