"""
Input functions: what a client may call besides typing a line (loaded through
`settings.INPUT_FUNC_MODULES`, after Evennia's own, so a function here replaces Evennia's of the
same name). Every global function defined here is an inputfunc: `name(session, *args, **kwargs)`.

- `client_options`: Evennia's, with the screen sizes checked first. The web client and GMCP's
  `Core.Options` (`client_options` over telnet) report `screenwidth`/`screenheight`; Evennia
  reads them with `int()`, so `"abc"` logged a traceback and threw away every other option
  sent with it, and `10**30` became the width every reply was laid out for. Here a size is
  held within `server.conf.inputfilter.SIZE_BOUNDS` (20-250 columns, 10-200 lines) and one
  that is not a whole number is left out, quietly: the session keeps the size it had and the
  other options still apply. (The session's flags bound the sizes again whatever the road:
  `server.conf.serversession.BoundedFlags`.)
"""

from evennia.server import inputfuncs as _stock

from server.conf.inputfilter import SIZE_BOUNDS, bounded_size


def client_options(session, *args, **kwargs):
    """The client's name and capabilities (Evennia's `client_options`), sizes bounded first."""
    if not kwargs or kwargs.get("get", False):
        return _stock.client_options(session, *args, **kwargs)
    checked = {}
    for key, value in kwargs.items():
        name = str(key).upper()
        if name in SIZE_BOUNDS:
            sizes = bounded_size(name, value)
            if sizes is None or 0 not in sizes:
                continue
            value = sizes[0]
        checked[key] = value
    if checked:
        _stock.client_options(session, *args, **checked)
