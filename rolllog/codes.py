"""
Verification codes: short enough to type, unguessable, unambiguous.

A code is 8 characters drawn with `secrets` from an alphabet without the look-alikes 0/O and
1/I/L: 31**8 (about 8.5 * 10**11) codes, so guessing one of a game's rolls is hopeless. Codes are
stored upper case; what a player types is read case-insensitively, with spaces and dashes
ignored ("abcd-2345" is "ABCD2345").
"""

import re
import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 8

_IGNORED = re.compile(r"[\s\-]+")


def new_code():
    """A fresh random code (uniqueness is the database's job: see api.store)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text):
    """
    What a player typed, as a stored code would be written, or None if it cannot be one.

    No error text is given for a malformed code: the caller answers "no such roll" whatever
    the reason, so nothing can be learnt from the answer.
    """
    code = _IGNORED.sub("", str(text or "")).upper()
    if len(code) != LENGTH or any(char not in ALPHABET for char in code):
        return None
    return code
