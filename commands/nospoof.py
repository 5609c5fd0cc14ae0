"""
`+nospoof`: every line of another player's speech tagged with its author (PennMUSH's NOSPOOF).

With `+nospoof on`, each say, pose, whisper, page or emit from somebody else reaches you as
`[Alice(#12)] Alice says, "..."`: the name and database number of the character (or, for a
page, the account) that made it, so nothing a player writes can pass for a line from the game
or from another player. It is off by default.

- Stored as the Attribute `nospoof` (category `preferences`) on the **account**, so it follows
  the player from character to character and covers pages (which go to the account).
- Applied in `msg()` of the receiving Character and Account (typeclasses/), through
  `tag_message`: only messages that carry a speech type (`say`, `pose`, `whisper`, `page`,
  `emit`; commands/speech.py sends them so) and a `from_obj` are tagged.
- **Ruling:** system lines (roll announcements and the like) are not tagged, though they carry
  the roller as `from_obj`: they come from the game, whose lines can be checked with
  `+roll/verify <code>`. Your own speech is not tagged either (neither from your character
  nor from your account).
"""

from evennia.accounts.accounts import DefaultAccount
from evennia.commands.default.muxcommand import MuxCommand
from evennia.utils.utils import make_iter

from .dice_base import HELP_CATEGORY

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
    """`[Name(#id)] `, the name shown literally."""
    name = " ".join(str(getattr(author, "key", author)).replace("|", "||").split())
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


class CmdNospoof(MuxCommand):
    """
    tag other players' speech with its author

    Usage:
      +nospoof            (shows whether it is on)
      +nospoof on
      +nospoof off

    With +nospoof on, every say, pose, whisper, page and emit from another player reaches you
    with its author in front, as PennMUSH's NOSPOOF does: [Alice(#12)] Alice says, "...". It
    is stored on your account, so it covers all your characters. Off by default.

    Lines from the game itself (rolls, contests, Rouse checks, ...) are not tagged. Any roll
    line can be checked against the record with its code, the word at the end of the line:
    +roll/verify <code>. A player's speech can never start a line, so a line that starts
    with [Roll], [Contest], [Verify] and the like is the game's; inside speech such a tag is
    shown with the speaker's name in front.
    """

    key = "+nospoof"
    aliases = ["nospoof", "@nospoof"]
    locks = "cmd:all()"
    help_category = HELP_CATEGORY
    usage = "Usage: +nospoof [on|off]"

    def func(self):
        account = _account_of(self.caller) or self.account
        if account is None:
            self.msg("Only a player's account can have +nospoof.")
            return
        arg = (self.args or "").strip().lower()
        if not arg:
            state = "on" if nospoof_on(account) else "off"
            self.msg(f"+nospoof is {state}. {self.usage}")
        elif arg in ("on", "yes", "1"):
            set_nospoof(account, True)
            self.msg("+nospoof is on: other players' speech now shows its author, [Name(#id)].")
        elif arg in ("off", "no", "0"):
            set_nospoof(account, False)
            self.msg("+nospoof is off.")
        else:
            self.msg(self.usage)
