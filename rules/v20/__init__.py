"""
Classic Storyteller, V20 style (docs/v20.md). Health lives in `rules.v20.health`.

Counting, for a roll of d10s against a difficulty (the face each die must reach, 2 to 10,
default 6):

- each die >= difficulty is one success; with a Specialty in the Ability each 10 is two;
- each 1 cancels one success: net = max(0, successes - ones);
- Willpower (spent before rolling, at most 1 per action, so a flag): one more success that
  cannot be cancelled, added after cancellation;
- botch: net 0 with at least one 1 left uncancelled (ones > successes) and no Willpower
  spent. 1,1,3,5 at 6 is a botch; so are 1,1,7 and 6,1,1 and 3,1,1;
- levels by net successes: 0 failure, 1 marginal, 2 moderate, 3 complete, 4 exceptional,
  5+ phenomenal. A botch has level "failure" and `botch` set.

Around the roll:

- difficulty modifiers stop at 2 and 10 (`clamp_difficulty`); `evaluate`, `roll` and `odds`
  refuse a difficulty outside 2..10, so a typed "vs 11" is an error, not a silent 10;
- automatic success: pool >= difficulty gives 1 marginal success without rolling, only when
  asked for, and not in combat (`automatic_success`);
- defaulting on an Ability at 0: Talent rolls the Attribute alone, Skill the Attribute at
  +1 difficulty, Knowledge cannot be attempted (`default_pool`);
- multiple actions: the smallest of the declared pools is split among the actions, positive
  whole dice summing to it; by default as even as possible with earlier actions getting the
  extra dice; Celerity extra actions roll their full pool and are not split (`split_actions`);
- extended actions: successes accumulate toward a target; a botch resets the total to 0
  (`V20Extended`, the rules of the shared `rules.extended`);
- resisted actions: the winner keeps own net - other's net (`resist`);
- retry penalty: +1 difficulty per earlier failed attempt, when the Storyteller applies it
  (`retry_difficulty`, `failures_after`).

Exact odds (`odds`) count, never simulate: a roll only depends on the sum over its dice of
-1 (a 1), 0 (a failure), +1 (a success below 10) and +1 or +2 (a 10); that sum D has net =
max(0, D) (+1 with Willpower), and D < 0 is a botch without Willpower. The distribution of D
is the pool-th power of a four-term polynomial, expanded die by die with integer counts out of
10**pool; a 50-die query is about a millisecond.

**Rulings** (the rules are silent):

- A roll has 1 to 50 dice. A pool brought to 0 or fewer dice (wound penalties, splitting)
  cannot be attempted (V20: a character with no dice left cannot act); Willpower does not
  rescue it.
- For the display, 1s cancel the weakest successes first: single successes from the lowest
  face up (ties: the earlier die), then Specialty 10s, each taking two 1s (one 1 leaves it
  "half"); the earliest 1s are the ones that cancel. This only decides the marks; the counts
  are the rule's.
- An automatic success takes no Willpower and ignores the Specialty: it is exactly one
  marginal success, never a botch.
- Defaulting a Skill to +1 difficulty stops at 10, like every modifier.
- Resisted actions: a botch is a net of 0 there; equal nets (0 against 0 included) mean
  nobody wins (the rules give no tie-break).
- Extended actions: a roll may not be added once the target is reached; the botch resets the
  total but the roll still counts as a roll made.
- Retry penalty: any roll with no net success (a botch included) is a failed attempt; a
  success clears the count.
"""

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from ..checks import is_int
from ..errors import DiceError
from ..extended import ExtendedRules, Step
from ..pools import MAX_POOL
from ..randomness import roll_faces

KEY = "v20"
TITLE = "Classic Storyteller (V20)"

MIN_DIFFICULTY = 2
MAX_DIFFICULTY = 10
DEFAULT_DIFFICULTY = 6

LEVELS = ("failure", "marginal", "moderate", "complete", "exceptional", "phenomenal")
LEVEL_LABELS = {
    "failure": "failure",
    "marginal": "marginal success",
    "moderate": "moderate success",
    "complete": "complete success",
    "exceptional": "exceptional success",
    "phenomenal": "phenomenal success",
}

# Per-die marks for the display (see the ruling on which 1s cancel which successes).
SUCCESS = "success"  # one success, standing
DOUBLE = "double"  # a Specialty 10: two successes, standing
HALF = "half"  # a Specialty 10 with one of its two successes cancelled
CANCELLED = "cancelled"  # a success (both, for a Specialty 10) cancelled by 1s
CANCELS = "cancels"  # a 1 that cancelled a success
ONE = "one"  # a 1 left uncancelled
FAIL = "fail"  # below the difficulty, not a 1

