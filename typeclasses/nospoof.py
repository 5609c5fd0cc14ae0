"""
NOSPOOF tagging (the `+nospoof` preference, commands/nospoof.py): another player's speech shown
with its author in front, `[Alice(#12)] Alice says, "..."`.

It sits here, below the commands, because the receiving Character's and Account's `msg()`
(typeclasses/characters.py, typeclasses/accounts.py) apply it, through `tag_message`, and the
typeclasses never import from `commands/`.

- The preference is the Attribute `nospoof` (category `preferences`) on the **account**, so it
  follows the player from character to character and covers pages (which go to the account).
- Only messages that carry a speech type (`SPEECH_TYPES`: `say`, `pose`, `whisper`, `page`,
  `emit`; commands/speech.py sends them so, and so do Evennia's own `say`, `pose` and
  `whisper`) and a `from_obj` are tagged. A Character's `msg()` tags the message after it has
  made it one line of player text (typeclasses/incoming.py), so the tag is the start of the
  one line the reader gets.
- **Ruling:** system lines (roll announcements and the like) are not tagged, though they carry
  the roller as `from_obj`: they come from the game, whose lines can be checked with
  `+roll/verify <code>`. Your own speech is not tagged either (neither from your character
  nor from your account).
"""

from evennia.accounts.accounts import DefaultAccount
from evennia.utils.utils import make_iter

from .names import shown_name

NOSPOOF_ATTRIBUTE = "nospoof"
NOSPOOF_CATEGORY = "preferences"
SPEECH_TYPES = frozenset({"say", "pose", "whisper", "page", "emit"})


def _account_of(obj):
    if obj is None:
        return None
    if isinstance(obj, DefaultAccount):
        return obj
    return getattr(obj, "account", None)


def nospoof_on(obj):
    """Whether the player behind `obj` (an Account, or a Character with one) wants NOSPOOF."""
    account = _account_of(obj)
    if account is None:
        return False
    return bool(account.attributes.get(NOSPOOF_ATTRIBUTE, default=False, category=NOSPOOF_CATEGORY))


def set_nospoof(account, value):
    account.attributes.add(NOSPOOF_ATTRIBUTE, bool(value), category=NOSPOOF_CATEGORY)


def author_tag(author):
    """`[Name(#id)] `, the name shown as text (typeclasses.names.shown_name). The name rule keeps
    brackets and parentheses out of names, so no name can hold a tag of its own."""
    name = shown_name(author)
    dbid = getattr(author, "id", None)
    return f"[{name}(#{dbid})] " if dbid is not None else f"[{name}] "


def tag_message(receiver, text, from_obj):
    """
    `text` as `receiver` should see it: with the author's tag in front when the receiver's
    player has NOSPOOF on and this is another player's speech; otherwise unchanged.
    """
    if not from_obj or text is None or not isinstance(text, tuple) or not text:
        return text
    outkwargs = text[1] if len(text) > 1 and isinstance(text[1], dict) else {}
    if outkwargs.get("type") not in SPEECH_TYPES or not isinstance(text[0], str):
        return text
    author = make_iter(from_obj)[0]
    receiver_account = _account_of(receiver)
    if receiver_account is None or author is receiver:
        return text
    if author is receiver_account or _account_of(author) is receiver_account:
        return text
    if not nospoof_on(receiver_account):
        return text
    return (author_tag(author) + text[0],) + tuple(text[1:])
