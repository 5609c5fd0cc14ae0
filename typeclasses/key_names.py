"""
The keys this game gives our commands (`DICE_COMMAND_KEYS`), read from the settings alone: for
the commands (`commands.keys`, help, usage lines) and for what sits below them (the welcome
screen, Limbo, the web pages), which may not import the commands. One reading, so a renamed
`+roll` is the same new key on the connect screen, in `help` and on the roll-log page.
"""

import re

from django.conf import settings

SETTING = "DICE_COMMAND_KEYS"

# A key as a whole word: `+roll/verify` holds `+roll`, `+rolls` does not.
_WORD = r"(?<![\w+@&-]){}(?![\w-])"


def setting():
    """DICE_COMMAND_KEYS as the game set it ({} when unset)."""
    return getattr(settings, SETTING, None) or {}


def renames():
    """{our key: new key or None} from DICE_COMMAND_KEYS, keys in lower case; entries that are
    not a string naming a string or None are ignored (`commands.keys.settings_problem` names
    them at start)."""
    table = {}
    given = setting()
    if not isinstance(given, dict):
        return table
    for old, new in given.items():
        if isinstance(old, str) and (new is None or isinstance(new, str)):
            table[old.strip().lower()] = None if new is None else new.strip().lower()
    return table


def command_key(key):
    """The key our command `key` ("+stat") answers to in this game, or None: left out. (A host
    command of the same name is not seen here: `commands.keys.decide` knows the host's.)"""
    key = key.lower()
    table = renames()
    return table[key] if key in table else key


def new_keys(table):
    """{old: new} of the renames alone (what text is rewritten by)."""
    return {old: new for old, new in table.items() if new and new != old}


def rewrite(text, table=None):
    """`text` with each old key of `table` ({old: new}, DICE_COMMAND_KEYS' renames by default)
    that stands as a whole word replaced by its new key, in one pass (a swap stays a swap)."""
    table = new_keys(renames() if table is None else table)
    if not text or not table:
        return text
    pattern = "|".join(_WORD.format(re.escape(old)) for old in sorted(table, key=len, reverse=True))
    return re.sub(pattern, lambda found: table[found.group(0).lower()], text, flags=re.IGNORECASE)
