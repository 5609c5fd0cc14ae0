"""
The repository explains itself: no text in it points to a document that is not in it, and
every dice system in the registry has its page in docs/, linked from the README.

The forbidden pointers are built from pieces below, so this file does not flag itself.
"""

import os
import re
import subprocess
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
