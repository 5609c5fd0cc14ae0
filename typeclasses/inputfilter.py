"""
The global input filter: what a client may put into a line of input.

Every line a client sends (telnet, SSH, the web client over websocket or AJAX, before login
as well as after) passes through `clean_line` before any command, stock Evennia ones included,
sees it. The hook is `typeclasses.serversession.ServerSession.data_in` (see there for why it
is that hook); this module is the filter itself, the standard library and `rules.display`'s
width bounds only (no Evennia), so commands and tests can use it too.

Removed:

- C0 controls U+0000-U+001F (ESC, NUL, BEL, backspace, CR, LF, ...), except TAB, which becomes
  a space; DEL U+007F; C1 controls U+0080-U+009F (U+009B is a one-byte CSI on many terminals,
  U+0085 a line break).
- Bidirectional formatting: the embeddings and overrides U+202A-U+202E, the isolates
  U+2066-U+2069, and the marks U+200E, U+200F, U+061C. With them one player's text could
  reorder what is shown after it on another player's screen.
- **Ruling:** a whole terminal escape sequence goes, not only its ESC: `ESC [ 2 J` leaves
  nothing rather than a stray `[2J` (clients in character mode send arrow keys this way,
  and a half-removed sequence reads as noise). The same for the one-byte CSI U+009B and for
  OSC strings (`ESC ] ... BEL`, which set window titles and, in some terminals, links).
- **Ruling:** the Unicode line and paragraph separators U+2028/U+2029 go too: some clients
  (and every JavaScript string) break the line there, which would let player text start a
  line of its own.
- **Ruling:** lone UTF-16 surrogates (U+D800-U+DFFF) go: a web client's JSON can carry them,
  and they cannot be encoded to UTF-8 (a stored page or a log line would fail with them).

**Sizes a client reports** (`bounded_sizes`): the screen width and height arrive from NAWS,
from the web client's and GMCP's `client_options` and from the `option` command, and lay out
every reply, so they are bounded where the session keeps them (see
`typeclasses.serversession`): a width is held to 20-250 columns and a height to 10-200
lines; a size that is not a whole number (`"abc"`, a float, a list) is ignored, the session
keeping the size it had. **Ruling:** 0 is no size (NAWS clients send it when they do not know)
and is ignored too.

**The text encoding** (`ENCODING`, set by the `option` command, the login screen's `encoding`
command and an account's saved options) is what the Portal encodes every reply with and
decodes every line with. Evennia checks only that Python knows the name, so `rot13`, `base64`
or `zlib` (codecs from text to text or bytes to bytes) were taken: the next line dropped the
connection with a TypeError, and a saved one dropped every later login. `text_encoding` is the
check, and the session's flags ignore an encoding that fails it, keeping the one they had.
**Ruling:** an encoding may be set when `str.encode` takes it (Python's own test of a text
encoding, which refuses rot13 and the like) and it writes printable ASCII, CR and LF as the
same bytes ASCII does, and reads them back: telnet's commands and line ends and every markup
code are ASCII, so UTF-16, UTF-7, punycode or EBCDIC would garble them. Every encoding a
MUD client offers passes (UTF-8, Latin-1, CP437, CP1252, KOI8-R, Big5, GBK, Shift-JIS, ASCII
...). An encoding that cannot write a character (ASCII and "é") is fine: Evennia then sends
that reply in the first of `settings.ENCODINGS` instead.

Kept: every printable character: accents, CJK, emoji, and the zero-width joiner and
non-joiner that emoji and several scripts need. Evennia markup (`|r`, `|/`, ...) is not a
control character and is left for the commands to judge (see commands/speech.py).
"""

import codecs
import re

from storyteller_dice.rules.display import MAX_WIDTH, MIN_WIDTH, reported_number

#: protocol flag: (smallest, largest) size a client may report.
SIZE_BOUNDS = {"SCREENWIDTH": (MIN_WIDTH, MAX_WIDTH), "SCREENHEIGHT": (10, 200)}

