"""
The pure rules tests: the ones mutation testing runs (pyproject.toml's `[tool.mutmut]` names this
folder; tests/mutation/README.md). A module here imports only `storyteller_dice.rules`, the
standard library, the pure test libraries (`PURE_LIBRARIES`) and the repository's own helpers
that do the same (`tests.import_graph`, `bench._v5_icepool`, read the same way): no Django, no
Evennia, no database, so mutmut runs them with pytest-django switched off.

Every test collected here is marked `rules` (`-m rules` selects them anywhere), and a module
that imports anything else stops the run at collection, naming the import: a test of the game
belongs in tests/, beside the others.
"""

import ast
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PURE_PACKAGE = "storyteller_dice.rules"
PURE_LIBRARIES = frozenset({"pytest", "hypothesis", "icepool", "scipy"})
LOCAL_PACKAGES = ("tests", "bench")  # the repository's own folders: read in turn


def imported_names(path):
    """(line, dotted name) of every import in the file at `path`, wherever it stands; `from a
    import b` gives `a.b` (b may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(shown(path).parent.parts)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(part for part in (*parts, base) if part)
            yield from ((node.lineno, f"{base}.{alias.name}") for alias in node.names)


def shown(path):
    """`path` from the repository's root (as it is, outside the repository)."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def local_file(dotted):
    """The repository file the longest prefix of `dotted` names (`tests.import_graph.circles_in`
    -> tests/import_graph.py), or None."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        folder = ROOT.joinpath(*parts[:end])
        for candidate in (folder.with_suffix(".py"), folder / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def impure_imports(path, seen=None):
    """`file:line: name` of each import of `path` (and of the local helpers it imports) that is
    not pure; [] for a pure module."""
    seen = set() if seen is None else seen
    seen.add(path)
    found = []
    for line, dotted in imported_names(path):
        top = dotted.partition(".")[0]
        if top in sys.stdlib_module_names or top in PURE_LIBRARIES:
            continue
        if dotted == PURE_PACKAGE or dotted.startswith(PURE_PACKAGE + "."):
            continue
        helper = local_file(dotted) if top in LOCAL_PACKAGES else None
        if helper is None:
            found.append(f"{shown(path)}:{line}: {dotted}")
        elif helper not in seen:
            found += impure_imports(helper, seen)
    return found


def pytest_collection_modifyitems(config, items):
    here = [item for item in items if HERE in item.path.parents]
    impure = sorted({found for path in {item.path for item in here} for found in impure_imports(path)})
    if impure:
        raise pytest.UsageError("tests/rules/ holds the pure tests only; these import more:\n  "
                                + "\n  ".join(impure))
    for item in here:
        item.add_marker(pytest.mark.rules)
