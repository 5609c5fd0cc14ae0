"""
The README's "Add to an existing game" blocks, read and applied to a game directory.

Each block in README.md is a fenced code block right after a marker
`<!-- host: <file> | after: <anchor> -->` (insert the block after the line) or
`<!-- host: <file> | replace: <anchor> -->` (the block replaces the line), where `<anchor>`
is text the line contains; `first / second` means the first line containing `second` after
the first line containing `first`. Reading the README itself means the blocks it shows are
the ones tested: they cannot drift apart.
"""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"<!-- host: (?P<file>[^|]+?) \| (?P<how>after|replace): (?P<anchor>.+?) -->\s*\n"
                    r"```[a-z]*\n(?P<body>.*?)```", re.S)


def readme_edits(text=None):
    """[(file, how, [anchors], body lines)] in the README's order."""
    text = README.read_text() if text is None else text
    return [(m["file"].strip(), m["how"], [a.strip() for a in m["anchor"].split(" / ")],
             m["body"].splitlines(keepends=True)) for m in _BLOCK.finditer(text)]


def apply_edit(source, how, anchors, body):
    """`source` with one block applied (ValueError when an anchor is not there)."""
    lines = source.splitlines(keepends=True)
    at = -1
    for anchor in anchors:
        at = next((n for n in range(at + 1, len(lines)) if anchor in lines[n]), None)
        if at is None:
            raise ValueError(f"no line with {anchor!r}")
    if how == "after":
        lines[at + 1:at + 1] = body
    else:
        lines[at:at + 1] = body
    return "".join(lines)


def apply_readme(game_dir, files=None, text=None):
    """Apply every block (or those for `files`) to the game in `game_dir`; the files changed."""
    changed = []
    for file, how, anchors, body in readme_edits(text):
        if files is not None and file not in files:
            continue
        path = Path(game_dir) / file
        path.write_text(apply_edit(path.read_text(), how, anchors, body))
        changed.append(file)
    return changed
