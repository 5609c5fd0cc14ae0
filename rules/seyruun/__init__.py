"""
Seyruun (docs/seyruun.md): a World of Darkness style d10 pool.

Pool: Attribute + Skill (a Discipline, Path or Racial Power may stand in for the Skill)
+ modifiers. Untrained (no Skill, or Skill 0): the Attribute alone, -1 die. External bonuses
(merits, allies, equipment) add at most +5 dice to one action; the rest is cut, and the pool
says how much. Spending 1 Willpower before rolling adds +3 dice. Penalties are cumulative:
wounds Light -1, Moderate -2, Severe -3, Crippled -5; multi-action -2 per extra action;
terrain, distraction and the like as numbers. Pools above 50 dice (after every modifier,
before the cap) are refused, never rolled.

Cap: at most 10 dice are rolled; dice above 10 are overflow, reported for secondary effects
(damage, perception depth) and never rolled.

Chance die: a pool of 0 dice or fewer rolls one chance die: 10 is 1 success, 1 is a dramatic
botch, anything else fails.

Counting: 6-9 is one success, 10 is two. Win when successes >= difficulty (successes needed:
Simple 1, Moderate 2, Complex 3, Epic 4-5). Botch: at least one 1 and no successes. Failure:
anything else that does not win (no successes and no 1s, or too few successes). Two or more
10s: enhanced critical (reduced power cost, lasting effects: narrative, for the Storyteller).
Labels on a win, by total successes: 1 "just enough", 2-3 "solid", 4-5 "heroic",
6+ "supernatural brilliance".

Roll types: contested (more successes wins; tie -> the defender, unless the attacker's base
Attribute is higher), team (the highest pool rolls, +1 die per assistant), extended
(successes accumulate toward a target), resisted (power pool against resistance pool).
Willpower maximum = Composure + Resolve. Rerolling a failed roll with Willpower needs the
Storyteller's approval.

Rulings (the rules are silent or open):

- **Ruling**: difficulty is a whole number of successes from 1 to 20 (20 is the most ten dice
  can make); 0 is refused, since every Seyruun task needs at least one success.
- **Ruling**: a chance die's 10 is 1 success (the rules say so), so it can only win at difficulty 1;
  above that even a 10 fails. A chance die can never be an enhanced critical.
- **Ruling**: an enhanced critical is flagged whenever two or more 10s are rolled, win or not
  (the rules tie it to the 10s alone); the Storyteller decides what it means on a failure.
- **Ruling**: the sign of a penalty is ignored: a penalty always removes dice (2 and -2 both
  remove two). Bonuses must not be negative (a negative modifier is a penalty).
- **Ruling**: team assistants are allies, so their +1 dice count toward the +5 external bonus
  cap. The highest pool is judged before assistance; on equal pools the first listed leads.
- **Ruling**: contested rolls compare successes only (each side's roll is judged at
  difficulty 1 for its own botch/win flags).
- **Ruling**: a resisted power takes effect only when its successes exceed the resistance's;
  a tie means the resistance holds (the contested Attribute tie-break is for contested rolls).
- **Ruling**: in an extended roll a botch adds nothing and does not reset the total (the rules
  only say successes accumulate); botches are counted and reported.
- **Ruling**: a Willpower reroll (with approval) rerolls the whole failed roll once, with the
  same number of dice; a roll that won cannot be rerolled.
- **Ruling**: a rating (Attribute, Composure, Resolve) is a whole number from 1 up; a Skill from
  0 up (0 is untrained). Only the 50-dice bound limits how high they go.
"""

from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb

from ..checks import is_int
from ..errors import DiceError
from ..extended import ExtendedRules, Step
from ..pools import MAX_POOL
from ..randomness import roll_faces

KEY = "seyruun"
TITLE = "Seyruun"

MAX_ROLLED = 10
MAX_BONUS = 5
WILLPOWER_DICE = 3
MULTI_ACTION_PENALTY = 2
MIN_DIFFICULTY = 1
MAX_DIFFICULTY = 2 * MAX_ROLLED

DIFFICULTIES = {"simple": 1, "moderate": 2, "complex": 3, "epic": 4, "legendary": 5}
WOUND_PENALTIES = {"light": 1, "moderate": 2, "severe": 3, "crippled": 5}

