"""
The bundle's Portal session handler (`PORTAL_SESSION_HANDLER_CLASS`, set by
`typeclasses.hardening` where the game left Evennia's): what a player types while the Server is
not up (the first start, a restart, a Server that died) is held by the Portal and read once the
Server is up, in order, after the connection screen.

**Why.** Evennia's Portal (5.0 and 6.x) treats its AMP link as the Server: a telnet client that
connects while only the launcher is on that link, or after the Server died, is registered and
its connection sent into a link with no Server on it, and so is every line it types; when the
Server comes back it learns of the session from the Portal's list, as one it had already greeted,
so the client sees " ... Server restarted." and nothing else: no connection screen, its lines
gone. A NAWS resize from a client still queued for its connection raised
`AttributeError: 'NoneType' object has no attribute 'sessid'` in `sync()`.

**What.** While the Server is not on the link:

- A new connection waits here, unknown to the Server, and is told at once, in one plain line,
  that the game is starting (or restarting) and that its input will wait.
- Each session's input is held, at most `HELD_LINES` lines and `HELD_BYTES` bytes (UTF-8) of
  it; the rest is refused, each refused line answered with one line saying so. A session that
  was already known to the Server is told the waiting line once, at the first line it types.

When the Server is up (`at_server_connection`, after the Portal has sent it every session it
knows): the held lines of the sessions the Server knows are sent to it; each waiting connection
is connected as Evennia connects a new one, and its held lines are sent after the first text
the Server sends it (the connection screen), or after `RELEASE_FALLBACK` seconds should the
Server send none. A session that closes while waiting is forgotten without telling the Server.

**Rulings:**

- Held lines go to the Server without the Portal's command rate check: they were typed at the
  player's pace, and the bounds above already hold them. A line over `MAX_CHAR_LIMIT` is
  answered with Evennia's warning and not kept, as Evennia does with the Server up.
- Each of the Portal's own lines here is at most 41 columns: the Portal wraps nothing, and the
  narrowest screen the game lays out for is 41 columns wide (`typeclasses.columns`).
- A blank line is not kept, and a connection that closes while waiting is forgotten without the
  Server ever hearing of it.
"""

import time

import evennia
from django.conf import settings
from evennia.server.portal.portalsessionhandler import PortalSessionHandler as EvenniaPortalSessionHandler
from evennia.utils import logger
from twisted.internet import reactor

#: At most this many lines of one session are held while the Server is not up.
HELD_LINES = 10
#: And at most this many bytes (UTF-8) of them.
HELD_BYTES = 2000
#: Seconds after a waiting connection is connected before its held lines go anyway, should the
#: Server send it no text (a game without a connection screen).
RELEASE_FALLBACK = 15.0

STARTING = "Game starting: your input will wait."
RESTARTING = "Game restarting: your input will wait."
REFUSED = f"Not kept: {HELD_LINES} lines ({HELD_BYTES} bytes) wait."

_MAX_CHAR_LIMIT = int(settings.MAX_CHAR_LIMIT)


def input_size(value):
    """The size in bytes of one input's data (text as UTF-8; other data as its repr)."""
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, str):
        return len(value.encode("utf-8", "replace"))
    if isinstance(value, (list, tuple)):
        return sum(input_size(item) for item in value)
    if isinstance(value, dict):
        return sum(input_size(key) + input_size(item) for key, item in value.items())
    return len(repr(value))


def is_blank(kwargs):
    """Whether one input is a text line of white space only (kept by no one)."""
    if set(kwargs) != {"text"}:
        return False
    text = kwargs["text"]
    if isinstance(text, (list, tuple)):
        text = text[0] if text else ""
        if isinstance(text, (list, tuple)):
            text = text[0] if text else ""
    if isinstance(text, bytes):
        return not text.strip()
    return isinstance(text, str) and not text.strip()


def too_long(kwargs):
    """Whether one input's text is over `MAX_CHAR_LIMIT` (Evennia refuses it with its warning)."""
    text = kwargs.get("text")
    try:
        return _MAX_CHAR_LIMIT > 0 and len(text) > _MAX_CHAR_LIMIT
    except TypeError:
        return False


class Held:
    """One session's input waiting for the Server, and whether it was told so."""

    def __init__(self):
        self.lines = []
        self.size = 0
        self.told = False
        self.releasing = False  # connected to the Server: waits for its first text
        self.timer = None

    def add(self, kwargs):
        """Keep one input if the bounds allow; False if it is refused."""
        size = input_size(kwargs)
        if len(self.lines) >= HELD_LINES or self.size + size > HELD_BYTES:
            return False
        self.lines.append(kwargs)
        self.size += size
        return True

    def stop_timer(self):
        if self.timer is not None and self.timer.active():
            self.timer.cancel()
        self.timer = None


