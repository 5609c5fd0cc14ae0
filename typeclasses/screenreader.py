"""
Our lines for a screen reader: stripped here, on the Server, and sent as markup its Portal
parses once, whichever session handler the game has.

**Why.** With `option screenreader=on` (or a client that asks for it), Evennia's Portal first
turns a message into plain text (`parse_ansi(..., strip_ansi=True)`: colour codes gone,
escapes undone, links replaced by their text) and then parses that plain text *again* as
markup on its normal way out (telnet's `parse_ansi`, the web client's `parse_html`). What the
first pass made of an escape is live markup for the second: a player's `||/[Roll] ...` in a
roll's comment (shown as the characters `|/[Roll]` to everyone else) would reach a screen
reader as a new line starting with `[Roll]`, and an escaped `||lc...` as a link. No escaping
can survive that and still read the same for everyone else: `||` must show one `|` to a normal
client and would need `||||` for a screen reader.

**What.** `screenreader_text` strips a message exactly as the Portal would (Evennia's own
`parse_ansi` and `settings.SCREENREADER_REGEX_STRIP`) and returns markup that shows exactly
that plain text (`rules.display.inert`); it is sent with the screen-reader option off for that
one message, so the Portal parses it once. `msg_readable` does this for the sessions of a
receiver that read aloud (`commands.dice_base.send`, every roll line; the speech commands'
`say`, `pose`, `whisper`, `page` and `ooc`, whose lines carry player text), the others getting
the text as it is. The opt-in bundle's session handler (`typeclasses.sessionhandler`) does the same
for every message of the game; a message already sent this way is left alone there (the option
says the screen-reader mode is off for it). A message sent `raw` is left alone: the Portal
sends it without parsing.
"""

import re

from django.conf import settings
from evennia.utils.ansi import parse_ansi

from storyteller_dice.rules.display import inert

_SCREENREADER_STRIP = re.compile(settings.SCREENREADER_REGEX_STRIP, re.DOTALL | re.MULTILINE)
#: The message option that turns the Portal's own screen-reader pass off.
INERT_OPTIONS = {"screenreader": False}


def screenreader_text(text):
    """Markup that shows, parsed once, what Evennia's screen-reader mode makes of `text`."""
    plain = parse_ansi(text, strip_ansi=True, xterm256=False, mxp=False)
    return inert(_SCREENREADER_STRIP.sub("", plain))


def reads_aloud(session, options=None):
    """Whether the Portal would strip a message with `options` to `session` for a screen reader."""
    options = options or {}
    flags = getattr(session, "protocol_flags", None) or {}
    if options.get("raw", flags.get("RAW", False)):
        return False
    return bool(options.get("screenreader", flags.get("SCREENREADER", False)))


def _sessions(obj):
    try:
        return list(obj.sessions.all())
    except AttributeError:
        return []


def _stripped(text):
    """`text` (a str, or Evennia's `(str, {kwargs})`) with its str as `screenreader_text` makes it,
    or None when there is no str to strip."""
    # A subclass of str (a line marked as ours, typeclasses.incoming.OurLine) keeps its type:
    # the mark is what tells the receiver's `msg()` the line is not player text.
    if isinstance(text, str):
        return type(text)(screenreader_text(text))
    if isinstance(text, tuple) and text and isinstance(text[0], str):
        return (type(text[0])(screenreader_text(text[0])), *text[1:])
    return None


def msg_readable(obj, text, **kwargs):
    """
    `obj.msg(text, **kwargs)`, where `text` (a str, or `(str, {kwargs})`) goes to a session that
    reads aloud already stripped (`screenreader_text`, the Portal's pass off): one `msg()` as
    before when none of `obj`'s sessions does.
    """
    sessions = _sessions(obj)
    aloud = [session for session in sessions if reads_aloud(session)]
    stripped = _stripped(text) if aloud and kwargs.get("session") is None else None
    if stripped is None:
        obj.msg(text=text, **kwargs)
        return
    others = [session for session in sessions if session not in aloud]
    if others:
        obj.msg(text=text, session=others, **kwargs)
    options = {**(kwargs.pop("options", None) or {}), **INERT_OPTIONS}
    obj.msg(text=stripped, session=aloud, options=options, **kwargs)
