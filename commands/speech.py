"""
Speech that cannot forge a system line: `say`, `pose` (`:`, `;`, `emote`), `whisper`, `page`.

Evennia's stock speech commands pass player text to other players almost as typed: `|/` starts
a new line, so `say hi|/[Roll] Admin rolls ...` shows the room a complete fake roll line, and
`pose` goes through `msg_contents`, which evaluates `$func()` and `{...}` in the player's text
(`pose {` is a traceback). These subclasses keep the stock commands' names, syntax and help
category, and change only what reaches the other players:

- Control and bidi characters are already gone (server.conf.inputfilter, for every line a
  client sends); `speech_text` removes them again, for text that arrives by other ways.
- **Ruling (line breaks):** `|/` (line break), `|-` (tab), `|_` (space) and `|>` (indent) in
  speech each become one plain space. No player-made line break reaches anyone.
- **Ruling (colour):** colour markup in speech is kept: colour in say and pose is everyday MUSH
  roleplay, and taking it away would punish everyone for what a forger might do. It cannot
  fake a roll line any more, because no speech line can start with anything but the speaker's
  name (or "You", or the page header), and a tag of ours inside speech is marked (next ruling).
  The colour is reset (`|n`) at the end of the speech, so it does not bleed into later lines.
- **Ruling (our tags):** a system tag of ours (`SYSTEM_TAGS`: `[Roll]`, `[Contest]`,
  `[Verify]`, ...) inside speech, in any letter case, colour or spacing, with full-width or other
  compatibility look-alike brackets, or with zero-width characters in it, is shown with the
  speaker's name in front: `say see [Roll] Admin rolls` reaches the room as
  `Alice says, "see (Alice)[Roll] Admin rolls"`. So even a line pushed to the start of a
  visual line by a narrow window reads as Alice's.
- **Ruling (links):** MXP link markup (`|lc`, `|lu`, `|lt`, `|le`) is removed from speech and its
  parts shown as plain text, so a link cannot hide text or run a command for whoever clicks it.
- Nothing the player typed is ever a template: every message is finished text sent to each
  receiver with `msg()` (no `$func()`, no `{}` fields), with the speaker as `from_obj` and a
  message type (`say`, `pose`, `whisper`, `page`) that `+nospoof` (commands/nospoof.py) uses.

Every roll line can be checked: `+roll/verify <code>` shows the stored record of the code at
the end of the line (see `help verifying rolls`).
"""

import re
import unicodedata

from django.db.models import Q
from evennia.commands.default.comms import CmdPage as _StockPage
from evennia.commands.default.general import CmdPose as _StockPose
from evennia.commands.default.general import CmdSay as _StockSay
from evennia.commands.default.general import CmdWhisper as _StockWhisper
from evennia.comms.models import Msg
from evennia.utils import ansi, create

from server.conf.inputfilter import clean_line

# The tags our system lines start with. Kept here, in one place; tests/test_speech.py checks
# that every `|w[...]` tag in commands/ and rolllog/ is in this list.
SYSTEM_TAGS = (
    "Roll", "Private roll", "Contest", "Teamwork", "Rouse", "Verify", "Hunger", "Slake",
    "Willpower", "Odds", "Remorse", "Frenzy", "Extended", "Staff", "Record", "System",
    "Partial", "Private contest", "Contest odds", "Damage", "Heal", "Wounds", "Resist", "Reroll", "Fairness",
)

_TAG = re.compile(
    r"\[\s*(?:%s)\s*\]" % "|".join(r"\s+".join(map(re.escape, tag.lower().split())) for tag in SYSTEM_TAGS)
)
# Markup that moves text to another line or column, or makes a link: never from a player.
_LAYOUT = re.compile(r"\|\||\|[/\-_>]|\|l[ctue]")
# Evennia colour markup (zero width on screen): truecolour, xterm256, greyscale, the letters.
_CODE = re.compile(r"\|\[?#[0-9a-fA-F]{6}|\|\[?[0-5]{3}|\|\[?=[a-z]|\|!?[a-zA-Z]|\|\[[a-zA-Z]|\|[*^]")


def _layout_safe(text):
    def replace(match):
        token = match.group()
        if token == "||":
            return token
        return " " if token[1] in "/-_>" else ""

    text = _LAYOUT.sub(replace, text).strip()
    # An unpaired `|` at the very end would pair with the `|n` that follows the speech.
    trailing = len(text) - len(text.rstrip("|"))
    if trailing % 2:
        text += "|"
    return text


def _visible(text):
    """(index in `text`, character) for each character the reader sees, or None when this
    tokenizer and Evennia's own parser disagree about what is seen."""
    seen = []
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if char == "|":
            if text.startswith("||", i):
                seen.append((i, "|"))
                i += 2
                continue
            code = _CODE.match(text, i)
            if code:
                i = code.end()
                continue
        elif char == "{" and text.startswith("{{", i):
            seen.append((i, "{"))
            i += 2
            continue
        seen.append((i, char))
        i += 1
    if "".join(c for _, c in seen) != ansi.strip_ansi(text):
        return None
    return seen


