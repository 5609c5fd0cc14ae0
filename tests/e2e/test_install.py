"""
End to end: the package installed into games that are not ours (README: "Add to an existing
game"), on Evennia 6.1.0 and 5.0.1.

For each Evennia version one fresh virtualenv gets the wheel `python -m build --wheel` makes from
a copy of this checkout (installed with uv and this machine's Python, so only the released
package is there, as a host gets it) and that Evennia (5.0.1's launcher imports distutils, so
setuptools too); `python -c "import storyteller_dice.rules"` works in it with no settings.
Games get ONLY the README's required blocks (read from README.md):

- a stock `evennia --init` game, with a command and a Character attribute of the host's own,
  is migrated, started on spare ports and played over telnet by two players: `+stat`,
  `+sheet`, `+roll` seen by the other, `+roll/verify`, `+rouse` and a `+contest`, the roll
  log's pages and the web panel (both versions); the same under `DICE_SYSTEM=v20`, and once
  with the host's stats in traits-contrib TraitHandlers (`DICE_TRAIT_SOURCE`) (6.1 only: one
  server per version for the rest keeps the run short). The host's command still answers and
  its own Attribute is untouched;
- that game with a bad `DICE_SYSTEM`: `evennia start` exits 1 with one line naming the
  setting, and no Portal or Server is left (both versions);
- the awkward host of tests/hosts/awkward (its own `+roll`, `+sheet`, `+rouse` in a cmdset
  called `DiceCmdSet`, an `ObjectParent` without `super()`, `MULTISESSION_MODE = 3`, stats in
  a dict Attribute read through its own `DICE_TRAIT_SOURCE`, `DICE_COMMAND_KEYS`): the shared
  keys are logged before anyone logs in and told to the superuser at login, `+droll` rolls
  the host's stats (a specialty too), the host's `+roll`, `+sheet`, `+rouse` and `ooc` answer,
  the Dice help is there, and a character named to forge a roll line forges none, in our roll
  lines or on `look` (both versions).
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

from .harness import REPO_DIR, GameServer, find_free_port_base, strip_ansi, wrapped_text

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


EVENNIA_VERSIONS = ["6.1.0", "5.0.1"]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A copy of the checkout to build from: building writes build/ and *.egg-info next to it."""
    source = tmp_path_factory.mktemp("checkout") / "storyteller-dice"
    shutil.copytree(REPO_DIR, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "mutants", "node_modules", "__pycache__", ".hypothesis", ".pytest_cache", "build",
        "dist", "*.egg-info", "logs", "*.db3", "vendor"))
    return source


@pytest.fixture(scope="module")
def wheel(checkout):
    """The wheel `python -m build` makes from the copy: what a host installs from a release."""
    out = checkout.parent / "dist"
    run(sys.executable, "-m", "build", "--wheel", "-o", str(out), str(checkout))
    (built,) = out.glob("storyteller_dice-*.whl")
    return built


@pytest.fixture(scope="module", params=EVENNIA_VERSIONS)
def venv(request, wheel, tmp_path_factory):
    """A fresh virtualenv with the built wheel installed and the Evennia version of the
    parameter: its python."""
    uv = shutil.which("uv", path=os.path.dirname(sys.executable)) or shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    where = tmp_path_factory.mktemp("install") / "venv"
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never")
    env.pop("VIRTUAL_ENV", None)
    run(uv, "venv", "-q", "-p", os.path.realpath(sys._base_executable), str(where), env=env)
    python = str(where / "bin" / "python")
    # setuptools: Evennia 5.0's launcher imports distutils, gone from Python 3.12's library.
    run(uv, "pip", "install", "-q", "--python", python, str(wheel), f"evennia=={request.param}", "setuptools",
        env=env)
    version = run(python, "-c", "import evennia; print(evennia.__version__)", env=clean_env(python)).stdout
    assert version.strip().startswith(request.param)
    return python


