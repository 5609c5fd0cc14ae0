"""
The Portal's session handler of the opt-in bundle (`typeclasses.portal_sessions`): input typed
while the Server is not up is held (bounded) and sent, in order, once it is up; a connection
made meanwhile is told so at once and greeted by the Server as a new one.

Evennia's own Portal session handler and session class run here; only the AMP link (a Server
on it or not) and the reactor's clock stand in for the Portal's process (tests/e2e/
test_held_input.py plays it with a real Portal and Server).
"""

import evennia
import pytest
from evennia.server.portal import amp as evennia_amp
from evennia.server.session import Session
from twisted.internet.task import Clock

from storyteller_dice.typeclasses import portal_sessions
from storyteller_dice.typeclasses.portal_sessions import (
    HELD_BYTES,
    HELD_LINES,
    REFUSED,
    RESTARTING,
    STARTING,
    PortalSessionHandler,
    input_size,
)


class Link:
    """The Portal's AMP link as `PortalSessionHandler` sees it: what is sent, and to whom."""

    def __init__(self):
        self.sent = []  # (operation or "text", sessid, data)
        self.factory = self
        self.server_connection = None

    def server_comes(self):
        self.server_connection = self
        self.transport = type("Transport", (), {"connected": True})()

    def server_goes(self):
        self.server_connection = None

    def send_AdminPortal2Server(self, session, operation="", **kwargs):
        self.sent.append((operation, session.sessid, None))

    def send_MsgPortal2Server(self, session, **kwargs):
        self.sent.append(("text", session.sessid, kwargs["text"][0][0]))

    def lines(self, sessid):
        return [data for kind, each, data in self.sent if kind == "text" and each == sessid]


class Client(Session):
    """A connected client: a real Evennia session that keeps what it is sent."""

    def __init__(self, handler):
        self.init_session("telnet", "127.0.0.1", handler)
        self.screen = []

    def send_text(self, *args, **kwargs):
        self.screen.append(args[0])

    def send_default(self, cmdname, *args, **kwargs):
        pass

    def type(self, line):
        self.sessionhandler.data_in(self, text=line.encode() + b"\n")


@pytest.fixture
def portal(monkeypatch):
    link = Link()
    clock = Clock()
    monkeypatch.setattr(evennia, "EVENNIA_PORTAL_SERVICE", type("Service", (), {"amp_protocol": link})(),
                        raising=False)
    monkeypatch.setattr(portal_sessions, "reactor", clock)
    handler = PortalSessionHandler()
    handler.connection_last = 0  # Evennia's connection throttle: the first connection goes at once
    return handler, link, clock


def connect(handler, clock):
    client = Client(handler)
    handler.connect(client)
    clock.advance(0)
    return client


def server_starts(handler, link, clock):
    link.server_comes()
    handler.at_server_connection()
    clock.advance(0)


def test_a_connection_before_the_first_start_is_told_and_known_to_no_one(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    assert client.screen == [STARTING]
    assert client.sessid and client.sessid not in handler and link.sent == []


def test_its_lines_wait_for_the_connection_screen_then_go_in_order(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    client.type("connect alice secret")
    client.type("   ")  # blank: not kept
    client.type("look")
    assert link.sent == [] and client.screen == [STARTING]

    server_starts(handler, link, clock)
    assert link.sent == [(evennia_amp.PCONN, client.sessid, None)]  # a new connection
    assert client.sessid in handler
    client.type("+roll 3")  # typed before the screen is out: still waits, behind the others

    handler.data_out(client, text=(("the connection screen",), {}))
    assert client.screen == [STARTING, "the connection screen"]
    assert link.lines(client.sessid) == ["connect alice secret\n", "look\n", "+roll 3\n"]
    client.type("who")  # from now on, straight through
    assert link.lines(client.sessid)[-1] == "who\n"


def test_without_a_screen_its_lines_go_after_the_fallback(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    client.type("look")
    server_starts(handler, link, clock)
    clock.advance(portal_sessions.RELEASE_FALLBACK)
    assert link.lines(client.sessid) == ["look\n"]


def test_a_known_session_is_told_once_and_its_lines_go_when_the_server_is_back(portal):
    handler, link, clock = portal
    server_starts(handler, link, clock)
    client = connect(handler, clock)
    client.type("look")
    assert link.lines(client.sessid) == ["look\n"]

    link.server_goes()  # killed: the Portal keeps the connection
    client.type("say one")
    client.type("say two")
    assert client.screen == [RESTARTING]
    assert link.lines(client.sessid) == ["look\n"]

    server_starts(handler, link, clock)
    assert link.lines(client.sessid) == ["look\n", "say one\n", "say two\n"]


def test_the_bound_on_lines(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    for number in range(HELD_LINES + 2):
        client.type(f"say {number}")
    assert client.screen == [STARTING, REFUSED, REFUSED]
    server_starts(handler, link, clock)
    handler.data_out(client, text=(("screen",), {}))
    assert link.lines(client.sessid) == [f"say {number}\n" for number in range(HELD_LINES)]


def test_the_bound_on_bytes(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    line = "x" * (HELD_BYTES // 2 - 40)
    for _ in range(3):
        client.type(line)
    assert client.screen == [STARTING, REFUSED]
    server_starts(handler, link, clock)
    handler.data_out(client, text=(("screen",), {}))
    assert len(link.lines(client.sessid)) == 2
    assert input_size({"text": [["é"], {}]}) == len("text") + 2


def test_a_line_over_the_limit_gets_evennias_warning_and_is_not_kept(portal, settings):
    handler, link, clock = portal
    client = connect(handler, clock)
    client.type("x" * (settings.MAX_CHAR_LIMIT + 1))
    assert client.screen == [STARTING, settings.MAX_CHAR_LIMIT_WARNING]
    server_starts(handler, link, clock)
    handler.data_out(client, text=(("screen",), {}))
    assert link.lines(client.sessid) == []


def test_a_connection_that_closes_while_waiting_is_forgotten(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    client.type("look")
    handler.disconnect(client)
    server_starts(handler, link, clock)
    assert link.sent == []
    assert handler.held == {} and handler.waiting == {}


def test_a_resize_from_a_session_not_yet_known_is_no_error(portal):
    handler, link, clock = portal
    client = connect(handler, clock)
    handler.sync(handler.get(client.sessid))  # telnet's NAWS resize: get() is None here
    handler.sync(client)
    assert link.sent == []


def test_the_waiting_lines_fit_the_narrowest_screen():
    assert max(len(line) for line in (STARTING, RESTARTING, REFUSED)) <= 41
