"""
What a player's speech becomes before anyone else sees it: `speech_text`, and the pieces it is
made of (`SYSTEM_TAGS`, `mark_tags`, `literal`); and what a player's description becomes when
someone looks (`description_text`). Used by the speech commands (commands/speech.py,
commands/ooc.py) and by channel messages (typeclasses/channels.py); it sits here, below the
commands, because the typeclasses need it and never import from `commands/`.

- Control and bidi characters are already gone (typeclasses.inputfilter, for every line a
  client sends); `speech_text` removes them again, for text that arrives by other ways.
- **Ruling (line breaks):** `|/` (line break), `|-` (tab), `|_` (space) and `|>` (indent) in
  speech each become one plain space. No player-made line break reaches anyone.
- **Ruling (colour):** colour markup in speech is kept: colour in say and pose is everyday MUSH
  roleplay, and taking it away would punish everyone for what a forger might do. It cannot
  fake a roll line any more, because no speech line can start with anything but the speaker's
  name (or "You", or the page header), and a tag of ours inside speech is marked (next ruling).
  The speech commands reset the colour (`|n`) at the end of the speech, so it does not bleed
  into later lines.
- **Ruling (our tags):** a system tag of ours (`SYSTEM_TAGS`: `[Roll]`, `[Contest]`,
  `[Verify]`, ...) inside speech, in any letter case, colour or spacing, with full-width or other
  compatibility look-alike brackets, with any letter written as one of its look-alikes in
  Unicode's confusables (UTS #39: `[Rоll]` with a Cyrillic `о`, `[Tearnwork]`), or with
  characters that show nothing in it (every Default_Ignorable_Code_Point and format character:
  zero-width spaces, variation selectors, fillers), is shown with the speaker's name in front:
  `say see [Roll] Admin rolls` reaches the room as `Alice says, "see (Alice)[Roll] Admin rolls"`.
  So even a line pushed to the start of a visual line by a narrow window reads as Alice's.
  The look-alikes come from a maintained library (confusable-homoglyphs, Unicode's own table),
  not a list of ours, so they follow Unicode. The same search (`find_tags`) keeps names and
  channel names from looking like a tag (`looks_like_tag`, typeclasses/names.py).
- **Ruling (links):** MXP link markup (`|lc`, `|lu`, `|lt`, `|le`) is removed from speech and its
  parts shown as plain text, so a link cannot hide text or run a command for whoever clicks it.
  Each code becomes a space: glued together, the parts would make new words, and a URL glued
  to the link's text would be another URL (which the web client makes clickable, as it does
  any address shown in full).
- **Ruling (descriptions):** a character's description (`setdesc`) is shown as MUSHes show it,
  with what MUSH players put in one: colour is kept, `%r` and `|/` start a new line, `%t`, `|-`
  and `|>` are an indent of four spaces, `%%` is a `%` (links are removed, as in speech). But
  every line of it starts two spaces in, below the character's name, and a tag of ours in it is
  marked with the character's name, as in speech: a description can look like anything its
  player likes, but never start a line at column 0, where our lines start, and never pass for
  a line of ours in a narrow window. Rooms, exits and things are described by builders
  (staff) and are shown as Evennia shows them.
- All of this is one left-to-right pass over the markup as Evennia's own parser reads it
  (`rules.display.colour_only`), which writes the speech anew: taking a code out can never
  join what was around it into a new code (`|l|ltc` is shown as `|lc`, never a link; `||lc`
  shows `|lc`, nothing hidden), sanitising twice gives what sanitising once gives, and a `|`
  the reader sees is written so that no client option (colour off, screen reader) turns it
  back into markup.
"""

import re
import unicodedata

from storyteller_dice.rules import systems
from storyteller_dice.rules.display import colour_only, inert, shown_at
from storyteller_dice.typeclasses.inputfilter import clean_line

# The tags our lines start with: the shared commands' here, each system's own as it declares
# them (`System.tags`, every installed system's, read afresh so a system registered later is
# served too). tests/test_speech.py checks that every `|w[...]` tag in commands/ and rolllog/
# is in this list.
SHARED_TAGS = (
    "Roll", "Private roll", "Contest", "Private contest", "Contest odds", "Teamwork", "Extended",
    "Willpower", "Reroll", "Verify", "Odds", "Staff", "Record", "System", "Fairness",
)
SYSTEM_TAGS = systems.Declared("tags", before=SHARED_TAGS)
_TAGS = {}

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt, 15.1, the version of
# Python's unicodedata here): code points that show nothing, whatever a font does. Neither
# unicodedata nor the confusables library carries this property, so its ranges are written
# out here; the format characters (category Cf) are ignored as well (`_ignorable`), which covers
# those of them Unicode adds later.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)


def _ignorable(char):
    """Whether `char` shows nothing: Default_Ignorable_Code_Point, or a format character."""
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def _fold(char):
    """A character as the tag search sees it: nothing for one that shows nothing, else its
    compatibility form (full-width brackets and letters, ligatures: NFKC) in lower case, which
    may be more than one character (`ﬀ` is `ff`)."""
    if char.isascii():  # most speech: ASCII is its own compatibility form and shows
        return char.lower()
    if _ignorable(char):
        return ""
    return "".join(c for c in unicodedata.normalize("NFKC", char) if not _ignorable(c)).lower()


