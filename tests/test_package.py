"""
The installable package `storyteller_dice` (README: "Add to an existing game"), from this
checkout: its public names, its layers, the host's data left alone, the traits contrib
adapter, and game/ made of Evennia's stock files plus exactly the README's lines.
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


def test_the_contract_names_are_the_packages_modules():
    import rules.errors
    import rules.v5
    import storyteller_dice.rules.errors
    import storyteller_dice.rules.v5

    assert rules.v5 is storyteller_dice.rules.v5
    assert rules.errors.DiceError is storyteller_dice.rules.errors.DiceError
    assert storyteller_dice.rules.v5.__spec__.name == "storyteller_dice.rules.v5"


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


@pytest.mark.parametrize("file", sorted({edit[0] for edit in host_edits.readme_edits()} - {"server/conf/settings.py"}))
def test_game_is_evennias_stock_file_plus_the_readme_lines(file):
    stock = (TEMPLATE / file).read_text()
    for name, how, anchors, body in host_edits.readme_edits():
        if name == file:
            stock = host_edits.apply_edit(stock, how, anchors, body)
    assert (ROOT / "game" / file).read_text() == stock


def test_game_settings_have_the_readme_lines():
    settings_text = (ROOT / "game" / "server" / "conf" / "settings.py").read_text()
    for name, _how, _anchors, body in host_edits.readme_edits():
        if name == "server/conf/settings.py":
            for line in body:
                if not line.startswith("DICE_SYSTEM"):  # the game reads it from the environment too
                    assert line.strip() in settings_text


@pytest.mark.parametrize("name", ["typeclasses/rooms.py", "typeclasses/exits.py",
                                  "typeclasses/scripts.py", "typeclasses/__init__.py", "commands/command.py",
                                  "commands/__init__.py", "world/help_entries.py"])
def test_game_keeps_the_other_stock_files(name):
    assert (ROOT / "game" / name).read_text() == (TEMPLATE / name).read_text()


def test_stored_state_under_the_old_names_still_reads():
    from storyteller_dice.commands import pending
    from storyteller_dice.rules.v5.contest import ContestResult

    assert pending._dataclass("rules.v5.contest:ContestResult") is ContestResult
    with pytest.raises(ValueError):
        pending._dataclass("os.path:join")


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

    def test_the_migration_moves_only_the_sheets_keys(self):
        from django.apps import apps

        migration = importlib.import_module("storyteller_dice.rolllog.migrations.0010_sheet_category")
        self.char1.attributes.add("values", {"dexterity": 4}, category="sheet")
        self.char1.attributes.add("approved", True, category="sheet")
        self.char1.attributes.add("notes", "host data", category="sheet")
        migration.forwards(apps, None)
        self.char1.attributes.reset_cache()
        assert self.char1.sheet_values["dexterity"] == 4 and self.char1.approved
        assert self.char1.attributes.get("notes", category="sheet") == "host data"
        assert self.char1.attributes.get("values", category="sheet") is None


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
