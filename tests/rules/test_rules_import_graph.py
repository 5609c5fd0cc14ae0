"""
The modules of `rules/` import each other in one direction only: no circle, and no import
hidden inside a function (a call-time import is how a circle hides). Read with `ast`, so a
lazy import counts as much as one at the top. Modules are named from `rules` ("v5" is
`rules/v5/__init__.py`, "v5.dice" `rules/v5/dice.py`, "engine" `rules/engine.py`).
"""

import ast
import pathlib

import storyteller_dice.rules
from tests.import_graph import circles_in

# The package's folder (rules/ in the checkout; mutation testing's copy under its own path).
RULES = pathlib.Path(storyteller_dice.rules.__file__).resolve().parent


def module_name(path):
    parts = list(path.relative_to(RULES).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(RULES.rglob("*.py")) if "__pycache__" not in path.parts}
MODULES.pop("", None)  # rules/__init__.py


def resolve(name, node):
    """The rules modules an import names (relative to module `name`), as module names."""
    package = name.split(".") if MODULES[name].name == "__init__.py" else name.split(".")[:-1]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package[:len(package) - node.level + 1]
        elif node.module and node.module.split(".")[0] in ("rules", "storyteller_dice"):
            base = []
        else:
            return set()
        parts = node.module.split(".") if node.module else []
        if not node.level:
            parts = parts[parts.index("rules") + 1:] if "rules" in parts else []
        target = base + parts
        names = {".".join(target + [alias.name]) for alias in node.names} & set(MODULES)
        candidates = names or {".".join(target)}
    else:
        candidates = [alias.name.split(".", 1)[1] for alias in node.names if alias.name.startswith("rules.")]
    return {c for c in candidates if c in MODULES}


def rules_imports(name):
    """(the rules modules `name` imports, those imported inside a function)."""
    tree = ast.parse(MODULES[name].read_text())
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    inner = {id(n) for f in functions for n in ast.walk(f) if n is not f}
    found, nested = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = resolve(name, node) - {name}
            found |= names
            if id(node) in inner:
                nested |= names
    return found, nested


GRAPH = {name: rules_imports(name) for name in MODULES}


def test_the_graph_sees_the_v5_modules():
    # A reader that found nothing would pass everything below.
    assert GRAPH["v5"][0] == {"v5.dice", "v5.exact_odds"}
    assert "v5.dice" in GRAPH["v5.exact_odds"][0]
    assert "engine" in GRAPH["v5.system"][0]
    assert "v20" in GRAPH["v20.system"][0]


def test_no_rules_module_imports_inside_a_function():
    nested = {name: sorted(inner) for name, (_, inner) in GRAPH.items() if inner}
    assert nested == {}


def test_no_import_circle_in_rules():
    # A package's __init__ is loaded before its submodules, so a submodule naming its own
    # package (`from .. import v5` in rules/v5/contest.py) is no circle unless the __init__
    # imports that submodule back: the edge to the parent counts like any other.
    edges = {name: found for name, (found, _) in GRAPH.items()}
    circles = circles_in(edges)
    assert circles == []


def test_v5_odds_builds_on_the_dice_not_on_the_facade():
    assert "v5" not in GRAPH["v5.exact_odds"][0]
    assert GRAPH["v5.dice"][0] <= {"errors", "pools", "randomness"}


def test_each_system_is_one_subpackage():
    systems = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    assert systems == {"v5", "v20", "seyruun", "whalefall", "dicecheck"}
    flat = sorted(path.name for path in RULES.glob("*.py"))
    assert not [name for name in flat if name.split("_")[0] in systems], flat
