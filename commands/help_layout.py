"""
Help laid out at the client's width: `help` on a 40-column phone and on a 250-column screen.

Evennia's `help` lays its pages out at the session's width but measures Evennia markup as if
every character showed, and its grid crops a topic that does not fit, cutting a clickable
topic's `|lc...|lt...|le` in two: the player read `|lchelp the roll l[...]` and could click
nothing. Help texts were written for 78 columns and were sent as they are. Here:

- `session_width(session)`: the session's own width, as every line sent to it is wrapped at
  (`typeclasses.columns`: NAWS, the web client's `screenwidth`, 80 when unknown).
- `wrap_text(markup, width)`: a help text at `width`. A line that fits is left as written; a
  longer one is broken between words with a hanging indent, and a run of prose lines (long
  lines at one indent) is filled again as one paragraph, so a narrow screen does not get a
  ragged column. Columns are counted as the terminal draws them (`typeclasses.columns`, with
  `wcwidth`: a wide letter two, a combining mark none), colour codes none.
- `grid(items, width)`: topics in columns, as many as fit, each one whole.
- `link(command, text)`: a clickable topic, or its plain text when it cannot fit a line.

**Ruling (links at any width):** a link is never cut: it is moved to the next line whole, and
one whose text is wider than the room a line has is shown as its plain text (the topic is
still named, and `help <topic>` still finds it). No `|l` markup ever reaches the player but in
a whole `|lc...|lt...|le`.

**Ruling (a lone link code):** `|lc`, `|lu`, `|lt` or `|le` that is not part of a whole link
is shown as the characters typed (V20's `<bashing|lethal|aggravated>` means the bars), never
left for a client to read as half a link.

**Ruling (a word wider than the screen):** it is broken at the screen's edge, where the
client would break it anyway; a link's text counts as a word for this only once it is plain.
"""

import re

from storyteller_dice.typeclasses.columns import session_width  # noqa: F401 - help's width is every line's
from storyteller_dice.typeclasses.columns import terminal_columns as columns

DEFAULT_WIDTH = 80
JOIN_AT = 48  # a line this wide (or wider) that goes on at the next line is prose, filled again
SPACE = " "
WORD_JOINER = "\u2060"

# Evennia's markup: style codes (shown as nothing), escapes, layout codes and MXP links.
_LINK = re.compile(r"\|l([cu])(.*?)\|lt(.*?)\|le", re.DOTALL)
_STYLE = re.compile(
    r"\|\[?#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})"
    r"|\|\[?[0-5]{3}"
    r"|\|\[?=[a-z]"
    r"|\|[!\[][RGYBMCWXrgybmcwx]"
    r"|\|[nrgybmcwxRGYBMCWXhHuUiIsS*^]"
)
_LAYOUT = {"|-": "    ", "|>": "    ", "|_": " "}


class Piece:
    """One unit of a line: `source` (markup as sent), `shown` (what the player sees)."""

    __slots__ = ("source", "shown", "kind")

    def __init__(self, kind, source, shown):
        self.kind, self.source, self.shown = kind, source, shown

    @property
    def width(self):
        return columns(self.shown)


def pieces(markup):
    """The markup as Pieces: "style" (no width), "link" (whole), "space", "char"."""
    out = []
    i, n = 0, len(markup)
    while i < n:
        char = markup[i]
        if char == "|":
            found = _LINK.match(markup, i)
            if found:
                out.append(Piece("link", found.group(0), _plain_link_text(found.group(3))))
                i = found.end()
                continue
            pair = markup[i:i + 2]
            if pair == "|l":  # a link code outside a whole link: the characters as typed
                # (a word joiner after the escape, as rules.display.escape does: Evennia looks
                # for links after undoing `||`, so `||lc` alone could still start one)
                out.append(Piece("char", "||" + WORD_JOINER, "|"))
                i += 1
                continue
            if pair == "||":
                out.append(Piece("char", pair, "|"))
                i += 2
                continue
            if pair in _LAYOUT:
                out.append(Piece("space", pair, _LAYOUT[pair]))
                i += 2
                continue
            style = _STYLE.match(markup, i)
            if style:
                out.append(Piece("style", style.group(0), ""))
                i = style.end()
                continue
        out.append(Piece("space" if char == SPACE else "char", char, char))
        i += 1
    return out


def _plain_link_text(text):
    """What a link's text shows: its style codes taken out, escapes read."""
    return "".join(piece.shown for piece in pieces(text))


def shown(markup):
    """The markup as the player sees it."""
    return "".join(piece.shown for piece in pieces(markup))


def shown_width(markup):
    return columns(shown(markup))


def link(command, text):
    """A clickable help topic (MXP: the web client and MXP telnet clients)."""
    return f"|lc{command}|lt{text}|le"


def _unlinked(piece):
    """A link as the plain pieces of its text (the link's own style codes kept)."""
    found = _LINK.match(piece.source)
    return pieces(found.group(3))


