"""
The layers: data flows one way, rules <- typeclasses <- commands (docs/layout.md).

- Nothing under typeclasses/, rules/ or rolllog/ imports `commands` (at the top of a module or
  inside a function, absolute, relative or by `importlib.import_module("...")` with a literal).
- rules/ is pure Python: the standard library and rules/ itself, so no typeclasses, Evennia or
  Django (nor commands, nor rolllog).
- What a typeclass used to reach up for: the on-puppet notice of pending dice state now comes
  through Evennia's SIGNAL_OBJECT_POST_PUPPET, which the server's start hook connects to
  commands.pending_lifecycle; the Character typeclass alone tells nothing.
"""

import ast
import pathlib
import sys
from unittest.mock import patch

import evennia
import pytest
from evennia.utils.test_resources import EvenniaCommandTest, _mock_deferlater

ROOT = pathlib.Path(__file__).resolve().parent.parent
BELOW_COMMANDS = ("typeclasses", "rules", "rolllog")


def modules(folder):
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*.py"))


def package_of(path):
    """The package a module's relative imports start from: `rolllog/web/x.py` -> `rolllog.web`."""
    parts = pathlib.PurePosixPath(path).with_suffix("").parts
    return ".".join(parts[:-1])


def imported(source, package):
    """(line, absolute module name) for every import in `source`, wherever it stands."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = package.split(".") if package else []
                parent = parent[: len(parent) - (node.level - 1)] if node.level > 1 else parent
                base = ".".join(part for part in (*parent, node.module or "") if part)
            else:
                base = node.module or ""
            found += [(node.lineno, base)] if base else []
            found += [(node.lineno, f"{base}.{alias.name}" if base else alias.name) for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if (name in ("import_module", "__import__") and isinstance(first, ast.Constant)
                    and isinstance(first.value, str) and not first.value.startswith(".")):
                found.append((node.lineno, first.value))
    return found


def top(name):
    """The first part of a module name, the package's own name read as its folder's."""
    parts = name.split(".")
    return parts[1] if parts[0] == "storyteller_dice" and len(parts) > 1 else parts[0]


def wrong_imports(path, source=None):
    """The imports of `path` (a module below the commands) that go the wrong way."""
    source = (ROOT / path).read_text() if source is None else source
    layer = pathlib.PurePosixPath(path).parts[0]
    bad = []
    for line, name in imported(source, package_of(path)):
        if top(name) == "commands":
            bad.append(f"line {line}: {name}")
        elif (layer == "rules" and top(name) not in ("rules", "storyteller_dice")  # the package root: nothing
              and top(name) not in sys.stdlib_module_names):
            bad.append(f"line {line}: {name}")
    return bad


@pytest.mark.parametrize("path", [p for folder in BELOW_COMMANDS for p in modules(folder)])
def test_no_import_goes_up(path):
    assert wrong_imports(path) == [], f"{path} imports upwards"


def test_every_layer_was_read():
    # A moved folder must not leave the test above checking nothing.
    assert {folder: len(modules(folder)) > 3 for folder in BELOW_COMMANDS} == dict.fromkeys(BELOW_COMMANDS, True)


@pytest.mark.parametrize("path, source, expected", [
    ("typeclasses/x.py", "def f():\n    from commands.nospoof import tag_message\n",
     ["line 2: commands.nospoof", "line 2: commands.nospoof.tag_message"]),
    ("typeclasses/x.py", "def f():\n    from commands import pending\n",
     ["line 2: commands", "line 2: commands.pending"]),
    ("typeclasses/x.py", "import commands.speech\n", ["line 1: commands.speech"]),
    ("typeclasses/x.py", "from .. import commands\n", ["line 1: commands"]),
    ("rolllog/web/x.py", "from ...commands.rolls import CmdRoll\n",
     ["line 1: commands.rolls", "line 1: commands.rolls.CmdRoll"]),
    ("rolllog/x.py", "import importlib\nimportlib.import_module('commands.v5')\n", ["line 2: commands.v5"]),
    ("rules/x.py", "def f():\n    from typeclasses.system import dice_system\n",
     ["line 2: typeclasses.system", "line 2: typeclasses.system.dice_system"]),
    ("rules/x.py", "import evennia\nfrom django.conf import settings\n",
     ["line 1: evennia", "line 2: django.conf", "line 2: django.conf.settings"]),
    ("rules/x.py", "from rolllog import api\n", ["line 1: rolllog", "line 1: rolllog.api"]),
    # What is allowed: the standard library and rules/ itself in rules/; anything but commands
    # in the typeclasses and the roll log.
    ("rules/x.py", "import re\nfrom . import pools\nfrom rules.errors import DiceError\n", []),
    ("typeclasses/x.py", "from evennia import DefaultObject\nfrom rules import systems\n"
                         "from .nospoof import tag_message\nfrom typeclasses.inputfilter import clean_line\n", []),
    ("rolllog/x.py", "from typeclasses.system import dice_system\nimport commandsx\n", []),
])
def test_the_check_catches_upward_imports(path, source, expected):
    assert wrong_imports(path, source) == expected


class TestPuppetNotice(EvenniaCommandTest):
    """A notice kept for an absent character is shown when they are next puppeted."""

    def setUp(self):
        super().setUp()
        from storyteller_dice.commands import pending, pending_lifecycle

        self.pending = pending
        self.addCleanup(pending_lifecycle.disconnect_puppet_hook)
        pending_lifecycle.disconnect_puppet_hook()  # each test starts without it, as a fresh server does
        self.account.unpuppet_object(self.session)
        pending.notify(self.char1, "Your challenge expired.", away="Your challenge expired while you were away.")

    def start_server(self):
        """The game's own start hook, as Evennia calls it (its delayed call runs at once)."""
        from storyteller_dice.commands import hooks  # the start hooks the app adds to the game's

        with patch("evennia.scripts.taskhandler.deferLater", _mock_deferlater):
            hooks.at_server_start()

    def told_on_puppet(self):
        """The texts sent to the session while the account puppets char1."""
        sent = evennia.SESSION_HANDLER.data_out  # Evennia's test set-up records output here
        sent.reset_mock()
        self.account.puppet_object(self.session, self.char1)
        texts = []
        for call in sent.call_args_list:
            text = call.kwargs.get("text")
            texts.append(text[0] if isinstance(text, (tuple, list)) else text)
        return texts

    def test_the_start_hook_connects_the_notice(self):
        self.start_server()
        told = self.told_on_puppet()
        assert told[-1] == "Your challenge expired while you were away."
        assert told.count("Your challenge expired while you were away.") == 1
        assert self.pending.load(self.char1, self.pending.NOTICES) is None

    def test_a_reload_connects_it_once(self):
        self.start_server()
        self.start_server()  # a reload runs the start hook again
        assert self.told_on_puppet().count("Your challenge expired while you were away.") == 1

    def test_the_typeclass_alone_tells_nothing(self):
        told = self.told_on_puppet()
        assert "Your challenge expired while you were away." not in told
        assert any("You become" in str(text) for text in told), told  # it was puppeted
        assert self.pending.load(self.char1, self.pending.NOTICES) == ["Your challenge expired while you were away."]
