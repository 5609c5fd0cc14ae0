"""
The README's "Add to an existing game" blocks, read and applied to a game directory.

The required blocks are in README.md; the optional ones are in docs/install.md ("Optional
blocks"), read after the README's, in that order, so a block may anchor on a line an earlier
one adds. Each block is a fenced code block right after a marker
`<!-- host: <file> | <how>[: <anchor>] [| optional] -->`, where `<how>` is

- `after: <anchor>`: insert the block after the line;
- `before: <anchor>`: insert the block before the line;
- `replace: <anchor>`: the block replaces the line;
- `end`: append the block at the end of the file;
- `new`: the block is a new file,

`<anchor>` is text the line contains (`first / second` means the first line containing
`second` after the first line containing `first`), and `| optional` marks a block a host may
leave out (the others are the required ones). Reading the pages themselves means the blocks
they show are the ones tested: they cannot drift apart.
"""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# Where the blocks are, in the order they are applied.
SOURCES = (README, ROOT / "docs" / "install.md")
_BLOCK = re.compile(r"<!-- host: (?P<file>[^|]+?) \| (?P<how>after|before|replace|end|new)(?:: (?P<anchor>[^|]+?))?"
                    r"(?P<optional> \| optional)? -->\s*\n```[a-z]*\n(?P<body>.*?)```", re.S)
_MARKER = re.compile(r"<!-- host:.*?-->")


@dataclass(frozen=True)
class Edit:
    file: str
    how: str
    anchors: tuple
    body: tuple
    optional: bool


def readme_edits(text=None, optional=True):
    """The blocks in their order (the optional ones too unless `optional` is False)."""
    text = sources_text() if text is None else text
    edits = [Edit(m["file"].strip(), m["how"],
                  tuple(a.strip() for a in m["anchor"].split(" / ")) if m["anchor"] else (),
                  tuple(m["body"].splitlines(keepends=True)), bool(m["optional"]))
             for m in _BLOCK.finditer(text)]
    if len(edits) != len(_MARKER.findall(text)):
        raise ValueError("a host marker of README.md or docs/install.md is not one host-edits reads")
    return [edit for edit in edits if optional or not edit.optional]


def sources_text():
    """README.md and docs/install.md, one after the other: every marker and its block."""
    return "\n".join(source.read_text() for source in SOURCES)


def required_edits(text=None):
    return readme_edits(text, optional=False)


def apply_edit(source, how, anchors, body):
    """`source` with one block applied (ValueError when an anchor is not there)."""
    lines = source.splitlines(keepends=True)
    if how == "new":
        return "".join(body)
    if how == "end":
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        return "".join(lines + list(body))
    at = -1
    for anchor in anchors:
        at = next((n for n in range(at + 1, len(lines)) if anchor in lines[n]), None)
        if at is None:
            raise ValueError(f"no line with {anchor!r}")
    if how == "after":
        lines[at + 1:at + 1] = body
    elif how == "before":
        lines[at:at] = body
    else:
        lines[at:at + 1] = body
    return "".join(lines)


def apply_readme(game_dir, files=None, text=None, optional=False):
    """
    Apply the required blocks (and the optional ones with `optional`), or those of them for
    `files`, to the game in `game_dir`; the files changed.
    """
    changed = []
    for edit in readme_edits(text, optional=optional):
        if files is not None and edit.file not in files:
            continue
        path = Path(game_dir) / edit.file
        source = "" if edit.how == "new" else path.read_text()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(apply_edit(source, edit.how, edit.anchors, edit.body))
        changed.append(edit.file)
    return changed
