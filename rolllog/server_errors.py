"""
Every HTTP 500 of the website is in the server log: the traceback, then one line with a
reference, the method and the path.

Evennia's website is Django, whose own report of a 500 (the `django.request` logger) goes to
the console only with `DEBUG = True` and otherwise to `mail_admins`, which does nothing without
`ADMINS`; Evennia connects Python's logging to nothing. So a page that failed answered 500 and
the log said nothing. Django sends `got_request_exception` for every exception a view (ours or
the host's) did not turn into an answer itself, from inside its `except`, and for nothing else:
`Http404`, `PermissionDenied` and the 400s are answers, not errors, and are not sent. The
receiver (connected once, in `RollLogConfig.ready()`) writes the traceback with Evennia's
logger, as an error in a command is written.

**Ruling:** the line is "error 3F9A2C: HTTP 500 for GET /characters/detail/alice/3/", its six
capital hex digits a reference to find it by (as a command's error has, for the bundle's
`typeclasses/player_errors.py`); the path is the visitor's, so it is logged with its control
characters made spaces and at most 200 characters of it (no forged log line).
"""

import secrets

from django.core.signals import got_request_exception
from evennia.utils import logger

from storyteller_dice.rules.display import without_control

LINE = "error {ref}: HTTP 500 for {method} {path}"
MAX_PATH = 200


def new_reference():
    """Six capital hex digits: enough to find one error in a day's log."""
    return secrets.token_hex(3).upper()


def log_server_error(sender, request=None, **kwargs):
    """Django's `got_request_exception`: the traceback and the line with a reference, logged."""
    ref = new_reference()
    method = without_control(getattr(request, "method", None) or "?")[:10]
    path = without_control(getattr(request, "path", None) or "?")
    if len(path) > MAX_PATH:
        path = path[:MAX_PATH] + "..."
    logger.log_trace(LINE.format(ref=ref, method=method, path=path))
    return ref


def connect():
    # dispatch_uid: connected once however often `ready()` runs.
    got_request_exception.connect(log_server_error, dispatch_uid="storyteller_dice.server_errors")
