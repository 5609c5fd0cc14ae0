"""
V5 contests and teamwork (docs/v5.md): rolls of several pools that make one outcome.

**Contest.** Both sides roll their pools, each with its own Hunger; the side with more
successes wins by the difference. **Ruling** (docs/v5.md, 'Contests'): on a tie the defender (the side
challenged) wins, and the result says it was a tie.

Each side is kept as a `rules.v5.V5Result` evaluated against *what that side needs to win the
contest*: the attacker needs one success more than the defender, the defender as many as the
attacker. So each side's `win`, `critical`, `messy_critical` and `bestial_failure` mean what
they mean in the contest (a messy critical only for the winner, a bestial failure only for
the loser with a Hunger 1), and a Willpower reroll of one side (`rules.v5.reroll`, any
strategy, `best` included) aims at winning the contest. After a side is rerolled the
contest is scored again (`replace_side`): the other side's needs change with it.
0 successes never wins a roll (docs/v5.md), so on a tie at 0-0 the defender wins the contest
(`winner`, `tie`) while both sides' own results are total failures (and bestial failures
with a Hunger 1 showing, under the official reading).

**Teamwork.** The leader rolls their pool; each helper rolls their own pool with their own
Hunger; every helper's successes are added to the leader's, and the total is compared with
the difficulty. Critical, messy critical and bestial failure come from the leader's dice
only (a critical is a team win with a pair of 10s among the leader's dice; a bestial
failure is a team roll that does not win with a Hunger 1 among the leader's dice, or, under
"total_failure", with 0 successes from a leader who rolled Hunger dice). The team wins with
a total >= the difficulty and at least one success (0 successes never wins, docs/v5.md).
Total failure: no successes at all on the team. As for contests, each participant's result
is evaluated against what they need for the team to win (the difficulty minus everyone
else's successes, at least 0), so Willpower strategies work for leader and helpers alike.

**Teamwork reading** (docs/v5.md, the setting `V5_TEAMWORK`): `"seed"` (the default) is the
reading above: the leader rolls the full pool, helpers roll and contribute their successes.
`"core"` (V5 core p.122): helpers do not roll; the leader's pool gains +1 die for each helper
with at least one dot in the Skill being used (`core_team_pool`), and the leader rolls once:
an ordinary V5 roll (`rules.v5.roll`), with the leader's Hunger, rerollable by the leader's
Willpower as any roll. **Rulings**: the Skill is the one Skill in the leader's pool
(`pool_skill`; a pool with no Skill or with two cannot be a core teamwork roll); a helper
with no dot in it adds nothing and is refused when joining (`check_core_helper`), so nobody
joins for nothing; the bonus counts towards the 50-dice bound.

Evaluation functions take explicit faces; rolling draws the attacker's (leader's) dice first,
then the defender's (each helper's, in order), regular dice before Hunger dice.
"""

from dataclasses import dataclass

from .. import v5
from ..errors import DiceError

ATTACKER, DEFENDER = "attacker", "defender"
MAX_HELPERS = 10
TEAMWORK_RULES = ("seed", "core")



# ---------------------------------------------------------------- contest


@dataclass(frozen=True)
class ContestResult:
    """Both sides of a contest and who won."""

    attacker: v5.V5Result
    defender: v5.V5Result
    winner: str  # ATTACKER or DEFENDER
    margin: int  # the winner's successes minus the loser's (0 on a tie)
    tie: bool

    def side(self, name):
        if name not in (ATTACKER, DEFENDER):
            raise DiceError(f"A contest's sides are {ATTACKER} and {DEFENDER}.")
        return self.attacker if name == ATTACKER else self.defender


def score_contest(attacker, defender):
    """
    Score two rolled sides (V5Results, any difficulty) as a contest.

    Returns:
        ContestResult, with each side evaluated against what it needs to win.
    """
    a, d = attacker.successes, defender.successes
    attacker = v5.rescore(attacker, d + 1)
    defender = v5.rescore(defender, a)
    return ContestResult(
        attacker=attacker,
        defender=defender,
        winner=ATTACKER if a > d else DEFENDER,
        margin=abs(a - d),
        tie=a == d,
    )