class PortalSessionHandler(EvenniaPortalSessionHandler):
    """Evennia's Portal session handler, holding input while the Server is not up."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.waiting = {}  # sessid -> a session the Server does not know yet, in arrival order
        self.held = {}  # sessid -> Held
        logger.log_info("Portal: input is held while the Server is not up (storyteller_dice).")

    # -- the Server's link ------------------------------------------------------------------

    def server_up(self):
        """Whether the Server is on the AMP link (it has spoken on it and the link is open)."""
        service = getattr(evennia, "EVENNIA_PORTAL_SERVICE", None)
        factory = getattr(getattr(service, "amp_protocol", None), "factory", None)
        link = getattr(factory, "server_connection", None)
        transport = getattr(link, "transport", None)
        return bool(transport is not None and transport.connected)

    def waiting_line(self):
        return RESTARTING if self.connection_time else STARTING

    # -- Evennia's hooks --------------------------------------------------------------------

    def connect(self, session):
        if session is None or self.server_up():
            return super().connect(session)
        if not session.sessid:
            session.sessid = self.generate_sessid()
        session.server_connected = False
        self.waiting[session.sessid] = session
        self.held.setdefault(session.sessid, Held()).told = True
        # After the protocol has finished setting itself up (connect() is called part-way).
        reactor.callLater(0, self._tell, session, self.waiting_line())

    def sync(self, session):
        # A session not yet known to the Server sends its data when it is connected.
        if session is None or session.sessid in self.waiting:
            return
        super().sync(session)

    def disconnect(self, session):
        entry = self.held.pop(session.sessid, None)
        if entry is not None:
            entry.stop_timer()
        if self.waiting.pop(session.sessid, None) is not None:
            return  # the Server never knew it
        return super().disconnect(session)

    def data_in(self, session, **kwargs):
        if session and (session.sessid in self.held or not self.server_up()):
            self._hold(session, kwargs)
            return
        super().data_in(session, **kwargs)

    def data_out(self, session, **kwargs):
        super().data_out(session, **kwargs)
        entry = self.held.get(session.sessid) if session else None
        if entry is not None and entry.releasing and "text" in kwargs and session.server_connected:
            # The Server's first text to a new connection: its screen is out, its lines may go.
            self._release(session)

    def at_server_connection(self):
        super().at_server_connection()
        for sessid in [sessid for sessid in self.held if sessid in self]:
            if not self.held[sessid].releasing:
                self._release(self[sessid])
        waiting, self.waiting = self.waiting, {}
        for session in waiting.values():
            entry = self.held.setdefault(session.sessid, Held())
            entry.releasing = True
            entry.timer = reactor.callLater(RELEASE_FALLBACK, self._release, session)
            super().connect(session)

    # -- holding and releasing --------------------------------------------------------------

    def _tell(self, session, line, raw=True):
        """One line of the Portal's own (`raw`: sent as written, no markup read), never counted
        as the Server's first text (`data_out` above)."""
        if session.sessid in self.waiting or session.sessid in self:
            options = {"options": {"raw": True}} if raw else {}
            EvenniaPortalSessionHandler.data_out(self, session, text=((line,), options))

    def _hold(self, session, kwargs):
        entry = self.held.setdefault(session.sessid, Held())
        if not entry.told:
            entry.told = True
            self._tell(session, self.waiting_line())
        if too_long(kwargs):
            self._tell(session, settings.MAX_CHAR_LIMIT_WARNING, raw=False)  # as Evennia sends it
        elif is_blank(kwargs):
            return
        elif not entry.add(kwargs):
            self._tell(session, REFUSED)

    def _release(self, session):
        """Send `session`'s held input to the Server, in order (kept if the Server left again)."""
        entry = self.held.get(session.sessid)
        if entry is None:
            return
        entry.stop_timer()
        if not self.server_up():
            entry.releasing = False  # gone again: the next `at_server_connection` sends them
            return
        if session.sessid not in self:
            # Still in Evennia's connection queue (its connection rate): not yet the Server's.
            entry.timer = reactor.callLater(RELEASE_FALLBACK, self._release, session)
            return
        del self.held[session.sessid]
        for kwargs in entry.lines:
            self._relay(session, kwargs)

    def _relay(self, session, kwargs):
        """What Evennia's `data_in` does with a line once its checks have passed."""
        kwargs = self.clean_senddata(session, kwargs)
        session.cmd_last = time.time()
        evennia.EVENNIA_PORTAL_SERVICE.amp_protocol.send_MsgPortal2Server(session, **kwargs)
        if "text" in kwargs and session.protocol_flags.get("LOCALECHO", False):
            self.data_out(session, text=kwargs["text"])