OUTCOME_LABELS = {
    "supernatural": "supernatural brilliance",
    "heroic": "heroic",
    "solid": "solid",
    "just_enough": "just enough",
    "dramatic_botch": "dramatic botch",
    "botch": "botch",
    "failure": "failure",
}


def _whole(value, what, low, high=None):
    """`value` if it is a whole number in low..high (high None: no upper bound)."""
    if not is_int(value) or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise DiceError(f"{what} must be a whole number {span}, not {value!r}.")
    return value


def check_difficulty(difficulty):
    return _whole(difficulty, "Difficulty (successes needed)", MIN_DIFFICULTY, MAX_DIFFICULTY)


def check_pool_size(dice):
    """A pool size after modifiers: any whole number up to 50 (0 or less is a chance die)."""
    if not is_int(dice):
        raise DiceError(f"A pool must be a whole number of dice, not {dice!r}.")
    if dice > MAX_POOL:
        raise DiceError(f"That pool is {dice} dice; pools are limited to {MAX_POOL}.")
    return dice


def _check_faces(dice):
    try:
        faces = tuple(dice)
    except TypeError:
        raise DiceError(f"Dice must be a list of faces, not {dice!r}.") from None
    for face in faces:
        _whole(face, "A die face", 1, 10)
    return faces


def grade(successes):
    """The label key of a win with this many successes."""
    if successes >= 6:
        return "supernatural"
    if successes >= 4:
        return "heroic"
    if successes >= 2:
        return "solid"
    return "just_enough"


def die_successes(face):
    """6-9 is one success, 10 is two, anything lower none."""
    if face == 10:
        return 2
    return 1 if face >= 6 else 0


def count_successes(faces):
    return sum(die_successes(face) for face in faces)


# ---------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class SeyruunResult:
    """One evaluated roll. `dice` are the faces rolled (one face for a chance die)."""

    dice: tuple
    difficulty: int
    successes: int
    win: bool
    botch: bool
    enhanced_critical: bool
    chance: bool = False
    overflow: int = 0  # dice above the cap: never rolled, kept for secondary effects
    pool: int | None = None  # the pool after modifiers, when rolled from one
    rerolled: bool = False

    @property
    def faces(self):
        return self.dice

    @property
    def tens(self):
        return self.dice.count(10)

    @property
    def ones(self):
        return self.dice.count(1)

    @property
    def failure(self):
        """Not a win and not a botch (no successes and no 1s, or too few successes)."""
        return not self.win and not self.botch

    @property
    def dramatic_botch(self):
        return self.chance and self.botch

    @property
    def margin(self):
        return self.successes - self.difficulty

    @property
    def outcome(self):
        """The key of the outcome (see OUTCOME_LABELS)."""
        if self.win:
            return grade(self.successes)
        if self.dramatic_botch:
            return "dramatic_botch"
        if self.botch:
            return "botch"
        return "failure"

    @property
    def outcome_label(self):
        return OUTCOME_LABELS[self.outcome]


def evaluate(dice, difficulty, chance=False):
    """
    Evaluate explicit faces (docs/contract.md).

    Args:
        dice (iterable of int): the faces rolled, 1 to 10 of them (the cap), each 1-10.
        difficulty (int): successes needed, 1-20.
        chance (bool): the faces are one chance die (see `evaluate_chance`).

    Returns:
        SeyruunResult
    """
    faces = _check_faces(dice)
    check_difficulty(difficulty)
    if chance:
        if len(faces) != 1:
            raise DiceError("A chance die is exactly one die.")
        successes = 1 if faces[0] == 10 else 0
        return SeyruunResult(
            dice=faces,
            difficulty=difficulty,
            successes=successes,
            win=successes >= difficulty,
            botch=faces[0] == 1,
            enhanced_critical=False,
            chance=True,
        )
    if not faces:
        raise DiceError("A roll needs at least one die; an empty pool rolls a chance die.")
    if len(faces) > MAX_ROLLED:
        raise DiceError(f"At most {MAX_ROLLED} dice are rolled; dice above that are overflow.")
    successes = count_successes(faces)
    return SeyruunResult(
        dice=faces,
        difficulty=difficulty,
        successes=successes,
        win=successes >= difficulty,
        botch=successes == 0 and 1 in faces,
        enhanced_critical=faces.count(10) >= 2,
    )