def evaluate_contest(attacker_regular, attacker_hunger, defender_regular, defender_hunger,
                     bestial_rule="official"):
    """A contest from explicit faces (regular and Hunger dice of each side)."""
    attacker = v5.evaluate(attacker_regular, attacker_hunger, 0, bestial_rule)
    defender = v5.evaluate(defender_regular, defender_hunger, 0, bestial_rule)
    return score_contest(attacker, defender)


def roll_contest(attacker_pool, attacker_hunger, defender_pool, defender_hunger, rng=None,
                 bestial_rule="official"):
    """Roll both sides at once (the attacker's dice are drawn first)."""
    v5.split_pool(attacker_pool, attacker_hunger)
    v5.split_pool(defender_pool, defender_hunger)
    attacker = v5.roll(attacker_pool, attacker_hunger, 0, rng=rng, bestial_rule=bestial_rule)
    defender = v5.roll(defender_pool, defender_hunger, 0, rng=rng, bestial_rule=bestial_rule)
    return score_contest(attacker, defender)


NOTABLE = ("messy_critical", "critical", "bestial_failure", "total_failure")


def notable(result):
    """A side's most notable outcome in a contest (a key of `rules.v5.OUTCOME_LABELS`), or None."""
    return next((key for key in NOTABLE if getattr(result, key)), None)


def verdict(contest, attacker, defender):
    """The verdict's words (`attacker`, `defender`: the names as shown, already escaped)."""
    a, d = contest.attacker.successes, contest.defender.successes
    if contest.tie:
        return f"Tie at {a} {'success' if a == 1 else 'successes'}: |w{defender}|n wins (ties go to the defender)."
    winner = attacker if contest.winner == ATTACKER else defender
    return f"|w{winner}|n wins by {contest.margin} ({max(a, d)} to {min(a, d)})."


def summary(contest, attacker, defender):
    """The verdict in plain words, for the record."""
    a, d = contest.attacker.successes, contest.defender.successes
    winner = attacker if contest.winner == ATTACKER else defender
    said = f"tie at {a}: {winner} wins" if contest.tie else f"{winner} wins by {contest.margin}"
    return f"{a} to {d}: {said}"


def replace_side(contest, side, result):
    """The contest scored again after one side's dice changed (a Willpower reroll)."""
    if side == ATTACKER:
        return score_contest(result, contest.defender)
    if side == DEFENDER:
        return score_contest(contest.attacker, result)
    raise DiceError(f"A contest's sides are {ATTACKER} and {DEFENDER}.")


# ---------------------------------------------------------------- teamwork


@dataclass(frozen=True)
class TeamworkResult(v5.Outcome):
    """A teamwork roll: the leader's dice, each helper's, and the team's outcome."""

    leader: v5.V5Result
    helpers: tuple  # of V5Result, in joining order (the score's fields are v5.Outcome's)

    @property
    def participants(self):
        """Leader first, then the helpers (the index used by `replace_participant`)."""
        return (self.leader,) + self.helpers


def score_teamwork(leader, helpers, difficulty):
    """
    Score rolled participants (V5Results, any difficulty) as one teamwork roll.

    Raises:
        DiceError: a bad difficulty or too many helpers.
    """
    v5.check_difficulty(difficulty)
    helpers = tuple(helpers)
    if len(helpers) > MAX_HELPERS:
        raise DiceError(f"At most {MAX_HELPERS} helpers join a teamwork roll.")
    everyone = (leader,) + helpers
    total = sum(result.successes for result in everyone)
    scored = tuple(
        v5.rescore(result, max(0, difficulty - (total - result.successes))) for result in everyone
    )
    leader = scored[0]  # its critical, messy and bestial flags are the team's
    win = total >= max(difficulty, 1)
    return TeamworkResult(
        leader=leader,
        helpers=scored[1:],
        difficulty=difficulty,
        successes=total,
        win=win,
        margin=total - difficulty,
        critical=leader.critical,
        messy_critical=leader.messy_critical,
        # A leader with 0 successes does not win its own roll even when the helpers carry
        # the team: the team's bestial failure needs the team to fail.
        bestial_failure=leader.bestial_failure and not win,
        total_failure=total == 0,
    )


