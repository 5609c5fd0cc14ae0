"""
The Server's session handler, with three changes: text for a screen reader is parsed once,
the same message to many sessions may go to the Portal as one (`typeclasses.amp_batch`, whose
docstring says why and how: `data_out` below hands it the cleaned messages while it holds them),
and nothing is sent before what was written is on disk (`typeclasses.durable`, installed by the
first message).

**Why.** With `option screenreader=on` (or a client that asks for it), Evennia's Portal first
turns a message into plain text (`parse_ansi(..., strip_ansi=True)`: colour codes gone,
escapes undone, links replaced by their text) and then parses that plain text *again* as
markup on its normal way out (telnet's `parse_ansi`, the web client's `parse_html`). What the
first pass made of an escape is live markup for the second: a player's `||/[Roll] ...` (shown
as the characters `|/[Roll]` to everyone else) reaches a screen reader as a new line starting
with `[Roll]`, with no speaker before it, and an escaped `||lc...` as a link. No escaping can
survive that and still read the same for everyone else: `||` must show one `|` to a normal
client and would need `||||` for a screen reader.

**The fix.** The stripping is done here, on the Server, exactly as the Portal would do it
(Evennia's own `parse_ansi` and `settings.SCREENREADER_REGEX_STRIP`), and the plain text is
sent on as markup that shows exactly that text (`rules.display.inert`), with the screen-reader
option off for this one message, so the Portal parses it once. It covers every protocol (the
Portal's telnet, SSH and web client protocols all take the option from the message first) and
every message, stock Evennia ones included, because every message to a client passes through
`clean_senddata`. A message sent `raw` is left alone: the Portal sends it without parsing.

settings.py enables it with `SERVER_SESSION_HANDLER_CLASS`.
"""

import re

from django.conf import settings
from evennia.server.sessionhandler import ServerSessionHandler as BaseServerSessionHandler
from evennia.utils.ansi import parse_ansi

from storyteller_dice.rules.display import inert
from storyteller_dice.typeclasses import amp_batch, durable

_SCREENREADER_STRIP = re.compile(settings.SCREENREADER_REGEX_STRIP, re.DOTALL | re.MULTILINE)
# The send-instructions whose first argument is text a Portal parses.
_TEXT_KEYS = ("text", "prompt")


def screenreader_text(text):
    """Markup that shows, parsed once, what Evennia's screen-reader mode makes of `text`."""
    plain = parse_ansi(text, strip_ansi=True, xterm256=False, mxp=False)
    return inert(_SCREENREADER_STRIP.sub("", plain))


def _reads_aloud(session, options):
    flags = getattr(session, "protocol_flags", None) or {}
    if options.get("raw", flags.get("RAW", False)):
        return False
    return bool(options.get("screenreader", flags.get("SCREENREADER", False)))


class ServerSessionHandler(BaseServerSessionHandler):
    """Evennia's handler; a screen reader's text is stripped here, once (see the module)."""

    def data_out(self, session, **kwargs):
        """Evennia's, or the cleaned message held for a message to many (`amp_batch.batched`)."""
        durable.install()  # the first message: what the Server sends from now on waits for the disk
        if not amp_batch.holding():
            return super().data_out(session, **kwargs)
        amp_batch.hold(session, self.clean_senddata(session, kwargs))

    def clean_senddata(self, session, kwargs):
        cleaned = super().clean_senddata(session, kwargs)
        for key in _TEXT_KEYS:
            if key in cleaned:
                _strip_once(session, cleaned[key])
        return cleaned


def _strip_once(session, instruction):
    args, kwargs = instruction
    options = kwargs.get("options") or {}
    if not args or not isinstance(args[0], str) or not _reads_aloud(session, options):
        return
    args[0] = screenreader_text(args[0])
    kwargs["options"] = {**options, "screenreader": False}
