"""
The one name rule: what an account's or a character's name may be, on every way a name is made
or changed, and how every name is shown.

`name_problem(name, kind)` is the rule; everything else applies it:

- accounts: `Account.validate_username` (typeclasses/accounts.py), which the telnet `create`
  command and the website's registration both go through;
- characters: `Character.validate_name` (typeclasses/characters.py), which `charcreate`, the
  account's first character and the website's character creation go through;
- channels: `Channel.at_channel_creation` and renames (typeclasses/channels.py);
- renames: the builder command `@name` (commands/building.py), for accounts (`@name *bob = ...`)
  and objects alike; new objects: `@create`, `@dig` and `@open` (the same module);
- names already in the database (accounts, objects and channels): `report_bad_names()`, run
  at every server start
  (server/conf/at_server_startstop.py).

A name is shown as text wherever it is printed (`shown_name`, used by every typeclass's
`get_display_name`), so even a name that came in some other way (an old database, Django's
admin, raw SQL) never shows as markup or reaches a terminal as an escape sequence.

**Ruling (what a character or account name may hold):** letters of any script, digits, single
spaces between words, and the joiners `'`, `-`, `.` and `_`; it starts with a letter, holds
1 to 30 characters (accounts keep Evennia's own 3 to 30 and ASCII only) and is written in plain
forms (Unicode NFKC: no full-width letters or brackets, ligatures, superscripts). That keeps out
Evennia's markup (`|`, `{`, `$`), control, escape, bidi and zero-width characters, the
characters Evennia's lock strings are made of (`;`, `:`, `(`, `)`, `,`, `&`, `!`), and anything
that could imitate the `+nospoof` tag `[Name(#12)]` or a system tag `[Roll]` (brackets,
parentheses, `#`). A MUSH name rarely needs more, and what is refused is told in one line; a
refused account name's line ends with the whole rule for accounts (`ACCOUNT_RULE`), the very
sentence the registration form and the connect screen show.

**Ruling (names that read as our tags):** a character, account or channel name may not read as
a tag of ours (`[Roll]`, `[Staff]`, every tag in `typeclasses.speech_text.SYSTEM_TAGS`) where it
is shown in brackets (a channel's `[Public]` in front of each message, `+nospoof`'s
`[Name(#12)]`): `Roll`, `STAFF`, `Rоll` with a Cyrillic `о` and `Private roll` are refused. It is
the same search that marks our tags in speech (`speech_text.looks_like_tag`): any letter case,
every UTS #39 look-alike of each letter, whatever shows nothing ignored.

**Ruling (channels):** a channel's name follows the strict rule of character names (letters,
digits, single spaces and `' - . _`, at most 30 characters), since it is shown in front of every
message on the channel as `[name]`.

**Ruling (other objects):** rooms, exits and things are named by builders, whose names are
longer and use punctuation ("Elysium (Upper Gallery)"). They keep everything printable up to
80 characters; only markup (`|`, `{`, `}`), control, escape, bidi and zero-width characters
are refused (their lock strings are not built from their names, and they never speak). A `$`
is left to them: names are put into Evennia's lines after its `$func()` parser has run, so a
`$pad(` in a name is never called (and `shown_name` makes it text in any case).

**Ruling (names already stored):** a bad stored name is reported, not changed: the log gets one
line per name (written with `repr`, so it cannot split or colour the log) and staff get the
list on their next login. Renaming a player's character behind their back would confuse the
player and the roll log's history alike; staff rename it with `@name` after talking to them.
"""

import re
import unicodedata

from django.conf import settings
from evennia.accounts.accounts import DefaultAccount
from evennia.accounts.models import AccountDB
from evennia.comms.models import ChannelDB
from evennia.objects.models import ObjectDB
from evennia.objects.objects import DefaultCharacter
from evennia.server.models import ServerConfig
from evennia.utils import logger
from evennia.utils.utils import class_from_module

from storyteller_dice.rules.display import escape, without_control

from .speech_text import looks_like_tag

NAME_MAX = 30
OBJECT_NAME_MAX = 80
ACCOUNT_NAME_MIN = 3
MAX_MARKS = 2
#: The characters that may join the words of a character or account name.
JOINERS = "'-._"
#: Kinds of name the rule knows: the strict rule for those who speak (and the channels they speak
#: on, whose name is shown in front of every message), the text rule for things.
SPEAKER_KINDS = ("character", "account", "channel")


TAG_LIKE = "A name cannot read as one of the game's own tags, like [Roll] or [Staff]."
#: The account name rule in one sentence, said the same way wherever a player meets it: the
#: end of every refusal of an account name, the registration form (`{% account_name_rule %}`)
#: and the connect screen (typeclasses/welcome.py).
ACCOUNT_RULE = ("An account name has 3 to 30 characters: letters A-Z, digits and ' - . _, "
                "starting with a letter, and no spaces.")


