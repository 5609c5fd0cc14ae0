"""
Channels: what a game's own Channel class mixes in
(`class Channel(DiceChannelMixin, DefaultChannel)`): channel messages follow the speech rules,
and a channel's name, description and log file cannot be turned against the game.

**Rulings**:
- **Messages** follow the speech rules (typeclasses/speech_text.py): no line break, and a tag of
  ours inside one is marked with the sender's name. A broadcast from the game itself (no
  sender) is left alone.
- **Names** follow the name rule (typeclasses/names.py, kind "channel": a character name's
  letters, at most 30 characters, and never a name that reads as a tag of ours, like `Roll` or
  `Rоll` with a Cyrillic `о`). `Channel.create` refuses such a name with the rule's line.
  Evennia's `channel/create` builds the channel directly, with no hook that can refuse, so a
  channel made that way with a name the rule refuses is kept (staff rename it), logged at
  creation and at every start with the other stored names (staff are told at login,
  `names.report_bad_names`), and shown harmlessly: its prefix in front of every message is text (`[|rRed]`
  shows as typed, no colour) and, when the name reads as a tag of ours, is marked as the
  channel's (`(channel)[Roll] Alice: hi`), as a player's speech is marked with their name.
- **The description** (`channel/desc`, the `desc` Attribute) is text wherever it is read: one
  line, and each `|` (where every markup code starts) shown as `¦`. Not escaped as `||`:
  Evennia's channel tables (`channel/all`, `channel`) read a cell's markup when they draw it and
  the whole table again when it is sent, so an escaped bar would be markup the second time
  (`||/` a line break at column 0); a look-alike bar is never markup, however often it is read.
  It is made so when read, not when stored, so a description stored by an earlier version or by
  any other code is shown as text too, and reading it never changes it.
- **The log file** (`get_log_filename`): Evennia names it `channel_<name>.log` inside LOG_DIR,
  so a name with `/`, `..`, a character the file system refuses or an overlong name would write
  outside LOG_DIR or fail. A name of plain ASCII letters, digits, spaces, `_` and `-` keeps
  Evennia's file (its history stays readable); any other gets `channel_<ASCII letters of the
  name>_<12 hex digits of its SHA-256>.log`, one file per name and safe on any file system. A
  `log_file` Attribute set by code is used only when it is such a plain relative path.
"""

import hashlib
import re
import unicodedata

from evennia.typeclasses.attributes import AttributeHandler, ModelAttributeBackend
from evennia.utils import logger
from evennia.utils.utils import lazy_property

from .names import RENAME, log_name, name_problem
from .inputfilter import clean_line
from .speech_text import literal, mark_tags, speech_text

# Evennia's own file name is kept for these names (lower-cased): nothing in them a file system
# reads specially, and short enough for any.
_PLAIN_LOG_NAME = re.compile(r"[a-z0-9][a-z0-9 _-]{0,59}")
# A `log_file` Attribute is used only if it is relative, plain and never climbs out of LOG_DIR.
_PLAIN_PATH = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9 _.-]{0,59}/){0,3}[A-Za-z0-9][A-Za-z0-9 _.-]{0,59}")
TAG_MARK = "channel"  # what a tag-like channel name is marked with in its prefix


def log_filename(key, template="channel_{channelname}.log"):
    """The channel log's file name for a channel named `key` (see the module's ruling)."""
    name = str(key).lower()
    if _PLAIN_LOG_NAME.fullmatch(name):
        filename = template.format(channelname=name)
        if _PLAIN_PATH.fullmatch(filename) and ".." not in filename:
            return filename
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "_", ascii_name).strip("_")[:40] or "channel"
    digest = hashlib.sha256(str(key).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"channel_{slug}_{digest}.log"


BAR_SHOWN = "\u00a6"  # ¦ BROKEN BAR: how a channel description's `|` is shown


def description_text(text):
    """A channel description as it is read: one line (a line break written in it is a space),
    no control character, and each `|` (where every markup code starts) shown as `¦`."""
    one_line = " ".join(str(text).split())
    return " ".join(clean_line(one_line).replace("|", BAR_SHOWN).split())


class DescAsText(AttributeHandler):
    """A channel's Attributes, whose `desc` reads as text (see the module's ruling)."""

    def get(self, key=None, default=None, category=None, *args, **kwargs):
        value = super().get(key, default, category, *args, **kwargs)
        if key == "desc" and category is None and isinstance(value, str):
            return description_text(value)
        return value


class DiceChannelMixin:
    """A channel whose name, description, log file and players' messages cannot forge a roll
    or system line, nor reach outside the log folder."""

    @lazy_property
    def attributes(self):
        return DescAsText(self, ModelAttributeBackend)

    @classmethod
    def create(cls, key, creator=None, *args, **kwargs):
        """Evennia's `Channel.create`, refusing a name the name rule refuses: (None, [its line])."""
        problem = name_problem(key, "channel")
        if problem:
            return None, [problem]
        return super().create(key, creator, *args, **kwargs)

    def at_channel_creation(self):
        """A channel made with a name the rule refuses (Evennia's `channel/create` cannot be
        refused here) is logged for staff to rename."""
        super().at_channel_creation()
        problem = name_problem(self.key, "channel")
        if problem:
            logger.log_warn(f"Bad name: channel #{self.id} {log_name(self)}: {problem} {RENAME[True]}")

    def channel_prefix(self):
        """`[name] ` as text; a name that reads as a tag of ours is marked as the channel's."""
        return mark_tags(self.channel_prefix_string.format(channelname=literal(self.key)), TAG_MARK)

    dice_log_filename = None  # our own cache: Evennia's private one is left alone

    def get_log_filename(self):
        """A log file name inside LOG_DIR for any channel name (see the module's ruling)."""
        if not self.dice_log_filename:
            stored = self.attributes.get("log_file")
            if isinstance(stored, str) and _PLAIN_PATH.fullmatch(stored) and ".." not in stored:
                self.dice_log_filename = stored
            else:
                self.dice_log_filename = log_filename(self.key, self.log_file)
        return self.dice_log_filename

    def at_pre_msg(self, message, **kwargs):
        """A player's channel message follows the speech rules (typeclasses/speech_text.py): no
        line break, and a system tag of ours inside it marked as the sender's."""
        message = super().at_pre_msg(message, **kwargs)
        senders = kwargs.get("senders") or []
        if message and senders and isinstance(message, str):
            message = speech_text(message, getattr(senders[0], "key", senders[0])) or None
        return message