ABILITY_CATEGORIES = ("talent", "skill", "knowledge")


# ---------------------------------------------------------------- checks


def check_difficulty(difficulty):
    if not is_int(difficulty) or not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise DiceError(f"Difficulty is a number from {MIN_DIFFICULTY} to {MAX_DIFFICULTY}, not {difficulty!r}.")
    return difficulty


def check_pool(pool):
    if not is_int(pool):
        raise DiceError(f"A pool is a whole number of dice, not {pool!r}.")
    if pool < 1:
        raise DiceError(f"A pool of {pool} dice cannot be attempted: no dice are left to roll.")
    if pool > MAX_POOL:
        raise DiceError(f"That pool is {pool} dice; pools are limited to {MAX_POOL}.")
    return pool


def check_faces(dice):
    faces = tuple(dice)
    for face in faces:
        if not is_int(face) or not 1 <= face <= 10:
            raise DiceError(f"Die faces are whole numbers from 1 to 10, not {face!r}.")
    if not faces:
        raise DiceError("A roll needs at least one die.")
    if len(faces) > MAX_POOL:
        raise DiceError(f"That is {len(faces)} dice; pools are limited to {MAX_POOL}.")
    return faces


def _check_flag(value, name):
    if not isinstance(value, bool):
        raise DiceError(f"{name} is on or off (True or False), not {value!r}.")
    return value


def clamp_difficulty(base, modifier=0):
    """`base` (2..10) moved by `modifier`, stopping at 2 and 10 (docs/v20.md, 'Rulings')."""
    check_difficulty(base)
    if not is_int(modifier):
        raise DiceError(f"A difficulty modifier is a whole number, not {modifier!r}.")
    return max(MIN_DIFFICULTY, min(MAX_DIFFICULTY, base + modifier))


def level_for(net):
    """The level word for a net number of successes (5 and more: "phenomenal")."""
    if not is_int(net) or net < 0:
        raise DiceError(f"Net successes are 0 or more, not {net!r}.")
    return LEVELS[min(net, len(LEVELS) - 1)]


# ---------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class V20Result:
    """One V20 roll: the faces, the parameters, the counts behind the net, and per-die marks."""

    dice: tuple
    difficulty: int
    specialty: bool
    willpower: bool
    raw_successes: int  # before cancellation, Specialty 10s counted twice
    ones: int
    successes: int  # net: after 1s and Willpower (docs/contract.md)
    botch: bool
    level: str
    marks: tuple  # one mark per die, see SUCCESS ... FAIL
    automatic: bool = False  # an automatic success: nothing was rolled

    @property
    def cancelled(self):
        """Successes cancelled by 1s (= the 1s that cancelled something)."""
        return min(self.raw_successes, self.ones)

    @property
    def uncancelled_ones(self):
        return self.ones - self.cancelled

    @property
    def success(self):
        return self.successes >= 1

    @property
    def label(self):
        return "botch" if self.botch else LEVEL_LABELS[self.level]

    @property
    def pool(self):
        return len(self.dice)


def _worth(face, difficulty, specialty):
    if face < difficulty:
        return 0
    return 2 if specialty and face == 10 else 1


def _marks(dice, difficulty, specialty, ones):
    """Per-die marks: which successes the 1s cancelled (weakest first) and which 1s did it."""
    worth = [_worth(face, difficulty, specialty) for face in dice]
    standing = list(worth)
    unspent = ones
    for index in sorted((i for i in range(len(dice)) if worth[i]), key=lambda i: (worth[i], dice[i])):
        taken = min(unspent, worth[index])
        standing[index] -= taken
        unspent -= taken
    cancelling = ones - unspent
    marks = []
    for face, value, left in zip(dice, worth, standing):
        if face == 1:
            marks.append(CANCELS if cancelling > 0 else ONE)
            cancelling -= 1
        elif not value:
            marks.append(FAIL)
        elif not left:
            marks.append(CANCELLED)
        elif left < value:
            marks.append(HALF)
        else:
            marks.append(DOUBLE if value == 2 else SUCCESS)
    return tuple(marks)


