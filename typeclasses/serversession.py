"""
ServerSession: the game's server-side session. It does three things to what a client sends:
filters it, bounds the sizes it reports, and takes its commands in turn with everyone else's.

**The input filter, and why it hooks in here.** Every byte a client sends reaches the Server
the same way, whatever the protocol: the Portal (telnet, SSH, websocket and AJAX web client)
decodes it and sends it over AMP, the Server's session handler hands it to
`ServerSession.data_in(**kwargs)`, and only that method calls the inputfuncs (`text` for a
typed line, which runs the command handler; the web client's OOB functions for the rest).
Code that injects a command (`session.execute_cmd`) goes the same way. So filtering in
`data_in` covers every protocol, every inputfunc (not only `text`) and every command, stock
Evennia ones and the login screen's `connect`/`create` included, before any of them runs.
Overriding the `text` inputfunc instead would miss the other inputfuncs and lose to any later
module in `INPUT_FUNC_MODULES` that defines `text`; a custom `COMMAND_PARSER` sees the line
only after nick replacement and not at all for non-command input. The filter itself (what is
removed, and the rulings) is `typeclasses.inputfilter`.

**Screen sizes.** The width and height a client reports lay out every reply, and reach the
session's `protocol_flags` by four roads: the Portal's copy (NAWS, synced over), the
`client_options` inputfunc (web client, GMCP `Core.Options`), the `option` command and the
options an account saved. The flags are a `BoundedFlags`, which bounds the sizes however they
are set (`typeclasses.inputfilter.bounded_sizes`: 20-250 columns, 10-200 lines, anything not a
number ignored), so no road can bring a width of 3,000,000 or "abc".

**The text encoding.** `ENCODING` is bounded the same way: the flags ignore an encoding that
is not a text encoding (`typeclasses.inputfilter.text_encoding`; rot13 dropped the connection
at the next line), keeping the one they had, whichever road brings it: the `option` command
(ours refuses it with a line first: commands/options.py), the login screen's `encoding`
command, the options an account saved (at login, where `DiceAccountMixin.at_post_login` also
tells the player and forgets it, and at a reload, `Session.at_sync`), and the Portal's copy.

**Taking turns.** Evennia runs commands one at a time in the order they arrive, so sixty
expensive lines sent in one burst made every other player wait for all sixty. Here a session
runs one piece of input, then lets the reactor serve everyone else before its next one: its
later lines wait in its own queue (`MAX_WAITING` of them; more get Evennia's
`COMMAND_RATE_WARNING` and are dropped). Another player then waits for at most one command
of each busy player, never for a burst. Input that a command of this session injects while it
runs (`session.execute_cmd`) runs at once, as in stock Evennia.

**One line's size.** Evennia's Portal refuses a typed line over `MAX_CHAR_LIMIT` (6,000)
characters, but it measures `len()` of what the protocol hands it: a telnet line, yet for the
web client the `[args, kwargs]` pair, always 2 long, so a web client's line of any length got
through. `data_in` measures the line itself, for every protocol, and answers a longer one with
Evennia's `MAX_CHAR_LIMIT_WARNING`. (The Portal's `MAX_COMMAND_RATE`, 80 lines a second, let
a burst of 60 through: taking turns, above, is what protects the others.)

**Every line fits the screen.** What goes to the client is wrapped at the session's width
first (`typeclasses.columns`: a line that fits is unchanged, a longer one broken with a
hanging indent), so no line the game sends, Evennia's own included, runs past the screen and
starts the next screen line at column 0.

**One reply's size.** Whatever a command builds, one text sent to a client is at most
`MAX_REPLY_LINES` lines and `MAX_REPLY_CHARS` characters (`bounded_reply`); the rest is cut
at a line's end with a line saying how much was left out, and the cut is logged. The bounded
width keeps every reply of ours far below this: it is the backstop for what a player can make
any command print.

settings.py enables it with `SERVER_SESSION_CLASS = "typeclasses.serversession.ServerSession"`.
"""

from collections import deque

from django.conf import settings
from evennia.server.serversession import ServerSession as BaseServerSession
from evennia.utils import logger
from twisted.internet import reactor

from storyteller_dice.typeclasses import durable
from storyteller_dice.typeclasses.columns import for_session
from storyteller_dice.typeclasses.incoming import mxp_active
from storyteller_dice.typeclasses.inputfilter import bounded_sizes, clean_data

#: Lines a session may have waiting for their turn (the Portal already lets through at most
#: MAX_COMMAND_RATE a second); a paste of a few dozen commands still runs whole.
MAX_WAITING = 50
#: One reply's size: far above any reply of ours at 250 columns (a full +rolls page, the help
#: index), far below what stalls a client or the Portal.
MAX_REPLY_LINES = 1000
MAX_REPLY_CHARS = 200_000
CUT_NOTE = "|n({count:,} more {lines} not shown.)"


