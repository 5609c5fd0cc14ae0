"""
The Server's session handler, with two changes: text for a screen reader is parsed once, and
the same message to many sessions may go to the Portal as one (`typeclasses.amp_batch`, whose
docstring says why and how: `data_out` below hands it the cleaned messages while it holds them).

**Why.** A screen reader's text is parsed twice by Evennia's Portal, and an escape a player
typed becomes live markup the second time (`typeclasses.screenreader` says how). Our own lines
are sent already stripped wherever the game's session handler comes from; this handler does the
same for every other message, stock Evennia ones included.

**The fix.** The stripping is done here, on the Server, exactly as the Portal would do it
(`typeclasses.screenreader.screenreader_text`), and the plain text is sent on as markup that
shows exactly that text, with the screen-reader option off for this one message, so the
Portal parses it once. It covers every protocol (the Portal's telnet, SSH and web client
protocols all take the option from the message first) and every message, because every
message to a client passes through `clean_senddata`. A message sent `raw`, or already sent
stripped (its option off), is left alone.

Part of the opt-in bundle (`typeclasses.hardening`, `DICE_HARDEN_GAME`), which sets
`SERVER_SESSION_HANDLER_CLASS` to this class when the game left Evennia's.
"""

from evennia.server.sessionhandler import ServerSessionHandler as BaseServerSessionHandler

from storyteller_dice.typeclasses import amp_batch
from storyteller_dice.typeclasses.screenreader import _SCREENREADER_STRIP, reads_aloud, screenreader_text  # noqa: F401
# The send-instructions whose first argument is text a Portal parses.
_TEXT_KEYS = ("text", "prompt")


class ServerSessionHandler(BaseServerSessionHandler):
    """Evennia's handler; a screen reader's text is stripped here, once (see the module)."""

    def data_out(self, session, **kwargs):
        """Evennia's, or the cleaned message held for a message to many (`amp_batch.batched`)."""
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
    if not args or not isinstance(args[0], str) or not reads_aloud(session, options):
        return
    args[0] = screenreader_text(args[0])
    kwargs["options"] = {**options, "screenreader": False}
