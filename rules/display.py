r"""
How rolls, odds, refusals and sheets look, in every system: the one place for escaping and
formatting, imported by `commands/` and `rolllog/` alike. Pure Python, standard library only:
Evennia's colour markup (`|g`, `|[r`, `|#ff0000`, `||` ...) is just text here; Evennia turns it
into ANSI for telnet or HTML for the web client when it is sent.

What is shown comes from the system-neutral shapes of `rules.engine` only (`RollView`,
`OddsView`, `SheetSection`), never from a system's own modules: colours come from a die's
*marks* (`MARK_STYLES`, `LABEL_STYLES`, `MODIFIER_STYLES`) and an outcome's *tone*
(`TONE_STYLES`), never from a system key or an outcome key.

Player text
-----------
Every string in a view (pool, target, group labels, outcome label, notes, sheet labels and
texts) and every name or comment given to a `format_*` function is *plain text*: it is escaped
here, so a system never needs to think about markup. The `prefix` of `format_roll` and the
`message` of `format_refusal` are markup (ours), used as they are.

What `escape` neutralises, by what Evennia's output side does with text (telnet:
`evennia.utils.ansi.parse_ansi` then MXP; web client: `evennia.utils.text2html`):

- `|` starts all markup (colour `|r`, `|[r`, `|#ff0000`, `|555`, `|*`, `|u`, ...; layout `|/`,
  `|-`, `|_`, `|>`): doubled (`||`, Evennia's escape), it shows as one `|`.
- `{{` is an escape too (it shows as `{`): `{` is doubled, so what was typed shows as typed.
  (Evennia lists `\\` among its escapes, but its pattern matches one backslash and puts it
  back: a backslash needs nothing.)
- MXP links (`|lc<cmd>|lt<text>|le`, `|lu<url>|lt<text>|le`) are matched *after* the escapes
  are undone, so a doubled `|` would still make a link (web client) or hide text (telnet). A
  word joiner (U+2060: no width, no character a reader hears) goes between such a `|` and its
  `l`, so the link patterns never match and the text still reads as typed. **Ruling:** a
  character, not an invisible colour code (`|H` was used): Evennia removes colour codes
  *before* it looks for links when the player's client has colour off (`option nocolor`, in
  telnet with MXP and in the web client) and in screen-reader mode, so a code would vanish and
  the link would come back; the joiner survives every option.
- Control characters (C0, DEL, C1 such as U+009B CSI and U+0085 NEL), Unicode line and
  paragraph separators and bidi overrides/isolates become spaces; runs of whitespace become
  one space. Player text never starts a line.
- `$` needs nothing: no `$func()` parser runs on our messages (they leave through
  `commands.dice_base.send`, one `msg()` per receiver).
- `<`, `>` and `&` need nothing here: the web client escapes HTML itself, and for a telnet client
  that parses MXP they are escaped per session as the message is sent (typeclasses/incoming.py,
  "MXP").

Width
-----
`visible_len` counts what Evennia's own stripping (`evennia.utils.ansi.strip_ansi`) leaves:
colour codes (and ANSI colour sequences already in the text) count nothing, `||` and `{{` count
one, `|/` two (it becomes CR LF), `|>` four, `|-` and `|_` one, an MXP link its shown text.

**The column seam.** How many terminal columns a shown character takes is not this module's
to know (it is pure Python, and the answer is Unicode's East Asian Width and combining-mark
tables): `measure_columns(measure)` sets the one measure `visible_len` and `wrap` use (a
callable, shown text -> columns), and `wrap(..., columns=...)` takes one for a single call.
Without one, a code point is one column, as Evennia's `ANSIString` and `EvTable` count. The
game sets the terminal's measure (`typeclasses.columns`, with the wcwidth library: a wide
character two columns, a combining mark or a zero-width character none) when it loads.

`wrap(markup, width, indent)` fits a line to `width` visible columns:

- it breaks only at spaces (the run of spaces at a break is dropped), never inside a word, a
  markup code, an escape (`||`) or a verification code `[code XXXX]` (one unit with its
  inner space);
- continuation lines get a hanging indent of `indent` spaces *beyond the line's own leading
  spaces*: with the default 2, a header (no leading space) continues at column 2 and a body
  line (`  Dice: ...`) at column 4;
- a colour open at a break is closed (`|n`) at the end of the line and opened again after the
  indent, so no colour bleeds into the indent and the next line looks the same;
- a word longer than a whole line (a 200-character comment without spaces) is the only thing
  ever split: first into what is left of the current line, then into full lines; a markup
  code, an escape or `[code XXXX]` is never cut;
- a width below `MIN_WIDTH` (20) is read as 20, no width (None or 0) as 80; a width a client
  reports is held to `MAX_WIDTH` (250) where it is read (`fit_width`); the hanging
  indent shrinks so that a continuation line always has room for `[code XXXX]`;
- what a break adds never joins the text beside it: a lone `|` before the added `|n` is
  doubled (it shows the same), a carried `|#abc` is written `|#aabbcc` (a hex digit after it
  would lengthen it);
- a line of nothing but spaces comes back as it is (it shows nothing);
- only a space (U+0020) is a break; a layout code (`|_`, `|>` ...) counts as what it becomes
  and is no break; MXP link markup is measured as the characters it is made of (never less
  than Evennia shows: the display makes no links and `escape` breaks players' ones).

A line that fits comes back exactly as it was (so the lines of old rolls look as they did).
`append_code(text, code, width)` adds ` [code XXXX]` to the last line, or puts it on a line of
its own when it would not fit, indented as a continuation: 4 spaces when the last line starts
with a space (a body line or a continuation), else 2.

Odds
----
`format_odds` shows each chance once with one decimal. **Ruling:** the shown percentages sum to
100.0: the exact chances (fractions) are counted in tenths of a percent and rounded by
largest remainder (the tenths left after rounding down go to the chances with the largest
remainders; among equal remainders to the earlier chance), except that an outcome that can
happen is never shown as 0.0% (it gets 0.1%, taken from the chance most over-rounded among
those shown with 0.2% or more): so a possible outcome never reads 0.0% and an uncertain one
never 100.0%. **Ruling:** equal chances always show equal figures, and a larger chance never
shows less than a smaller one. Chances of exactly the same size take their tenth together or
not at all, so when the tenths left cannot go round them all (three chances of 1/3) the column
sums to a tenth or two less than 100.0 rather than show two equal chances differently.

**Ruling:** one chance, one number on one screen. The chart's rows are rounded first; an
outcome that is exactly some of the chart's rows (`Chance.scores`, the range of scores it
covers: Whalefall's "no die met" is the 0 row, a success every row from the count up) shows
the sum of those rows' figures, and the other outcomes share what is left of 100.0 by the same
largest remainder (`odds_figures`). So the outcome lines and the chart always agree. Among
rows with equal remainders the tenth goes first to the row whose outcome is shown furthest
below its exact chance, which keeps the outcome lines as near their exact figures as the rows
allow. A breakdown (The Dice Check's Degrees of Success) is rounded the same way and adds up
to the chance it splits.

The chart has one row per score from the lowest to the highest with at least 0.05% chance;
when that is more than `CHART_ROWS` (12) rows, the 12 neighbouring scores holding the most
probability are shown. The scores beyond either end are added to the end rows, shown "≤ N"
and "≥ N". Bars are scaled so the likeliest row is the full bar (at most 40 characters, less
on a narrow screen); any row with a chance gets at least one `#`.

Sheets
------
`format_sheet` renders `SheetSection`s as `commands/sheet.py` did for V5: a `=` rule with the
name and status, "columns" sections as a bold heading, cyan group titles and trait rows side
by side (as many columns as fit the width: 3 at 80 columns), "line" sections as a bold title
then the text, "track" sections as a bold title, `[boxes]` and the text. **Ruling:** a line
section's title takes a colon unless its text starts with a digit ("Disciplines: none", but
"Hunger 2 ...", which reads as a trait and its value).
"""