def bounded_reply(text):
    """`text` (a str) cut to `MAX_REPLY_LINES` lines and `MAX_REPLY_CHARS` characters, or None
    when it fits."""
    if len(text) <= MAX_REPLY_CHARS and text.count("\n") < MAX_REPLY_LINES:
        return None
    lines = text[: MAX_REPLY_CHARS].split("\n")[:MAX_REPLY_LINES]
    if len(text) > MAX_REPLY_CHARS and len(lines) > 1:
        lines.pop()  # a line cut short, perhaps inside a markup code
    kept = "\n".join(lines).rstrip("|")
    left = text.count("\n") + 1 - len(lines)
    left = max(left, 1)
    return f"{kept}\n{CUT_NOTE.format(count=left, lines='line was' if left == 1 else 'lines were')}"


class BoundedFlags(dict):
    """A session's protocol flags: the screen sizes and the encoding are bounded however they
    are set."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.update(*args, **kwargs)

    def __setitem__(self, key, value):
        for name, bounded in bounded_sizes({key: value}).items():
            super().__setitem__(name, bounded)

    def update(self, *args, **kwargs):
        for name, bounded in bounded_sizes(dict(*args, **kwargs)).items():
            super().__setitem__(name, bounded)

    def __ior__(self, other):
        self.update(other)
        return self

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self.get(key)

    def copy(self):
        return dict(self)

    def __reduce__(self):
        # Sent to the Portal over AMP and saved in Attributes (`option/save`) as a plain dict:
        # neither needs this class to read it back.
        return (dict, (dict(self),))


class ServerSession(BaseServerSession):
    """A player's connection: filtered input, bounded screen sizes, commands taken in turn."""

    #: how the next waiting line is scheduled (tests replace it)
    call_later = staticmethod(lambda delay, func: reactor.callLater(delay, func))

    @property
    def protocol_flags(self):
        if "_bounded_flags" not in self.__dict__:  # before init_session sets them
            self._bounded_flags = BoundedFlags()
        return self._bounded_flags

    @protocol_flags.setter
    def protocol_flags(self, flags):
        self._bounded_flags = BoundedFlags(flags or {})

    def data_out(self, **kwargs):
        """What goes to the client, wrapped at its width; a text longer than one reply may be
        is cut (see above): before it is wrapped, so the wrapping's work is bounded, and after,
        so the wrapped lines are bounded too."""
        if "text" in kwargs:
            options = kwargs.get("options")
            self._cut(kwargs, log=True)
            text = kwargs["text"]
            kwargs["text"] = for_session(self, text, options, mxp=mxp_active(self, options))
            if kwargs["text"] != text:  # wrapped: its lines are bounded again
                self._cut(kwargs)
        super().data_out(**kwargs)

    def _cut(self, kwargs, log=False):
        """`kwargs["text"]` bounded to one reply (`bounded_reply`); `log`: say so in the log."""
        text = kwargs.get("text")
        body = text[0] if isinstance(text, (tuple, list)) and text else text
        if isinstance(body, str):
            cut = bounded_reply(body)
            if cut is not None:
                if log:
                    logger.log_warn(f"A reply of {len(body):,} characters to session {self.sessid} was cut.")
                kwargs["text"] = (cut, *text[1:]) if isinstance(text, (tuple, list)) else cut

    def data_in(self, **kwargs):
        """
        Incoming data, `{"inputfunc": ((args), {kwargs}), ...}`, filtered, then run now or
        after everyone else's waiting input (see "Taking turns" above).
        """
        if self._too_long(kwargs.get("text")):
            self.msg(text=settings.MAX_CHAR_LIMIT_WARNING)
            return
        cleaned = self._cleaned(kwargs)
        if getattr(self, "_running", False):
            super().data_in(**cleaned)
            return
        waiting = self.__dict__.setdefault("_waiting", deque())
        if waiting or getattr(self, "_turn_pending", False):
            if len(waiting) >= MAX_WAITING:
                self.msg(text=settings.COMMAND_RATE_WARNING)
                return
            waiting.append(cleaned)
            return
        self._run(cleaned)

    @staticmethod
    def _too_long(text):
        """Whether a typed line (`text` as the inputfunc gets it) is over MAX_CHAR_LIMIT."""
        limit = settings.MAX_CHAR_LIMIT
        if limit <= 0 or not text:
            return False
        try:
            args = text[0]
        except (TypeError, IndexError, KeyError):
            return False
        line = args[0] if isinstance(args, (list, tuple)) and args else args
        return isinstance(line, (str, bytes)) and len(line) > limit

    @staticmethod
    def _cleaned(kwargs):
        cleaned = {}
        for name, value in kwargs.items():
            if name == "options":
                cleaned[name] = value
                continue
            try:
                args, inkwargs = value
            except (TypeError, ValueError):
                cleaned[name] = clean_data(value)
                continue
            cleaned[name] = (clean_data(args), clean_data(inkwargs))
        return cleaned

    def _run(self, cleaned):
        self._running = True
        durable.start_command()
        try:
            super().data_in(**cleaned)
        finally:
            self._running = False
            self._turn_pending = True
            # A command that stored something (a roll) keeps this session's turn until the
            # writer has committed it: its next line runs after the roll's lines went out.
            stored = durable.end_command()
            if stored is None:
                self.call_later(0, self._next_turn)
            else:
                stored.addBoth(lambda _result: self.call_later(0, self._next_turn))

    def _next_turn(self):
        self._turn_pending = False
        waiting = self.__dict__.get("_waiting")
        if waiting:
            self._run(waiting.popleft())