def evaluate_teamwork(leader, helpers, difficulty, bestial_rule="official"):
    """
    Teamwork from explicit faces.

    Args:
        leader ((regular, hunger)): the leader's faces.
        helpers (iterable of (regular, hunger)): each helper's faces.
        difficulty (int): successes the team needs.
    """
    leader_result = v5.evaluate(leader[0], leader[1], 0, bestial_rule)
    helper_results = [v5.evaluate(regular, hunger, 0, bestial_rule) for regular, hunger in helpers]
    return score_teamwork(leader_result, helper_results, difficulty)


def roll_teamwork(leader, helpers, difficulty, rng=None, bestial_rule="official"):
    """
    Roll a teamwork action.

    Args:
        leader ((pool, hunger)): the leader's dice and Hunger.
        helpers (iterable of (pool, hunger)): each helper's.
    """
    helpers = list(helpers)
    v5.check_difficulty(difficulty)
    if len(helpers) > MAX_HELPERS:
        raise DiceError(f"At most {MAX_HELPERS} helpers join a teamwork roll.")
    for pool, hunger in [leader] + helpers:
        v5.split_pool(pool, hunger)
    leader_result = v5.roll(leader[0], leader[1], 0, rng=rng, bestial_rule=bestial_rule)
    helper_results = [v5.roll(pool, hunger, 0, rng=rng, bestial_rule=bestial_rule) for pool, hunger in helpers]
    return score_teamwork(leader_result, helper_results, difficulty)


def replace_participant(team, index, result):
    """The team scored again after participant `index` (0 = leader) was rerolled."""
    everyone = list(team.participants)
    if not 0 <= index < len(everyone):
        raise DiceError("There is no such participant in this teamwork roll.")
    everyone[index] = result
    return score_teamwork(everyone[0], everyone[1:], team.difficulty)


# ---------------------------------------------------------------- teamwork, the core reading


def check_teamwork_rule(rule):
    """The V5_TEAMWORK setting: "seed" (the default) or "core"."""
    if rule not in TEAMWORK_RULES:
        raise DiceError(f"Unknown teamwork rule {rule!r}: use one of {', '.join(TEAMWORK_RULES)}.")
    return rule


def _check_dots(dots):
    if not isinstance(dots, int) or isinstance(dots, bool) or not 0 <= dots <= 5:
        raise DiceError("A Skill's dots are from 0 to 5.")
    return dots


def core_helper_dice(skill_dots):
    """Dice one helper adds under the core reading: 1 with at least one dot in the Skill, else 0."""
    return 1 if _check_dots(skill_dots) >= 1 else 0


def check_core_helper(skill_dots, skill):
    """Refuse a helper with no dot in the Skill (core reading): they would add nothing."""
    if core_helper_dice(skill_dots) == 0:
        raise DiceError(f"Helping with {skill.title()} needs at least one dot in it "
                        "(the core teamwork rule: each helper with a dot adds one die).")
    return skill_dots


def core_team_pool(leader_pool, helper_skill_dots):
    """
    The leader's dice under the core reading: `leader_pool` + 1 for each helper with at
    least one dot in the Skill (`helper_skill_dots`: each helper's dots, in joining order).

    Raises:
        DiceError: more than MAX_HELPERS helpers, dots out of range, or a pool over 50 dice.
    """
    dots = tuple(helper_skill_dots)
    if len(dots) > MAX_HELPERS:
        raise DiceError(f"At most {MAX_HELPERS} helpers join a teamwork roll.")
    v5.check_pool(leader_pool)
    return v5.check_pool(leader_pool + sum(core_helper_dice(d) for d in dots))


def pool_skill(pool, skills):
    """
    The one Skill a `rules.pools.Pool` uses (canonical name), for the core reading.

    Args:
        skills (iterable of str): the system's Skill names (`rules.v5.sheet.ALL_SKILLS`).

    Raises:
        DiceError: the pool has no Skill, or more than one.
    """
    known = set(skills)
    found = sorted({part.trait for part in pool.parts if part.trait in known and part.sign > 0})
    if len(found) != 1:
        raise DiceError("A core teamwork roll uses a pool with exactly one Skill (like dex+stealth)"
                        + (f"; this one has {', '.join(s.title() for s in found)}." if found else "."))
    return found[0]
