"""
The V20 health track (docs/v20.md).

Seven levels, in order, with their dice penalties and movement:

    Bruised 0 (normal), Hurt -1 (normal), Injured -1 (half run speed), Wounded -2 (walk only),
    Mauled -2 (hobble 3 yd/turn), Crippled -5 (crawl 1 yd/turn), Incapacitated (no action).

Damage is Bashing, Lethal or Aggravated. The track keeps how many levels of each type it holds
and always shows them marked Aggravated first, then Lethal, then Bashing, so a worse wound
pushes lighter ones down the track. The current wound penalty is that of the last marked box;
it comes off every pool (`wounded_pool`), unless 1 Willpower is spent to ignore it this turn.
At Incapacitated the character cannot act.

Vampire healing: 1 blood point heals 1 level of Bashing or Lethal (resting, 1 level per turn
unless Generation allows more); Aggravated costs 5 blood points and a full day's rest per level,
and further Aggravated levels the same night cost 5 blood points and 1 Willpower each.

**Rulings**:

- Damage past a full track (V20: bashing beyond Incapacitated becomes lethal): each level that
  does not fit upgrades the least severe box that is lighter than it — Aggravated turns a
  Bashing box (else a Lethal one) Aggravated; Lethal and Bashing both turn a Bashing box
  Lethal. A level with nothing lighter to upgrade is lost and counted in `Damaged.lost`:
  the game says what that means (torpor, Final Death) — it is the Storyteller's matter.
- Healing more levels of a type than the track holds is refused.
- The first Aggravated level healed "the same night" still needs the day's rest: 5 levels
  cost 25 blood points, 1 day and 4 Willpower.
- A pool that wound penalties bring to 0 or fewer dice cannot be attempted (see `rules.v20`).
"""

from dataclasses import dataclass

from ..errors import DiceError

BASHING = "bashing"
LETHAL = "lethal"
AGGRAVATED = "aggravated"
DAMAGE_TYPES = (BASHING, LETHAL, AGGRAVATED)  # least to most severe

# (name, dice penalty, movement); Incapacitated has no penalty: no action at all.
HEALTH_LEVELS = (
    ("Bruised", 0, "normal"),
    ("Hurt", -1, "normal"),
    ("Injured", -1, "half run speed"),
    ("Wounded", -2, "walk only"),
    ("Mauled", -2, "hobble 3 yards a turn"),
    ("Crippled", -5, "crawl 1 yard a turn"),
    ("Incapacitated", None, "none"),
)
BOXES = len(HEALTH_LEVELS)
HEALTHY = "Healthy"

AGGRAVATED_BLOOD = 5


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def check_damage_type(kind):
    if kind not in DAMAGE_TYPES:
        raise DiceError(f"Damage is bashing, lethal or aggravated, not {kind!r}.")
    return kind


def _check_levels(levels):
    if not _is_int(levels) or levels < 1:
        raise DiceError(f"A number of health levels is 1 or more, not {levels!r}.")
    return levels


@dataclass(frozen=True)
class HealthTrack:
    """Levels of each damage type held; the boxes are derived (Aggravated first)."""

    bashing: int = 0
    lethal: int = 0
    aggravated: int = 0

    def __post_init__(self):
        counts = (self.bashing, self.lethal, self.aggravated)
        if any(not _is_int(count) or count < 0 for count in counts):
            raise DiceError("Damage on the health track is counted in whole levels, 0 or more.")
        if sum(counts) > BOXES:
            raise DiceError(f"The health track has {BOXES} boxes.")

    @property
    def marked(self):
        return self.bashing + self.lethal + self.aggravated

    @property
    def boxes(self):
        """Seven entries, top (Bruised) first: a damage type, or None for an empty box."""
        filled = (AGGRAVATED,) * self.aggravated + (LETHAL,) * self.lethal + (BASHING,) * self.bashing
        return filled + (None,) * (BOXES - self.marked)

    @property
    def level(self):
        """The name of the last marked level, or "Healthy"."""
        return HEALTH_LEVELS[self.marked - 1][0] if self.marked else HEALTHY

    @property
    def incapacitated(self):
        return self.marked == BOXES

    @property
    def penalty(self):
        """Dice off every pool (0, -1, -2 or -5); None at Incapacitated (no action)."""
        return HEALTH_LEVELS[self.marked - 1][1] if self.marked else 0

    @property
    def movement(self):
        return HEALTH_LEVELS[self.marked - 1][2] if self.marked else HEALTH_LEVELS[0][2]

    def count(self, kind):
        return getattr(self, check_damage_type(kind))