def _fold(char):
    """A character as the tag search sees it: compatibility forms (full-width brackets and
    letters) folded to the plain ones, lower case."""
    folded = unicodedata.normalize("NFKC", char)
    return (folded if len(folded) == 1 else char).lower()


def mark_tags(text, speaker):
    """
    `text` (Evennia markup) with `(speaker)` put in front of each system tag of ours.

    When the markup is too odd to map what is seen back to what was typed, the markup is made
    literal (`|` doubled) so that the mapping is exact.
    """
    seen = _visible(text)
    if seen is None:
        text = text.replace("|", "||")
        seen = _visible(text) or [(i, c) for i, c in enumerate(text)]
    # Zero-width format characters are skipped, so `[Ro<ZWSP>ll]` is found too.
    kept = [(i, _fold(c)) for i, c in seen if unicodedata.category(c) != "Cf"]
    folded = "".join(c for _, c in kept)
    starts = [kept[match.start()][0] for match in _TAG.finditer(folded)]
    if not starts:
        return text
    marker = f"({literal(speaker)})"
    pieces, last = [], 0
    for start in starts:
        pieces.append(text[last:start])
        pieces.append(marker)
        last = start
    pieces.append(text[last:])
    return "".join(pieces)


def literal(text):
    """Text shown exactly as it is (a name, say): no markup, no control characters."""
    return " ".join(clean_line(str(text)).replace("|", "||").split())


def speech_text(text, speaker):
    """What a player's speech becomes before anyone sees it (see the module's rulings)."""
    return mark_tags(_layout_safe(clean_line(text)), speaker)


def _name(obj, looker):
    return literal(obj.get_display_name(looker)) if hasattr(obj, "get_display_name") else literal(obj)


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
        speech = caller.at_pre_say(self.args)
        if not speech:
            return
        speech = speech_text(speech, caller.key)
        if not speech:
            caller.msg("Say what?")
            return
        caller.msg(text=(f'You say, "{speech}|n"', {"type": "say"}), from_obj=caller)
        location = caller.location
        if not location:
            return
        for receiver in location.contents:
            if receiver is caller:
                continue
            receiver.msg(
                text=(f'{_name(caller, receiver)} says, "{speech}|n"', {"type": "say"}),
                from_obj=caller,
            )


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
        speech = caller.at_pre_say(self.rhs, whisper=True, receivers=receivers)
        if not speech:
            return
        speech = speech_text(speech, caller.key)
        if not speech:
            caller.msg("Usage: whisper <character> = <message>")
            return
        if caller not in receivers:
            listed = ", ".join(_name(recv, caller) for recv in receivers)
            caller.msg(text=(f'You whisper to {listed}, "{speech}|n"', {"type": "whisper"}),
                       from_obj=caller)
        for receiver in receivers:
            receiver.msg(
                text=(f'{_name(caller, receiver)} whispers: "{speech}|n"', {"type": "whisper"}),
                from_obj=caller,
            )


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
        for receiver in receivers:
            receiver.msg(
                text=(f"{_name(caller, receiver)}{gap}{text}|n", {"type": "pose"}),
                from_obj=caller,
            )


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
        targets, message = [], None
        if self.rhs:
            for name in self.lhslist:
                target = caller.search(name)
                if not target:
                    return
                targets.append(target)
            message = self.rhs.strip()
        else:
            first, *rest = self.args.split(" ", 1)
            if first and first.isnumeric():
                return super().func()  # `page <number>`: the history
            if rest:
                found = caller.search(first, quiet=True)
                if found:
                    targets = [found[0]]
                    message = rest[0].strip()
                else:
                    message = self.args.strip()
            else:
                message = self.args.strip()
        if not targets:
            sent = self._sent_pages()
            if not sent:
                self.msg("Who do you want page?")
                return
            targets = list(sent[0].receivers)
        targets = list(dict.fromkeys(targets))
        posed = message.startswith(":")
        message = speech_text(message.lstrip(":") if posed else message, caller.key)
        if not message:
            self.msg("What do you want to page?")
            return
        if posed:
            message = f"{literal(caller.key)} {message}"
        header = f"|wAccount|n |c{literal(caller.key)}|n |wpages:|n"
        target_perms = " or ".join(f"id({target.id})" for target in targets + [caller])
        # The record holds exactly the text that was sent.
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
        received, problems = [], []
        for target in targets:
            if not target.access(caller, "msg"):
                problems.append(f"You are not allowed to page {literal(target)}.")
                continue
            target.msg(text=(f"{header} {message}|n", {"type": "page"}), from_obj=caller)
            if hasattr(target, "sessions") and not target.sessions.count():
                received.append(f"|C{literal(target.name)}|n")
                problems.append(f"{received[-1]} is offline. They will see your message "
                                "if they list their pages later.")
            else:
                received.append(f"|c{literal(target.name)}|n")
        if problems:
            self.msg("\n".join(problems))
        self.msg(f"You paged {', '.join(received)} with: '{message}|n'.")