def evaluate(dice, difficulty, specialty=False, willpower=False):
    """
    Evaluate explicit faces (docs/contract.md).

    Args:
        dice (iterable of int): faces 1-10, 1 to 50 of them.
        difficulty (int): 2 to 10.
        specialty (bool): each 10 counts two successes.
        willpower (bool): one Willpower spent: +1 uncancellable success, no botch.

    Returns:
        V20Result
    """
    dice = check_faces(dice)
    check_difficulty(difficulty)
    _check_flag(specialty, "Specialty")
    _check_flag(willpower, "Willpower")
    raw = sum(_worth(face, difficulty, specialty) for face in dice)
    ones = dice.count(1)
    net = max(0, raw - ones) + int(willpower)
    return V20Result(
        dice=dice,
        difficulty=difficulty,
        specialty=specialty,
        willpower=willpower,
        raw_successes=raw,
        ones=ones,
        successes=net,
        botch=not willpower and ones > raw,
        level=level_for(net),
        marks=_marks(dice, difficulty, specialty, ones),
    )


def roll(pool, difficulty=DEFAULT_DIFFICULTY, specialty=False, willpower=False, rng=None):
    """Roll `pool` d10s (faces from `rng`, default the system source) and evaluate them."""
    check_pool(pool)
    check_difficulty(difficulty)
    _check_flag(specialty, "Specialty")
    _check_flag(willpower, "Willpower")
    return evaluate(roll_faces(pool, rng), difficulty, specialty, willpower)


def automatic_success(pool, difficulty=DEFAULT_DIFFICULTY, combat=False):
    """
    One marginal success without rolling, when pool >= difficulty and not in combat.
    The player asks for it (a switch); nothing here decides it silently.
    """
    check_pool(pool)
    check_difficulty(difficulty)
    _check_flag(combat, "Combat")
    if combat:
        raise DiceError("Automatic success is not allowed in combat: roll the dice.")
    if pool < difficulty:
        raise DiceError(
            f"Automatic success needs a pool of at least the difficulty: {pool} {'die' if pool == 1 else 'dice'} "
            f"against difficulty {difficulty}."
        )
    return V20Result(
        dice=(),
        difficulty=difficulty,
        specialty=False,
        willpower=False,
        raw_successes=1,
        ones=0,
        successes=1,
        botch=False,
        level="marginal",
        marks=(),
        automatic=True,
    )


# ---------------------------------------------------------------- exact odds


@lru_cache(maxsize=None)
def _sum_counts(pool, difficulty, ten_worth):
    """
    ways[i]: faces (out of 10**pool) whose dice sum to D = i - pool, a die adding -1 (a 1),
    0 (2 .. difficulty-1), +1 (difficulty .. 9) or ten_worth (a 10).
    """
    fails, plain = difficulty - 2, 10 - difficulty
    ways = (1,)
    for _ in range(pool):
        longer = [0] * (len(ways) + ten_worth + 1)
        for i, count in enumerate(ways):
            longer[i] += count
            longer[i + 1] += count * fails
            longer[i + 2] += count * plain
            longer[i + 1 + ten_worth] += count
        ways = tuple(longer)
    return ways


def odds(pool, difficulty, specialty=False, willpower=False):
    """
    Exact odds of a fresh roll (docs/contract.md): a dict with `success` (net >= 1), `botch`, and
    `distribution` (net successes -> probability, ascending, impossible nets left out), all
    `fractions.Fraction`.
    """
    check_pool(pool)
    check_difficulty(difficulty)
    _check_flag(specialty, "Specialty")
    _check_flag(willpower, "Willpower")
    ways = _sum_counts(pool, difficulty, 2 if specialty else 1)
    by_net = {}
    botch = 0
    for i, count in enumerate(ways):
        if not count:
            continue
        total = i - pool
        if total < 0 and not willpower:
            botch += count
        net = max(0, total) + int(willpower)
        by_net[net] = by_net.get(net, 0) + count
    denominator = 10**pool
    return {
        "success": Fraction(sum(count for net, count in by_net.items() if net >= 1), denominator),
        "botch": Fraction(botch, denominator),
        "distribution": {net: Fraction(by_net[net], denominator) for net in sorted(by_net)},
    }


# ---------------------------------------------------------------- defaulting


@dataclass(frozen=True)
class Defaulted:
    """What to roll for Attribute + Ability, after defaulting an untrained Ability."""

    pool: int
    difficulty: int
    defaulted: bool  # the Ability was 0 and the defaulting rule applied
    category: str


