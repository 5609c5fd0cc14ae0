"""
Speech that cannot forge a system line: `say`, `pose` (`:`, `;`, `emote`), `whisper`, `page`.

Evennia's stock speech commands pass player text to other players almost as typed: `|/` starts
a new line, so `say hi|/[Roll] Admin rolls ...` shows the room a complete fake roll line, and
`pose` goes through `msg_contents`, which evaluates `$func()` and `{...}` in the player's text
(`pose {` is a traceback). These subclasses keep the stock commands' names, syntax and help
category, and change only what reaches the other players:

- The text goes through `speech_text` (typeclasses/speech_text.py, where its rulings are: line
  breaks become spaces, colour is kept, a system tag of ours is marked with the speaker's name,
  links are shown as plain text). It lives below the commands because channel messages
  (typeclasses/channels.py) follow the same rules; its names are importable from here too.
- Every speech ends with `|n`, so the speaker's colour does not bleed into later lines.
- Nothing the player typed is ever a template: every message is finished text sent to each
  receiver with `msg()` (no `$func()`, no `{}` fields), with the speaker as `from_obj` and a
  message type (`say`, `pose`, `whisper`, `page`) that `+nospoof` (typeclasses/nospoof.py) uses.

Every roll line can be checked: `+roll/verify <code>` shows the stored record of the code at
the end of the line (see `help verifying rolls`).

These commands are optional extras (`SpeechCmdSet`): without them, the receiving character's
`msg()` (typeclasses/incoming.py) already makes the host's own `say`, `pose` and `whisper` one
line of player text with our tags marked. They still do it themselves (and `pose` here never
evaluates a template); what they send passes that filter unchanged, since filtering twice gives
what filtering once gives.
"""

from django.db.models import Q
from evennia.commands.default.comms import CmdPage as _StockPage
from evennia.commands.default.general import CmdPose as _StockPose
from evennia.commands.default.general import CmdSay as _StockSay
from evennia.commands.default.general import CmdSetDesc as _StockSetDesc
from evennia.commands.default.general import CmdWhisper as _StockWhisper
from evennia.comms.models import Msg
from evennia.utils import create

# The text rules live below the commands (the typeclasses use them too); imported here under
# their old names for the commands below and for code that imports them from this module.
from storyteller_dice.typeclasses.names import shown_name
from storyteller_dice.typeclasses.screenreader import msg_readable
from storyteller_dice.typeclasses.speech_text import SYSTEM_TAGS, literal, mark_tags, speech_text  # noqa: F401


def _name(obj, looker):
    """The speaker's name as text (typeclasses.names.shown_name, as every typeclass shows it)."""
    return shown_name(obj)


def _spoken(speaker, said, refusal, **pre_say):
    """
    What the speaker says, as text, or None: the speaker's `at_pre_say` may silence it, and
    what is left empty once made text gets `refusal`.
    """
    speech = speaker.at_pre_say(said, **pre_say)
    if not speech:
        return None
    speech = speech_text(speech, speaker.key)
    if not speech:
        speaker.msg(refusal)
    return speech or None


def _tell_each(speaker, receivers, after_name, kind):
    """Each receiver reads the speaker's name as it is shown to them, then `after_name` (our text)."""
    for receiver in receivers:
        msg_readable(receiver, (f"{_name(speaker, receiver)}{after_name}", {"type": kind}), from_obj=speaker)


class CmdSay(_StockSay):
    """
    speak as your character

    Usage:
      say <message>
      "<message>
      '<message>

    Talk to those in your current location. Colour codes work; line breaks (||/) do not.
    """

    def func(self):
        caller = self.caller
        if not self.args or not self.args.strip():
            caller.msg("Say what?")
            return
        speech = _spoken(caller, self.args, "Say what?")
        if not speech:
            return
        msg_readable(caller, (f'You say, "{speech}|n"', {"type": "say"}), from_obj=caller)
        location = caller.location
        if not location:
            return
        _tell_each(caller, [receiver for receiver in location.contents if receiver is not caller],
                   f' says, "{speech}|n"', "say")


class CmdWhisper(_StockWhisper):
    """
    Speak privately as your character to another

    Usage:
      whisper <character> = <message>
      whisper <char1>, <char2> = <message>

    Talk privately to one or more characters in your current location, without others in the
    room being informed. Colour codes work; line breaks (||/) do not.
    """

    def func(self):
        caller = self.caller
        if not self.lhs or not self.rhs:
            caller.msg("Usage: whisper <character> = <message>")
            return
        names = list(dict.fromkeys(name.strip() for name in self.lhs.split(",") if name.strip()))
        receivers = [caller.search(name) for name in names]
        receivers = list(dict.fromkeys(recv for recv in receivers if recv))
        if not receivers:
            return
        speech = _spoken(caller, self.rhs, "Usage: whisper <character> = <message>", whisper=True, receivers=receivers)
        if not speech:
            return
        if caller not in receivers:
            listed = ", ".join(_name(recv, caller) for recv in receivers)
            msg_readable(caller, (f'You whisper to {listed}, "{speech}|n"', {"type": "whisper"}),
                         from_obj=caller)
        _tell_each(caller, receivers, f' whispers: "{speech}|n"', "whisper")


