"""
What reaches a character from someone else, whichever command sent it: the filter that
`DiceCharacterMixin.msg()` (typeclasses/characters.py) applies to every message, and the mark
our own lines carry past it. It protects the host's own `say`, `pose`, `whisper`, `get`,
`drop`, the arrive/leave lines and any other command that sends a message with a sender
(`from_obj`), with no command of ours installed.

- **Ruling (player text):** a message whose `from_obj` is another object (not the receiver,
  not its account, not one of its sessions) is player text, and reaches the receiver as speech
  does (typeclasses/speech_text.py): no line break survives (`|/` and real line breaks each
  become a space), a tag of ours in it is marked with the sender's name
  (`say hi|/[Roll] Admin rolls 9` reaches the room as `Alice says, "hi (Alice)[Roll] Admin
  rolls 9"`), links become plain text, colour is kept, and `|n` ends it when a colour is still
  on at its end, so its colour does not bleed into the next line. Text sent as
  `(text, {kwargs})` is treated the same; the kwargs (the message `type`, `from_channel`) pass
  unchanged. Whoever the sender is: a room, a script's object or a staff member sending with a
  `from_obj` gets one line too (staff lines that need several lines are sent without a
  sender, as Evennia's `@emit` does).
- **Ruling (the sender's name):** a line that starts with the sender's name as every line
  shows it (`typeclasses.names.shown_name`: text, one line), as Evennia's `Alice says`,
  `Alice has left the game` and `Alice arrives` do, keeps that name as it is shown everywhere
  else; only what follows it is player text. A tag of ours at the very start of the name (a
  name stored around the name rule) is marked all the same. A name printed raw (a host's
  `get_display_name`) is not the name as text: the whole line is player text.
- **Ruling (our lines):** a line of ours (a roll, a contest, a ruling: `commands.dice_base.send`)
  holds line breaks and tags of ours on purpose. It is marked as ours by its type: it is an
  `OurLine`, a `str` only code can make (a player's text is always a plain `str`). `msg()`
  passes it unchanged, as a plain `str` (nothing past `msg()` sees the mark). A host's `msg()`
  placed before ours that rebuilds the text drops the mark: the line is then player text (one
  line), never the other way round.
- **Ruling (twice):** filtering twice gives what filtering once gives, so the speech commands
  of ours (commands/speech.py, commands/ooc.py), whose lines are already made so, pass through
  it unchanged in what the reader sees: a tag already marked with the sender's name is not
  marked again.
- Messages with no sender (system output, `look`, the dice commands' own replies) are not
  changed by this rule.
- **Ruling (look):** what a character sees when it looks is made safe by the looker
  (`DiceCharacterMixin.at_look`), not by the host's `get_display_name`, which a host may
  override without calling ours: the raw key of the looked-at object and of what its
  appearance lists (its contents: characters, things, exits), where it would be read as
  markup, is shown as text (`typeclasses.names.shown_name`), so `Gem|/[Roll] Gem rolls 9` is
  one name on one line; and a line of the look that still starts with a tag of ours (a name
  the host changed before printing it, a builder's description) has the tag marked with the
  looked-at object's name, as in speech. No line of a look starts with a tag of ours.
- **Ruling (MXP):** a session whose client negotiated MXP (telnet: Mudlet, MUSHclient, zMUD
  ...) gets every `<`, `>` and `&` of a message as `&lt;`, `&gt;` and `&amp;`
  (`mxp_inert`), every message to the character, ours and everyone else's alike. An MXP
  client reads `<...>` as a tag and `&...;` as an entity, so `<SEND href="quit">click</SEND>`
  in a say, a roll's comment or a description reached it as a live link that ran `quit` for
  whoever clicked it. Evennia's Portal used to escape these for MXP sessions (in its
  `mxp_parse`); 6.1's turns `|lc...|lt...|le` into tags and leaves the rest of the text as it
  is. The escape that makes `|` inert (`rules.display.escape`) cannot help: `&lt;` would show
  as those four characters to every other client (the web client escapes HTML itself; telnet
  without MXP shows text as it is). So it is done per session, here, where the receiver's
  sessions are known, and only where the Portal will apply MXP: a telnet session with the `MXP`
  flag on (or the message's `mxp` option). **Ruling:** the whole text is escaped, not only the
  player's part: nothing of ours or Evennia's writes MXP tags into the text (the only tags are
  the ones the Portal makes from link markup, after this, and a link's command or text arrives
  escaped as MXP wants it). `DiceCharacterMixin.msg()` does it for every message to a
  character; `DiceAccountMixin.msg()` (optional) for channels, `page` and the OOC screens.
  When a character has sessions with and without MXP, each gets its own `msg()`.
- **Width:** `send_mxp_inert`, the way out of the Character's and the Account's `msg()`,
  also wraps the text for each session at that session's width, in terminal columns
  (typeclasses/columns.py, whose module says why: text that fills a screen line exactly
  would otherwise put what follows it at column 0 of the next), before it escapes it for
  MXP. Sessions that get the same text (same width, same MXP) share one `msg()` call.
- **What it cannot reach:** Evennia's channels send to *Accounts* (`Account.channel_msg` ->
  `Account.msg`, straight to the sessions), and `page` too: no Character's `msg()` sees them.
  The optional `DiceChannelMixin` (typeclasses/channels.py) and the speech extras
  (`SpeechCmdSet`, `DiceAccountCmdSet`) cover those.
"""

