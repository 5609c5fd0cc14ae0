"""
The Dice Check (docs/dicecheck.md).

Pool: Attribute dice + Skill training + Focus + modifiers, that many d10s (`build_pool`).

Threshold `X+`: each die showing X or more is one Hit. From the Attribute level (an Action or
Attribute check): 1 -> 10+, 2 -> 9+, 3-4 -> 7+, 5-7 -> 6+, 8-11 -> 5+
(`threshold_for_attribute`); a weapon or a fixed (static) check may set it directly.

Outcome against the Target Number (TN, hits needed):

- Hits >= TN: success, Effect = Hits - TN.
- Hits < TN: failure, Botch margin = TN - Hits; a margin of 3 or more is a *big botch*.
- Degree of Success from Effect: 0-1 -> 1, 2-3 -> 2, 4-7 -> 3, 8-15 -> 4, 16-31 -> 5, and on
  by doubling (32-63 -> 6, ...).

Opposed checks: both sides roll; the other side's Hits are the TN (`opposed`, exact chances in
`opposed_odds`). Damage checks:
the TN is the armour's Hardness and the Effect becomes wounds (`damage=True`, `wounds`).

Notation, as the rules write it (`parse`): `STR:3`, `Swords (Cut):EVA`,
`Command (Intimidate):GRI`, `Athletics (Grapple):Athletics (Grapple)`, `12d(6+):3`,
`9d(7+):EVA`.

Rulings (the rules are silent):

- **Ruling**: on a failure `dos` is 0 (no Degree of Success); `effect` is 0 on a failure and
  `botch_margin` 0 on a success, so neither is ever negative.
- **Ruling**: a tie in an opposed check goes to the side rolling against the other's Hits
  (Hits >= TN is a success, with Effect 0), as the core rule reads.
- **Ruling**: thresholds run from 1+ to 10+ (any face a d10 shows); a TN from 0 to 50 (an
  opposed pool's Hits can reach 50).
- **Ruling**: Attribute levels for the threshold table run from 1 to 11, the table's range;
  anything else is refused.
- **Ruling**: a pool that penalties push below 0 is 0 dice: no Hits, a success only at TN 0.
- **Ruling** (notation): a bare three-letter word is an abbreviation: an Attribute on the left
  (`STR`), a defence of the target on the right (`EVA`, `GRI`). Any other word is a Skill,
  with its Focus in parentheses if given; a Skill on the right makes the check opposed.
"""

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from ..checks import check_faces, check_pool, is_int
from ..errors import DiceError
from ..pools import MAX_POOL
from ..randomness import roll_faces

KEY = "dicecheck"
TITLE = "The Dice Check"

SIDES = 10
BIG_BOTCH = 3
MAX_TN = MAX_POOL
MAX_ATTRIBUTE = 11

# (highest Attribute level, threshold), in order.
THRESHOLD_TABLE = ((1, 10), (2, 9), (4, 7), (7, 6), (11, 5))


@dataclass(frozen=True)
class CheckResult:
    """One Dice Check: the faces and what they mean."""

    dice: tuple
    threshold: int
    tn: int
    hits: int
    success: bool
    effect: int
    botch_margin: int
    big_botch: bool
    dos: int
    damage: bool = False

    @property
    def pool(self):
        return len(self.dice)

    @property
    def wounds(self):
        """Wounds dealt by a damage check (its Effect); 0 for any other check."""
        return self.effect if self.damage else 0


@dataclass(frozen=True)
class OpposedResult:
    """An opposed check: the active side's result is judged with the other's Hits as TN."""

    active: CheckResult
    other: CheckResult

    @property
    def success(self):
        return self.active.success


def degree_of_success(effect):
    """DoS from Effect: 0-1 -> 1, 2-3 -> 2, 4-7 -> 3, 8-15 -> 4, 16-31 -> 5, doubling on."""
    if not is_int(effect) or effect < 0:
        raise DiceError("Effect is a whole number, 0 or more.")
    # The bands double in width, so the degree is the bit length (with 0 in the first band).
    return max(1, effect.bit_length())


def threshold_for_attribute(level):
    """The threshold of an Action or Attribute check from the Attribute level (1-11)."""
    if is_int(level):
        for highest, threshold in THRESHOLD_TABLE:
            if 1 <= level <= highest:
                return threshold
    raise DiceError(f"Attribute levels run from 1 to {MAX_ATTRIBUTE}.")


def check_threshold(threshold):
    if not is_int(threshold) or not 1 <= threshold <= SIDES:
        raise DiceError(f"A threshold is from 1+ to {SIDES}+.")
    return threshold