@dataclass(frozen=True)
class Damaged:
    """A track after damage: how many levels upgraded a lighter box, how many were lost."""

    track: HealthTrack
    upgraded: int = 0
    lost: int = 0


def damage(track, kind, levels=1):
    """Mark `levels` of `kind` damage (see the ruling on a full track)."""
    check_damage_type(kind)
    _check_levels(levels)
    counts = {BASHING: track.bashing, LETHAL: track.lethal, AGGRAVATED: track.aggravated}
    upgraded = lost = 0
    for _ in range(levels):
        if sum(counts.values()) < BOXES:
            counts[kind] += 1
            continue
        lighter = (BASHING, LETHAL) if kind == AGGRAVATED else (BASHING,)
        target = next((light for light in lighter if counts[light]), None)
        if target is None:
            lost += 1
            continue
        counts[target] -= 1
        counts[AGGRAVATED if kind == AGGRAVATED else LETHAL] += 1
        upgraded += 1
    return Damaged(HealthTrack(**counts), upgraded, lost)


@dataclass(frozen=True)
class HealingCost:
    blood: int
    willpower: int = 0
    days: int = 0  # full days of rest
    turns: int = 0  # turns of rest


def healing_cost(kind, levels=1, same_night=False, per_turn=1):
    """
    What healing `levels` of `kind` costs a vampire. Bashing, Lethal: 1 blood point a level,
    `per_turn` levels a turn (1 unless Generation allows more). Aggravated: 5 blood points and
    a day's rest a level; with `same_night`, one day's rest and 1 Willpower per further level.
    """
    check_damage_type(kind)
    _check_levels(levels)
    if not isinstance(same_night, bool):
        raise DiceError("same_night is True or False.")
    if not _is_int(per_turn) or per_turn < 1:
        raise DiceError(f"Levels healed per turn are 1 or more, not {per_turn!r}.")
    if kind != AGGRAVATED:
        return HealingCost(blood=levels, turns=-(-levels // per_turn))
    if same_night:
        return HealingCost(blood=AGGRAVATED_BLOOD * levels, willpower=levels - 1, days=1)
    return HealingCost(blood=AGGRAVATED_BLOOD * levels, days=levels)


def heal(track, kind, levels=1, same_night=False, per_turn=1):
    """(the healed track, its HealingCost). Refused when the track holds fewer such levels."""
    cost = healing_cost(kind, levels, same_night, per_turn)
    held = track.count(kind)
    if levels > held:
        raise DiceError(f"There are only {held} levels of {kind} damage to heal, not {levels}.")
    counts = {BASHING: track.bashing, LETHAL: track.lethal, AGGRAVATED: track.aggravated}
    counts[kind] -= levels
    return HealthTrack(**counts), cost


def wounded_pool(pool, track, ignore=False):
    """
    The pool after the wound penalty; `ignore`: 1 Willpower spent to ignore it this turn.
    Refused at Incapacitated. The result may be 0 or less: such a pool cannot be rolled.
    """
    if not _is_int(pool):
        raise DiceError(f"A pool is a whole number of dice, not {pool!r}.")
    if not isinstance(ignore, bool):
        raise DiceError("ignore is True or False.")
    if track.incapacitated:
        raise DiceError("An Incapacitated character cannot act.")
    return pool if ignore else pool + track.penalty
