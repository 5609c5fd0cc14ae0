"""
The installable package `storyteller_dice` (README: "Add to an existing game"), from this
checkout: its public names, its layers, the host's data left alone, the traits contrib
adapter, and game/ made of Evennia's stock files plus exactly the lines of the README (the
required ones) and docs/install.md (the optional ones).
(tests/e2e/test_install.py installs it into a fresh virtualenv and a fresh game.)
"""

import ast
import importlib
import os
import pathlib
import subprocess
import sys

import evennia
import pytest
from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from tests import host_edits

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("rules", "commands", "typeclasses", "rolllog")
HOST_NAMES = ("commands", "typeclasses", "server", "world", "web", "rules", "rolllog")
TEMPLATE = pathlib.Path(evennia.__file__).parent / "game_template"


def package_modules():
    return sorted(str(p.relative_to(ROOT)) for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def absolute_imports(source):
    """(line, name) of every absolute import, `importlib.import_module("...")` literals too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")):
            found.append((node.lineno, node.args[0].value))
    return found


@pytest.mark.parametrize("path", package_modules())
def test_no_package_module_imports_a_host_name(path):
    """The host's `commands`, `typeclasses`, `server`, `world`, `web` are never ours to import;
    the package's own folders are named `storyteller_dice.<folder>` (or relatively)."""
    bad = [f"line {line}: {name}" for line, name in absolute_imports((ROOT / path).read_text())
           if name.split(".")[0] in HOST_NAMES]
    assert bad == [], f"{path} imports {bad}"


def test_rules_import_with_no_django_or_evennia_set_up(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH")}
    code = ("import sys, storyteller_dice.rules, storyteller_dice.rules.v5, storyteller_dice.rules.systems as s;"
            "print(s.get_system('v20').title);"
            "print(sorted(m for m in ('django', 'evennia') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "[]"


def test_the_folders_are_importable_only_as_the_package(tmp_path):
    """Outside the checkout, `rules` and the other folders are no top-level names: one name per
    module (one registry of systems, one `DiceError` class), whatever the current directory."""
    env = {key: value for key, value in os.environ.items() if key not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH")}
    code = ("import importlib.util, storyteller_dice.rules.v5 as v5;"
            "print(v5.__spec__.name);"
            "print([name for name in ('rules', 'rolllog') if importlib.util.find_spec(name)])")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["storyteller_dice.rules.v5", "[]"]


def outside_modules():
    """The tests, benches and scripts: they use the package, they are not part of it."""
    return sorted(str(p.relative_to(ROOT)) for folder in ("tests", "bench", "scripts")
                  for p in (ROOT / folder).rglob("*.py") if "hosts" not in p.relative_to(ROOT).parts)


@pytest.mark.parametrize("path", outside_modules())
def test_tests_import_the_package_by_its_name(path):
    """`rules.*` or `rolllog.*` would load the folder a second time, as other modules (the
    repository root is on the tests' path for `tests.*`). `commands` and `typeclasses` are the
    host game's (game/), so they are not checked here."""
    bad = [f"line {line}: {name}" for line, name in absolute_imports((ROOT / path).read_text())
           if name.split(".")[0] in ("rules", "rolllog")]
    assert bad == [], f"{path} imports {bad}"


def declared_packages():
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_folder_is_packaged():
    """setuptools finds no subpackages below a mapped folder by itself: a new wing's folder
    (rules/<system>/, commands/<system>/) must be added to pyproject.toml's list."""
    setup = declared_packages()
    on_disk = {"storyteller_dice"} | {
        "storyteller_dice." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in FOLDERS for init in (ROOT / folder).rglob("__init__.py")}
    assert sorted(setup["packages"]) == sorted(on_disk)
    assert setup["package-dir"] == {"storyteller_dice": "storyteller_dice",
                                    **{f"storyteller_dice.{folder}": folder for folder in FOLDERS}}


def test_public_names(db):  # the database fixture runs evennia._init(): the cmdsets import Evennia's Command
    from storyteller_dice.commands import (BuildingCmdSet, DiceAccountCmdSet, DiceCmdSet, DiceUnloggedinCmdSet,
                                           HelpCmdSet, SpeechCmdSet, hooks)
    from storyteller_dice.rolllog.apps import RollLogConfig
    from storyteller_dice.typeclasses import DiceAccountMixin, DiceChannelMixin, DiceCharacterMixin, DiceObjectMixin

    assert callable(hooks.at_server_init) and callable(hooks.at_server_start)
    assert (RollLogConfig.name, RollLogConfig.label) == ("storyteller_dice.rolllog", "rolllog")
    assert importlib.import_module("storyteller_dice.rolllog.urls").app_name == "rolllog"
    assert all(isinstance(cls, type) for cls in (DiceCmdSet, SpeechCmdSet, BuildingCmdSet, HelpCmdSet,
                                                 DiceAccountCmdSet, DiceUnloggedinCmdSet, DiceCharacterMixin,
                                                 DiceAccountMixin, DiceChannelMixin, DiceObjectMixin))


README_FILES = sorted({edit.file for edit in host_edits.readme_edits()} - {"server/conf/settings.py"})
# The host files no README block may touch: a real game may lack their stock functions, or the
# files (the app completes AT_SERVER_STARTSTOP_MODULE itself).
NOT_ANCHORS = ("server/conf/at_server_startstop.py", "server/conf/at_initial_setup.py",
               "server/conf/server_services_plugins.py", "server/conf/portal_services_plugins.py")


def test_every_host_marker_of_the_readme_is_read():
    text = host_edits.sources_text()
    assert len(host_edits.readme_edits(text)) == text.count("<!-- host:") == 19


def test_the_required_blocks_are_in_the_readme_and_the_optional_ones_in_the_install_page():
    """A newcomer finds every required line on the README's page; docs/install.md has the rest."""
    readme = (ROOT / "README.md").read_text()
    install = (ROOT / "docs" / "install.md").read_text()
    assert host_edits.readme_edits(readme) == host_edits.required_edits()
    assert [edit.optional for edit in host_edits.readme_edits(install)] == [True] * 13


def test_the_required_blocks_are_four_files_and_at_most_twelve_lines():
    required = host_edits.required_edits()
    assert sorted({edit.file for edit in required}) == [
        "commands/default_cmdsets.py", "server/conf/settings.py", "typeclasses/characters.py", "web/urls.py"]
    assert sum(1 for edit in required for line in edit.body if line.strip()) == 7
    assert [edit.how for edit in required if edit.file == "server/conf/settings.py"] == ["end"]


def test_no_block_touches_the_hook_or_plugin_files():
    assert not [edit for edit in host_edits.readme_edits() if edit.file in NOT_ANCHORS]


@pytest.mark.parametrize("host", ["stock", "awkward"])
def test_the_required_blocks_apply_to_a_stock_game_and_an_awkward_one(host, tmp_path):
    """A stock `evennia --init` game, and tests/hosts/awkward (its own DiceCmdSet, no hook
    functions in at_server_startstop.py), take every required block."""
    import shutil

    shutil.copytree(TEMPLATE, tmp_path / "game", ignore=shutil.ignore_patterns("__pycache__"))
    if host == "awkward":  # its own files over the stock ones
        shutil.copytree(ROOT / "tests" / "hosts" / "awkward", tmp_path / "game",
                        ignore=shutil.ignore_patterns("__pycache__", "README.md"), dirs_exist_ok=True)
    changed = host_edits.apply_readme(tmp_path / "game")
    assert sorted(set(changed)) == ["commands/default_cmdsets.py", "server/conf/settings.py",
                                    "typeclasses/characters.py", "web/urls.py"]
    for file in set(changed):
        compile((tmp_path / "game" / file).read_text(), file, "exec")
    settings_text = (tmp_path / "game" / "server" / "conf" / "settings.py").read_text()
    assert settings_text.endswith('INSTALLED_APPS += ["storyteller_dice.rolllog"]\nDICE_SYSTEM = "v5"\n')


@pytest.mark.parametrize("file", README_FILES)
def test_game_is_evennias_stock_file_plus_the_readme_lines(file):
    """game/ is a host like any other: Evennia's stock file plus every block, optional ones too."""
    stock = (TEMPLATE / file).read_text()
    for edit in host_edits.readme_edits():
        if edit.file == file:
            stock = host_edits.apply_edit(stock, edit.how, edit.anchors, edit.body)
    assert (ROOT / "game" / file).read_text() == stock


def test_game_settings_have_the_readme_lines():
    settings_text = (ROOT / "game" / "server" / "conf" / "settings.py").read_text()
    tail = settings_text[settings_text.index("# The dice package"):]
    for edit in host_edits.readme_edits():
        if edit.file == "server/conf/settings.py":
            for line in edit.body:
                if not line.startswith("DICE_SYSTEM"):  # the game reads it from the environment
                    assert line.strip() in tail


@pytest.mark.parametrize("name", ["typeclasses/rooms.py", "typeclasses/exits.py",
                                  "typeclasses/scripts.py", "typeclasses/__init__.py", "commands/command.py",
                                  "commands/__init__.py", "world/help_entries.py", "web/website/urls.py",
                                  "server/conf/connection_screens.py", *NOT_ANCHORS])
def test_game_keeps_the_other_stock_files(name):
    assert (ROOT / "game" / name).read_text() == (TEMPLATE / name).read_text()


def test_settings_are_completed_once_and_appended():
    from types import SimpleNamespace

    from storyteller_dice.rolllog.apps import complete_settings
    from storyteller_dice.rolllog.webclient import PANEL_TEMPLATES

    settings = SimpleNamespace(AT_SERVER_STARTSTOP_MODULE="server.conf.at_server_startstop",
                               FILE_HELP_ENTRY_MODULES=("world.help_entries",), INPUT_FUNC_MODULES=["a.b"],
                               TEMPLATES=[{"DIRS": ["web/templates"]}])
    complete_settings(settings)
    complete_settings(settings)
    assert settings.AT_SERVER_STARTSTOP_MODULE == ["server.conf.at_server_startstop", "storyteller_dice.commands.hooks"]
    assert settings.FILE_HELP_ENTRY_MODULES == ["world.help_entries", "storyteller_dice.commands.help_entries"]
    assert settings.INPUT_FUNC_MODULES == ["a.b", "storyteller_dice.typeclasses.inputfuncs"]
    assert settings.TEMPLATES == [{"DIRS": [PANEL_TEMPLATES, "web/templates"]}]
    plain = SimpleNamespace(AT_SERVER_STARTSTOP_MODULE=None, FILE_HELP_ENTRY_MODULES=[], INPUT_FUNC_MODULES=[],
                            TEMPLATES=[{"DIRS": []}], DICE_WEB_PANEL=False)
    complete_settings(plain)
    assert plain.AT_SERVER_STARTSTOP_MODULE == ["storyteller_dice.commands.hooks"]
    assert plain.TEMPLATES == [{"DIRS": []}]


def _set_up(tmp_path, **env):
    """django.setup() of game/'s settings in a fresh process: (exit status, stdout, stderr)."""
    code = ("import sys, django; django.setup(); from django.conf import settings as s;"
            "print(sorted(m for m in ('evennia.help.filehelp', 'evennia.server.sessionhandler',"
            " 'evennia.server.service') if m in sys.modules));"
            "print(s.AT_SERVER_STARTSTOP_MODULE[-1], s.FILE_HELP_ENTRY_MODULES[-1], *s.INPUT_FUNC_MODULES[-2:])")
    environ = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH",)}
    environ.update(DJANGO_SETTINGS_MODULE="server.conf.test_settings", GAME_RUN_DIR=str(tmp_path), **env)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "game", env=environ, capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def test_settings_are_completed_before_evennia_reads_them(tmp_path):
    """The modules that read the completed settings are not loaded while Django sets up."""
    status, out, err = _set_up(tmp_path, DICE_SYSTEM="v5")
    assert status == 0, err
    assert out.splitlines() == ["[]", "storyteller_dice.commands.hooks storyteller_dice.commands.help_entries "
                                      "storyteller_dice.typeclasses.inputfuncs storyteller_dice.typeclasses.client_options"]


def test_a_bad_dice_system_stops_set_up_with_one_line(tmp_path):
    status, out, err = _set_up(tmp_path, DICE_SYSTEM="nonsense")
    assert (status, out) == (1, "")
    assert err == ("DICE_SYSTEM='nonsense' cannot be used: Unknown dice system 'nonsense': available are v5, v20, "
                   "seyruun, whalefall, dicecheck. Set DICE_SYSTEM in settings.py to one of: v5, v20, seyruun, "
                   "whalefall, dicecheck.\n")


def test_stored_state_rebuilds_only_the_rules_classes():
    from storyteller_dice.commands import pending
    from storyteller_dice.rules.v5.contest import ContestResult

    assert pending._dataclass("storyteller_dice.rules.v5.contest:ContestResult") is ContestResult
    for path in ("os.path:join", "rules.v5.contest:ContestResult"):
        with pytest.raises(ValueError):
            pending._dataclass(path)


class TestHostData(EvenniaCommandTest):
    """The sheet's Attributes are the package's own category; the host's are never touched."""

    def test_the_hosts_attributes_are_untouched(self):
        from storyteller_dice.commands.sheet import CmdStat
        from storyteller_dice.typeclasses.characters import SHEET

        self.char2.db.strength = "the host's own"
        self.char2.attributes.add("values", {"x": 1}, category="sheet")
        self.call(CmdStat(), "str=3", "Your Strength is now 3 (was 1).", caller=self.char2)
        assert self.char2.db.strength == "the host's own"
        assert self.char2.attributes.get("values", category="sheet") == {"x": 1}
        assert self.char2.attributes.get("values", category=SHEET) == {"strength": 3}


class TestTraitsContrib(EvenniaCommandTest):
    """DICE_TRAIT_SOURCE: a host whose stats are `evennia.contrib.rpg.traits` TraitHandlers."""

    def setUp(self):
        super().setUp()
        from evennia.contrib.rpg.traits import TraitHandler

        self.char2.traits = TraitHandler(self.char2)
        self.char2.traits.add("strength", "Strength", trait_type="static", base=4)
        self.char2.traits.add("animal_ken", "Animal Ken", trait_type="counter", base=0, min=0, max=5)
        self.char2.traits.add("hunger", "Hunger", trait_type="static", base=2)
        self.addCleanup(lambda: vars(self.char2).pop("traits", None))

    @override_settings(DICE_TRAIT_SOURCE="storyteller_dice.typeclasses.traits.TraitHandlerSource")
    def test_traits_are_read_and_written_in_the_handler(self):
        from storyteller_dice.commands.sheet import CmdStat

        values = self.char2.sheet_values
        assert (values["strength"], values["animal ken"], values["hunger"]) == (4, 0, 2)
        self.call(CmdStat(), "str=2", "Your Strength is now 2 (was 4).", caller=self.char2)
        self.call(CmdStat(), "animal ken=3", "Your Animal Ken is now 3 (was 0).", caller=self.char2)
        assert self.char2.traits.strength.base == 2 and self.char2.traits.animal_ken.current == 3
        self.call(CmdStat(), "dex=3", "Your Dexterity is now 3 (was 1).", caller=self.char2)  # not a trait
        assert self.char2.sheet_values["dexterity"] == 3 and self.char2.traits.get("dexterity") is None


def test_the_readmes_worked_example_is_the_awkward_hosts_source():
    """The dict-Attribute trait source docs/install.md shows is the one the awkward host runs."""
    import textwrap

    text = (ROOT / "docs" / "install.md").read_text()
    example = text[text.index("# world/dice_stats.py\n"):]
    example = textwrap.dedent(example[:example.index("```")].split("\n", 1)[1])
    hosted = (ROOT / "tests" / "hosts" / "awkward" / "world" / "dice_stats.py").read_text()
    assert example.strip() in hosted


@pytest.mark.parametrize("path", package_modules())
def test_the_package_reads_no_environment(path):
    """Settings come from the host's settings.py only (docs/install.md: "What the package does by itself")."""
    source = (ROOT / path).read_text()
    assert "os.environ" not in source and "getenv" not in source
