"""
One Server -> Portal message for many sessions (typeclasses/amp_batch.py): the same
cleaned message to many sessions is one AMP command, each session still gets its own copy of
exactly what it got before, in its own order; nothing is batched for a Portal that has not
said it takes the command; without `batched()` (or a link) nothing changes.
"""

import pickle

import pytest
from twisted.internet.defer import Deferred

from evennia.server.portal import amp as evennia_amp
from storyteller_dice.typeclasses import amp_batch


class Session:
    def __init__(self, sessid, **flags):
        self.sessid = sessid
        self.protocol_flags = flags


class Link:
    """The Server's AMP link: what it was asked to send, and the Portal's answers to come."""

    def __init__(self):
        self.sent = []
        self.waiting = []

    def send_MsgServer2Portal(self, session, **kwargs):
        self.sent.append(("one", session.sessid, kwargs))

    def callRemote(self, command, packed_data):
        assert command is amp_batch.MsgServer2PortalMany
        sessids, packed = evennia_amp.loads(packed_data)
        if sessids:
            self.sent.append(("many", list(sessids), pickle.loads(packed)))
        answer = Deferred()
        self.waiting.append(answer)
        return answer

    def errback(self, failure, info):
        self.sent.append(("error", info))

    def answer(self, accept=True):
        for answer in self.waiting:
            answer.callback({}) if accept else answer.errback(RuntimeError("Unhandled Command"))
        self.waiting = []


@pytest.fixture
def link(monkeypatch):
    link = Link()
    monkeypatch.setattr(amp_batch, "_link", lambda: link)
    with amp_batch.batched():  # the first use asks the Portal
        pass
    link.answer()
    return link


def text(line):
    return {"text": ((line,), {})}


def send_all(messages):
    with amp_batch.batched():
        for session, kwargs in messages:
            assert amp_batch.holding()
            amp_batch.hold(session, kwargs)
    assert not amp_batch.holding()


def test_the_same_message_to_many_sessions_is_one_command(link):
    a, b, c, d = (Session(n) for n in (1, 2, 3, 4))
    send_all([(a, text("roll 80")), (b, text("roll 80")), (c, text("roll 100")), (d, text("roll 80"))])
    assert link.sent == [("many", [1, 2, 4], text("roll 80")), ("one", 3, text("roll 100"))]


def test_a_session_gets_its_messages_in_order(link):
    a, b = Session(1), Session(2)
    send_all([(a, text("first")), (b, text("first")), (a, text("second")), (b, text("second"))])
    assert link.sent == [("many", [1, 2], text("first")), ("many", [1, 2], text("second"))]


def test_nothing_is_batched_before_the_portal_answers_nor_when_it_refuses(monkeypatch):
    link = Link()
    monkeypatch.setattr(amp_batch, "_link", lambda: link)
    with amp_batch.batched():
        assert not amp_batch.holding()  # asked, not answered
    assert link.sent == [] and len(link.waiting) == 1
    link.answer(accept=False)
    with amp_batch.batched():
        assert not amp_batch.holding()
    assert link.waiting == []  # asked once per link


def test_without_a_link_nothing_is_held(monkeypatch):
    monkeypatch.setattr(amp_batch, "_link", lambda: None)
    with amp_batch.batched():
        assert not amp_batch.holding()


def test_an_inner_batch_leaves_the_sending_to_the_outer_one(link):
    a, b = Session(1), Session(2)
    with amp_batch.batched():
        amp_batch.hold(a, text("x"))
        with amp_batch.batched():
            amp_batch.hold(b, text("x"))
        assert link.sent == []
    assert link.sent == [("many", [1, 2], text("x"))]


class PortalSessions:
    def __init__(self, *sessids):
        self.sessions = {sessid: Session(sessid) for sessid in sessids}
        self.out = []

    def get(self, sessid, default=None):
        return self.sessions.get(sessid, default)

    def data_out(self, session, **kwargs):
        self.out.append((session.sessid, kwargs))
        kwargs["text"][1]["mangled"] = True  # a protocol that changes what it was given


def test_the_portal_gives_each_session_its_own_copy(monkeypatch):
    import evennia

    sessions = PortalSessions(1, 2)
    monkeypatch.setattr(evennia, "PORTAL_SESSION_HANDLER", sessions, raising=False)
    message = text("|gthe roll|n")
    packed = evennia_amp.dumps(([1, 7, 2], pickle.dumps(message)))
    assert amp_batch.portal_receive_many(None, packed) == {}
    assert [sessid for sessid, _ in sessions.out] == [1, 2]  # 7 is gone: skipped
    assert all(kwargs["text"][0] == ("|gthe roll|n",) for _, kwargs in sessions.out)
    assert sessions.out[0][1] is not sessions.out[1][1]
    assert sessions.out[0][1]["text"][1] is not sessions.out[1][1]["text"][1]


def test_the_portal_answers_the_servers_question(monkeypatch):
    import evennia

    monkeypatch.setattr(evennia, "PORTAL_SESSION_HANDLER", PortalSessions(), raising=False)
    assert amp_batch.portal_receive_many(None, evennia_amp.dumps(((), b""))) == {}


def test_the_portal_knows_the_command_once_installed():
    from evennia.server.portal.amp_server import AMPServerProtocol

    amp_batch.install_portal()
    protocol = AMPServerProtocol()
    assert protocol.locateResponder(b"MsgServer2PortalMany") is not None
    assert protocol.locateResponder(b"MsgServer2Portal") is not None


def test_the_session_handler_holds_each_sessions_cleaned_message(link):
    """Evennia's per-session cleaning still runs: a screen reader's session gets its own text."""
    from storyteller_dice.typeclasses.sessionhandler import ServerSessionHandler, screenreader_text

    handler = ServerSessionHandler()
    plain, reader = Session(1), Session(2, SCREENREADER=True)
    with amp_batch.batched():
        handler.data_out(plain, text="|rred|n")
        handler.data_out(reader, text="|rred|n")
    assert link.sent == [("one", 1, {"text": [["|rred|n"], {"options": {}}]}),
                         ("one", 2, {"text": [[screenreader_text("|rred|n")], {"options": {"screenreader": False}}]})]


def test_the_command_crosses_the_wire_to_the_portals_sessions(monkeypatch):
    """Packed as the Server's link packs it (Evennia's compressed argument), dispatched as the
    Portal's AMP protocol dispatches a box."""
    import evennia
    from evennia.server.portal.amp_server import AMPServerProtocol

    sessions = PortalSessions(3, 4)
    monkeypatch.setattr(evennia, "PORTAL_SESSION_HANDLER", sessions, raising=False)
    amp_batch.install_portal()
    protocol = AMPServerProtocol()
    message = text("x" * 5000)  # longer than one AMP value: Evennia's batching of values
    packed = evennia_amp.dumps(([3, 4], pickle.dumps(message)))
    box = amp_batch.MsgServer2PortalMany.makeArguments({"packed_data": packed}, protocol)
    answers = []
    protocol.locateResponder(b"MsgServer2PortalMany")(box).addCallback(answers.append)
    assert answers == [{}]
    assert [(sessid, kwargs["text"][0]) for sessid, kwargs in sessions.out] == [(3, ("x" * 5000,)), (4, ("x" * 5000,))]
