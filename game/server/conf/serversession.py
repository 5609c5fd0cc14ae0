"""
ServerSession: the game's server-side session, whose one job here is the global input filter.

**Where the filter hooks in, and why there.** Every byte a client sends reaches the Server the
same way, whatever the protocol: the Portal (telnet, SSH, websocket and AJAX web client)
decodes it and sends it over AMP, the Server's session handler hands it to
`ServerSession.data_in(**kwargs)`, and only that method calls the inputfuncs (`text` for a
typed line, which runs the command handler; the web client's OOB functions for the rest).
Code that injects a command (`session.execute_cmd`) goes the same way. So filtering in
`data_in` covers every protocol, every inputfunc (not only `text`) and every command, stock
Evennia ones and the login screen's `connect`/`create` included, before any of them runs.
Overriding the `text` inputfunc instead would miss the other inputfuncs and lose to any later
module in `INPUT_FUNC_MODULES` that defines `text`; a custom `COMMAND_PARSER` sees the line
only after nick replacement and not at all for non-command input.

settings.py enables it with `SERVER_SESSION_CLASS = "server.conf.serversession.ServerSession"`.
The filter itself (what is removed, and the rulings) is `server.conf.inputfilter`.
"""

from evennia.server.serversession import ServerSession as BaseServerSession

from server.conf.inputfilter import clean_data


class ServerSession(BaseServerSession):
    """A player's connection, with control and bidi characters removed from all its input."""

    def data_in(self, **kwargs):
        """
        Incoming data, `{"inputfunc": ((args), {kwargs}), ...}`, filtered before the
        inputfuncs (and so any command) see it.
        """
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
        super().data_in(**cleaned)
