"""
The modules of `rules/` import each other in one direction only: no circle, and no import
hidden inside a function (a call-time import is how a circle hides). Read with `ast`, so a
lazy import counts as much as one at the top.
"""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"


def rules_imports(path):
    """(names of the rules modules `path` imports, those imported inside a function)."""
    tree = ast.parse(path.read_text())
    found, nested = set(), set()
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    inner = {id(n) for f in functions for n in ast.walk(f) if n is not f}
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names = [node.module] if node.module else [alias.name for alias in node.names]
            elif node.module and node.module.startswith("rules."):
                names = [node.module.split(".")[1]]
            elif node.module == "rules":
                names = [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name.split(".")[1] for alias in node.names if alias.name.startswith("rules.")]
        names = {name.split(".")[0] for name in names if (RULES / f"{name.split('.')[0]}.py").exists()}
        found |= names
        if id(node) in inner:
            nested |= names
    return found, nested


GRAPH = {path.stem: rules_imports(path) for path in sorted(RULES.glob("*.py"))}


def test_the_graph_sees_the_v5_modules():
    # A reader that found nothing would pass everything below.
    assert GRAPH["v5"][0] == {"v5_dice", "v5_odds"}
    assert "v5_dice" in GRAPH["v5_odds"][0]
    assert "engine" in GRAPH["v5_system"][0]


def test_no_rules_module_imports_inside_a_function():
    nested = {name: sorted(inner) for name, (_, inner) in GRAPH.items() if inner}
    assert nested == {}


def test_no_import_circle_in_rules():
    edges = {name: found - {name} for name, (found, _) in GRAPH.items()}
    state, path, circles = {}, [], []

    def visit(name):
        state[name] = "open"
        path.append(name)
        for other in sorted(edges.get(name, ())):
            if state.get(other) == "open":
                circles.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other)
        path.pop()
        state[name] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name)
    assert circles == []


def test_v5_odds_builds_on_the_dice_not_on_the_facade():
    assert "v5" not in GRAPH["v5_odds"][0]
    assert GRAPH["v5_dice"][0] <= {"errors", "pools", "randomness"}