def default_pool(attribute, ability, category, difficulty=DEFAULT_DIFFICULTY, name=None):
    """
    Attribute + Ability; with the Ability at 0: Talent -> the Attribute alone, Skill -> the
    Attribute at +1 difficulty, Knowledge -> refused. `name` is the Ability, for messages.
    """
    for value, what in ((attribute, "An Attribute"), (ability, "An Ability")):
        if not is_int(value) or value < 0:
            raise DiceError(f"{what} is a rating of 0 or more, not {value!r}.")
    kind = category.lower() if isinstance(category, str) else category
    if kind not in ABILITY_CATEGORIES:
        raise DiceError(f"An Ability is a Talent, a Skill or a Knowledge, not {category!r}.")
    check_difficulty(difficulty)
    if ability:
        return Defaulted(attribute + ability, difficulty, False, kind)
    if kind == "knowledge":
        which = f"the Knowledge {name}" if name else "that Knowledge"
        raise DiceError(f"You have no dots in {which}: a Knowledge cannot be attempted untrained.")
    if kind == "skill":
        return Defaulted(attribute, clamp_difficulty(difficulty, 1), True, kind)
    return Defaulted(attribute, difficulty, True, kind)


# ---------------------------------------------------------------- multiple actions


def even_split(dice, actions):
    """`dice` over `actions` as evenly as possible, earlier actions taking the extra dice."""
    share, extra = divmod(dice, actions)
    return tuple(share + 1 if index < extra else share for index in range(actions))


def split_actions(pools, split=None, celerity=()):
    """
    Dice for each declared action (docs/v20.md, 'Multiple and extended actions').

    Args:
        pools (sequence of int): each action's full pool, in the order declared.
        split (sequence of int, optional): the player's split of the smallest pool among the
            non-Celerity actions, in order; default `even_split`.
        celerity (collection of int): indexes into `pools` of Celerity extra actions; they
            keep their full pool and take no part in the split.

    Returns:
        tuple of int: the dice each action rolls, in the order declared.
    """
    pools = tuple(pools)
    if not pools:
        raise DiceError("Declare at least one action.")
    for pool in pools:
        check_pool(pool)
    fast = set(celerity)
    for index in fast:
        if not is_int(index) or not 0 <= index < len(pools):
            raise DiceError(f"There is no action {index!r} to take with Celerity.")
    shared = [index for index in range(len(pools)) if index not in fast]
    if not shared:
        raise DiceError("Celerity gives extra actions: at least one action must be an ordinary one.")
    smallest = min(pools[index] for index in shared)
    if len(shared) > smallest:
        raise DiceError(
            f"The smallest pool, {smallest} dice, cannot give each of {len(shared)} actions a die: declare fewer actions."
        )
    if split is None:
        shares = even_split(smallest, len(shared))
    else:
        shares = tuple(split)
        if len(shares) != len(shared):
            raise DiceError(f"Give a number of dice for each of the {len(shared)} split actions.")
        if any(not is_int(share) or share < 1 for share in shares):
            raise DiceError("Each action in a split gets at least 1 die.")
        if sum(shares) != smallest:
            raise DiceError(f"The split must add up to the smallest pool, {smallest} dice, not {sum(shares)}.")
    dice = list(pools)
    for index, share in zip(shared, shares):
        dice[index] = share
    return tuple(dice)


# ---------------------------------------------------------------- extended actions


class V20Extended(ExtendedRules):
    """
    Net successes add up toward the total; a botch resets it to 0 (and still counts as a roll
    made). The target comes after `for`: `vs` is the roll's difficulty, which each roll keeps.
    `/spec` is kept from the first roll for every roll (it belongs to the pool).
    """

    target_word = "for"
    syntax = "<pool> [vs <difficulty>] for <total>"
    switches = ("spec",)
    lasting = ("spec",)
    BOTCH_NOTE = "a botch resets the total to 0"

    def step(self, result):
        if result.botch:
            return Step(reset=True, note=self.BOTCH_NOTE)
        return Step(added=result.successes)


EXTENDED = V20Extended()


# ---------------------------------------------------------------- resisted actions


@dataclass(frozen=True)
class Resisted:
    """Both rolls; `winner` is "first", "second" or None (equal nets); margin = winner's net - other's."""

    first: V20Result
    second: V20Result
    winner: str | None
    margin: int


def resist(first, second):
    difference = first.successes - second.successes
    if difference > 0:
        return Resisted(first, second, "first", difference)
    if difference < 0:
        return Resisted(first, second, "second", -difference)
    return Resisted(first, second, None, 0)


# ---------------------------------------------------------------- retry penalty


def retry_difficulty(difficulty, earlier_failures, apply=True):
    """The difficulty of a retry: +1 per earlier failed attempt when applied, stopping at 10."""
    if not is_int(earlier_failures) or earlier_failures < 0:
        raise DiceError(f"Earlier failures are 0 or more, not {earlier_failures!r}.")
    _check_flag(apply, "The retry penalty")
    return clamp_difficulty(difficulty, earlier_failures if apply else 0)


def failures_after(earlier_failures, result):
    """The count of failed attempts after `result`: a success clears it, anything else adds one."""
    return 0 if result.success else earlier_failures + 1