def evaluate_chance(face, difficulty=1):
    """One chance die: 10 is 1 success, 1 a dramatic botch, anything else a failure."""
    return evaluate((face,), difficulty, chance=True)


# ---------------------------------------------------------------- building a pool


@dataclass(frozen=True)
class Pool:
    """
    A built pool: the inputs, the arithmetic and what is rolled.

    `total` is the pool after every modifier (before the cap); `dice` is how many dice are
    rolled (1 for a chance die), `overflow` the dice above the cap, `bonus_cut` the external
    bonus dice above +5 that were dropped.
    """

    attribute: int
    skill: int | None
    bonuses: tuple
    penalties: tuple
    wound: str | None
    willpower: bool
    extra_actions: int
    assistants: int
    base: int = field(init=False)
    bonus: int = field(init=False)
    bonus_cut: int = field(init=False)
    penalty: int = field(init=False)
    total: int = field(init=False)

    def __post_init__(self):
        untrained = not self.skill
        base = self.attribute - 1 if untrained else self.attribute + self.skill
        offered = sum(self.bonuses) + self.assistants
        bonus = min(offered, MAX_BONUS)
        penalty = (
            sum(abs(p) for p in self.penalties)
            + WOUND_PENALTIES.get(self.wound, 0)
            + MULTI_ACTION_PENALTY * self.extra_actions
        )
        total = base + bonus + WILLPOWER_DICE * self.willpower - penalty
        if total > MAX_POOL:
            raise DiceError(f"That pool is {total} dice; pools are limited to {MAX_POOL}.")
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "bonus_cut", offered - bonus)
        object.__setattr__(self, "penalty", penalty)
        object.__setattr__(self, "total", total)

    @property
    def untrained(self):
        return not self.skill

    @property
    def chance(self):
        return self.total <= 0

    @property
    def dice(self):
        """Dice actually rolled: 1 chance die, or the total up to the cap."""
        return 1 if self.chance else min(self.total, MAX_ROLLED)

    @property
    def overflow(self):
        return max(0, self.total - MAX_ROLLED)

    @property
    def notes(self):
        """What changed the pool beyond plain addition, in words for the player."""
        notes = []
        if self.untrained:
            notes.append("untrained: -1 die")
        if self.bonus_cut:
            notes.append(f"external bonuses +{self.bonus + self.bonus_cut} cut to +{MAX_BONUS} ({self.bonus_cut} cut)")
        if self.willpower:
            notes.append(f"Willpower: +{WILLPOWER_DICE} dice")
        if self.chance:
            notes.append("no dice left: one chance die")
        if self.overflow:
            notes.append(f"{self.overflow} dice of overflow (not rolled)")
        return tuple(notes)


def build_pool(
    attribute, skill=None, bonuses=(), penalties=(), willpower=False, extra_actions=0, wound=None, assistants=0
):
    """
    Build a pool from its parts (see the module docstring for every rule applied).

    Args:
        attribute (int): the Attribute, 1 or more.
        skill (int or None): the Skill (or Discipline, Path, Racial Power); None or 0 is untrained.
        bonuses (iterable of int): external bonuses (merits, allies, equipment), each 0 or more.
        penalties (iterable of int): dice lost (terrain, distraction, ...); the sign is ignored.
        willpower (bool): 1 Willpower spent before rolling: +3 dice.
        extra_actions (int): actions beyond the first this turn: -2 dice each.
        wound (str or None): "light", "moderate", "severe" or "crippled".
        assistants (int): characters assisting a team roll: +1 die each (external bonus).

    Returns:
        Pool

    Raises:
        DiceError: bad input, or a pool above 50 dice.
    """
    _whole(attribute, "An Attribute", 1)
    if skill is not None:
        _whole(skill, "A Skill", 0)
    bonuses = tuple(bonuses)
    for bonus in bonuses:
        _whole(bonus, "A bonus", 0)
    penalties = tuple(penalties)
    for penalty in penalties:
        if not is_int(penalty):
            raise DiceError(f"A penalty must be a whole number of dice, not {penalty!r}.")
    if not isinstance(willpower, bool):
        raise DiceError("Willpower is either spent or not.")
    _whole(extra_actions, "Extra actions", 0)
    _whole(assistants, "Assistants", 0)
    if wound is not None:
        key = str(wound).lower()
        if key not in WOUND_PENALTIES:
            raise DiceError(f"Unknown wound {wound!r}: use {', '.join(WOUND_PENALTIES)}.")
        wound = key
    return Pool(attribute, skill, bonuses, penalties, wound, willpower, extra_actions, assistants)