def _describe(char):
    """A character as a refusal line can show it: printable ones quoted, the rest by number."""
    code = f"U+{ord(char):04X}"
    if char.isprintable() and not char.isspace() and unicodedata.category(char) not in ("Cf", "Mn", "Me"):
        shown = escape(char)
        return f"'{shown}' ({code})"
    label = unicodedata.name(char, "")
    return f"{code} {label}".rstrip() if label else f"{code} (a control character)"


def _unshowable(char):
    """Whether a character can never be shown as text: control, format (bidi, zero-width),
    separators other than the space, surrogates, unassigned and private-use code points."""
    if char == " ":
        return False
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")


def _text_problem(name, limit):
    """What the text rule (every kind) refuses, or None."""
    if not name or not name.strip():
        return "A name cannot be empty."
    for char in name:
        if _unshowable(char):
            return f"A name cannot hold {_describe(char)}: it is not printable text."
    for char in "|{}":
        if char in name:
            return f"A name cannot hold {_describe(char)}: the game would read it as markup."
    if name != name.strip() or "  " in name:
        return "A name cannot start or end with a space, nor hold two spaces in a row."
    if len(name) > limit:
        return f"A name can be at most {limit} characters long (this one has {len(name)})."
    return None


def _speaker_problem(name, kind):
    """What the strict rule for characters and accounts refuses beyond the text rule, or None."""
    # Compatibility forms are refused; a letter and its accents typed apart (NFD) are not.
    if unicodedata.normalize("NFKC", name) != unicodedata.normalize("NFC", name):
        odd = next(c for c in name if unicodedata.normalize("NFKC", c) != unicodedata.normalize("NFC", c))
        return f"A name cannot hold {_describe(odd)}: use the plain form of each letter."
    if not name[0].isalpha():
        return "A name must start with a letter."
    marks = 0  # accents in a row: a letter takes at most MAX_MARKS, so none can pile up
    for char in name:
        category = unicodedata.category(char)
        marks = marks + 1 if category in ("Mn", "Mc") else 0
        if marks > MAX_MARKS:
            return f"A name cannot pile more than {MAX_MARKS} accents on one letter."
        if char == " " or char in JOINERS or category[0] == "L" or category in ("Nd", "Mn", "Mc"):
            continue
        if kind == "account":
            return f"An account name cannot hold {_describe(char)}."
        return (
            f"A name cannot hold {_describe(char)}: use letters, digits, single spaces "
            f"and {' '.join(JOINERS)} only."
        )
    if kind == "account":
        if not name.isascii():
            odd = next(c for c in name if not c.isascii())
            return f"An account name cannot hold {_describe(odd)}."
        if " " in name:
            return "An account name cannot hold a space."
        if len(name) < ACCOUNT_NAME_MIN:
            return f"An account name needs at least {ACCOUNT_NAME_MIN} characters."
    return None


# Most names are plain ASCII words: these pass at once (the start's scan reads every name).
_PLAIN_SPEAKER = re.compile(r"[A-Za-z][A-Za-z0-9'._-]*(?: [A-Za-z0-9'._-]+)*")
_PLAIN_OBJECT = re.compile(r"[!-z~](?:[ -z~]*[!-z~])?")  # printable ASCII but | { }


def _plainly_fine(name, kind):
    if kind == "account":
        return len(name) >= ACCOUNT_NAME_MIN and " " not in name and bool(_PLAIN_SPEAKER.fullmatch(name))
    if kind in SPEAKER_KINDS:
        return bool(_PLAIN_SPEAKER.fullmatch(name))
    return "  " not in name and bool(_PLAIN_OBJECT.fullmatch(name))


def name_problem(name, kind="character"):
    """
    The name rule: why `name` cannot be a name of this kind, in one line, or None when it can.

    Args:
        name (str): the name as it would be stored.
        kind (str): "character" or "account" (the strict rule) or "object" (rooms, exits,
            things: the text rule only).
    """
    if not isinstance(name, str):
        return "A name must be text."
    limit = NAME_MAX if kind in SPEAKER_KINDS else OBJECT_NAME_MAX
    if len(name) <= limit and _plainly_fine(name, kind):
        problem = None
    else:
        problem = _text_problem(name, limit)
        if problem is None and kind in SPEAKER_KINDS:
            problem = _speaker_problem(name, kind)
    if problem is None and kind in SPEAKER_KINDS and looks_like_tag(name):
        problem = TAG_LIKE
    if problem is not None and kind == "account" and problem != TAG_LIKE:
        problem = f"{problem} {ACCOUNT_RULE}"  # what is wrong, then the whole rule
    return problem


def kind_of(obj):
    """Which rule an object's or account's name follows."""
    if isinstance(obj, DefaultAccount):
        return "account"
    if isinstance(obj, DefaultCharacter) or getattr(obj, "has_account", False):
        return "character"
    return "object"


def shown_name(obj):
    """
    A name as every line shows it: the stored key (or the text given) as text, with no markup,
    control character or line break of its own (rules.display.escape). Already-shown names of
    ours are never passed here again: `||` would show as two bars.
    """
    key = getattr(obj, "key", None)
    return escape(obj if key is None else key)


