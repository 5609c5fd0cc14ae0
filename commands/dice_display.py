r"""
How rolls look, on telnet and in the web client alike (Evennia turns the colour markup into
ANSI or HTML).

Regular dice are plain, their 10s bright green; Hunger dice are red, with Hunger 10s and
Hunger 1s on a red background so they stand out. Outcomes are coloured by kind.

Player text
-----------
Anything a player typed or named (names, comments, pools, specialties) goes through `escape`
before it joins a message, and every message that carries it leaves through
`commands.dice_base.send` (one `msg()` per receiver), never through `msg_contents`: that one
runs Evennia's `$func()` parser and then `str.format_map` on the finished text, so a comment
could call functions, differ per viewer, or raise after the roll is stored. What `send` gets
is final: every receiver gets those exact characters, and the roll log stores the same.

What `escape` neutralises, by what Evennia's output side does with text (telnet:
`evennia.utils.ansi.parse_ansi` then MXP; web client: `evennia.utils.text2html`):

- `|` starts all markup (colour `|r`, `|[r`, `|#ff0000`, `|555`, `|*`, `|u`, ...; layout `|/`,
  `|-`, `|_`, `|>`): doubled (`||`, Evennia's escape), it shows as one `|`.
- `{{` is an escape too (it shows as `{`): `{` is doubled, so what was typed shows as typed.
  (Evennia lists `\\` among its escapes, but its pattern matches one backslash and puts it
  back: a backslash needs nothing.)
- MXP links (`|lc<cmd>|lt<text>|le`, `|lu<url>|lt<text>|le`) are matched *after* the escapes
  are undone, so a doubled `|` would still make a link (web client) or hide text (telnet). A
  `|H` (turn bold off: invisible, no character) goes between such a `|` and its `l`, so the
  link patterns never match and the text still reads as typed.
- Control characters (C0, DEL, C1 such as U+009B CSI and U+0085 NEL), Unicode line and
  paragraph separators and bidi overrides/isolates become spaces; runs of whitespace become
  one space. Player text never starts a line.
- `$` needs nothing: no `$func()` parser runs on our messages (`send` uses `msg()`, and the
  outgoing-message parser, `FUNCPARSER_PARSE_OUTGOING_MESSAGES_ENABLED`, is off: a test
  checks it).
- `<`, `>` and `&` need nothing: the web client escapes HTML itself.
"""

import re

from rules.v5 import OUTCOME_LABELS

PREFIX = "|w[Roll]|n"
PRIVATE_PREFIX = "|w[Private roll]|n"
MAX_COMMENT = 200

OUTCOME_COLOURS = {
    "messy_critical": "|[r|w",
    "critical": "|g",
    "exceptional": "|g",
    "solid": "|g",
    "bare": "|g",
    "bestial_failure": "|[r|w",
    "total_failure": "|R",
    "failure": "|y",
}

# C0 controls, DEL, C1 controls (U+0080-U+009F: U+009B is a terminal's CSI, U+0085 a line
# break), the Unicode line/paragraph separators, and the bidi marks, embeddings, overrides and
# isolates that reorder how a line reads.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+")
# Evennia's output markup (`|`, and so `|l`, the MXP links) and its escape `{{`.
_MARKUP = re.compile(r"[|{]")
_INERT = {"|": "||", "{": "{{"}
# `|H` between the `|` and the `l`: the text reads the same, no link pattern matches.
_LINK_BREAK = "|||H"


def without_control(text):
    """Control characters (NUL, ESC, line breaks, C1, bidi overrides, ...) turned into spaces:
    PostgreSQL refuses NUL in text, and a line break in echoed text could start a forged line."""
    return _CONTROL.sub(" ", str(text))


def _inert(match):
    found = match.group()
    if found == "|" and match.end() < len(match.string) and match.string[match.end()] == "l":
        return _LINK_BREAK
    return _INERT[found]


def escape(text, limit=None):
    """
    Player text made inert (see the module docstring): shown exactly as typed, on one line,
    with no colour, layout, link or control code of its own.

    Args:
        text: what the player typed (anything: it is made a string).
        limit (int, optional): at most this many characters of it are shown, then "...".
    """
    text = " ".join(without_control(text).split())
    if limit and len(text) > limit:
        text = text[:limit].rstrip() + "..."
    return _MARKUP.sub(_inert, text)


