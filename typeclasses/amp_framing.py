"""
Keep the Portal-Server AMP link alive under load: once a connection speaks AMP, every later
TCP chunk on it is AMP.

The Evennia bug (6.1, `evennia/server/portal/amp.py`,
`AMPMultiConnectionProtocol.dataReceived`): the AMP port refuses HTTP, and to tell the two
apart Evennia looks at every TCP *chunk*, not at the connection. A chunk is taken for AMP if
it starts with a NUL byte (an AMP key's two-byte length prefix starts with NUL); a chunk that
does not is accepted only while a counter of "unfinished boxes" is above zero. The counter goes
up when an AMP-looking chunk does not end in NUL NUL (the empty key that ends a box) and down
when a chunk ends in NUL NUL. But TCP cuts the stream anywhere, and a chunk can end in NUL NUL
without a box ending there: most often the cut falls one byte into the next box's first
length prefix (`...\\x00\\x00` + `\\x00` | `\\x04_ask...`; the pickled, compressed values can
hold NUL NUL too). The counter then reads zero while a box is still open, the next chunk starts
with a non-NUL byte, Evennia takes it for HTTP ("HTTP received (the AMP port should not
receive http, only AMP!)"), answers it with an HTTP page and drops the connection: the Server
and the Portal no longer hear each other and no player is answered. With many players in one
room the stream is busy enough that this happens within minutes.

The fix: the HTTP check is kept for a connection's first chunk only (that is where a browser's
request would show). Once a connection has received a chunk starting with NUL, every later
chunk goes straight to Twisted's AMP parser. That is safe because AMP framing needs no help
from chunk boundaries: every key and value carries its own length, and Twisted's
`Int16StringReceiver` keeps the unparsed tail of one chunk and joins it to the next. Evennia's
catch of a `KeyError` while parsing is kept. Only `dataReceived` of Evennia's shared AMP
protocol class is replaced, so the Portal's AMP server and the Server's AMP client both get it.

`install()` is called at the start of both processes (`portal_services_plugins.py` and
`server_services_plugins.py`). Evennia calls those plugins in `privilegedStartService`, after
the AMP service is created but before any service is started and before the reactor runs, so no
AMP connection exists yet; the replacement is on the class, so every connection uses it anyway.
"""

from twisted.protocols import amp as twisted_amp

from evennia.server.portal import amp as evennia_amp

_EVENNIA_DATA_RECEIVED = evennia_amp.AMPMultiConnectionProtocol.dataReceived


def data_received(self, data):
    """
    Judge a connection by its first chunk; after that, leave the framing to Twisted's parser.

    A first chunk that does not start with NUL goes to Evennia's own handler, which answers
    HTTP with its warning page and drops the connection, as before.
    """
    if not getattr(self, "_speaks_amp", False):
        if data[:1] != evennia_amp.NUL:
            return _EVENNIA_DATA_RECEIVED(self, data)
        self._speaks_amp = True
    try:
        twisted_amp.AMP.dataReceived(self, data)
    except KeyError:
        # As Evennia does: a malformed box is logged and dropped, the link is kept.
        evennia_amp._get_logger().log_trace(
            f"Discarded incoming AMP data (len {len(data)})"
        )


def install():
    """Replace Evennia's chunk-by-chunk AMP check with `data_received` (idempotent)."""
    evennia_amp.AMPMultiConnectionProtocol.dataReceived = data_received
    # One line in each process's log, so a run's logs show the fix was in place.
    evennia_amp._get_logger().log_info("AMP: a connection is judged by its first chunk only.")
