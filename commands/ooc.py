"""
`ooc <text>`: an out-of-character say or pose in the room, as MUSH players expect.

    ooc Back in five.        ->  <OOC> Alice says, "Back in five."
    ooc :waves.              ->  <OOC> Alice waves.
    ooc ;'s phone rings.     ->  <OOC> Alice's phone rings.

The text goes through `commands.speech.speech_text`, exactly as `say` and `pose` do (no line
breaks, our system tags marked with the speaker's name, no links, no templates), and is sent
to each receiver with `msg()` (message type "say" or "pose", so `+nospoof` tags it too).

**Ruling (the stock `ooc`):** Evennia's `ooc` stops puppeting the character. MUSH players
type `ooc` to talk out of character, so while a character is puppeted `ooc` is this command,
and the stock one is `unpuppet` (its own alias) or `@ooc`; `ic` puppets again as before.
When no character is puppeted, `ooc` is Evennia's again (it says "You are already OOC.").
`ooc` with no text says how to use it and names `unpuppet`.
"""

from evennia.commands.default.account import CmdOOC as _StockOOC
from evennia.commands.default.muxcommand import MuxCommand

from storyteller_dice.typeclasses.screenreader import msg_readable

from .speech import _name, speech_text

TAG = "|w<OOC>|n"


class CmdOOC(MuxCommand):
    """
    speak or pose out of character

    Usage:
      ooc <message>
      ooc :<pose>
      ooc ;<pose>        (no space after your name)

    Says something out of character to the room:
      ooc Back in five.    ->  <OOC> Alice says, "Back in five."
      ooc :waves.          ->  <OOC> Alice waves.

    To leave your character (Evennia's ooc), use unpuppet (or @ooc);
    ic takes you back.
    """

    key = "ooc"
    locks = "cmd:all()"
    help_category = "General"
    arg_regex = r"\s|$"

    def parse(self):
        # Keep the text exactly as typed (MuxCommand would split on = and /).
        self.args = (self.args or "").strip()

    def func(self):
        caller = self.caller
        text = self.args
        pose = text[:1] in (":", ";")
        gap = ""
        if pose:
            mark, text = text[0], text[1:]
            if mark == ":":
                text = text.lstrip()
        speech = speech_text(text, caller.key) if text.strip() else ""
        if not speech:
            caller.msg("Usage: ooc <message>, or ooc :<pose>. To leave your character: unpuppet.")
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


class CmdUnpuppet(_StockOOC):
    """
    stop puppeting and go out of character

    Usage:
      unpuppet
      @ooc

    Leaves your current character and puts you in an out-of-character state
    (Evennia's ooc; here, ooc <text> speaks out of character). Use ic to return.
    """

    key = "unpuppet"
    aliases = ["@ooc"]