def check_tn(tn):
    if not is_int(tn) or not 0 <= tn <= MAX_TN:
        raise DiceError(f"A target number is from 0 to {MAX_TN} hits.")
    return tn


def build_pool(attribute, training=0, focus=0, modifiers=()):
    """
    Attribute dice + Skill training + Focus + modifiers (an iterable of signed numbers).

    A total below 0 is 0 dice; above 50 it is refused.
    """
    parts = (attribute, training, focus, *modifiers)
    if not all(is_int(part) for part in parts):
        raise DiceError("Pool parts are whole numbers of dice.")
    if min(attribute, training, focus) < 0:
        raise DiceError("Attribute dice, training and Focus are 0 or more.")
    return check_pool(max(0, sum(parts)))


def evaluate(dice, threshold, tn, damage=False):
    """
    Judge explicit faces (docs/contract.md).

    Args:
        dice (iterable of int): d10 faces, 1-10.
        threshold (int): X of `X+`: a die showing X or more is a Hit.
        tn (int): Hits needed (a defence, a difficulty, the other side's Hits, Hardness).
        damage (bool): a damage check, whose Effect becomes wounds.

    Returns:
        CheckResult
    """
    check_threshold(threshold)
    check_tn(tn)
    dice = check_faces(dice, SIDES, "d10 faces")
    hits = sum(1 for face in dice if face >= threshold)
    success = hits >= tn
    botch_margin = 0 if success else tn - hits
    return CheckResult(
        dice=dice,
        threshold=threshold,
        tn=tn,
        hits=hits,
        success=success,
        effect=hits - tn if success else 0,
        botch_margin=botch_margin,
        big_botch=botch_margin >= BIG_BOTCH,
        dos=degree_of_success(hits - tn) if success else 0,
        damage=bool(damage),
    )


def roll(pool, threshold, tn, rng=None, damage=False):
    """Roll `pool` d10s at a threshold against a TN."""
    check_pool(pool)
    check_threshold(threshold)
    check_tn(tn)
    return evaluate(roll_faces(pool, rng, SIDES), threshold, tn, damage)


def evaluate_opposed(active_dice, active_threshold, other_dice, other_threshold):
    """Both sides' faces: the other side's Hits are the active side's TN."""
    other = evaluate(other_dice, other_threshold, 0)
    return OpposedResult(active=evaluate(active_dice, active_threshold, other.hits), other=other)


def opposed(active_pool, active_threshold, other_pool, other_threshold, rng=None):
    """Roll both sides of an opposed check."""
    check_pool(active_pool)
    check_pool(other_pool)
    check_threshold(active_threshold)
    check_threshold(other_threshold)
    return evaluate_opposed(
        roll_faces(active_pool, rng, SIDES),
        active_threshold,
        roll_faces(other_pool, rng, SIDES),
        other_threshold,
    )


# ---------------------------------------------------------------- exact odds


def _hit_counts(pool, threshold):
    """Ways for exactly k of `pool` d10s to hit, k = 0..pool (binomial counting)."""
    hit = SIDES - threshold + 1
    miss = threshold - 1
    return [math.comb(pool, k) * hit**k * miss ** (pool - k) for k in range(pool + 1)]


def odds(pool, threshold, tn):
    """
    Exact chances of a check, counted (never simulated).

    Returns a dict of Fractions:
        success: Hits >= TN.
        big_botch: Hits <= TN - 3.
        dos (dict): Degree of Success -> chance; 0 is a failure (see the rulings).
        hits (dict): Hits -> chance.
    Only outcomes that can happen appear in `dos` and `hits`.
    """
    check_pool(pool)
    check_threshold(threshold)
    check_tn(tn)
    counts = _hit_counts(pool, threshold)
    total = SIDES**pool
    dos = {}
    for hits, ways in enumerate(counts):
        if ways:
            degree = degree_of_success(hits - tn) if hits >= tn else 0
            dos[degree] = dos.get(degree, 0) + ways
    return {
        "success": Fraction(sum(counts[tn:]), total),
        "big_botch": Fraction(sum(counts[: max(0, tn - BIG_BOTCH + 1)]), total),
        "dos": {degree: Fraction(ways, total) for degree, ways in dos.items()},
        "hits": {hits: Fraction(ways, total) for hits, ways in enumerate(counts) if ways},
    }