def log_name(obj):
    """A name for the server log: `repr`, so a control character cannot split or forge a line."""
    return ascii(str(getattr(obj, "key", obj)))


# ---------------------------------------------------------------- names already stored


def kind_of_typeclass(typeclass_path, _known={}):
    """`kind_of` for a typeclass path (stored, or given to a builder command), without an
    object (each path looked up once)."""
    if typeclass_path not in _known:
        try:
            cls = class_from_module(typeclass_path, defaultpaths=settings.TYPECLASS_PATHS)
        except Exception:  # noqa: BLE001 - a typeclass that does not import: the text rule
            cls = None
        _known[typeclass_path] = "character" if cls and issubclass(cls, DefaultCharacter) else "object"
    return _known[typeclass_path]


def bad_stored_names():
    """
    (what, id, key, problem) for every stored account and object whose name breaks the rule.
    Read as plain rows, not as objects: loading a whole game into Evennia's cache at every start
    would be slow, and a partly loaded account (a deferred password) would stay cached.
    """
    found = []
    for dbid, username in AccountDB.objects.values_list("id", "username").order_by("id"):
        problem = name_problem(username, "account")
        if problem:
            found.append(("account", dbid, username, problem))
    rows = ObjectDB.objects.values_list("id", "db_key", "db_typeclass_path").order_by("id")
    for dbid, key, path in rows.iterator():
        problem = name_problem(key, kind_of_typeclass(path))
        if problem:
            found.append(("object", dbid, key, problem))
    for dbid, key in ChannelDB.objects.values_list("id", "db_key").order_by("id"):
        problem = name_problem(key, "channel")
        if problem:
            found.append(("channel", dbid, key, problem))
    return found


# Evennia has no command that renames a channel: staff set its key in code.
CHANNEL_RENAME = "a channel with py: py ch = evennia.search_channel('<name>')[0]; ch.key = '<new name>'"
RENAME = ("Rename it with @name.", f"Rename it ({CHANNEL_RENAME}).")
STAFF_NOTICE_ATTRIBUTE = "bad_names"
STAFF_NOTICE_CATEGORY = "staff_notices"


def report_bad_names():
    """
    At server start: every stored name that breaks the rule, one log line each, and the same
    list kept (on the server's config) for staff to be shown at login (`staff_notice`).
    Names are reported, never changed (see the module's rulings).
    """
    found = bad_stored_names()
    for what, dbid, key, problem in found:
        logger.log_warn(f"Bad name: {what} #{dbid} {ascii(key)}: {problem} {RENAME[what == 'channel']}")
    ServerConfig.objects.conf(STAFF_NOTICE_ATTRIBUTE, [(what, dbid, key) for what, dbid, key, _ in found])
    return found


def _still_bad(found):
    """The names of the start's report that still break the rule (staff may have renamed some
    since, with @name)."""
    ids = {what: [dbid for kind, dbid, _ in found if kind == what] for what in ("account", "object", "channel")}
    now = dict(
        [(("account", i), k) for i, k in AccountDB.objects.filter(id__in=ids["account"]).values_list("id", "username")]
        + [(("object", i), k) for i, k in ObjectDB.objects.filter(id__in=ids["object"]).values_list("id", "db_key")]
        + [(("channel", i), k) for i, k in ChannelDB.objects.filter(id__in=ids["channel"]).values_list("id", "db_key")]
    )
    return [(what, dbid, key) for what, dbid, key in found if now.get((what, dbid)) == key]


def staff_notice(account):
    """The line staff see at login while stored names break the rule, or None."""
    if not account or not account.check_permstring("Admin"):
        return None
    found = _still_bad(ServerConfig.objects.conf(STAFF_NOTICE_ATTRIBUTE, default=None) or [])
    if not found:
        return None
    listed = ", ".join(f"{what} #{dbid} {escape(key)}" for what, dbid, key in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    return (
        f"|w[Staff]|n {len(found)} stored name(s) break the name rule (see the server log): "
        f"{listed}{more}. Rename them with @name"
        + (f" ({CHANNEL_RENAME})." if any(what == "channel" for what, _, _ in found) else ".")
    )


class DiceObjectMixin:
    """
    What a game's own `ObjectParent` mixes in (`class ObjectParent(DiceObjectMixin):`), so that
    every object's name is shown as text: Evennia's stock lines ("has entered the game",
    "arrives to ... from ...", "is leaving ...", the `Characters:` and `Exits:` lines of `look`,
    `$You()`) all print `get_display_name`, so a name that holds markup, an escape sequence or
    a line break shows as the characters it is made of, on one line.
    """

    def get_display_name(self, looker=None, **kwargs):
        return shown_name(self)

    def __str__(self):
        # `str(obj)` is what Evennia's log lines print ("Character Created: ..."): a control
        # character in a stored name must not split or colour a line of the server log.
        return without_control(super().__str__())

    def __repr__(self):
        return without_control(super().__repr__())
