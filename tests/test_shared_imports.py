"""The shared command modules, the typeclasses, the display and the roll log import no `rules.v5*`
module (tests/test_layers.py: nothing below the commands imports them)."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ["commands/rolls.py", "commands/odds.py", "commands/contest.py", "commands/contest_odds.py", "rules/contest.py",
          "commands/sheet.py", "commands/dice_base.py",
          "commands/rolllog.py", "commands/default_cmdsets.py", "commands/pending.py", "commands/panel.py",
          "commands/pending_lifecycle.py", "commands/catalogue.py", "commands/events.py",
          "rules/display.py", "rules/systems.py",
          *sorted(str(p.relative_to(ROOT)) for folder in ("typeclasses", "rolllog")
                  for p in (ROOT / folder).rglob("*.py"))]


# The package's own names, read without their `storyteller_dice.` prefix.
V5_PREFIXES = tuple(f"{folder}.v5" for folder in ("rules", "commands"))


def imported(path):
    return [name.removeprefix("storyteller_dice.") for name in _imported(path)]


def _imported(path):
    names = []
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return names


@pytest.mark.parametrize("path", [p for p in SHARED if (ROOT / p).exists()])
def test_no_v5_import(path):
    bad = [name for name in imported(path)
           if name.startswith((*V5_PREFIXES, ".v5")) or name in ("rules.v5", "rules..v5")
           or name.split(".")[-1].startswith("v5") and not name.startswith("..")]
    assert bad == [], f"{path} imports {bad}"