def opposed_odds(active_pool, active_threshold, other_pool, other_threshold):
    """
    Exact chances of an opposed check: the other side's Hits are the TN (both sides roll).

    Returns the same dict as `odds` (success, big_botch, dos, hits: the active side's Hits),
    counted over every pair of Hits (never simulated).
    """
    for pool in (active_pool, other_pool):
        check_pool(pool)
    check_threshold(active_threshold)
    check_threshold(other_threshold)
    active = _hit_counts(active_pool, active_threshold)
    other = _hit_counts(other_pool, other_threshold)
    success = big_botch = 0
    dos = {}
    for hits, ways in enumerate(active):
        for tn, other_ways in enumerate(other):
            both = ways * other_ways
            if not both:
                continue
            degree = degree_of_success(hits - tn) if hits >= tn else 0
            dos[degree] = dos.get(degree, 0) + both
            if hits >= tn:
                success += both
            elif tn - hits >= BIG_BOTCH:
                big_botch += both
    total = SIDES ** (active_pool + other_pool)
    return {
        "success": Fraction(success, total),
        "big_botch": Fraction(big_botch, total),
        "dos": {degree: Fraction(ways, total) for degree, ways in dos.items()},
        "hits": {hits: Fraction(ways, SIDES**active_pool) for hits, ways in enumerate(active) if ways},
    }


# ---------------------------------------------------------------- notation

MAX_NOTATION_LENGTH = 100

_ABBREVIATION = re.compile(r"[A-Za-z]{3}", re.ASCII)
_TRAIT = re.compile(r"([A-Za-z][A-Za-z '\-]*?)\s*(?:\(\s*([A-Za-z][A-Za-z '\-]*?)\s*\))?", re.ASCII)
_STATIC = re.compile(r"([0-9]{1,4})\s*[dD]\s*\(\s*([0-9]{1,4})\s*\+\s*\)", re.ASCII)
_NUMBER = re.compile(r"[0-9]{1,4}", re.ASCII)


@dataclass(frozen=True)
class Side:
    """
    One side of a parsed check.

    kind: left "attribute" (name: the abbreviation, upper case), "skill" (name, focus or
    None) or "static" (dice, threshold); right "number" (value), "defence" (name: the
    abbreviation, upper case) or "opposed" (name, focus or None).
    """

    kind: str
    name: str | None = None
    focus: str | None = None
    dice: int | None = None
    threshold: int | None = None
    value: int | None = None


@dataclass(frozen=True)
class CheckRequest:
    """A parsed check: what is rolled (left of the colon) against what (right)."""

    left: Side
    right: Side

    @property
    def opposed(self):
        return self.right.kind == "opposed"


def _trait(text, abbreviation, skill):
    if _ABBREVIATION.fullmatch(text):
        return Side(kind=abbreviation, name=text.upper())
    match = _TRAIT.fullmatch(text)
    if not match:
        raise DiceError(
            f"I can't read '{text}': use a Skill with its Focus in parentheses, like Swords (Cut), "
            "or a three-letter abbreviation like STR."
        )
    return Side(kind=skill, name=match.group(1), focus=match.group(2))


def _left(text):
    static = _STATIC.fullmatch(text)
    if static:
        dice, threshold = int(static.group(1)), int(static.group(2))
        # Only the lower end here: the 50-dice limit is counted on the pool after its
        # modifiers (`build_pool`), so `52d(6+)-5` is 47 dice.
        if dice < 1:
            raise DiceError("A static check rolls at least 1 die.")
        return Side(kind="static", dice=dice, threshold=check_threshold(threshold))
    return _trait(text, "attribute", "skill")


def _right(text):
    if _NUMBER.fullmatch(text):
        return Side(kind="number", value=check_tn(int(text)))
    return _trait(text, "defence", "opposed")


def parse(text):
    """
    Read the rules' notation: `<what is rolled>:<against what>`.

    Returns:
        CheckRequest

    Raises:
        DiceError: for anything that is not such a check.
    """
    if not isinstance(text, str) or not text.strip():
        raise DiceError("Say what to check, like STR:3, Swords (Cut):EVA or 12d(6+):3.")
    if len(text) > MAX_NOTATION_LENGTH:
        raise DiceError(f"That check is too long (over {MAX_NOTATION_LENGTH} characters).")
    if text.count(":") != 1:
        raise DiceError("Write a check as <pool>:<target> with one colon, like STR:3 or Swords (Cut):EVA.")
    left, right = (part.strip() for part in text.split(":"))
    if not left or not right:
        raise DiceError("Both sides of the colon are needed, like STR:3 or Swords (Cut):EVA.")
    return CheckRequest(left=_left(left), right=_right(right))
