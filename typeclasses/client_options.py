"""
Bounded client options: input functions that replace Evennia's of the same name (the bundle,
`typeclasses.hardening`, appends this module to `settings.INPUT_FUNC_MODULES`, after Evennia's
own and the game's, when `DICE_HARDEN_GAME` is on). Every public function defined here is an
inputfunc: `name(session, *args, **kwargs)`.

- `client_options`: Evennia's, with the screen sizes checked first. The web client and GMCP's
  `Core.Options` (`client_options` over telnet) report `screenwidth`/`screenheight`; Evennia
  reads them with `int()`, so `"abc"` logged a traceback and threw away every other option
  sent with it, and `10**30` became the width every reply was laid out for. Here a size is
  held within `typeclasses.inputfilter.SIZE_BOUNDS` (20-250 columns, 10-200 lines) and one
  that is not a whole number is left out, quietly: the session keeps the size it had and the
  other options still apply. (The bundle's session class bounds the sizes again whatever the
  road: `typeclasses.serversession.BoundedFlags`.)
- `webclient_options`: Evennia's, which keeps whatever the web client sends on the account (its
  layout, hot buttons, settings), in the database, with no bound: one message could store
  megabytes. Here the options kept are at most `MAX_WEBCLIENT_OPTIONS` characters (as JSON,
  far above the web client's own); a change that would make them larger is not kept (a line in
  the log says so). Before login there is no account to keep them on: ignored, where Evennia's
  logged a traceback.
"""

import json

from django.conf import settings
from evennia.server import inputfuncs as _stock
from evennia.utils import logger

from storyteller_dice.typeclasses.inputfilter import SIZE_BOUNDS, bounded_size

MAX_WEBCLIENT_OPTIONS = 20_000


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


# Evennia's GMCP names for the same function (Core.Hello, Core.Supports.Set): ours too.
hello = client_options
supports_set = client_options


def webclient_options(session, *args, **kwargs):
    """The web client's saved options (Evennia's `webclient_options`), bounded in size."""
    account = getattr(session, "account", None)
    if account is None:
        return
    changes = {key: value for key, value in kwargs.items() if key != "cmdid"}
    if changes:
        kept = dict(account.db._saved_webclient_options or settings.WEBCLIENT_OPTIONS)
        kept.update(changes)
        size = len(json.dumps(kept, default=str))
        if size > MAX_WEBCLIENT_OPTIONS:
            logger.log_warn(f"Web client options of {size:,} characters from {account.key} were not kept.")
            return
    _stock.webclient_options(session, *args, **kwargs)