def team_pool(pools):
    """
    The team roll: the highest pool rolls with +1 die per other member.

    Returns:
        (int, Pool): the index of the leading pool and the leader's pool with the assistants.
    """
    pools = tuple(pools)
    if len(pools) < 2:
        raise DiceError("A team roll needs at least two characters.")
    leader = max(range(len(pools)), key=lambda i: (pools[i].total, -i))
    return leader, replace(pools[leader], assistants=pools[leader].assistants + len(pools) - 1)


def willpower_max(composure, resolve):
    """Willpower maximum: Composure + Resolve."""
    return _whole(composure, "Composure", 1) + _whole(resolve, "Resolve", 1)


# ---------------------------------------------------------------- rolling


def _pool_size(pool):
    return pool.total if isinstance(pool, Pool) else check_pool_size(pool)


def roll(dice, difficulty, rng=None):
    """
    Roll a pool against a difficulty.

    Args:
        dice (int or Pool): the pool after modifiers (0 or less: a chance die; above 10: 10
            dice and the rest overflow; above 50: refused).
        difficulty (int): successes needed, 1-20.
        rng (random.Random, optional): the source of faces (default: the system's).
    """
    total = _pool_size(dice)
    check_difficulty(difficulty)
    chance = total <= 0
    faces = roll_faces(1 if chance else min(total, MAX_ROLLED), rng)
    result = evaluate(faces, difficulty, chance=chance)
    return replace(result, overflow=max(0, total - MAX_ROLLED), pool=total)


def _check_reroll(result, approved):
    if not approved:
        raise DiceError("Rerolling a failed roll with Willpower needs the Storyteller's approval.")
    if result.win:
        raise DiceError("Only a failed roll can be rerolled.")
    if result.rerolled:
        raise DiceError("This roll has already been rerolled.")


def apply_reroll(result, faces, approved=False):
    """A failed roll rerolled with Willpower: new faces for every die, evaluated again."""
    _check_reroll(result, approved)
    faces = _check_faces(faces)
    if len(faces) != len(result.dice):
        raise DiceError(f"The reroll needs {len(result.dice)} new faces.")
    fresh = evaluate(faces, result.difficulty, chance=result.chance)
    return replace(fresh, overflow=result.overflow, pool=result.pool, rerolled=True)


def reroll(result, approved=False, rng=None):
    """Reroll a failed roll with Willpower (Storyteller approval needed)."""
    _check_reroll(result, approved)  # before any die is drawn
    return apply_reroll(result, roll_faces(len(result.dice), rng), approved)


# ---------------------------------------------------------------- roll types


@dataclass(frozen=True)
class ContestResult:
    """A contested roll. `decided_by` names the rule that settled it."""

    attacker: SeyruunResult
    defender: SeyruunResult
    winner: str  # "attacker" or "defender"
    tie: bool
    decided_by: str  # "successes", "tie: defender wins", "tie: attacker's higher Attribute"
    margin: int  # winner's successes minus loser's


def contest(attacker, defender, attacker_attribute, defender_attribute):
    """
    Compare two rolls: more successes wins; a tie goes to the defender unless the attacker's
    base Attribute is higher.
    """
    _whole(attacker_attribute, "The attacker's Attribute", 1)
    _whole(defender_attribute, "The defender's Attribute", 1)
    a, d = attacker.successes, defender.successes
    if a != d:
        winner, decided_by = ("attacker" if a > d else "defender"), "successes"
    elif attacker_attribute > defender_attribute:
        winner, decided_by = "attacker", "tie: attacker's higher Attribute"
    else:
        winner, decided_by = "defender", "tie: defender wins"
    return ContestResult(attacker, defender, winner, a == d, decided_by, abs(a - d))