def _confusables():
    """The confusables library's table (Unicode's confusables.txt, UTS #39): a character ->
    [{"c": a character or sequence it is confusable with, ...}]. Loaded on first use."""
    from confusable_homoglyphs.confusables import confusables_data

    return confusables_data


def look_alikes(char):
    """
    Every text that looks like `char` (one letter or sign of a tag) by UTS #39, as the
    confusables library knows it, `char` and its other case included: those listed for either
    case and those listed for what they are listed with (a letter confusable with the same
    prototype), each as `_fold` sees it.
    """
    table = _confusables()
    near = {char, char.upper(), char.lower()}
    for one in list(near):
        near |= {entry["c"] for entry in table.get(one, ())}
    for one in list(near):
        near |= {entry["c"] for entry in table.get(one, ())}
    folded = {"".join(_fold(c) for c in text) for text in near}
    return sorted((text for text in folded if text), key=lambda text: (-len(text), text))


def _one_of(char):
    """The pattern of one letter or sign of a tag: any of its look-alikes."""
    if char.isspace():
        return r"\s+"
    alikes = look_alikes(char)
    longer = [re.escape(text) for text in alikes if len(text) > 1]
    single = "[%s]" % "".join(re.escape(text) for text in alikes if len(text) == 1)
    return "(?:%s)" % "|".join(longer + [single])


def _tag_pattern():
    """The tags' pattern (over folded text), compiled once for each set of tags."""
    tags = SYSTEM_TAGS.items()
    if tags not in _TAGS:
        _TAGS.clear()
        words = ["".join(_one_of(char) for char in " ".join(tag.split())) for tag in tags]
        _TAGS[tags] = re.compile(r"%s\s*(?:%s)\s*%s" % (_one_of("["), "|".join(words), _one_of("]")))
    return _TAGS[tags]


def find_tags(shown):
    """
    Where a tag of ours starts in text as it is shown: `shown` is (index, character) pairs (the
    markup's visible characters, `rules.display.shown_at`, or `enumerate(name)`); returns the
    indexes of each tag's `[`. The one search behind speech, descriptions, names and channel
    names: a tag is found in any letter case, with compatibility forms, with every UTS #39
    look-alike of each of its letters and brackets (`look_alikes`), and with anything that shows
    nothing (`_ignorable`) anywhere in it.
    """
    kept = [(index, folded) for index, char in shown for folded in _fold(char)]
    folded = "".join(char for _, char in kept)
    return [kept[match.start()][0] for match in _tag_pattern().finditer(folded)]


def looks_like_tag(name):
    """Whether a name would read as a tag of ours where it is shown in brackets (a channel's
    `[name]`, `+nospoof`'s `[name(#12)]`) or holds one itself."""
    name = str(name)
    return bool(find_tags(enumerate(f"[{name}]")) or find_tags(enumerate(name)))


def mark_tags(text, speaker):
    """
    `text` (Evennia markup, as `colour_only` leaves it) with `(speaker)` put in front of each
    system tag of ours (`find_tags`).
    """
    starts = find_tags(shown_at(text))
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
    """Text shown exactly as it is (a name, say): no markup, no link, no control characters."""
    return inert(" ".join(clean_line(str(text)).split()))


def speech_text(text, speaker):
    """What a player's speech becomes before anyone sees it (see the module's rulings)."""
    return mark_tags(colour_only(clean_line(str(text))).strip(), speaker)


# A description's MUSH substitutions (`%r` line break, `%t` indent, `%%` a percent sign) and its
# real line breaks (a description written in an editor); split out before the markup is read,
# so each part is tamed on its own and nothing can join across them.
_DESC_PARTS = re.compile(r"(%%|%[rRtT]|\r\n|\n|\r)")
_DESC_BREAK, _DESC_TAB = "\n", "    "
_DESC_LAYOUT = {"|/": _DESC_BREAK, "|-": _DESC_TAB, "|>": _DESC_TAB, "|_": " "}
_DESC_SUBS = {"%r": _DESC_BREAK, "%t": _DESC_TAB, "%%": "%", "\r\n": _DESC_BREAK, "\n": _DESC_BREAK,
              "\r": _DESC_BREAK}
DESC_INDENT = "  "


def description_text(text, owner):
    """A player's description as it is shown to whoever looks (see the ruling above)."""
    parts = []
    for part in _DESC_PARTS.split(str(text)):
        sub = _DESC_SUBS.get(part.lower() if part.startswith("%") else part)
        if sub is not None:
            parts.append(sub)
        elif part:
            parts.append(colour_only(clean_line(part), layout=_DESC_LAYOUT))
    lines = [line.rstrip() for line in "".join(parts).split(_DESC_BREAK)]
    shown = [DESC_INDENT + mark_tags(line, owner) if line.strip() else "" for line in lines]
    return "\n".join(shown).strip("\n") + "|n"