import re
from fractions import Fraction

from . import systems
from .engine import REROLLED

# ---------------------------------------------------------------- constants

PREFIX = "|w[Roll]|n"
PRIVATE_PREFIX = "|w[Private roll]|n"
ODDS_PREFIX = "|w[Odds]|n"
MAX_COMMENT = 200
DEFAULT_WIDTH = 80
MIN_WIDTH = 20
#: The widest screen anything is laid out for. The width is the client's to report (NAWS, the
#: web client's and GMCP's `client_options`), so it is hostile input: 3,000,000 columns made a
#: fairness chart of 60 MB. 250 is wider than any terminal or browser window a person reads.
MAX_WIDTH = 250
CHART_ROWS = 12
CHART_MIN = Fraction(5, 10000)  # 0.05%: rarer scores at the ends go into the "≤"/"≥" rows
MAX_BAR = 40
BAR = "#"

#: The looks of the roll marks, each legible at WCAG AA (contrast 4.5:1 or more) on the black
#: of Evennia's web client with its stock palette, so no host needs a stylesheet for them
#: (Evennia's own colours: |R #800000 is 1.9:1, |G #008000 4.1:1, white on |[r #ff0000 4.0:1).
#: On telnet these are xterm-256 colours; a client without them gets the nearest of its 16.
#: White on #df0000 (|[400): 5.1:1.
BADGE = "|[400|w"
#: A success that is not a 10 (#00af00: 7.1:1), apart from the 10s' bright green (|g, 15.3:1).
SUCCESS_STYLE = "|030"
#: A 1 that cancels or botches, a total failure (#ff5f5f: 7.1:1), apart from the Hunger red (|r).
DIRE_STYLE = "|511"

#: The looks of the shared marks. A system's own marks (V5's Hunger dice, V20's cancelled
#: successes, Seyruun's chance die) have the looks it declares (`System.mark_looks`), tried
#: first: a die's colour is the first rule whose marks the die all has (so combinations come
#: first). **Ruling:** every die that scores is marked, in every system (a V5 6-9, a Dice Check
#: hit, a Whalefall die that met the face): what a roll's score counts can be seen, not only its
#: 10s.
SHARED_MARK_STYLES = (
    (frozenset({"double"}), "|g"),
    (frozenset({"ten"}), "|g"),
    (frozenset({"one"}), DIRE_STYLE),
    (frozenset({"success"}), SUCCESS_STYLE),
)
#: The same looks on the roll log's pages (rolllog/static/rolllog/rolllog.css has them; a
#: system's own are added to its pages from `System.mark_looks`).
BADGE_CSS = "background: #c00000; color: #fff; font-weight: bold; border-radius: 0.2em;"
SUCCESS_CSS = "color: #007a00;"
DIRE_CSS = "color: #a00000;"


def _telnet_looks(looks):
    return tuple((look.marks, look.telnet) for look in looks)


def _label_looks(looks):
    return tuple((look.marks, look.telnet) for look in looks if look.label)


#: Every rule, the installed systems' first (read afresh: a system registered later counts).
MARK_STYLES = systems.Declared("mark_looks", _telnet_looks, after=SHARED_MARK_STYLES)
#: Looks added in front of the colour, for each of these marks a die has.
MODIFIER_STYLES = ((REROLLED, "|u"),)
#: A group's label takes this colour when every die of the group has the marks.
LABEL_STYLES = systems.Declared("mark_looks", _label_looks)
#: An outcome's colour, by tone.
TONE_STYLES = {
    "triumph": "|g",
    "good": "|g",
    "mixed": BADGE,
    "neutral": "",
    "bad": "|y",
    "dire": DIRE_STYLE,
    "disaster": BADGE,
}

# ---------------------------------------------------------------- escaping

# C0 controls, DEL, C1 controls (U+0080-U+009F: U+009B is a terminal's CSI, U+0085 a line
# break), the Unicode line/paragraph separators, and the bidi marks, embeddings, overrides and
# isolates that reorder how a line reads.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")
# Evennia's output markup (`|`, and so `|l`, the MXP links) and its escape `{{`.
_MARKUP = re.compile(r"[|{]")
# A word joiner between the `|` and the `l`: the text reads the same, no link pattern matches,
# with colour on or off (see "Player text" above).
WORD_JOINER = "\u2060"
_LINK_BREAK = "||" + WORD_JOINER