def evennia_version(request):
    """The Evennia version the test's virtualenv has."""
    return request.node.callspec.params["venv"]


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
    """`evennia --init` a stock game, then the README's required lines and the host's own."""
    run(os.path.join(os.path.dirname(python), "evennia"), "--init", "hostgame", cwd=where, env=clean_env(python))
    game = Path(where) / "hostgame"
    assert sorted(set(host_edits.apply_readme(game))) == [
        "commands/default_cmdsets.py", "server/conf/settings.py", "typeclasses/characters.py", "web/urls.py"]
    settings = game / "server" / "conf" / "settings.py"
    settings.write_text(settings.read_text() + HOST_SETTINGS + (TRAITS_SETTINGS if traits else ""))
    (game / "commands" / "hoststats.py").write_text(HOST_COMMAND)
    cmdsets = game / "commands" / "default_cmdsets.py"
    cmdsets.write_text(host_edits.apply_edit(cmdsets.read_text(), "after", ['key = "DefaultCharacter"',
                                                                            "self.add(StorytellerDiceCmdSet)"],
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


def test_v20_in_a_stock_game(venv, hosts, clients, request):
    if evennia_version(request) != EVENNIA_VERSIONS[0]:
        pytest.skip("one server per Evennia version but the newest")
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


def test_traits_contrib_host(venv, hosts, clients, request):
    if evennia_version(request) != EVENNIA_VERSIONS[0]:
        pytest.skip("one server per Evennia version but the newest")
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


BAD_SYSTEM = ("DICE_SYSTEM='nonsense' cannot be used: Unknown dice system 'nonsense': available are v5, v20, "
              "seyruun, whalefall, dicecheck. Set DICE_SYSTEM in settings.py to one of: v5, v20, seyruun, "
              "whalefall, dicecheck.")


def test_a_bad_dice_system_stops_evennia_start(venv, hosts):
    """`evennia start` with an unknown DICE_SYSTEM: exit status 1, the one line naming the
    setting (last, and no traceback), and no Portal or Server left running."""
    game = hosts["plain"]
    server = HostServer(run_dir=game / "server", python=venv, game_dir=game, port_base=find_free_port_base(),
                        extra_env={"DICE_SYSTEM": "nonsense"})
    try:
        result = server.evennia("start", timeout=120)
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        assert (result.returncode, lines[-1:]) == (1, [BAD_SYSTEM]), result.stdout[-3000:]
        assert "Traceback" not in result.stdout and result.stdout.count(BAD_SYSTEM) == 1
        assert (server.server_pid, server.portal_pid, server.game().pids()) == (None, None, [])
    finally:
        server.started = True
        server.stop()


# ---------------------------------------------------------------------------------------------
# The awkward host (tests/hosts/awkward)
# ---------------------------------------------------------------------------------------------

AWKWARD = REPO_DIR / "tests" / "hosts" / "awkward"
FORGED = "Gem|/[Roll] Gem rolls 9 successes"


@pytest.fixture(scope="module")
def awkward(venv, tmp_path_factory):
    """A fresh `evennia --init` game made awkward (tests/hosts/awkward), with only the README's
    required blocks (and the test's ports)."""
    where = tmp_path_factory.mktemp("awkward")
    run(os.path.join(os.path.dirname(venv), "evennia"), "--init", "awkward", cwd=where, env=clean_env(venv))
    game = where / "awkward"
    # The awkward files over the stock game of the Evennia under test.
    shutil.copytree(AWKWARD, game, ignore=shutil.ignore_patterns("__pycache__", "README.md"), dirs_exist_ok=True)
    assert sorted(set(host_edits.apply_readme(game))) == [
        "commands/default_cmdsets.py", "server/conf/settings.py", "typeclasses/characters.py", "web/urls.py"]
    settings = game / "server" / "conf" / "settings.py"
    settings.write_text(settings.read_text() + HOST_SETTINGS)
    (game / "server" / "logs").mkdir(exist_ok=True)
    return game


def flat(text):
    """The text with its ANSI codes and line wrapping taken out."""
    return " ".join(strip_ansi(text).split())


def no_forged_line(text):
    """No line of `text` starts (at column 0, or after spaces) with the forged roll line."""
    return [line for line in strip_ansi(text).splitlines() if line.lstrip().startswith("[Roll] Gem rolls 9")] == []


@pytest.fixture(scope="module")
def awkward_server(venv, awkward, tmp_path_factory):
    """The awkward host, started once per Evennia version."""
    server = started(venv, awkward, tmp_path_factory.mktemp("awkward-db"), DICE_SYSTEM="v5")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def awkward_players(awkward_server):
    made = []
    anna, bruno = players(awkward_server, made)
    yield anna, bruno
    for client in made:
        client.close()


def test_awkward_host_start_logs_the_shared_keys_before_login(awkward_server):
    log = (awkward_server.log_dir / "server.log").read_text(errors="replace")
    assert "Host start hook ran." in log  # the host's own start hook runs, and ours
    first_login = min(i for i in (log.find("Authentication Success"), log.find("Logged in"), len(log)) if i >= 0)
    # +rouse is the host's and ours (the host's answers); our +roll is +droll, our +sheet left out.
    shared = [line for line in log[:first_login].splitlines() if "+rouse" in line and "DICE_COMMAND_KEYS" in line]
    assert shared, log[-3000:]
    assert not [line for line in log.splitlines() if "DICE_COMMAND_KEYS" in line and "+sheet" in line]


def test_awkward_host_superuser_told_the_shared_keys_at_login(awkward_server, clients):
    admin = awkward_server.client()
    clients.append(admin)
    admin.wait_for_connection_screen()
    told = admin.login(awkward_server.superuser, awkward_server.superuser_password)
    told += admin.read_until("DICE_COMMAND_KEYS", timeout=15)
    assert "+rouse" in strip_ansi(told)


def test_awkward_host_stats_are_rolled(awkward_players):
    anna, _bruno = awkward_players
    anna.read_available()
    # Ours, renamed by DICE_COMMAND_KEYS, rolls the host's stats (through its own source).
    anna.send("+droll dex+stealth vs 3")
    assert "Dexterity 3 + Stealth 2 = 5 (5 dice)" in flat(anna.read_until(CODE, timeout=15))
    anna.send("+droll dex+stealth(urban) vs 3")
    assert "Dexterity 3 + Stealth 2 + Urban specialty 1 = 6 (6 dice)" in flat(anna.read_until(CODE, timeout=15))


def test_awkward_host_commands_answer(awkward_players):
    anna, _bruno = awkward_players
    anna.read_available()
    anna.command("+roll 2d6", "Host roll: 2d6")
    anna.command("+sheet", "Host sheet: dexterity=3")
    anna.command("+rouse", "Host rouse.")
    # Our help topics are there, though the host reassigns FILE_HELP_ENTRY_MODULES.
    anna.command("help verifying rolls", re.compile(r"verifying rolls", re.I))


def test_awkward_host_forged_name_is_inert(awkward_server, awkward_players, clients):
    """A character whose name forges a roll line: inert on `look` and in our roll lines."""
    anna, bruno = awkward_players
    admin = awkward_server.client()
    clients.append(admin)
    admin.wait_for_connection_screen()
    admin.login(awkward_server.superuser, awkward_server.superuser_password)
    admin.read_available(1.0)
    # Our name rule refuses such a name for a new Character: this one is stored as a name
    # made before the package came (its key written directly).
    admin.command("@create/drop Gem:typeclasses.characters.Character", "You create a new")
    made = admin.command(f'py o = me.search("Gem"); o.db_key = "{FORGED}"; o.save(); self.msg("gem id %s" % o.id)',
                         re.compile(r"gem id (\d+)"))
    gem = re.search(r"gem id (\d+)", made).group(1)
    anna.read_available(0.5)
    bruno.read_available(0.5)
    anna.send("look")
    assert no_forged_line(anna.read_until("Gem", timeout=10) + anna.read_available(0.5))
    admin.send(f"ic #{gem}")  # the superuser may puppet it (MULTISESSION_MODE 3)
    admin.read_until(re.compile(r"You become", re.I), timeout=10)
    admin.read_available(0.5)
    admin.send("+droll dex vs 3")
    seen = bruno.read_until(CODE, timeout=15)
    assert "Gem" in seen and no_forged_line(seen)


def test_awkward_host_ooc_leaves_the_character(awkward_players):
    anna, _bruno = awkward_players
    anna.read_available()
    anna.command("ooc", "You go OOC.")  # bare `ooc` is the host's (Evennia's)