def regular_face(face, rerolled=False):
    mark = "|u" if rerolled else ""
    if face == 10:
        return f"{mark}|g10|n"
    return f"{mark}{face}|n" if mark else str(face)


def hunger_face(face):
    if face in (1, 10):
        return f"|[r|w{face}|n"
    return f"|r{face}|n"


def format_faces(result):
    """`Dice: 2 6 10  Hunger: 1 10` (the Hunger group only when Hunger dice were rolled)."""
    regular = " ".join(regular_face(f, i in result.rerolled) for i, f in enumerate(result.regular))
    parts = []
    if result.regular:
        parts.append(f"Dice: {regular}")
    if result.hunger:
        parts.append("|rHunger:|n " + " ".join(hunger_face(f) for f in result.hunger))
    return "  ".join(parts)


def outcome_key(result, difficulty_given=True):
    """The outcome to show; without a stated difficulty, a win is just 'success'."""
    key = result.outcome
    if not difficulty_given and key in ("bare", "solid", "exceptional"):
        return "success"
    return key


def format_outcome(result, difficulty_given=True):
    """`4 successes: messy critical (margin +1, solid success)`."""
    noun = "success" if result.successes == 1 else "successes"
    key = outcome_key(result, difficulty_given)
    label = OUTCOME_LABELS.get(key, key)
    colour = OUTCOME_COLOURS.get(key, "|g")
    text = f"{result.successes} {noun}: {colour}{label}|n"
    if difficulty_given:
        sign = "+" if result.margin >= 0 else ""
        extra = f"margin {sign}{result.margin}"
        if result.win and result.margin_label != label:
            extra += f", {result.margin_label}"
        text += f" ({extra})"
    return text


def format_pool(pool, dice, hunger, difficulty, difficulty_given=True):
    """`Dexterity 3 + Stealth 2 = 5 dice, Hunger 2, vs 3`."""
    text = escape(pool.describe()) if pool is not None else str(dice)
    if pool is None or len(pool.parts) > 1 or pool.parts[0].trait or pool.total < 1:
        text += f" ({dice} {'die' if dice == 1 else 'dice'})"
    else:
        text += " die" if dice == 1 else " dice"
    text += f", Hunger {hunger}"
    if difficulty_given:
        text += f", vs {difficulty}"
    return text


def format_roll(name, pool, result, difficulty_given=True, comment="", private_to=None, title="rolls"):
    """
    The two lines everyone in the audience sees for a V5 roll.

    Args:
        name (str): who rolled (escaped here).
        pool (rules.pools.Pool or None): the pool as typed, for the trait list.
        result (rules.v5.V5Result): the evaluated roll.
        difficulty_given (bool): whether a difficulty was stated (else win means 1+ success).
        comment (str): the player's comment (escaped here).
        private_to (list of str or None): names a private roll was shown to.
        title (str): the verb ("rolls", "checks").
    """
    prefix = PREFIX if private_to is None else PRIVATE_PREFIX
    header = f"{prefix} {escape(name)} {title} " + format_pool(
        pool, result.pool, result.hunger_level, result.difficulty, difficulty_given
    )
    if comment:
        header += f" # {escape(comment, MAX_COMMENT)}"
    body = f"  {format_faces(result)}  =>  {format_outcome(result, difficulty_given)}"
    lines = [header, body]
    if private_to is not None:
        lines.append("  (private: shown to " + ", ".join(escape(n) for n in private_to) + ")")
    return "\n".join(lines)


def format_reroll(before, after, strategy, difficulty_given=True):
    """`  Willpower (failures): rerolled 2 3 -> 7 10.  Dice: ...  =>  ...`"""
    old = " ".join(str(before.regular[i]) for i in after.rerolled)
    new = " ".join(regular_face(after.regular[i]) for i in after.rerolled)
    return (
        f"  |wWillpower|n ({escape(strategy)}): rerolled {old} -> {new}\n"
        f"  {format_faces(after)}  =>  {format_outcome(after, difficulty_given)}"
    )
