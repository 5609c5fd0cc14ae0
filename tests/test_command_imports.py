"""
The modules of `commands/` (its wings too) import each other in one direction only: no
circle, and no import of another commands module hidden inside a function (a call-time
import is how a circle hides). Read with `ast`, so every import counts wherever it stands: at
the top, inside a function or a class, and `importlib.import_module("...")` or Django's
`import_string("...")` with a literal. Modules are named from `commands` ("dice_base" is
`commands/dice_base.py`, "v5.wing" `commands/v5/wing.py`, "v5" `commands/v5/__init__.py`).

The one import inside a function allowed is the package's own `__getattr__`
(`commands/__init__.py`): it loads the public names on first use so that importing
`storyteller_dice.commands` needs no Evennia set-up, and nothing in `commands/` imports the
package's `__init__` for a name.
"""

import ast
import pathlib

import storyteller_dice.commands
from tests.import_graph import circles_in

COMMANDS = pathlib.Path(storyteller_dice.commands.__file__).resolve().parent
PACKAGE = "storyteller_dice.commands"
LAZY_LOADER = ("", "__getattr__")  # (module, function) allowed to import inside a function


def module_name(path):
    parts = list(path.relative_to(COMMANDS).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(COMMANDS.rglob("*.py")) if "__pycache__" not in path.parts}


def local(dotted):
    """`storyteller_dice.commands.v5.wing` (or `commands.v5.wing`) -> "v5.wing"; None elsewhere."""
    for prefix in (PACKAGE, "commands"):
        if dotted == prefix:
            return ""
        if dotted.startswith(prefix + "."):
            return dotted[len(prefix) + 1:]
    return None


def named(dotted, names=()):
    """The commands modules `from <dotted> import <names>` reaches (a name that is a submodule
    is that module, any other the module itself)."""
    if dotted is None:
        return set()
    found = {f"{dotted}.{name}".strip(".") for name in names} & set(MODULES)
    if len(found) < len(names) or not names:
        found.add(dotted)
    return {name for name in found if name in MODULES}


def literal(node, name):
    """The text of a string literal, or of an f-string `f"{__name__}.x"` / `f"{__package__}.x"`
    in module `name` (as a dotted name of the package)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    is_package = MODULES[name].name == "__init__.py"
    full = ".".join(part for part in (PACKAGE, name) if part)
    known = {"__name__": full, "__package__": full if is_package else full.rpartition(".")[0]}
    text = ""
    for part in node.values:
        if isinstance(part, ast.Constant):
            text += str(part.value)
        elif isinstance(part.value, ast.Name) and part.value.id in known and part.format_spec is None:
            text += known[part.value.id]
        else:
            return None
    return text


def resolve(name, node):
    """The commands modules an import node names, from module `name`."""
    is_package = MODULES[name].name == "__init__.py"
    package = (name.split(".") if is_package else name.split(".")[:-1]) if name else []
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package[:len(package) - node.level + 1]
            dotted = ".".join(base + (node.module.split(".") if node.module else []))
        else:
            dotted = local(node.module or "")
        return named(dotted, [alias.name for alias in node.names])
    if isinstance(node, ast.Import):
        return set().union(*(named(local(alias.name)) for alias in node.names))
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    text = literal(node.args[0], name) if node.args else None
    if text is None:
        return set()
    if called == "import_module":
        return named(local(text))
    if called == "import_string":
        return named(local(text.rpartition(".")[0]))
    return set()


def is_import(node):
    return isinstance(node, (ast.Import, ast.ImportFrom)) or (
        isinstance(node, ast.Call) and node.args and (
            getattr(node.func, "attr", None) in ("import_module", "import_string")
            or getattr(node.func, "id", None) in ("import_module", "import_string")))


def command_imports(name):
    """(the commands modules `name` imports, {(function, module)} of those imported inside a function)."""
    tree = ast.parse(MODULES[name].read_text())
    owner = {}
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for inner in ast.walk(function):
                if inner is not function:
                    owner.setdefault(id(inner), getattr(function, "name", "<lambda>"))
    # ast.walk goes outside in, so the outermost function is recorded for each node; any will do.
    found, nested = set(), set()
    for node in ast.walk(tree):
        if not is_import(node):
            continue
        names = resolve(name, node) - {name}
        found |= names
        if id(node) in owner and (name, owner[id(node)]) != LAZY_LOADER:
            nested |= {(owner[id(node)], other) for other in names}
    return found, nested


GRAPH = {name: command_imports(name) for name in MODULES}


def test_the_graph_sees_the_imports():
    # A reader that found nothing would pass everything below.
    assert "dice_base" in GRAPH["rolls"][0]
    assert "dice_base" in GRAPH["v5.wing"][0]
    assert {"teamwork", "last_roll"} <= GRAPH["v5.wing"][0]
    assert "v5.cmdset" in GRAPH["v5.wing"][0]
    assert {"default_cmdsets", "hooks"} <= GRAPH[""][0]  # f"{__name__}.hooks" counts too


def test_the_reader_finds_hidden_imports():
    source = (
        "import importlib\n"
        "from django.utils.module_loading import import_string\n"
        "def later():\n"
        "    from . import panel\n"
        "    importlib.import_module('storyteller_dice.commands.odds')\n"
        "    import_string('storyteller_dice.commands.rolls.CmdRoll')\n"
    )
    tree = ast.parse(source)
    found = set()
    for node in ast.walk(tree):
        if is_import(node):
            found |= resolve("dice_base", node)
    assert found == {"panel", "odds", "rolls"}


def test_no_import_circle_in_commands():
    edges = {name: found for name, (found, _) in GRAPH.items()}
    assert circles_in(edges) == []


def test_no_commands_module_imported_inside_a_function():
    nested = {name: sorted(inner) for name, (_, inner) in GRAPH.items() if inner}
    assert nested == {}


def test_a_circle_is_found():
    assert circles_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_event_and_the_state_import_nothing_of_commands():
    # A roll shown is an event (`commands.events`) the panel listens to, and pending state
    # (`commands.pending`) is imported by the flows that keep it: neither reaches back up.
    assert GRAPH["events"][0] == set()
    assert GRAPH["pending"][0] == set()
    assert "panel" not in GRAPH["dice_base"][0]


def test_nothing_in_commands_imports_the_seam_page():
    # commands/seam.py is the page a system is written against; it imports the flows.
    assert [name for name, (found, _) in GRAPH.items() if "seam" in found] == []
