"""
How V5 rolls look in the V5 wing's own messages (contest, teamwork, Rouse, Remorse, frenzy,
Willpower rerolls): regular dice plain with their 10s bright green, Hunger dice red with Hunger
10s and 1s on red, outcomes coloured by kind. The shared +roll/+check/+odds are drawn by
`rules.display` from the system's `RollView` instead.

Player text goes through `escape` (see `rules.display`).
"""

from storyteller_dice.rules.v5 import OUTCOME_LABELS, SUCCESS_FACE

from storyteller_dice.rules.display import (BADGE, DIRE_STYLE, SUCCESS_STYLE, escape, without_control,  # noqa: F401
                                            wrap)  # escape, without_control, wrap: re-exported for the wing

PREFIX = "|w[Roll]|n"
PRIVATE_PREFIX = "|w[Private roll]|n"
MAX_COMMENT = 200

OUTCOME_COLOURS = {
    "messy_critical": BADGE,
    "critical": "|g",
    "exceptional": "|g",
    "solid": "|g",
    "bare": "|g",
    "bestial_failure": BADGE,
    "total_failure": DIRE_STYLE,
    "failure": "|y",
}


def fit(text, width=80):
    """Our message (lines joined by "\\n") with each line fitted to the receiver's `width`
    (`rules.display.wrap`: hanging indent, never splitting a word or a code)."""
    return "\n".join(wrap(text, width))


def fitted(text):
    """`text` as `announce`/`send` take it to fit each receiver: a callable width -> text."""
    return lambda width: fit(text, width)


def regular_face(face, rerolled=False):
    mark = "|u" if rerolled else ""
    if face == 10:
        return f"{mark}|g10|n"
    if face >= SUCCESS_FACE:
        return f"{mark}{SUCCESS_STYLE}{face}|n"
    return f"{mark}{face}|n" if mark else str(face)


def hunger_face(face):
    if face in (1, 10):
        return f"{BADGE}{face}|n"
    if face >= SUCCESS_FACE:
        return f"{SUCCESS_STYLE}{face}|n"
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
