"""
The repository explains itself: no text in it points to a document that is not in it, and
every dice system in the registry has its page in docs/, linked from the README.

The forbidden pointers are built from pieces below, so this file does not flag itself.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from storyteller_dice.rules import systems

ROOT = Path(__file__).resolve().parent.parent

# Pointers to documents outside the repository: the rules file, the shared folder, numbered
# seeds and numbered issues. A file name with an underscore before the word (some test files
# are still named so) is not a pointer: there is no word boundary before it.
FORBIDDEN = {
    "the rules file": re.compile(re.escape("RULES" + ".md"), re.IGNORECASE),
    "the shared folder": re.compile(re.escape(".." + "/shared"), re.IGNORECASE),
    "a numbered seed": re.compile(r"\bseed" + r" ?00\d", re.IGNORECASE),
    "a numbered issue": re.compile(r"\biss" + r"ue ?#?\d+", re.IGNORECASE),
}

# Third parties' files and generated or local folders, never ours to word.
SKIPPED_PARTS = {".git", ".venv", "node_modules", "vendor", "__pycache__", ".pytest_cache", "mutants"}
TEXT_SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".sh", ".toml", ".txt", ".cfg", ".ini", ".json", ".yml", ".yaml"}


def _skipped(relative):
    parts = Path(relative).parts
    return any(part in SKIPPED_PARTS or part.endswith(".egg-info") for part in parts)


def _tracked_files():
    """The files git tracks; without git (a copy of the tree), the text files found on disk."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30
        ).stdout.decode("utf-8").split("\0")
        return [name for name in listed if name and not _skipped(name)]
    except (OSError, subprocess.SubprocessError):
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not _skipped(d)]
            for name in files:
                path = Path(folder, name)
                if path.suffix in TEXT_SUFFIXES:
                    found.append(str(path.relative_to(ROOT)))
        return found


def _text(relative):
    try:
        data = (ROOT / relative).read_bytes()
    except OSError:  # listed by git but deleted in the working tree
        return None
    if b"\0" in data:
        return None  # binary
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _pointers():
    found = []
    for relative in _tracked_files():
        text = _text(relative)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for what, pattern in FORBIDDEN.items():
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {what}: {line.strip()[:120]}")
    return found


def test_no_pointers_outside_the_repository():
    found = _pointers()
    assert not found, "Pointers to documents outside the repository:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "see " + "RULES" + ".md §1",
        "the " + ".." + "/shared folder",
        "Seed" + " 004's reading",
        "Iss" + "ue 13, wired here",
        "(iss" + "ue 14)",
        "iss" + "ue #8",
    ],
)
def test_the_patterns_catch_each_kind(line):
    assert any(pattern.search(line) for pattern in FORBIDDEN.values())


@pytest.mark.parametrize(
    "line",
    ["tests/test_rules_v5_" + "iss" + "ue13.py", "the seed's reading", "a tissue", "seeded 004"],
)
def test_the_patterns_leave_plain_words_alone(line):
    assert not any(pattern.search(line) for pattern in FORBIDDEN.values())


# The registry's own systems (not the toy systems tests register for a while).
@pytest.mark.parametrize("key", list(systems.SYSTEMS))
def test_every_system_has_a_docs_page_linked_from_the_readmes(key):
    page = ROOT / "docs" / f"{key}.md"
    assert page.is_file(), f"docs/{key}.md is missing"
    assert page.read_text(encoding="utf-8").startswith("# "), f"docs/{key}.md has no title"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"(docs/{key}.md)" in readme, f"README.md does not link docs/{key}.md"
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    assert f"({key}.md)" in index, f"docs/README.md does not link {key}.md"


def test_the_contract_page_is_linked():
    assert (ROOT / "docs" / "contract.md").is_file()
    assert "(docs/contract.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(contract.md)" in (ROOT / "docs" / "README.md").read_text(encoding="utf-8")


DOCS_POINTER = re.compile(r"\bdocs/([a-z0-9_-]+\.md)\b")


