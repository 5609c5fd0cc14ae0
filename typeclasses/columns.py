"""
Every line a client gets fits its screen: the game wraps it, at that client's width, before
the client's terminal would.

**Why.** A terminal wraps a line longer than its screen itself, and the part that does not
fit starts the next screen line at column 0, where the game's own lines start. So player text
that fills a line exactly puts whatever the player typed after it at the start of a screen
line: `pose glances at the clock.` and 53 spaces, then `|wAccount|n |cadmin|n |wpages:|n ...`,
drew on an 80-column screen a page header from `admin`, byte for byte, with `+nospoof`'s tag
only on the line above. Wrapping here, with a hanging indent (`rules.display.wrap`: the line's
own leading spaces and two more), means a line the server sends never runs past the screen,
and everything after a break starts at least two columns in: the start of a screen line
(column 0) is the game's only.

**Columns, not characters.** A terminal gives an East Asian wide character (`一`, most emoji)
two columns and a combining mark or a zero-width character none: 21 × `一` is 42 columns,
not 21. `terminal_columns` measures with the maintained wcwidth library (the table terminal
emulators follow) and is set at import as the measure of `rules.display` (its column seam), so
our own lines (a roll with its comment) are drawn to the screen in columns as well.
**Ruling:** ASCII counts one column a character, as Evennia counts it (a tab too: player text
holds none, control characters become spaces, and a description's `%t` is four spaces);
characters of ambiguous width count narrow, as wcwidth and terminals outside East Asian
locales count them; a sequence joined by zero-width joiners counts each of its parts (never
less than a terminal shows).

**Where.** Per session, where the receiving sessions are known: `deliver` is the
Character's and the Account's `msg()` (typeclasses/incoming.py `send_mxp_inert`), so speech,
poses, `look` (descriptions, the names it lists), pages, channels and our roll lines reach
each session at its width, with no command changing; the opt-in bundle's session
(`typeclasses.serversession.ServerSession.data_out`) does the same for everything else sent to
a client (Evennia's own lines, `who`, the login screen). A session's width is the one Evennia
keeps (`protocol_flags["SCREENWIDTH"][0]`: a telnet client's NAWS, the web client's reported
width, Evennia's default 78 for a telnet client that never says), read as
`commands.dice_base.width_of` reads it: held to 20-250, and 80 when none is known.

**Never twice into a mess.** A line that fits comes back exactly as it was, so a text wrapped
once (our roll lines, drawn at the receiver's width; a message wrapped by the Character and
then by the bundle's session) is not changed again. Line breaks are kept: each line (split
at line feeds and at Evennia's `|/`) is wrapped on its own.

- **Ruling (links):** a line that holds MXP link markup (`|lc`, `|lu`) and does not fit is sent
  as it is: a break inside a link would change the command it runs, and links are never
  player text (speech, names and descriptions have theirs removed, `escape` makes them inert).
  A line with a link that fits (measured as the text it shows) is left alone like any other.
- **Ruling (raw):** a message sent `raw` (the Portal sends it without reading markup) is not
  wrapped: a break's `|n` would show as two characters.
- **Ruling (MXP):** an MXP client shows `&lt;`, `&gt;` and `&amp;` as one character each; the
  session's check whether a line fits counts them so. The Character's and Account's `msg()`
  wrap before they escape (`incoming.mxp_inert`), so the escaped line is not wrapped again.
- Prompts are not wrapped (they hold no player text and a client keeps them on one line).
"""

from functools import lru_cache

from wcwidth import wcwidth

from storyteller_dice.rules.display import (
    DEFAULT_WIDTH, MIN_WIDTH, column_measure, fit_width, measure_columns, reported_number, shown_at, strip_markup,
    wrap,
)
from storyteller_dice.rules.display import _LINK, _tokens  # markup read as Evennia reads it

#: The hanging indent of a continuation line, beyond the line's own leading spaces.
INDENT = 2
#: How many wrapped texts are kept (see `_wrapped_text`): one message's receivers need one, a
#: few hundred cover every width in a busy room; each is a message already bounded in size.
WRAPPED_KEPT = 256
_LINK_STARTS = ("|lc", "|lu")
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))


