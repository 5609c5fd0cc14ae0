"""
`+nospoof`: every line of another player's speech tagged with its author (PennMUSH's NOSPOOF).

With `+nospoof on`, each say, pose, whisper, page or emit from somebody else reaches you as
`[Alice(#12)] Alice says, "..."`: the name and database number of the character (or, for a
page, the account) that made it, so nothing a player writes can pass for a line from the game
or from another player. It is off by default.

- Stored as the Attribute `nospoof` (category `preferences`) on the **account**, so it follows
  the player from character to character and covers pages (which go to the account).
- Applied in `msg()` of the receiving Character and Account (typeclasses/), through
  `tag_message` (typeclasses/nospoof.py, below the commands, with the stored preference):
  only messages that carry a speech type (`say`, `pose`, `whisper`, `page`, `emit`;
  commands/speech.py sends them so) and a `from_obj` are tagged.
- **Ruling:** system lines (roll announcements and the like) are not tagged, though they carry
  the roller as `from_obj`: they come from the game, whose lines can be checked with
  `+roll/verify <code>`. Your own speech is not tagged either (neither from your character
  nor from your account).
"""

from evennia.commands.default.muxcommand import MuxCommand

# The tagging and the stored preference live below the commands (the typeclasses apply them);
# their names are importable from here too.
from storyteller_dice.typeclasses.nospoof import (  # noqa: F401
    NOSPOOF_ATTRIBUTE,
    NOSPOOF_CATEGORY,
    SPEECH_TYPES,
    _account_of,
    author_tag,
    nospoof_on,
    set_nospoof,
    tag_message,
)

from .dice_base import HELP_CATEGORY


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

    Lines from the game itself (rolls, contests, checks, ...) are not tagged. Any roll
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
