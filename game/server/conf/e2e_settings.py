"""
Settings for the end-to-end test server (tests/e2e/harness.py starts it with
`evennia --settings e2e_settings.py`): the game's settings, made friendly to test clients
that all connect from 127.0.0.1 and create many accounts.
"""

import os

from server.conf.settings import *  # noqa: F401,F403

# All test clients share one IP: don't throttle account creation or logins.
CREATION_THROTTLE_LIMIT = None
CREATION_THROTTLE_TIMEOUT = None
LOGIN_THROTTLE_LIMIT = None
LOGIN_THROTTLE_TIMEOUT = None

# Fast password hashing: the test accounts are throwaway.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A test's hold on the roll writer (typeclasses/durable.py): while this file exists the writer
# waits before it writes. Only the end-to-end tests set it.
DICE_WRITER_HOLD_FILE = os.environ.get("DICE_WRITER_HOLD_FILE") or None