def without_control(text):
    """Control characters (NUL, ESC, line breaks, C1, bidi overrides, ...) turned into spaces:
    PostgreSQL refuses NUL in text, and a line break in echoed text could start a forged line."""
    return _CONTROL.sub(" ", str(text))


def _inert(match):
    return _literal(match.group(), match.string[match.end():match.end() + 1])


def escape(text, limit=None):
    """
    Player text made inert (see the module docstring): shown exactly as typed, on one line,
    with no colour, layout, link or control code of its own.

    Args:
        text: what the player typed (anything: it is made a string).
        limit (int, optional): at most this many characters of it are shown, then "...".
    """
    text = " ".join(without_control(text).split())
    if limit and len(text) > limit:
        text = text[:limit].rstrip() + "..."
    return _MARKUP.sub(_inert, text)


def _plain(text):
    """Text of ours or a system's made inert like `escape`, but keeping its runs of spaces
    (a sheet line's layout)."""
    return _MARKUP.sub(_inert, without_control(text))


# ---------------------------------------------------------------- measuring markup

# Evennia's markup (evennia.utils.ansi.ANSIParser with the default colour maps), tried at a
# `|` in this order, as Evennia's passes run: hex, xterm256 fg/bg, greyscale fg/bg, then the
# ANSI map. `|[r`-style bright backgrounds are only codes when no `|` comes just before them
# (Evennia converts them first, with that look-behind, on the whole string).
_CODE = re.compile(
    r"\|\[?#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})"
    r"|\|\[?[0-5]{3}"
    r"|\|\[?=[a-z]"
    r"|\|[!\[][RGYBMCWX]"
    r"|\|[nrgybmcwxRGYBMCWXhHuUiIsS*^]"
)
_BRIGHT_BG = re.compile(r"\|\[[rgybmcwx]")
_LAYOUT = {"|/": "\r\n", "|-": "\t", "|>": "    ", "|_": " "}
_MXP = re.compile(r"\|lc(.*?)\|lt(.*?)\|le", re.DOTALL)
_MXP_URL = re.compile(r"\|lu(.*?)\|lt(.*?)\|le", re.DOTALL)
_RAW_ANSI = re.compile(r"\033\[[0-9;]+m")
_PLACEHOLDER = "\033[0m"  # a code while links are matched: invisible, and no `|` for them
_CODE_UNIT = re.compile(r"\[code [0-9A-Za-z]{1,9}\]")

# What Evennia's bright backgrounds stand for (its `ansi_xterm256_bright_bg_map`): written so,
# a background needs no look-behind and reads the same after a `||`.
_BRIGHT_BG_XTERM = {"r": "500", "g": "050", "y": "550", "b": "005", "m": "505", "c": "055",
                    "w": "555", "x": "222"}
_LINK_CODES = ("|lc", "|lu", "|lt", "|le")

# token kinds
_STYLE, _TEXT, _SPACE, _LINK = "style", "text", "space", "link"


def _tokens(markup, links=False):
    """
    The markup as (kind, source, shown) tokens, in order: style codes (shown as nothing),
    spaces, and everything else (one shown character each; an escape `||`/`{{` shows one
    character, a layout code its characters). With `links`, each MXP link code (`|lc`, `|lu`,
    `|lt`, `|le`) is a token of its own, shown as nothing; else it is the characters it is
    made of, as Evennia shows one that is not part of a whole link.
    """
    out = []
    i, n = 0, len(markup)
    while i < n:
        char = markup[i]
        if char == "|":
            pair = markup[i:i + 2]
            if pair == "||":
                out.append((_TEXT, pair, "|"))
                i += 2
                continue
            if pair in _LAYOUT:
                out.append((_TEXT, pair, _LAYOUT[pair]))
                i += 2
                continue
            if links and markup[i:i + 3] in _LINK_CODES:
                out.append((_LINK, markup[i:i + 3], ""))
                i += 3
                continue
            found = _CODE.match(markup, i)
            if not found and (i == 0 or markup[i - 1] != "|"):
                found = _BRIGHT_BG.match(markup, i)
            if found:
                out.append((_STYLE, found.group(), ""))
                i = found.end()
                continue
            out.append((_TEXT, char, char))
        elif char == "\033" and (found := _RAW_ANSI.match(markup, i)):
            # A colour already turned into ANSI (an `ANSIString`, Evennia's tables) shows nothing.
            out.append((_STYLE, found.group(), ""))
            i = found.end()
            continue
        elif char == "{" and markup[i:i + 2] == "{{":
            out.append((_TEXT, "{{", "{"))
            i += 2
            continue
        elif char == " ":
            out.append((_SPACE, char, char))
        else:
            out.append((_TEXT, char, char))
        i += 1
    return out


def shown_at(markup):
    """(index in `markup`, character) for each character Evennia shows of `markup`, in order
    (links are not followed: the markup is taken to have none, as `colour_only` leaves it)."""
    seen, at = [], 0
    for kind, source, text in _tokens(str(markup)):
        if kind != _STYLE:
            seen.extend((at, char) for char in text)
        at += len(source)
    return seen


def strip_markup(markup):
    """The text as Evennia's `strip_ansi` leaves it: no colour, escapes undone, links' text."""
    shown = "".join(_PLACEHOLDER if kind == _STYLE else text for kind, _, text in _tokens(str(markup)))
    shown = _MXP.sub(r"\2", shown)
    shown = _MXP_URL.sub(r"\1", shown)
    return _RAW_ANSI.sub("", shown)


def _literal(char, following):
    """Markup that shows `char` as it is, whatever `following` (the next shown character) is."""
    if char == "|":
        return _LINK_BREAK if following == "l" else "||"
    return "{{" if char == "{" else char


def inert(text):
    """
    Markup that Evennia shows as exactly `text`, line breaks and runs of spaces included (the
    plain text a screen reader is sent, say): each `|` and `{` made literal, as `escape` does,
    nothing else touched.
    """
    text = str(text)
    return "".join(_literal(char, text[i + 1:i + 2]) for i, char in enumerate(text))


def _lasting(style):
    """A colour code that reads the same wherever it is put: nothing after it lengthens it
    (`_solid`), and a bright background needs no look-behind."""
    if _BRIGHT_BG.fullmatch(style):
        return "|[" + _BRIGHT_BG_XTERM[style[2]]
    return _solid(style)


