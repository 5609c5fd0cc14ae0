"""
`ooc <text>`: an out-of-character say or pose in the room, as MUSH players expect; bare `ooc`
is Evennia's (leave your character).

    ooc Back in five.        ->  <OOC> Alice says, "Back in five."
    ooc :waves.              ->  <OOC> Alice waves.
    ooc ;'s phone rings.     ->  <OOC> Alice's phone rings.
    ooc                      ->  Evennia's ooc: you leave your character.

The text goes through `commands.speech.speech_text`, exactly as `say` and `pose` do (no line
breaks, our system tags marked with the speaker's name, no links, no templates), and is sent
to each receiver with `msg()` (message type "say" or "pose", so `+nospoof` tags it too).

**Ruling (the stock `ooc`):** `CmdOOC` extends Evennia's own `ooc`
(`evennia.commands.default.account.CmdOOC`, its `extends_stock`), it does not replace it: with
text it speaks out of character; with no text, or typed as its alias `unpuppet`, it is
Evennia's command, which leaves the character (a game where one account plays several
characters at once, MULTISESSION_MODE 3, needs it). It lives in the character's commands
(`DiceCmdSet`), so it answers only while a character is puppeted; out of character, `ooc` is
the account's own command as before. A host with an `ooc` of its own keeps it: the start-time
check finds that the host's `ooc` is not the one ours extends and leaves ours out.
"""

from evennia.commands.default.account import CmdOOC as _StockOOC

from storyteller_dice.typeclasses.screenreader import msg_readable

from .speech import _name, speech_text

TAG = "|w<OOC>|n"
# The names that always leave the character, text or not (Evennia's alias, and `@ooc`).
LEAVING = ("unpuppet", "@ooc")


class CmdOOC(_StockOOC):
    """
    speak or pose out of character, or leave your character

    Usage:
      ooc <message>
      ooc :<pose>
      ooc ;<pose>        (no space after your name)
      ooc                (leave your character; also: unpuppet)

    Says something out of character to the room:
      ooc Back in five.    ->  <OOC> Alice says, "Back in five."
      ooc :waves.          ->  <OOC> Alice waves.

    With nothing after it, ooc leaves your character and puts you in an
    out-of-character state; ic takes you back.
    """

    key = "ooc"
    aliases = ["unpuppet"]
    # Speaking is for everyone; leaving the character keeps the stock command's lock (`func`).
    locks = "cmd:all()"
    help_category = "General"
    switch_options = ()  # none: `ooc /x` is speech, as MUSH players type it
    arg_regex = r"\s|$"
    #: The stock command this one extends (with no text it is that command): the start-time
    #: collision check (commands/keys.py) reads it, so the host's stock `ooc` is no collision.
    extends_stock = "evennia.commands.default.account.CmdOOC"

    def parse(self):
        # The stock parse (an account caller: `self.caller` becomes the account, the puppet
        # `self.character`), then the text exactly as typed (MuxCommand splits on = and /).
        raw = self.args or ""
        if getattr(self, "account", None) is None:
            # A character run with no player (a script, `force`): it may speak, not leave.
            self.character = self.caller if hasattr(self.caller, "location") else None
        else:
            super().parse()
            if getattr(self, "character", None) is None and self.session is not None:
                self.character = self.account.get_puppet(self.session)
        self.args = raw.strip()

    def func(self):
        speaker = getattr(self, "character", None)
        if not self.args or (self.cmdstring or "").lower() in LEAVING or speaker is None:
            self.leave()
            return
        self.speak(speaker, self.args)

    def leave(self):
        """Evennia's `ooc` (leave the character), for an account its lock lets use it."""
        account = getattr(self, "account", None)
        if account is None or not account.locks.check_lockstring(account, _StockOOC.locks):
            self.msg("You cannot leave your character.")
            return
        super().func()

    def speak(self, caller, text):
        pose = text[:1] in (":", ";")
        gap = ""
        if pose:
            mark, text = text[0], text[1:]
            if mark == ":":
                text = text.lstrip()
        speech = speech_text(text, caller.key) if text.strip() else ""
        if not speech:
            caller.msg("Usage: ooc <message>, or ooc :<pose>. ooc alone leaves your character.",
                       session=self.session)
            return
        if pose:
            gap = "" if (mark == ";" or speech[0] in "',:") else " "
        location = caller.location
        receivers = location.contents if location else [caller]
        if caller not in receivers:
            receivers = [caller, *receivers]
        for receiver in receivers:
            if pose:
                line = f"{TAG} {_name(caller, receiver)}{gap}{speech}|n"
            elif receiver is caller:
                line = f'{TAG} You say, "{speech}|n"'
            else:
                line = f'{TAG} {_name(caller, receiver)} says, "{speech}|n"'
            msg_readable(receiver, (line, {"type": "pose" if pose else "say"}), from_obj=caller)


class CmdUnpuppet(CmdOOC):
    """
    speak or pose out of character, or leave your character

    Usage:
      ooc <message>
      ooc :<pose>
      ooc                (leave your character; also: unpuppet, @ooc)

    Leaves your current character and puts you in an out-of-character state
    (Evennia's ooc); ooc <text> speaks out of character. Use ic to return.
    """

    # `ooc` with `@ooc` as well, for a cmdset that lists it beside `CmdOOC`: two commands
    # sharing a name replace each other in a cmdset, so it is the same command, whichever
    # stays.
    aliases = ["unpuppet", "@ooc"]