def test_every_pointer_into_docs_names_a_page_that_is_there():
    missing = []
    for relative in _tracked_files():
        text = _text(relative)
        for name in set(DOCS_POINTER.findall(text or "")):
            if not (ROOT / "docs" / name).is_file():
                missing.append(f"{relative}: docs/{name}")
    assert not missing, "Pointers to docs pages that do not exist:\n" + "\n".join(sorted(missing))


# The README is the first screen a newcomer reads: what this is, a roll, the two set-up commands,
# the install and the systems. Everything longer is a docs page it links.
README_MOST_LINES = 200


def test_the_readme_is_one_short_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines, more than {README_MOST_LINES}"


def test_the_readmes_roll_is_one_the_tests_pin():
    """The roll the README shows is the game's own output: the test of that roll has the same
    lines (all but the verification code, which differs on every roll)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("```text\n[Roll]") + len("```text\n"):]
    shown = block[:block.index("```")].splitlines()
    pinned = (ROOT / "tests" / "test_cmd_rolls.py").read_text(encoding="utf-8")
    expected = (f'"{shown[0]}\\n"\n'
                f'                "{shown[1]}\\n"\n'
                f'                "{shown[2][:shown[2].index("[code ") + len("[code ")]}",')
    assert expected in pinned, expected


# A Markdown link or image `[text](target)`; the target has no spaces (none of ours do).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```")


def _outside_code(text):
    """The text of a Markdown page without its fenced blocks and inline code spans."""
    kept, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def _anchors(path):
    """The anchors GitHub gives the headings of a Markdown page (`#what-a-roll-costs`)."""
    found, seen = set(), {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = re.match(r"#{1,6} (.*)", line)
        if fenced or not heading:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1))  # a link's text only
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def _pages():
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _broken_links():
    broken = []
    for page in _pages():
        for target in LINK.findall(_outside_code(page.read_text(encoding="utf-8"))):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not a file of ours
                continue
            name, _, anchor = target.partition("#")
            linked = (page.parent / name).resolve() if name else page
            where = f"{page.relative_to(ROOT)}: ({target})"
            if not linked.exists():
                broken.append(f"{where}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{where}: no heading with that anchor")
    return broken


def test_every_relative_link_of_the_readme_and_docs_is_there():
    broken = _broken_links()
    assert not broken, "Links to files or headings that are not there:\n" + "\n".join(broken)


@pytest.mark.parametrize(
    "heading, anchor",
    [
        ("## What a roll costs in a full room", "what-a-roll-costs-in-a-full-room"),
        ("## Extended rolls (every system that has them)", "extended-rolls-every-system-that-has-them"),
        ("## How a roll came to cost what a `say` costs: the load bench's history",
         "how-a-roll-came-to-cost-what-a-say-costs-the-load-benchs-history"),
        ("### V5 (`DICE_SYSTEM=v5`, the default; [docs/v5.md](docs/v5.md))",
         "v5-dice_systemv5-the-default-docsv5md"),
    ],
)
def test_anchors_are_githubs(heading, anchor, tmp_path):
    page = tmp_path / "page.md"
    page.write_text(f"# Title\n\n{heading}\n", encoding="utf-8")
    assert anchor in _anchors(page)


def test_a_broken_link_is_found(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# T\n\n[a](docs/Gone.md) [b](#nowhere) `[c](gone.md)`\n"
                                        "[d](https://example.org/x.md)\n", encoding="utf-8")
    (tmp_path / "docs" / "a.md").write_text("# A\n\n## Here\n\n[e](a.md#here) [f](../README.md#t)\n"
                                            "```\n[g](gone.md)\n```\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert _broken_links() == ["README.md: (docs/Gone.md): no such file",
                               "README.md: (#nowhere): no heading with that anchor"]


def test_the_docs_index_links_every_page():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    missing = [page.name for page in sorted((ROOT / "docs").glob("*.md"))
               if page.name != "README.md" and f"({page.name})" not in index]
    assert not missing, "docs/README.md does not link: " + ", ".join(missing)