class CmdPose(_StockPose):
    """
    strike a pose

    Usage:
      pose <pose text>
      :<pose text>
      ;<pose text>          (no space after your name)
      emote <pose text>
      pose's <pose text>

    Example:
      pose is standing by the wall, smiling.
       -> others will see:
      Tom is standing by the wall, smiling.
      ;'s coat is wet.
       -> Tom's coat is wet.

    Describe an action being taken. The pose text will automatically begin with your name.
    Colour codes work; line breaks (||/) do not.
    """

    aliases = [":", ";", "emote"]

    def parse(self):
        args = self.args or ""
        if self.cmdstring == ";":
            self.args = args.strip()
        else:
            super().parse()

    def func(self):
        caller = self.caller
        text = speech_text(self.args or "", caller.key)
        if not text:
            self.msg("What do you want to do?")
            return
        gap = "" if (self.cmdstring == ";" or text[0] in "',:") else " "
        location = caller.location
        receivers = location.contents if location else [caller]
        _tell_each(caller, receivers, f"{gap}{text}|n", "pose")


class CmdPage(_StockPage):
    """
    send a private message to another account

    Usage:
      page <account> <message>
      page[/switches] [<account>,<account>,... = <message>]
      page <account> = :<pose>
      tell        ''
      page <number>

    Switches:
      last - shows who you last messaged
      list - show your last <number> of tells/pages (default)

    Send a message to target user (if online). If no argument is given, you will get a list
    of your latest messages. The equal sign is needed for multiple targets or if sending to
    target with space in the name. Colour codes work; line breaks (||/) do not.
    """

    def _sent_pages(self):
        pages = Msg.objects.get_messages_by_sender(self.caller).order_by("-db_date_created")
        pages = pages.filter(
            Q(db_tags__db_key__iexact="page", db_tags__db_category__iexact="comms")
            | Q(db_tags__isnull=True)
        )
        return [msg for msg in pages if msg.access(self.caller, "read", default=True)]

    def func(self):
        caller = self.caller
        if "last" in self.switches or not self.args.strip():
            return super().func()
        if not self.rhs and self.args.split(" ", 1)[0].isnumeric():
            return super().func()  # `page <number>`: the history
        addressed = self._addressed()
        if addressed is None:
            return None  # a name not found: the search said so
        targets, message = addressed
        if not targets:
            sent = self._sent_pages()
            if not sent:
                self.msg("Who do you want page?")
                return None
            targets = list(sent[0].receivers)
        targets = list(dict.fromkeys(targets))
        posed = message.startswith(":")
        message = speech_text(message.lstrip(":") if posed else message, caller.key)
        if not message:
            self.msg("What do you want to page?")
            return None
        if posed:
            message = f"{literal(caller.key)} {message}"
        self._record(targets, message)
        received, problems = self._deliver(targets, message)
        if problems:
            self.msg("\n".join(problems))
        self.msg(f"You paged {', '.join(received)} with: '{message}|n'.")
        return None

    def _addressed(self):
        """
        (the accounts named, the message): no account when the line names none (the last one
        paged is meant; `page Bob hi` where Bob is no account is the message "Bob hi"), and None
        when an account named before `=` is not found (the search has said so).
        """
        if self.rhs:
            targets = []
            for name in self.lhslist:
                target = self.caller.search(name)
                if not target:
                    return None
                targets.append(target)
            return targets, self.rhs.strip()
        first, *rest = self.args.split(" ", 1)
        found = self.caller.search(first, quiet=True) if rest else None
        if found:
            return [found[0]], rest[0].strip()
        return [], self.args.strip()

    def _record(self, targets, message):
        """The record holds exactly the text that was sent, readable by those it went to."""
        caller = self.caller
        target_perms = " or ".join(f"id({target.id})" for target in targets + [caller])
        create.create_message(
            caller,
            message,
            receivers=targets,
            locks=(
                f"read:{target_perms} or perm(Admin);"
                f"delete:id({caller.id}) or perm(Admin);"
                f"edit:id({caller.id}) or perm(Admin)"
            ),
            tags=[("page", "comms")],
        )

    def _deliver(self, targets, message):
        """(each receiver's name as the sender reads it, what the sender is told went wrong)."""
        caller = self.caller
        header = f"|wAccount|n |c{literal(caller.key)}|n |wpages:|n"
        received, problems = [], []
        for target in targets:
            if not target.access(caller, "msg"):
                problems.append(f"You are not allowed to page {literal(target)}.")
                continue
            msg_readable(target, (f"{header} {message}|n", {"type": "page"}), from_obj=caller)
            if hasattr(target, "sessions") and not target.sessions.count():
                received.append(f"|C{literal(target.name)}|n")
                problems.append(f"{received[-1]} is offline. They will see your message "
                                "if they list their pages later.")
            else:
                received.append(f"|c{literal(target.name)}|n")
        return received, problems


class CmdSetDesc(_StockSetDesc):
    """
    describe yourself

    Usage:
      setdesc <description>

    What others see when they look at you. Colour is welcome (||r, ||555, ||#ff8800, ...), and
    so are line breaks: %r (or ||/) starts a new line, %t an indent, %% is a percent sign.

    Every line of a description is shown two spaces in, under your name, and a tag of the
    game's such as [Roll] in it is shown with your name before it: a description can look
    like anything you like, except a line of the game's own. Links are shown as plain text.
    """