import re
from functools import lru_cache

from evennia.utils.utils import make_iter, to_str

from storyteller_dice.rules.display import colour_only, escape, shown_at, strip_markup, without_control
from storyteller_dice.rules.display import _STYLE, _tokens  # markup read as colour_only reads it

from .columns import for_session, sends_raw, session_width
from .inputfilter import clean_line
from .names import shown_name
from .speech_text import SYSTEM_TAGS, literal, mark_tags

# Real line breaks (and the other characters a terminal may start a line at) become a space:
# the speech rules' input filter would remove them, gluing the words on either side.
_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x85\u2028\u2029]")


class OurLine(str):
    """A line of ours (see the module's ruling): a `str`, marked by its type."""

    __slots__ = ()


def ours(text):
    """`text` marked as a line of ours (`OurLine`), so `msg()` passes it unchanged."""
    return text if isinstance(text, OurLine) else OurLine(text)


def is_ours(text):
    """Whether a message (a str or a `(text, {kwargs})` tuple) is marked as a line of ours."""
    if isinstance(text, tuple):
        return bool(text) and isinstance(text[0], OurLine)
    return isinstance(text, OurLine)


def unmarked(text):
    """The message with the mark taken off (a plain `str` again), for what comes after `msg()`."""
    if isinstance(text, OurLine):
        return str.__str__(text)
    if isinstance(text, tuple) and text and isinstance(text[0], OurLine):
        return (str.__str__(text[0]),) + text[1:]
    return text


def _is_self(receiver, obj):
    """Whether `obj` is the receiver, its account or a session playing it."""
    if obj is receiver or obj == receiver:
        return True
    account = getattr(receiver, "account", None)
    if account is not None and obj is account:
        return True
    return getattr(obj, "puppet", None) is receiver and hasattr(obj, "sessid")


def sender(receiver, from_obj):
    """The first sender in `from_obj` that is not the receiver (nor its account or session), or None."""
    if not from_obj:
        return None
    for obj in make_iter(from_obj):
        if obj is not None and not _is_self(receiver, obj):
            return obj
    return None


def _colour_open(text):
    """Whether a colour of `text` is still on at its end: a style code after its last `|n`
    (read as Evennia reads the markup, so `||n` is text)."""
    styles = [source for kind, source, _ in _tokens(text) if kind == _STYLE]
    return bool(styles) and styles[-1] != "|n"


def player_line(text, author):
    """
    Player text as another player reads it (see the module's rulings): one line, tags of ours
    marked with `author` (a name, taken as text), no links, colour kept and reset at the end.
    """
    return _player_line(to_str(text), str(author), SYSTEM_TAGS.items())


@lru_cache(maxsize=256)
def _player_line(text, author, tags):
    # Kept for the same text, author and tags of ours (a system registered later adds tags):
    # a line said in a full room is filtered once, not once for each of its receivers.
    text = _BREAKS.sub(" ", text)
    name = escape(author)
    if name and text.startswith(name):
        # The line starts with the sender's name as every line shows it (Evennia's "Alice
        # says", "Alice has left the game"): the name is kept as it is shown everywhere, not
        # marked as speech (a tag at its very start excepted); the rest is the player text.
        line = _tag_first(name, author) + _marked(colour_only(clean_line(text[len(name):])), author).rstrip()
    else:
        # `speech_text`, its tags marked by `_marked`.
        line = _marked(colour_only(clean_line(text)).strip(), author)
    if _colour_open(line):
        line += "|n"
    return line


def _marked(markup, author):
    """
    `markup` (as `colour_only` leaves it) with every tag of ours marked with `author`, once: a
    mark already there (speech of ours, or this filter run before) is not marked again, and
    is never searched for tags itself (a name stored around the name rule may hold one).
    """
    marker = f"({literal(author)})"
    line = marker.join(mark_tags(piece, author) for piece in markup.split(marker))
    while marker + marker in line:
        line = line.replace(marker + marker, marker)
    return line


def author_name(obj):
    """The sender's name for its marks: its key (taken as text by the tag marking)."""
    return getattr(obj, "key", None) or str(obj)


def incoming(receiver, text, from_obj):
    """
    `text` as `receiver` gets it (see the module's rulings): a line of ours unchanged (a plain
    `str` again), another sender's text made one line of player text, the rest unchanged.
    """
    if text is None:
        return None
    if is_ours(text):
        return unmarked(text)
    author = sender(receiver, from_obj)
    if author is None:
        return text
    name = author_name(author)
    if isinstance(text, tuple):
        return tuple(part if isinstance(part, dict) else player_line(part, name) for part in text)
    return player_line(text, name)