def colour_only(markup, layout=" "):
    """
    A player's markup (speech, a description) with its colour kept and nothing else: every
    layout code (`|/`, `|-`, `|_`, `|>`) becomes `layout` (a string, or a dict from code to
    what it becomes, where a line feed stays one in the result), every MXP link code (`|lc`,
    `|lu`, `|lt`, `|le`) becomes a space after text that has none (the link's parts stay, as
    plain text, apart), control characters become spaces, and every other character is shown
    as it is. **Ruling:** inverse video (`|*`) is dropped from text that has a hex colour
    (`|#ff0000`), which Evennia's web client cannot render together.

    One left-to-right pass over the same tokens Evennia's parser sees (`_tokens`), then the
    result is written anew: removing a code can never join the text around it into new markup
    (`|l|ltc` is `|l` and `c`, shown as such, never a link), and the result is a fixed point:
    `colour_only(colour_only(x)) == colour_only(x)`, and what Evennia shows of it is exactly the
    characters kept.
    """
    shown, styles = [], []
    for kind, source, text in _tokens(without_control(markup), links=True):
        if kind == _STYLE:
            styles.append((len(shown), _lasting(source)))
        elif kind == _LINK:
            if shown and not shown[-1].isspace():
                shown.append(" ")
        elif source in _LAYOUT:
            shown.extend(layout.get(source, " ") if isinstance(layout, dict) else layout)
        else:
            shown.append(text)
    if any(code.lstrip("|[").startswith("#") for _, code in styles):
        # Evennia's web client fails on inverse (`|*`) with a hex colour (its text2html raises):
        # the message would reach no web-client player. Inverse goes; the colours stay.
        styles = [(at, code) for at, code in styles if code != "|*"]
    out, pending = [], iter(styles)
    style = next(pending, None)
    for i, char in enumerate(shown + [""]):
        while style is not None and style[0] == i:
            out.append(style[1])
            style = next(pending, None)
        out.append(_literal(char, shown[i + 1] if i + 1 < len(shown) else ""))
    return "".join(out)


def _one_per_code_point(shown):
    return len(shown)


_MEASURE = [_one_per_code_point]


def measure_columns(measure=None):
    """
    Set how many terminal columns shown text takes (a callable, str -> int), for `visible_len`
    and `wrap` (see "The column seam" in the module docstring); None: one per code point.
    Returns the measure it replaces (so a caller can put it back).
    """
    before = _MEASURE[0]
    _MEASURE[0] = measure or _one_per_code_point
    return before


def column_measure():
    """The measure in force (`measure_columns`): what a cache of measured text is keyed by."""
    return _MEASURE[0]


def columns(shown):
    """How many terminal columns `shown` (text as the screen shows it, no markup) takes."""
    return _MEASURE[0](shown)


def visible_len(markup):
    """How many columns the markup takes on screen (see "Width" in the module docstring)."""
    return columns(strip_markup(markup))


# ---------------------------------------------------------------- wrapping


