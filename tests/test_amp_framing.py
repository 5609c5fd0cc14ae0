"""
The Portal-Server AMP link (typeclasses/amp_framing.py): TCP chunks cut where Evennia's
own check took them for HTTP still deliver every box and keep the connection; a connection
whose first bytes are HTTP is still refused.
"""

import pytest
from twisted.internet.testing import StringTransport
from twisted.protocols.amp import AmpBox

from evennia.server.portal import amp as evennia_amp
from storyteller_dice.typeclasses import amp_framing


class RecordingProtocol(evennia_amp.AMPMultiConnectionProtocol):
    """Evennia's AMP protocol, keeping the boxes it parses instead of dispatching them."""

    def __init__(self):
        super().__init__()
        self.boxes = []

    def ampBoxReceived(self, box):
        self.boxes.append(dict(box))

    def connectionMade(self):
        pass  # Evennia's registers with a factory; there is none here


@pytest.fixture
def proto():
    amp_framing.install()
    proto = RecordingProtocol()
    proto.transport = transport = StringTransport()
    proto.makeConnection(transport)
    return proto


def box(**fields):
    return AmpBox({key.encode(): value for key, value in fields.items()}).serialize()


def feed(proto, *chunks):
    for chunk in chunks:
        proto.dataReceived(chunk)


def test_a_chunk_ending_one_byte_into_the_next_box(proto):
    # As in the logs: the first chunk ends "...\x00\x00" (end of a box) + "\x00" (the next
    # box's first length prefix), the next starts "\x04_ask".
    first = box(_answer=b"34613")
    second = box(_ask=b"d0f", _command=b"MsgServer2Portal", packed_data=b"x\xda\x00\x01")
    stream = first + second
    cut = len(first) + 1
    assert stream[:cut].endswith(b"\x00\x00\x00") and stream[cut:cut + 1] == b"\x04"
    feed(proto, stream[:cut], stream[cut:])
    assert proto.boxes == [{b"_answer": b"34613"},
                           {b"_ask": b"d0f", b"_command": b"MsgServer2Portal",
                            b"packed_data": b"x\xda\x00\x01"}]
    assert not proto.transport.disconnecting
    assert proto.transport.value() == b""


def test_a_chunk_ending_in_nul_nul_inside_a_value(proto):
    # The compressed payload holds NUL NUL: a chunk ends there, mid-box, after a chunk that
    # started the box; the rest of the box starts with a non-NUL byte.
    payload = b"ab\x00\x00cd"
    stream = box(_ask=b"1", packed_data=payload) + box(_ask=b"2", packed_data=b"ef")
    mid = stream.index(b"\x00\x00cd") + 2
    feed(proto, stream[:5], stream[5:mid], stream[mid:])
    assert proto.boxes == [{b"_ask": b"1", b"packed_data": payload},
                           {b"_ask": b"2", b"packed_data": b"ef"}]
    assert not proto.transport.disconnecting


def test_every_cut_of_a_busy_stream(proto):
    boxes = [{b"_answer": str(n).encode()} for n in range(40)]
    stream = b"".join(AmpBox(b).serialize() for b in boxes)
    feed(proto, *(stream[i:i + 3] for i in range(0, len(stream), 3)))
    assert proto.boxes == boxes
    assert not proto.transport.disconnecting


def test_a_first_chunk_of_http_is_still_refused(proto):
    proto.dataReceived(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert proto.boxes == []
    assert proto.transport.disconnecting
    assert b"This is Evennia's internal AMP port" in proto.transport.value()
