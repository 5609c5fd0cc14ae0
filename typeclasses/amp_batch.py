"""
One Server -> Portal message for many sessions that are sent the same thing.

**Why.** Evennia sends every message to every session over the AMP link on its own: a roll
seen by 50 players is 50 AMP commands, each pickled, compressed, framed, answered by the Portal
with a box of its own, and unpacked there again. In a full room that was a fifth of the
Server's time for a roll (more than drawing, rolling and parsing together) and as much again
in the Portal, on the cores the game shares. Most of those 50 messages are the same bytes: a
roll's line differs only by the receiver's screen width (`commands.dice_base.PerWidth`), so a
room at 80 columns gets one text.

**What.** While `batched()` is on (`commands.dice_base.send` turns it on around its receivers),
the game's session handler (`typeclasses.sessionhandler`) hands each message here after
Evennia's own cleaning (`clean_senddata`, per session: the screen-reader text, options), instead
of sending it. At the end, messages whose cleaned data is identical go out as one
`MsgServer2PortalMany` command: the session ids and the data, pickled once. The Portal unpacks
the data once per session and passes it to its session handler exactly as Evennia's
`MsgServer2Portal` responder does, so each session's protocol (telnet, web client) does its own
work on it as before: colours, MXP, NAWS width, `+nospoof` (done on the Server before, per
receiver) are untouched. A message to one session goes the ordinary way.

- **Order.** Each session's messages keep their order: a window holds at most one message per
  session, and a second message for a session already waiting sends the window first.
- **An older Portal.** A Server reload restarts only the Server: the Portal may be one that
  does not know the command yet. So the Server batches nothing until the Portal has answered
  an empty `MsgServer2PortalMany` on this link (asked once per link, on first use); until then,
  and for good if it refuses, every message goes the ordinary way.
- **Nothing else changes.** Without the link (the in-process tests) or outside `batched()`,
  `hold` is never asked and Evennia's `data_out` runs as it is.

`install_portal()` is called by `portal_services_plugins.py`, before the reactor runs (as
`amp_framing.install`); it adds the responder to the Portal's AMP protocol class.
"""

import pickle
from contextlib import contextmanager

from twisted.protocols import amp as twisted_amp

from evennia.server.portal import amp as evennia_amp

from storyteller_dice.typeclasses import durable

# The Server's link to the Portal -> True (takes the command), False (refused), absent: unknown.
_TAKES_MANY = "_storyteller_takes_many"


class MsgServer2PortalMany(twisted_amp.Command):
    """Server -> Portal: the same message to several sessions, `(sessids, pickled kwargs)`."""

    key = "MsgServer2PortalMany"
    arguments = [(b"packed_data", evennia_amp.Compressed())]
    errors = {Exception: b"EXCEPTION"}
    response = []


# ------------------------------------------------------------------------------ the Portal


def portal_receive_many(protocol, packed_data):
    """
    The Portal's responder: each session gets its own unpickled copy of the data (as it did
    from one `MsgServer2Portal` each), so no protocol's changes to it reach another session.
    """
    import evennia  # start order: its flat API is filled in once Evennia has started

    try:
        sessids, packed = evennia_amp.loads(packed_data)
        handler = evennia.PORTAL_SESSION_HANDLER
        for sessid in sessids:
            session = handler.get(sessid, None)
            if session:
                handler.data_out(session, **pickle.loads(packed))
    except Exception:  # noqa: BLE001 - as Evennia's responder: logged, the link is kept
        evennia_amp._get_logger().log_trace(f"MsgServer2PortalMany: packed_data len {len(packed_data)}")
    return {}


def install_portal():
    """Teach the Portal's AMP protocol `MsgServer2PortalMany` (idempotent)."""
    # Start order: only the Portal loads its AMP server (the Server imports this module too).
    from evennia.server.portal.amp_server import AMPServerProtocol

    AMPServerProtocol._commandDispatch[MsgServer2PortalMany.commandName] = (MsgServer2PortalMany,
                                                                            portal_receive_many)
    evennia_amp._get_logger().log_info("AMP: one message may go to many sessions (MsgServer2PortalMany).")


# ------------------------------------------------------------------------------ the Server


class Window:
    """Messages held for sending, grouped by their cleaned data, at most one per session."""

    def __init__(self, protocol):
        self.protocol = protocol
        self.groups = {}  # pickled kwargs -> (kwargs, [sessions]), in the order first held
        self.sessids = set()

    def add(self, session, kwargs):
        if session.sessid in self.sessids:
            self.flush()  # that session's earlier message goes first
        packed = evennia_amp.dumps(kwargs)
        self.groups.setdefault(packed, (kwargs, []))[1].append(session)
        self.sessids.add(session.sessid)

    def flush(self):
        groups, self.groups, self.sessids = self.groups, {}, set()
        for packed, (kwargs, sessions) in groups.items():
            if len(sessions) == 1:
                self.protocol.send_MsgServer2Portal(sessions[0], **kwargs)
            else:
                self.protocol.callRemote(
                    MsgServer2PortalMany, packed_data=evennia_amp.dumps(([s.sessid for s in sessions], packed))
                ).addErrback(self.protocol.errback, MsgServer2PortalMany.key)


_WINDOW = []  # the open window (one at most), while `batched()` is on


def _link():
    """The Server's AMP link to the Portal, or None (not connected, or not a Server)."""
    import evennia  # start order: its flat API is filled in once Evennia has started

    service = getattr(evennia, "EVENNIA_SERVER_SERVICE", None)
    return getattr(service, "amp_protocol", None)


def _ask_portal(protocol):
    """Ask the Portal once whether it takes the command: an empty one, answered or refused."""
    protocol.__dict__[_TAKES_MANY] = None  # asked: not yet known

    def answered(_):
        protocol.__dict__[_TAKES_MANY] = True

    def refused(_failure):
        protocol.__dict__[_TAKES_MANY] = False

    protocol.callRemote(MsgServer2PortalMany, packed_data=evennia_amp.dumps(((), b""))).addCallbacks(answered, refused)


def _usable_link():
    protocol = _link()
    if protocol is None:
        return None
    if _TAKES_MANY not in protocol.__dict__:
        _ask_portal(protocol)
    return protocol if protocol.__dict__.get(_TAKES_MANY) else None


@contextmanager
def batched():
    """Hold the messages sent inside, and send the same ones to many sessions as one (nests)."""
    if _WINDOW:
        yield
        return
    protocol = _usable_link()
    if protocol is None:
        yield
        return
    window = Window(protocol)
    _WINDOW.append(window)
    try:
        yield
    finally:
        _WINDOW.clear()
        durable.send(window.flush)  # after what was written is on disk, in order with the rest


def holding():
    """Whether a message now should be handed to `hold` rather than sent."""
    return bool(_WINDOW)


def hold(session, kwargs):
    """Keep a cleaned message (`clean_senddata`'s) for `session` until the window is sent."""
    _WINDOW[0].add(session, kwargs)
