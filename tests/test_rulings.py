"""
Every ruling the code makes is listed in the documentation.

A ruling is a decision on a case the game's own rule text does not settle (how a tie is read,
what a pool below one die does). The code states each one where it is made, in a docstring or
a comment paragraph that starts with a ruling marker (`**Ruling**:`, `**Ruling:**`, `**Ruling
(why)**`, `Ruling:`, or a `Rulings:` / `**Rulings**` heading over a list). Players and staff do
not read docstrings, so each ruling also has an entry under a "Rulings" heading of a page in
docs/ (the system's own `docs/<key>.md`, or docs/commands.md, docs/roll-log.md... for shared
behaviour) that names where it lives in code, as `storyteller_dice.<module>.<function>` in
backticks.

The match is by module and enclosing function or class (its full path, the innermost name, or
the outermost: a method may be named by its class), so moving a ruling inside its function, or
reordering a module, needs no change in the docs; renaming the function or moving it to another
module needs its entry updated, and `test_each_listed_name_is_in_the_code` then names the entry
that points nowhere. A new ruling in a function that already has an entry passes: add its own
line to that entry.

`scripts/test.sh tests/test_rulings.py -q -n 0 -s` prints every ruling found with its location.
"""

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

from storyteller_dice.rules import systems

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = "storyteller_dice"
# The folders that make the installable package (pyproject.toml maps them under PACKAGE).
PACKAGE_FOLDERS = ("rules", "commands", "typeclasses", "rolllog")

# Where a ruling starts: a bold marker anywhere (`**Ruling**:`, `**Ruling:**`, `**Ruling (tie)**`,
# `**Rulings**`, `**Rulings.**`), or a plain `Ruling` / `Rulings` followed by `:` or `(` (a
# heading such as "Rulings (the rules are silent):"). References to rulings ("docs/v5.md,
# 'Rulings'", "the docstring's Ruling)", "the Rulings") are not markers.
MARKER = re.compile(r"\*\*Rulings?\b|(?<![\w'\"/])Rulings?(?=:|\s*\()")
# A list item's start, which ends the ruling before it.
BULLET = re.compile(r"^\s*[-*]\s+")
# A heading over a list of rulings, with nothing of its own to say ("Rulings (the rules are
# silent):", "**Rulings:**"): short, and nothing after its colon.
HEADING_ONLY = re.compile(r"^\W*Rulings?\b[^:]{0,50}[:.]?\W*$")
# A docs heading whose section lists rulings ("## Rulings", "### Rulings: names").
RULINGS_HEADING = re.compile(r"^(#+)\s+.*\bRulings\b")
DOCS_HEADING = re.compile(r"^(#+)\s")
CODE_SPAN = re.compile(r"`([^`\n]+)`")


@dataclass(frozen=True)
class Ruling:
    path: str  # relative to the repository
    line: int
    module: str  # storyteller_dice.rules.v5.dice
    scope: tuple  # enclosing classes and functions, outermost first; () for the module
    text: str

    @property
    def location(self):
        return ".".join((self.module, *self.scope))

    def accepted_names(self):
        """The names under which a docs entry lists this ruling (see the module docstring)."""
        names = {self.location}
        if self.scope:
            names.add(f"{self.module}.{self.scope[-1]}")
            names.add(f"{self.module}.{self.scope[0]}")
        return names

    def page(self):
        """The docs page where this ruling most likely belongs, for the failure message."""
        parts = self.module.split(".")
        for key in list(systems.SYSTEMS):
            if key in parts:
                return f"docs/{key}.md"
        if "rolllog" in parts:
            return "docs/roll-log.md"
        return "docs/commands.md"