# ---------------------------------------------------------------- MXP

_MXP_SPECIAL = re.compile("[&<>]")
_MXP_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def mxp_inert(text):
    """A message (a str, or `(str, {kwargs})`) with `&`, `<` and `>` written as MXP entities
    (see "MXP" above); anything else is returned as it is."""
    if isinstance(text, str):
        return _MXP_SPECIAL.sub(lambda found: _MXP_ENTITIES[found.group()], text)
    if isinstance(text, tuple) and text and isinstance(text[0], str):
        return (mxp_inert(text[0]), *text[1:])
    return text


def mxp_active(session, options=None):
    """Whether the Portal will parse MXP in a message with `options` to `session` (as
    Evennia's telnet protocol decides: the message's `mxp` option, else the `MXP` flag)."""
    if not str(getattr(session, "protocol_key", "") or "").startswith("telnet"):
        return False
    flags = getattr(session, "protocol_flags", None) or {}
    return bool((options or {}).get("mxp", flags.get("MXP", False)))


def _delivery(session, options):
    """What a session's copy of a message depends on: its width (None: sent raw, not
    wrapped) and whether it parses MXP."""
    width = None if sends_raw(session, options) else session_width(session)
    return width, mxp_active(session, options)


def send_mxp_inert(send, obj, text, session, kwargs):
    """
    `send(text=text, session=session, **kwargs)` (a `msg()` of `obj`'s parent class), the text
    wrapped at each session's width (typeclasses/columns.py) and, with the prompt, escaped for
    the sessions that parse MXP (`mxp_inert`): one call as before when all the sessions get
    the same, else one call for each group of sessions that do.
    """
    try:
        sessions = list(make_iter(session)) if session else list(obj.sessions.all())
    except AttributeError:
        sessions = []
    if not sessions:
        send(text=text, session=session, **kwargs)
        return
    options = kwargs.get("options")
    groups = {}
    for each in sessions:
        groups.setdefault(_delivery(each, options), []).append(each)
    for (_, mxp), members in groups.items():
        # Wrapped before it is escaped: the columns are the ones the client shows.
        out = for_session(members[0], text, options)
        extra = kwargs
        if mxp:
            out = mxp_inert(out)
            if "prompt" in kwargs:
                extra = {**kwargs, "prompt": mxp_inert(kwargs["prompt"])}
        send(text=out, session=session if len(groups) == 1 else members, **extra)


# ---------------------------------------------------------------- look

# The characters a terminal starts a new line at, as Evennia's markup shows them.
_LINE_BREAK_CHARS = "\n\r\v\f\x85\u2028\u2029"


def _needs_escaping(key):
    """Whether a stored key would be read as markup or layout if printed raw."""
    return "|" in key or without_control(key) != key


def names_in_view(target):
    """
    {raw key: the name as text} for `target` and what its appearance lists (its contents:
    characters, things, exits) whose raw key would be read as markup. Taken before the look:
    a target may delete itself when looked at (`at_desc`).
    """
    if target is None:
        return {}
    names = {}
    for obj in [target, *(getattr(target, "contents", None) or [])]:
        key = getattr(obj, "key", None)
        if isinstance(key, str) and key and _needs_escaping(key):
            names[key] = shown_name(obj)
    return names


def _line_starts(text):
    """Where each line Evennia shows of `text` starts, as indexes into the markup."""
    starts, after_break = [0], False
    for index, char in shown_at(text):
        if char in _LINE_BREAK_CHARS:
            after_break = True
        elif after_break:
            starts.append(index)
            after_break = False
    return starts


def _tag_first(line, owner):
    """`line` with the tags in it marked as `owner`'s when a tag of ours is the first thing
    shown on it; otherwise unchanged."""
    marked = mark_tags(line, owner)
    if marked == line:
        return line
    first = next((i for i, (a, b) in enumerate(zip(line, marked)) if a != b), len(line))
    return marked if not strip_markup(line[:first]).strip() else line


def look_text(text, names, owner):
    """
    What a look shows, every name in it as text (`names`: `names_in_view`), and no line of it
    starting with a tag of ours (a name the host's `get_display_name` changed before printing
    it, a builder's description): such a tag is marked with `owner`'s name (the looked-at
    object), as a tag in speech is.
    """
    if not isinstance(text, str) or not text:
        return text
    if names:
        pattern = re.compile("|".join(re.escape(key) for key in sorted(names, key=len, reverse=True)))
        text = pattern.sub(lambda found: names[found.group()], text)
    if mark_tags(text, owner) == text:
        return text  # no tag of ours anywhere (most looks): no line to check
    starts = _line_starts(text)
    lines = [text[start:end] for start, end in zip(starts, starts[1:] + [len(text)])]
    return "".join(_tag_first(line, owner) for line in lines)