@lru_cache(maxsize=4096)
def _char_columns(char):
    width = wcwidth(char)
    return width if width > 0 else 0  # combining, zero-width (0) and control characters (-1)


def terminal_columns(shown):
    """How many terminal columns `shown` (text as the screen shows it, no markup) takes."""
    if shown.isascii():
        return len(shown)
    return sum(_char_columns(char) for char in shown)


measure_columns(terminal_columns)


def session_width(session):
    """A session's screen width (see "Where" above): `protocol_flags["SCREENWIDTH"][0]`, held
    to 20-250; 80 when it has none, or one that is not a number or is below 20."""
    flags = getattr(session, "protocol_flags", None) or {}
    value = flags.get("SCREENWIDTH", {0: DEFAULT_WIDTH})
    if isinstance(value, dict):
        value = value.get(0, DEFAULT_WIDTH)
    value = reported_number(value)
    if value is None or value < MIN_WIDTH:
        return DEFAULT_WIDTH
    return fit_width(value)


def _unescaped(line):
    for entity, char in _ENTITIES:
        line = line.replace(entity, char)
    return line


def _fits(piece, width, mxp):
    return terminal_columns(strip_markup(_unescaped(piece) if mxp else piece)) <= width


def _pieces(line):
    """`line` cut at each of Evennia's line breaks (`|/`, not an escaped `||/`)."""
    if "|/" not in line:
        return [line]
    cuts = [index for index, char in shown_at(line) if char == "\r" and line.startswith("|/", index)]
    pieces, last = [], 0
    for cut in cuts:
        pieces.append(line[last:cut])
        last = cut + 2
    pieces.append(line[last:])
    return pieces


def _has_link(piece):
    """Whether `piece` holds link markup Evennia reads as a link start (not an escaped `||lc`)."""
    if "|l" not in piece:
        return False
    return any(kind == _LINK and source in _LINK_STARTS for kind, source, _ in _tokens(piece, links=True))


def _wrapped_piece(piece, width, mxp):
    if _fits(piece, width, mxp) or _has_link(piece):
        return piece
    return "\n".join(wrap(piece, width, INDENT))


def _wrapped_line(line, width, mxp):
    return "|/".join(_wrapped_piece(piece, width, mxp) for piece in _pieces(line))


def wrapped(text, width, mxp=False):
    """
    A message's text with every line fitted to `width` columns (see the module): a line that
    fits unchanged, the others broken at spaces with a hanging indent. `mxp`: the text is
    escaped for an MXP client (entities count one column). A `(text, {kwargs})` message has
    its text wrapped; anything that is not text comes back as it is.
    """
    if isinstance(text, tuple):
        if text and isinstance(text[0], str):
            return (wrapped(text[0], width, mxp), *text[1:])
        return text
    if not isinstance(text, str) or not text:
        return text
    lines = text.split("\n")
    if text.isascii() and max(map(len, lines)) <= width:
        return text  # most messages: nothing to measure
    return _wrapped_text(text, width, mxp, column_measure())


@lru_cache(maxsize=WRAPPED_KEPT)
def _wrapped_text(text, width, mxp, _measure):
    """
    `wrapped` of a text that must be measured, kept for its next receivers: a roll's lines go
    to everyone in the room, most of them at the same width, and measuring them was a quarter
    of the Server's time in a room of 50 rolling (py-spy over the load bench). The column
    measure in force is part of the key, so a test that swaps it never reads another's result.
    """
    return "\n".join(_wrapped_line(line, width, mxp) for line in text.split("\n"))


def sends_raw(session, options=None):
    """Whether the Portal sends a message with `options` to `session` without reading markup."""
    flags = getattr(session, "protocol_flags", None) or {}
    return bool((options or {}).get("raw", flags.get("RAW", False)))


def for_session(session, text, options=None, mxp=False):
    """`text` as `session` should get it: wrapped at its width, unless sent raw."""
    if sends_raw(session, options):
        return text
    return wrapped(text, session_width(session), mxp)