def reported_number(value):
    """
    A size a client reported (an int, or digits as text) as an int; None for anything else
    (text that is not digits, a bool, a float, None). Digits too many to read are a huge number.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        value = value.strip()
        if value.isascii() and value.isdigit():
            return int(value) if len(value) <= 9 else 10**9
    return None


def fit_width(width):
    """
    A reported screen width as the layout uses it: none (None, 0, or anything that is not a
    whole number) is 80, and the rest is held between `MIN_WIDTH` (20) and `MAX_WIDTH` (250).
    """
    number = reported_number(width)
    if not number or number < 0:
        return DEFAULT_WIDTH
    return max(MIN_WIDTH, min(MAX_WIDTH, number))


def _width(width):
    """
    The width the layout functions work to: any whole number from 20 (a caller may ask for
    text unwrapped, at 10**6 columns). A client's width is bounded where it is read, by
    `fit_width` (`commands.dice_base.width_of`, the session's flags).
    """
    if not width:
        return DEFAULT_WIDTH
    return max(int(width), MIN_WIDTH)


def _atoms(tokens, start, end, glued, measure):
    """
    The unsplittable pieces of a word (tokens[start:end]) as (source, width, styles) lists: a
    shown character with the style codes before it (codes after the last one join it), or a
    whole `[code XXXX]`.
    """
    atoms = []
    pending = []
    i = start
    while i < end:
        kind, source, shown = tokens[i]
        if kind == _STYLE:
            pending.append(source)
            i += 1
            continue
        if i in glued:
            stop = glued[i]
            sources = [t[1] for t in tokens[i:stop]]
            width = sum(measure(t[2]) for t in tokens[i:stop])
            styles = [t[1] for t in tokens[i:stop] if t[0] == _STYLE]
            atoms.append(["".join(pending + sources), width, pending + styles])
            pending = []
            i = stop
            continue
        if source == "|":
            # A lone `|` shows as itself; doubled it stays so when a break puts `|n` after it.
            source = "||"
        atoms.append(["".join(pending) + source, measure(shown), pending])
        pending = []
        i += 1
    if pending:
        if atoms:
            atoms[-1][0] += "".join(pending)
            atoms[-1][2] = atoms[-1][2] + pending
        else:
            atoms.append(["".join(pending), 0, pending])
    return atoms


def _glued_spans(markup, tokens):
    """Token index -> end index of each `[code XXXX]` (its inner space is not a break)."""
    offsets, position = [], 0
    for _, source, _ in tokens:
        offsets.append(position)
        position += len(source)
    at = {offset: index for index, offset in enumerate(offsets)}
    at[position] = len(tokens)
    spans = {}
    for found in _CODE_UNIT.finditer(markup):
        if found.start() in at and found.end() in at:
            spans[at[found.start()]] = at[found.end()]
    return spans


def _words(tokens, start, glued):
    """(spaces before, start, end) for each word from `start`: the token ranges between runs
    of spaces (spaces at the very end are dropped: a wrapped line needs none)."""
    words, i, n = [], start, len(tokens)
    while i < n:
        spaces = ""
        while i < n and tokens[i][0] == _SPACE:
            spaces += " "
            i += 1
        first = i
        while i < n and tokens[i][0] != _SPACE:
            i = glued.get(i, i + 1)
        if first < i:
            words.append((spaces, first, i))
    return words


_RESETS = ("|n", "\033[0m")
_SHORT_HEX = re.compile(r"(\|\[?#)([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])")


def _solid(style):
    """A style code that the text after it cannot lengthen: `|#abc` (which a following `d`
    would make `|#abcd..`) as `|#aabbcc`, the same colour."""
    found = _SHORT_HEX.fullmatch(style)
    return found.group(1) + "".join(digit * 2 for digit in found.groups()[1:]) if found else style


class _Lines:
    """The lines being filled by `_wrap_line`, with the styles open at the end of each."""

    def __init__(self, lead, hang, width):
        self.lines, self.hang, self.width = [], hang, width
        self.parts, self.used, self.active = [lead], len(lead), []
        self.fresh = True  # nothing but the indent (and carried styles) on this line yet

    @property
    def at_break(self):
        """Nothing shown since a break: the run of spaces there is dropped, and the line is not
        broken again (a continuation always has room for a unit). The first line has no break: a
        space after a leading colour code (`|r word`) is text and stays, and a line whose own
        leading spaces leave no room for the first character is broken before it."""
        return self.fresh and bool(self.lines)

    def fits(self, size):
        return self.used + size <= self.width

    def add(self, text, size=0, styles=()):
        for style in styles:
            self.active = [] if style in _RESETS else self.active + [style]
        self.parts.append(text)
        self.used += size
        if size:
            self.fresh = False

    def add_atoms(self, atoms):
        for source, size, styles in atoms:
            self.add(source, size, styles)

    def break_line(self):
        text = "".join(self.parts)
        self.lines.append(text + "|n" if self.active else text)
        self.active = [_solid(style) for style in self.active]
        self.parts, self.used, self.fresh = [self.hang + "".join(self.active)], len(self.hang), True

    def done(self):
        if not self.fresh or not self.lines:
            self.lines.append("".join(self.parts))
        return self.lines


def _wrap_line(line, width, indent, measure):
    tokens = _tokens(line)
    if sum(measure(t[2]) for t in tokens) <= width:
        return [line]  # a line that fits comes back untouched
    glued = _glued_spans(line, tokens)
    start = 0
    while start < len(tokens) and tokens[start][0] == _SPACE:
        start += 1
    lead = " " * start
    # The hanging indent leaves a continuation line room for a whole `[code XXXX]`.
    hang = " " * max(0, min(start + indent, width - 16))
    out = _Lines(lead, hang, width)
    for spaces, first, end in _words(tokens, start, glued):
        atoms = _atoms(tokens, first, end, glued, measure)
        size = sum(atom[1] for atom in atoms)
        gap = "" if out.at_break else spaces
        if out.fits(len(gap) + size):
            out.add(gap, len(gap))
            out.add_atoms(atoms)
            continue
        if len(hang) + size <= width:
            out.break_line()
            out.add_atoms(atoms)
            continue
        # Longer than a whole line: the only time a word is split, between its atoms.
        if not out.at_break:
            if out.fits(len(gap) + atoms[0][1]):
                out.add(gap, len(gap))
            else:
                out.break_line()
        for atom in atoms:
            if not out.fits(atom[1]) and not out.at_break:
                out.break_line()
            out.add(*atom)
    return out.done()


def wrap(markup, width=80, indent=2, columns=None):
    """
    A marked-up text as lines of at most `width` visible columns (see "Width" in the module
    docstring); each "\\n"-separated line is wrapped on its own.

    Args:
        markup (str): the text, markup and all (player text already escaped).
        width (int): the screen's width in columns (None or 0: 80; at least 20).
        indent (int): the hanging indent of continuation lines, beyond the line's own
            leading spaces.
        columns (callable, optional): shown text -> terminal columns, for this call (else
            the measure `measure_columns` set: see "The column seam").

    Returns:
        list of str: the lines, without "\\n".
    """
    width = _width(width)
    measure = columns or _MEASURE[0]
    lines = []
    for line in str(markup).split("\n"):
        lines.extend(_wrap_line(line, width, indent, measure))
    return lines



def fit(text, width=80):
    """A message of ours (lines joined by "\\n") with each line fitted to `width` (`wrap`)."""
    return "\n".join(wrap(text, width))


def fitted(text):
    """`text` as `announce` and `send` take it to fit each receiver: a callable width -> text."""
    return lambda width: fit(text, width)

def append_code(text, code, width=80):
    """
    `text` (lines joined by "\\n") with ` [code XXXX]` at the end of its last line, or on a line
    of its own (indented as that line would continue) when it would not fit in `width`.
    """
    width = _width(width)
    unit = f"[code {escape(code)}]"
    lines = str(text).split("\n")
    last = lines[-1]
    if visible_len(last) + 1 + visible_len(unit) <= width:
        lines[-1] = f"{last} {unit}" if last else unit
    else:
        # Indented as a continuation: 2 under a header, 4 under an indented (body) line.
        hang = 4 if last.startswith(" ") else 2
        lines.append(" " * min(hang, width - 16) + unit)
    return "\n".join(lines)


def _pad(markup, columns):
    """The markup padded with spaces to `columns` visible columns (`str.ljust` for markup)."""
    return markup + " " * max(0, columns - visible_len(markup))


def _fit(lines, width, indent=2):
    out = []
    for line in lines:
        out.extend(wrap(line, width, indent))
    return "\n".join(out)


# ---------------------------------------------------------------- rolls


def _colour(marks):
    """The colour of a die with these marks: worked out once per set of marks and set of rules
    (a roll draws every die for every width; the rules change only when a system registers)."""
    rules = MARK_STYLES.items()
    if _COLOURS.get("rules") is not rules:
        _COLOURS.clear()
        _COLOURS["rules"] = rules
    colour = _COLOURS.get(marks)
    if colour is None:
        colour = _COLOURS[marks] = next((style for needed, style in rules if needed <= marks), "")
    return colour


_COLOURS = {}


def _die_style(die):
    marks = die.marks
    extra = "".join(style for mark, style in MODIFIER_STYLES if mark in marks)
    return extra + _colour(marks)


_CSS_MARK = re.compile(r"[a-z][a-z0-9_-]*")


def mark_css(looks=None, scope=".rolllog-dice .die"):
    """
    The roll log pages' CSS for the systems' own marks (`System.mark_looks`, every installed
    system's), one rule a look. The pages have the shared marks' looks already
    (rolllog/static/rolllog/rolllog.css); these come after them. A die takes the first look
    that fits on telnet, so here the looks are written last-first: of two rules that fit equally
    (a Hunger 10 is "hunger"+"ten" and "hunger"+"success"), the later, the telnet's first, wins.
    """
    looks = systems.declared("mark_looks") if looks is None else looks
    rules = []
    for look in reversed(tuple(looks)):
        if look.css and all(_CSS_MARK.fullmatch(mark) for mark in look.marks):
            selector = scope + "".join(f".mark-{mark}" for mark in sorted(look.marks))
            rules.append(f"{selector} {{ {look.css.replace('<', '')} }}")
    return "\n".join(rules)


def format_die(die, modifiers=True):
    """One face with its look (`|g10|n`, `|[400|w1|n`, `|0307|n`, `3`); `modifiers=False`: colour only."""
    style = _die_style(die) if modifiers else _colour(die.marks)
    return f"{style}{die.face}|n" if style else str(die.face)


def _group_label(group):
    label = escape(group.label)
    if group.sides != 10 and f"d{group.sides}" not in group.label.lower():
        label = f"{label} (d{group.sides})".strip()
    if not label:
        return ""
    style = next((style for marks, style in LABEL_STYLES
                  if group.dice and all(marks <= die.marks for die in group.dice)), "")
    return f"{style}{label}:|n" if style else f"{label}:"


def format_group(group):
    """`Dice: 2 6 |g10|n`, `|rHunger:|n |[400|w1|n |r3|n`, `Dice (d8): 3 8`."""
    faces = " ".join(format_die(die) for die in group.dice) or "none"
    label = _group_label(group)
    return f"{label} {faces}" if label else faces


def format_dice(view):
    """Every group of the view, two spaces apart (`no dice` when there are none)."""
    return "  ".join(format_group(group) for group in view.groups) or "no dice"


def format_outcome(view):
    """`4 successes: messy critical (margin +1, solid success)`, coloured by the tone."""
    colour = TONE_STYLES.get(view.outcome.tone, "")
    label = escape(view.outcome.label)
    text = f"{colour}{label}|n" if colour else label
    if view.score_text:
        text = f"{escape(view.score_text)}: {text}"
    if view.notes:
        text += " (" + "; ".join(escape(note) for note in view.notes) + ")"
    return text


def format_pool(view):
    """`Dexterity 3 + Stealth 2 = 5 dice, Hunger 2, vs 3`: the pool, then the target if any."""
    text = escape(view.pool)
    if view.target:
        text += f", {escape(view.target)}" if text else escape(view.target)
    return text


def comment_suffix(comment):
    """A player's comment after a roll's header: ` # <comment>` (escaped, at most
    `MAX_COMMENT` characters), or "" for none."""
    return f" # {escape(comment, MAX_COMMENT)}" if comment and escape(comment) else ""


def format_roll(view, name, verb="rolls", comment="", private_to=None, width=80, prefix=None):
    """
    What everyone in the audience sees of a roll, each line fitted to `width`.

    Args:
        view (rules.engine.RollView): the roll.
        name (str): who rolled (escaped here).
        verb (str): "rolls", "checks", ... (plain text).
        comment (str): the player's comment (escaped here, at most MAX_COMMENT characters).
        private_to (list of str or None): the names a private roll is shown to.
        width (int): the receiver's screen width.
        prefix (str, optional): markup in front (default `[Roll]`, or `[Private roll]`).

    Returns:
        str: the lines, joined by "\\n": the header, the dice and outcome, and for a private
        roll who saw it.
    """
    if prefix is None:
        prefix = PREFIX if private_to is None else PRIVATE_PREFIX
    header = f"{prefix} {escape(name)} {escape(verb)} {format_pool(view)}".rstrip()
    header += comment_suffix(comment)
    lines = [header, f"  {format_dice(view)}  =>  {format_outcome(view)}"]
    if private_to is not None:
        lines.append("  (private: shown to " + ", ".join(escape(n) for n in private_to) + ")")
    return _fit(lines, width)


def format_reroll(before_view, after_view, label, width=80, detail=""):
    """
    A reroll of some dice (V5's Willpower): what was rerolled, then the new dice and outcome.

    `  |wWillpower|n (failures): rerolled 2 3 -> 7 |g10|n` and `  Dice: ...  =>  ...`.
    The rerolled dice are those `after_view` marks "rerolled"; their old faces are the faces
    at the same places of the group with the same label in `before_view`.

    Args:
        label (str): what rerolled them ("Willpower"), shown bold.
        detail (str): shown after it in brackets (the strategy), if any.
    """
    before = {group.label: group for group in before_view.groups}
    old, new = [], []
    for group in after_view.groups:
        earlier = before.get(group.label)
        for index, die in enumerate(group.dice):
            if die.has(REROLLED):
                if earlier is not None and index < len(earlier.dice):
                    old.append(format_die(earlier.dice[index], modifiers=False))
                new.append(format_die(die, modifiers=False))
    head = f"  |w{escape(label)}|n" + (f" ({escape(detail)})" if detail else "")
    what = f"rerolled {' '.join(old)} -> {' '.join(new)}" if new else "rerolled no dice"
    lines = [f"{head}: {what}", f"  {format_dice(after_view)}  =>  {format_outcome(after_view)}"]
    return _fit(lines, width)


# ---------------------------------------------------------------- odds


def shares(probabilities, units=1000, total=None, prefer=None):
    """
    Exact chances as whole `units` (tenths of a percent by default) summing to `units` (or
    `total`, when given: the units these chances share of a larger whole), by largest
    remainder, with a possible outcome never at 0 and equal chances always equal (see "Odds"
    in the module docstring). Chances that do not sum to 1 (and no `total`) are shown as they
    are rounded, each on its own. `prefer(indexes, counts)`, optional: among equal remainders,
    the larger goes first (else the earlier chance).
    """
    exact = [Fraction(p) * units for p in probabilities]
    if total is None:
        if sum(exact) != units:
            return [round(value) for value in exact]
        total = units
    counts = [value.numerator // value.denominator for value in exact]
    for index, value in enumerate(exact):
        if value > 0 and counts[index] == 0:
            counts[index] = 1
    ties = {}
    for index, value in enumerate(exact):
        ties.setdefault(value, []).append(index)
    groups = list(ties.values())
    left = total - sum(counts)
    while left > 0:
        given = _round_up(groups, exact, counts, left, prefer)
        if not given:
            break
        left -= given
    while left < 0:
        taken = _round_down(groups, exact, counts, -left)
        if not taken:
            break
        left += taken
    return counts


def _round_up(groups, exact, counts, left, prefer=None):
    """
    One pass of the largest remainder: a unit to each group of equal chances in turn, the
    largest remainder first (then `prefer`'s choice), while it fits whole; returns the units
    given. A group that does not fit stops every later one shown at its figure (they are
    smaller), so order holds.
    """
    pending = [g for g in groups if exact[g[0]] > counts[g[0]]]
    given, stopped = 0, set()
    while pending:
        group = min(pending, key=lambda g: (-(exact[g[0]] - counts[g[0]]),
                                            -prefer(g, counts) if prefer else 0, g[0]))
        pending.remove(group)
        if given + len(group) > left or counts[group[0]] in stopped:
            stopped.add(counts[group[0]])
            continue
        for index in group:
            counts[index] += 1
        given += len(group)
    return given


def _round_down(groups, exact, counts, excess):
    """
    Take back units lent to near-zero outcomes, a group of equal chances at a time, from the
    most over-rounded group still shown at 0.2% or more; returns the units taken (0: none fits).
    """
    candidates = [g for g in groups if counts[g[0]] >= 2 and len(g) <= excess]
    if not candidates:
        return 0
    group = min(candidates, key=lambda g: (exact[g[0]] - counts[g[0]], g[0]))
    for index in group:
        counts[index] -= 1
    return len(group)


def _percent(count, units=1000):
    whole, tenth = divmod(count, units // 100)
    return f"{whole}.{tenth}%"


def _chart_rows(distribution):
    """(label, probability) rows of the chart (see "Odds" in the module docstring)."""
    return [(label, p) for label, p, _ in _chart_spans(distribution)]


def _chart_spans(distribution):
    """The chart's rows as (label, probability, the scores the row holds)."""
    items = [(score, Fraction(p)) for score, p in distribution]
    if not items:
        return []
    likely = [i for i, (_, p) in enumerate(items) if p >= CHART_MIN]
    if not likely:
        likely = [max(range(len(items)), key=lambda i: items[i][1])]
    lo, hi = likely[0], likely[-1]
    if hi - lo + 1 > CHART_ROWS:
        best = max(range(lo, hi - CHART_ROWS + 2),
                   key=lambda s: (sum(p for _, p in items[s:s + CHART_ROWS]), -s))
        lo, hi = best, best + CHART_ROWS - 1
    rows = []
    for index in range(lo, hi + 1):
        score, p = items[index]
        label, first, last = str(score), index, index
        if index == lo and any(q for _, q in items[:lo]):
            p += sum(q for _, q in items[:lo])
            label, first = f"≤ {score}", 0
        if index == hi and any(q for _, q in items[hi + 1:]):
            p += sum(q for _, q in items[hi + 1:])
            label, last = f"≥ {score}", len(items) - 1
        rows.append((label, p, frozenset(s for s, _ in items[first:last + 1])))
    return rows


def _covered(scores, spans):
    """
    The indexes of the chart rows an outcome covering `scores` ((low, high), high None: and
    up) is made of, or None when it splits a row (it is not a sum of rows).
    """
    low, high = scores
    rows = []
    for index, (_, _, held) in enumerate(spans):
        inside = {s for s in held if s >= low and (high is None or s <= high)}
        if inside and inside != held:
            return None
        if inside:
            rows.append(index)
    return rows


def _made_of_rows(items, spans, rows):
    """{index: figure} for the items that are exactly some chart rows: the sum of their figures."""
    made_of = {}
    for index, item in enumerate(items):
        if item.scores is None or not spans:
            continue
        covered = _covered(item.scores, spans)
        if covered is not None and sum((spans[i][1] for i in covered), Fraction(0)) == item.probability:
            made_of[index] = sum(rows[i] for i in covered)
    return made_of


def _share_out(items, spans, rows, total, units):
    """The figures of `items` (Chances) sharing `total` units, agreeing with the chart's rows."""
    made_of = _made_of_rows(items, spans, rows)
    others = [i for i in range(len(items)) if i not in made_of]
    rest = shares([items[i].probability for i in others], units, total=total - sum(made_of.values()))
    figures = {**made_of, **dict(zip(others, rest))}
    if others and sum(figures.values()) != total:
        # The rest cannot take what the rows leave (a possible outcome is never 0.0%): the
        # column's sum comes first, the items rounded alone.
        return shares([item.probability for item in items], units, total=total)
    return [figures[i] for i in range(len(items))]


def _deficits(chances, spans, units):
    """
    For the chart's rounding: which rows' outcomes most need a tenth. Among rows with equal
    remainders, the tenth goes to the row whose outcome (the chance made of it, or the rows no
    such chance holds, together) is shown furthest below its exact figure, so the outcome
    lines come out as near their exact chances as the rows allow.
    """
    block = {}
    for chance in chances:
        covered = _covered(chance.scores, spans) if chance.scores is not None else None
        if covered and sum((spans[i][1] for i in covered), Fraction(0)) == chance.probability:
            for row in covered:
                block[row] = tuple(covered)
    rest = tuple(i for i in range(len(spans)) if i not in block)
    for row in rest:
        block[row] = rest

    def deficit(group, counts):
        owners = {block[i] for i in group}
        return max(sum(spans[i][1] for i in rows) * units - sum(counts[i] for i in rows) for rows in owners)

    return deficit


def odds_figures(odds_view, units=1000):
    """
    The figures of one odds screen, in `units` (tenths of a percent): (one per chance, one per
    chart row, one per part of the breakdown), agreeing with each other (see "Odds" in the
    module docstring): an outcome that is exactly some chart rows shows their sum; the others
    share the rest; a breakdown's parts add up to the chance they split.
    """
    spans = _chart_spans(odds_view.distribution) if odds_view.distribution else []
    chances = odds_view.chances
    rows = shares([p for _, p, _ in spans], units, prefer=_deficits(chances, spans, units)) if spans else []
    counts = _share_out(chances, spans, rows, units, units) if chances else []
    parts = []
    if odds_view.breakdown:
        _, key, items = odds_view.breakdown
        whole = counts[[c.key for c in chances].index(key)]
        parts = _share_out(items, spans, rows, whole, units)
    return counts, rows, parts


def odds_cells(odds_view, counts=None):
    """Each chance's figure as `format_odds` shows it ("12.3%"), in the chances' order (the web
    client's dice panel shows these very figures)."""
    counts = odds_figures(odds_view)[0] if counts is None else counts
    return [_percent(count) for count in counts]


def breakdown_line(odds_view, parts):
    """The breakdown as one line of plain text (`parts`: its figures from `odds_figures`)."""
    title, _, items = odds_view.breakdown
    return f"{title}: " + ", ".join(f"{item.label} {_percent(part)}"
                                    for item, part in zip(items, parts) if item.probability)


def _chart_lines(spans, counts, noun, width):
    """The chart's lines: its rows (from `_chart_spans`) with their figures (tenths)."""
    width = _width(width)
    label_w = max(len(label) for label, _, _ in spans)
    cells = [_percent(c) for c in counts]
    cell_w = max(len(cell) for cell in cells)
    room = max(1, min(MAX_BAR, width - 2 - label_w - 2 - cell_w - 1))
    top = max(p for _, p, _ in spans)
    lines = [f"  {escape(noun[-1]).capitalize()}:"]
    for (label, p, _), cell in zip(spans, cells):
        bar = 0 if not p else max(1, round(p / top * room))
        lines.append(f"  {label:>{label_w}}  {cell:>{cell_w}} {BAR * bar}".rstrip())
    return lines


def format_chart(distribution, noun=("success", "successes"), width=80):
    """The distribution of a score as a horizontal bar chart, one row per score."""
    spans = _chart_spans(distribution)
    if not spans:
        return ""
    return "\n".join(_chart_lines(spans, shares([p for _, p, _ in spans]), noun, width))


def format_odds(odds_view, width=80, prefix=ODDS_PREFIX):
    """
    The exact chances of a roll: the pool, each chance once (percentages summing to 100.0),
    the system's notes, and the score's distribution as a bar chart when the view has one;
    the outcome lines and the chart agree (`odds_figures`).
    """
    lines = [f"{prefix} {format_pool(odds_view)}".rstrip()]
    chances = odds_view.chances
    counts, rows, parts = odds_figures(odds_view)
    if chances:
        labels = [escape(c.label) for c in chances]
        label_w = max(visible_len(label) for label in labels)
        cells = odds_cells(odds_view, counts)
        cell_w = max(len(cell) for cell in cells)
        for chance, label, cell in zip(chances, labels, cells):
            colour = TONE_STYLES.get(chance.tone, "")
            shown = f"{colour}{label}|n" if colour else label
            lines.append(f"  {_pad(shown, label_w)}  {cell:>{cell_w}}")
    if parts:
        lines.append(f"  {escape(breakdown_line(odds_view, parts))}")
    for note in odds_view.notes:
        lines.append(f"  {escape(note)}")
    spans = _chart_spans(odds_view.distribution) if odds_view.distribution else []
    if spans:
        lines.extend(_chart_lines(spans, rows, odds_view.noun, width))
    return _fit(lines, width)


# ---------------------------------------------------------------- refusals


def format_refusal(message, usage="", width=80):
    """A refusal (markup, player text already escaped), then `Usage: ...` on its own line."""
    lines = [str(message)]
    if usage and usage.strip():
        lines.append(f"Usage: {escape(usage)}")
    return _fit(lines, width)


# ---------------------------------------------------------------- sheets

COLUMN = 26
LABEL = 15


def _columns(section, width):
    groups = section.rows
    cells_of = [[f"{_pad(_plain(label), LABEL)}{value:>2}" for label, value in traits] for _, traits in groups]
    column = max([COLUMN] + [visible_len(cell) + 2 for cells in cells_of for cell in cells])
    per_band = max(1, (width - 1) // column)
    lines = [f"|w{_plain(section.title)}|n"]
    for first in range(0, len(groups), per_band):
        band = range(first, min(first + per_band, len(groups)))

        def row(cells):
            return " " + "".join(_pad(cell, column) for cell in cells).rstrip()

        lines.append("|c" + row(_plain(groups[i][0]) for i in band) + "|n")
        for index in range(max(len(cells_of[i]) for i in band)):
            lines.append(row(cells_of[i][index] if index < len(cells_of[i]) else "" for i in band))
    return lines


def format_sheet(name, status, sections, width=80):
    """
    A character sheet: a title rule with the name and status, then each `SheetSection`
    (see "Sheets" in the module docstring), then a closing rule.

    Args:
        name (str): the character's name (escaped here).
        status (str): "approved", "not approved", ... (plain text).
        sections (tuple of rules.engine.SheetSection): from `System.sheet.layout(...)`.
        width (int): the screen's width.
    """
    width = _width(width)
    rule = width - 2
    room = max(1, rule - len(escape(status)) - 8)
    title = f" {escape(name, room)} ({escape(status)}) "
    pad = max(0, rule - visible_len(title))
    left = pad // 2 + (pad % 2 and rule % 2)
    lines = ["|w" + "=" * left + title + "=" * (pad - left) + "|n"]
    tracks = [s for s in sections if s.kind == "track"]
    track_w = max([visible_len(_plain(s.title)) for s in tracks] or [0])
    for section in sections:
        if section.kind == "columns":
            lines.extend(_columns(section, width))
        elif section.kind == "track":
            title = _plain(section.title)
            lines.append(f"|w{_pad(title, track_w)}|n [{_plain(section.boxes)}] "
                         f"{_plain(section.text)}".rstrip())
        else:
            text = _plain(section.text)
            colon = "" if text[:1].isdigit() else ":"
            lines.append(f"|w{_plain(section.title)}{colon}|n {text}".rstrip())
    lines.append("|w" + "=" * rule + "|n")
    return _fit(lines, width)