def _module_name(path):
    relative = path.relative_to(ROOT).with_suffix("")
    parts = [PACKAGE, *relative.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_files():
    for folder in PACKAGE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


def _paragraphs(text):
    """
    The pieces of `text` that are rulings: from each marker to the end of its paragraph or
    list item. A heading with nothing of its own ("Rulings:") stands for the list items under
    it, marked or not.
    """
    lines = text.splitlines()
    found = []
    index = 0
    while index < len(lines):
        match = MARKER.search(lines[index])
        if not match:
            index += 1
            continue
        start = index
        piece = [lines[index][match.start():]]
        index += 1
        while index < len(lines) and lines[index].strip() and not BULLET.match(lines[index]) \
                and not MARKER.search(lines[index]):
            piece.append(lines[index].strip())
            index += 1
        paragraph = " ".join(part.strip() for part in piece)
        if HEADING_ONLY.match(paragraph):
            before = len(found)
            index = _list_under_heading(lines, index, found)
            if len(found) > before:
                continue
        found.append((start, paragraph))
    return found


def _list_under_heading(lines, index, found):
    """The list items right under a "Rulings:" heading; returns where the list ends."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and BULLET.match(lines[index]):
        start = index
        piece = [lines[index].strip()]
        index += 1
        while index < len(lines) and lines[index].strip() and not BULLET.match(lines[index]):
            piece.append(lines[index].strip())
            index += 1
        item = " ".join(piece)
        marked = MARKER.search(item)
        found.append((start, item[marked.start():] if marked else item))
        while index < len(lines) and not lines[index].strip() and index + 1 < len(lines) \
                and BULLET.match(lines[index + 1]):
            index += 1
    return index


def _scopes(tree):
    """Every class and function with its line span and the names enclosing it."""
    spans = []

    def visit(node, names):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = (*names, child.name)
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                spans.append((first, child.end_lineno, inner, child))
                visit(child, inner)
            else:
                visit(child, names)

    visit(tree, ())
    return spans


def _innermost(spans, line):
    best = ()
    for first, last, names, _node in spans:
        if first <= line <= last and len(names) > len(best):
            best = names
    return best


def _docstring_rulings(path, module, tree, spans):
    owners = [(tree, ())] + [(node, names) for _first, _last, names, node in spans]
    for node, names in owners:
        docstring = ast.get_docstring(node, clean=True)
        if not docstring:
            continue
        first_line = node.body[0].lineno
        for offset, text in _paragraphs(docstring):
            yield Ruling(str(path.relative_to(ROOT)), first_line + offset, module, names, text)


def _comment_blocks(source):
    """Runs of comment lines next to each other: (first line, the text of the run)."""
    blocks = []
    previous = None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        line = token.start[0]
        text = token.string.lstrip("#").strip()
        if previous is not None and line == previous + 1 and text:
            blocks[-1][1].append(text)
        else:
            blocks.append((line, [text]))
        previous = line
    return [(line, "\n".join(texts)) for line, texts in blocks]


def _owner_of_comment(spans, source_lines, line, last_line):
    """
    The function or class a comment block is about: the one it stands in, or the one right
    under it when the block sits just above a `def`, `class` or decorator.
    """
    following = last_line  # index of the line after the block (0-based == last_line)
    if following < len(source_lines):
        below = source_lines[following].lstrip()
        if below.startswith(("def ", "async def ", "class ", "@")):
            for first, _last, names, _node in spans:
                if first == following + 1:
                    return names
    return _innermost(spans, line)


def _comment_rulings(path, module, source, spans):
    source_lines = source.splitlines()
    for line, text in _comment_blocks(source):
        last_line = line + text.count("\n")
        for offset, ruling in _paragraphs(text):
            names = _owner_of_comment(spans, source_lines, line, last_line)
            yield Ruling(str(path.relative_to(ROOT)), line + offset, module, names, ruling)


def collect_rulings():
    """Every ruling stated in the package's docstrings and comments, in file order."""
    found = []
    for path in _package_files():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
        spans = _scopes(tree)
        module = _module_name(path)
        found.extend(_docstring_rulings(path, module, tree, spans))
        found.extend(_comment_rulings(path, module, source, spans))
    return sorted(found, key=lambda ruling: (ruling.path, ruling.line))


def _in_full(name):
    """A code name as the package knows it (`rules.v5.contest` is `storyteller_dice.rules...`)."""
    return name if name.startswith(PACKAGE + ".") else f"{PACKAGE}.{name}"


def rulings_sections():
    """Each docs page's text under its "Rulings" headings (subheadings included)."""
    sections = {}
    for page in sorted(DOCS.glob("*.md")):
        kept, level, fenced = [], None, False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
            heading = None if fenced else DOCS_HEADING.match(line)
            if heading and level is not None and len(heading.group(1)) <= level:
                level = None
            ruling_heading = heading and RULINGS_HEADING.match(line)
            if ruling_heading and level is None:
                level = len(ruling_heading.group(1))
            if level is not None:
                kept.append(line)
        if kept:
            sections[f"docs/{page.name}"] = "\n".join(kept)
    return sections


def listed_names():
    """The code names (`module.function`) written in backticks in any Rulings section."""
    names = {}
    for page, text in rulings_sections().items():
        for span in CODE_SPAN.findall(text):
            names.setdefault(span.strip().removesuffix("()"), page)
    return names


RULINGS = collect_rulings()


def test_rulings_are_found():
    """The collector finds the code's rulings at all (a marker spelled anew would hide them)."""
    assert len(RULINGS) > 100
    print(f"\n{len(RULINGS)} rulings in the code:")
    for ruling in RULINGS:
        print(f"- {ruling.path}:{ruling.line} `{ruling.location}`\n    {ruling.text[:150]}")


def test_every_ruling_is_listed_in_the_docs():
    listed = {_in_full(name) for name in listed_names()}
    missing = [ruling for ruling in RULINGS if not ruling.accepted_names() & listed]
    lines = [
        f"{ruling.path}:{ruling.line}: `{ruling.location}` is not named in any docs Rulings "
        f"section; add an entry naming it under '## Rulings' of {ruling.page()}: "
        f"{ruling.text[:100]}"
        for ruling in missing
    ]
    if missing:
        pytest.fail(f"{len(missing)} rulings are not in the docs:\n" + "\n".join(lines),
                    pytrace=False)


@pytest.mark.parametrize("key", list(systems.SYSTEMS))
def test_each_system_page_has_a_rulings_section(key):
    assert f"docs/{key}.md" in rulings_sections(), f"docs/{key}.md has no '## Rulings' section"


def test_each_listed_name_is_in_the_code():
    """
    An entry naming a module or function the code no longer has points nowhere: when code
    moves, its entry is moved with it (names written in full, `storyteller_dice.<module>...`).
    """
    modules = {_module_name(path): path for path in _package_files()}
    stale = [
        f"{page}: `{name}` is not a module, class or function of the package"
        for name, page in listed_names().items()
        if name.startswith(PACKAGE + ".") and not _defined(name, modules)
    ]
    if stale:
        pytest.fail("Rulings entries that name nothing in the code (moved or renamed? name its "
                    "new place):\n" + "\n".join(stale), pytrace=False)


def _defined(name, modules):
    """Whether `name` is a module of the package, or a name defined in one (a method too)."""
    if name in modules:
        return True
    module, _, rest = name.rpartition(".")
    parts = [rest]
    while module and module not in modules:
        module, _, inner = module.rpartition(".")
        parts.insert(0, inner)
    if not module:
        return False
    tree = ast.parse(modules[module].read_text(encoding="utf-8"))
    return _defines(tree, parts)


def _defines(node, names):
    """Whether `names` (a class, then its method...) are defined in `node`'s own body."""
    for child in _own_statements(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if child.name == names[0] and (len(names) == 1 or _defines(child, names[1:])):
                return True
        elif len(names) == 1 and names[0] in _assigned(child):
            return True
    return False


def _own_statements(node):
    """A body's statements, including those inside its `if`, `try` and `with` blocks."""
    for child in getattr(node, "body", []):
        if isinstance(child, (ast.If, ast.Try, ast.With)):
            yield from _own_statements(child)
            for part in ("orelse", "finalbody", "handlers"):
                for stmt in getattr(child, part, []):
                    yield from _own_statements(stmt) if isinstance(stmt, ast.ExceptHandler) \
                        else (stmt,)
        else:
            yield child


def _assigned(statement):
    if isinstance(statement, ast.Assign):
        return {target.id for target in statement.targets if isinstance(target, ast.Name)}
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return {statement.target.id}
    return set()