def roll_contest(attacker_pool, defender_pool, rng=None):
    """Both pools roll; the pools' Attributes settle a tie."""
    attacker = roll(attacker_pool, MIN_DIFFICULTY, rng)
    defender = roll(defender_pool, MIN_DIFFICULTY, rng)
    return contest(attacker, defender, attacker_pool.attribute, defender_pool.attribute)


@dataclass(frozen=True)
class ResistedResult:
    power: SeyruunResult
    resistance: SeyruunResult
    takes_effect: bool
    net: int  # power successes minus resistance successes (0 or more when it takes effect)


def resisted(power, resistance):
    """A power's roll against a resistance roll: it takes effect with more successes."""
    net = power.successes - resistance.successes
    return ResistedResult(power, resistance, net > 0, net)


def roll_resisted(power_pool, resistance_pool, rng=None):
    return resisted(roll(power_pool, MIN_DIFFICULTY, rng), roll(resistance_pool, MIN_DIFFICULTY, rng))


class SeyruunExtended(ExtendedRules):
    """
    Each roll is judged alone at Simple (the target is the total's) and its successes add up.
    **Ruling**: a botch adds nothing and does not reset the total (the rules only say
    successes accumulate); botches are counted and reported.
    """

    target_word = "vs"
    syntax = "<pool> vs <target total>"
    switches = ("willpower",)
    mark_nouns = {"botch": ("botch", "botches")}
    BOTCH_NOTE = "a botch on this roll adds nothing"

    def request(self, request):
        return replace(request, target=MIN_DIFFICULTY, target_given=False)

    def step(self, result):
        roll = getattr(result, "result", result)  # the system's roll wraps the rules' result
        if roll.botch:
            return Step(added=roll.successes, marks=("botch",), note=self.BOTCH_NOTE)
        return Step(added=roll.successes)


EXTENDED = SeyruunExtended()


# ---------------------------------------------------------------- exact odds

# A die falls in one of four categories that matter: 1 (1 face), 2-5 (4), 6-9 (4), 10 (1).


def _count(n):
    """
    successes -> number of the 10**n face sequences with that many successes, for n dice,
    counted by how many dice show 6-9 (s) and 10 (t); the other n-s-t show 1-5 (5 faces).
    """
    counts = {}
    for tens in range(n + 1):
        for singles in range(n - tens + 1):
            ways = comb(n, tens) * comb(n - tens, singles) * 4**singles * 5 ** (n - tens - singles)
            key = singles + 2 * tens
            counts[key] = counts.get(key, 0) + ways
    return counts


# Every table is tiny (at most 66 terms), so all of them are counted once, at import.
_TABLES = tuple(_count(n) for n in range(MAX_ROLLED + 1))


def distribution(dice):
    """successes -> exact probability, for a pool size (after the cap; a chance die for 0 or less)."""
    total = check_pool_size(dice)
    if total <= 0:
        return {0: Fraction(9, 10), 1: Fraction(1, 10)}
    n = min(total, MAX_ROLLED)
    return {s: Fraction(ways, 10**n) for s, ways in sorted(_TABLES[n].items())}


def odds(dice, difficulty):
    """
    Exact chances of a fresh roll (docs/contract.md): `win`, `botch`, `failure`, `enhanced_critical`,
    `expected_successes` and `distribution` (successes -> probability).

    `dice` is the pool after modifiers: above 10 the odds are those of the 10 dice rolled;
    0 or less is a chance die (win 1/10 at difficulty 1, else 0; botch 1/10).
    """
    dist = distribution(dice)
    check_difficulty(difficulty)
    win = sum((p for s, p in dist.items() if s >= difficulty), Fraction(0))
    if dice <= 0:
        botch = Fraction(1, 10)
        enhanced = Fraction(0)
    else:
        n = min(dice, MAX_ROLLED)
        # no 6-10 on any die, minus the sequences with no 1 either
        botch = Fraction(5**n - 4**n, 10**n)
        # 1 - P(no 10) - P(exactly one 10)
        enhanced = 1 - Fraction(9**n + n * 9 ** (n - 1), 10**n)
    return {
        "win": win,
        "botch": botch,
        "failure": 1 - win - botch,
        "enhanced_critical": enhanced,
        "expected_successes": sum(s * p for s, p in dist.items()),
        "distribution": dist,
    }