def _words(line_pieces):
    """[(spaces before, word)] where each is a list of Pieces; a word holds no space."""
    words, gap, word = [], [], []
    for piece in line_pieces:
        if piece.kind == "space":
            if word:
                words.append((gap, word))
                gap, word = [], []
            gap.append(piece)
        else:
            word.append(piece)
    if word or gap:
        words.append((gap, word))
    return words


def _width_of(items):
    return sum(piece.width for piece in items)


def _source(items):
    return "".join(piece.source for piece in items)


def _break_word(word, room, width):
    """A word wider than `room` as parts: the first at most `room`, the others at most `width`."""
    parts, part, used, limit = [], [], 0, room
    for piece in word:
        if piece.width and used + piece.width > limit and part:
            parts.append(part)
            part, used, limit = [], 0, width
        part.append(piece)
        used += piece.width
    parts.append(part)
    return parts


def _fill(line_pieces, width, first_indent, hang):
    """Pieces as lines of at most `width` columns: the first indented by `first_indent`, the
    rest by `hang`."""
    lines, current, used = [], [], first_indent
    indent = first_indent
    # A link wider than any line can hold is shown as its text, to be broken as words are.
    flat = []
    for piece in line_pieces:
        wide = piece.kind == "link" and piece.width > width - max(first_indent, hang)
        flat += _unlinked(piece) if wide else [piece]
    for gap, word in _words(flat):
        if not word:
            continue
        size = _width_of(word)
        gap_size = _width_of(gap) if current else 0
        if current and used + gap_size + size <= width:
            current += gap if current else []
            current += word
            used += gap_size + size
            continue
        if current:
            lines.append((indent, current))
            # a word that fits a line but not after the indent is indented less, not broken
            indent = hang if size > width else min(hang, width - size)
            current, used = [], indent
        if used + size <= width:
            current, used = list(word), used + size
            continue
        # wider than a line: broken at the edge, a link within it kept whole where it fits
        parts = _break_word(word, width - used, width - hang)
        for part in parts[:-1]:
            lines.append((indent, part))
            indent = hang
        current, used = parts[-1], hang + _width_of(parts[-1])
    if current or not lines:
        lines.append((indent, current))
    return [SPACE * indent + _source(items).rstrip(SPACE) if items else "" for indent, items in lines]


def _indent(line):
    return len(line) - len(line.lstrip(SPACE))


def _prose(line):
    """Whether a line reads as part of a paragraph that goes on (long, not a heading)."""
    text = shown(line).rstrip()
    return columns(text) >= JOIN_AT and not text.endswith(":")


def _paragraph(lines, i):
    """(end, hang): the lines i..end-1 are one paragraph, its later lines indented `hang`.

    A paragraph goes on while its last line is long prose and the next line is indented as
    its second one: further in (a hanging indent), or, for text at the margin, at the margin
    too. Indented lines one under another are a list (usages, commands): each stays a line."""
    indent = _indent(lines[i])
    hang = None
    j = i + 1
    while j < len(lines) and lines[j].strip() and _prose(lines[j - 1]):
        step = _indent(lines[j])
        if hang is None and not (step > indent or step == indent == 0):
            break
        if hang is not None and step != hang:
            break
        hang = step
        j += 1
    return j, (indent + 2 if hang is None else hang)


def _as_sent(line):
    """The line as written, but for a lone link code, which shows as typed (see the rulings)."""
    return _source(pieces(line)) if "|l" in line else line


def _capped(indent, width):
    """An indent that leaves a narrow screen room for words."""
    return min(indent, max(0, (width - 10) // 3))


def wrap_text(markup, width):
    """A help text laid out at `width` columns (see the module's docstring)."""
    lines = [_as_sent(line) for line in markup.split("\n")]
    if all(shown_width(line) <= width for line in lines):
        return "\n".join(lines)
    out = []
    i = 0
    while i < len(lines):
        end, hang = _paragraph(lines, i)
        paragraph = lines[i:end]
        if all(shown_width(line) <= width for line in paragraph):
            out += paragraph
        else:
            text = " ".join(part.strip(SPACE) for part in paragraph)
            out += _fill(pieces(text), width, _capped(_indent(lines[i]), width), _capped(hang, width))
        i = end
    return "\n".join(out)


def grid(items, width, gap=2):
    """Topics (markup, each a link or text) in as many columns as fit `width`, each whole."""
    if not items:
        return []
    widths = [shown_width(item) for item in items]
    cell = max(widths) + gap
    per_row = max(1, (width + gap) // cell)
    rows = []
    for start in range(0, len(items), per_row):
        row = []
        for item, size in zip(items[start:start + per_row], widths[start:start + per_row]):
            row.append(item + SPACE * (cell - size))
        line = "".join(row).rstrip(SPACE)
        rows += [line] if shown_width(line) <= width else wrap_text(line, width).split("\n")
    return rows