#: What an encoding must write as ASCII does and read back (see "The text encoding" above).
_ASCII_SAMPLE = "".join(map(chr, range(32, 127))) + "\r\n"
#: Longer than any codec's name: a longer one is refused before Python looks it up.
_MAX_ENCODING_NAME = 64

# One terminal escape sequence (ECMA-48), so that it goes as a whole: CSI (ESC [ or U+009B)
# with its parameter, intermediate and final bytes; OSC/DCS/PM/APC strings up to their
# terminator (BEL or ESC \\), when it has one (else only the introducer goes, not the rest of
# the line); any other two-character escape.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x9d\x98\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"
    r"|\x1b[\x20-\x7e]?"
)
_REMOVED = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f"
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u2028\u2029"
    "\ud800-\udfff]"
)
# Cheap test first: almost every line is plain text and is returned untouched.
_ANY = re.compile(_REMOVED.pattern[:-1] + "\t]")


def clean_line(text):
    """
    `text` with every control, bidi-formatting and line-separator character removed (TAB
    becomes a space).

    Args:
        text (str or bytes): one line of input; bytes are read as UTF-8 (bad bytes become
            U+FFFD).

    Returns:
        str: the filtered text (the same object when there was nothing to remove).
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    elif not isinstance(text, str):
        text = str(text)
    if not _ANY.search(text):
        return text
    text = _SEQUENCE.sub("", text)
    return _REMOVED.sub("", text.replace("\t", " "))


def clean_data(value, _depth=0):
    """
    `clean_line` applied to every string inside an inputfunc's arguments (lists, tuples and
    dict values, nested a few levels deep); numbers and the like pass unchanged.
    """
    if isinstance(value, (str, bytes, bytearray)):
        return clean_line(value)
    if _depth > 8:
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(clean_data(item, _depth + 1) for item in value)
    if isinstance(value, dict):
        return {key: clean_data(item, _depth + 1) for key, item in value.items()}
    return value


def bounded_size(name, value):
    """
    A reported screen size (`name` a key of `SIZE_BOUNDS`; `value` `{window: size}` as Evennia
    keeps it, or a bare size for window 0) held within its bounds, as `{window: size}`; None
    when there is no usable size in it.
    """
    low, high = SIZE_BOUNDS[name]
    if not isinstance(value, dict):
        value = {0: value}
    sizes = {}
    for window, size in list(value.items())[:8]:
        number = reported_number(size)
        if number and number > 0 and isinstance(window, int):
            sizes[window] = max(low, min(high, number))
    # Window 0 (the main one) must be there: Evennia reads `flags["SCREENWIDTH"][0]`.
    return sizes if 0 in sizes else None


def text_encoding(name):
    """
    The codec's own name for `name` (`"UTF8"` -> `"utf-8"`) when a session may use it as its
    text encoding (see "The text encoding" above), else None.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > _MAX_ENCODING_NAME:
        return None
    try:
        info = codecs.lookup(name.strip())
        written = _ASCII_SAMPLE.encode(info.name)
        if written != _ASCII_SAMPLE.encode("ascii") or written.decode(info.name) != _ASCII_SAMPLE:
            return None
    except (LookupError, ValueError, TypeError):  # UnicodeError is a ValueError
        return None
    return info.name


def bounded_sizes(flags):
    """
    `flags` (protocol flags about to be set) with every screen size bounded; a size with
    nothing usable in it is left out, so the session keeps the one it had. So is an
    `ENCODING` that is not a text encoding (`text_encoding`); a good one is kept by its
    codec's name.
    """
    flags = dict(flags)
    if "ENCODING" in flags:
        encoding = text_encoding(flags.pop("ENCODING"))
        if encoding is not None:
            flags["ENCODING"] = encoding
    for name in SIZE_BOUNDS:
        if name in flags:
            sizes = bounded_size(name, flags[name])
            if sizes is None:
                del flags[name]
            else:
                flags[name] = sizes
    return flags
