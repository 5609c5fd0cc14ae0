"""
V5's teamwork rules (docs/v5.md) for the shared +teamwork (`commands.teamwork`: open, join,
roll, cancel, kept over a reload). Everyone's lines are drawn by the shared display
(`rules.display`) from the V5 System's views.

**Seed reading** (`V5_TEAMWORK = "seed"`, the default): every helper rolls their own pool with
their own Hunger; each helper's successes are added to the leader's and the total is compared
with the difficulty. Critical, messy critical and bestial failure come from the leader's dice
only. **Rulings**: joining again replaces your pool; at most 10 helpers; leader and helpers may
each reroll their own dice once with +willpower, and the total is worked out again and shown.

**Core reading** (`V5_TEAMWORK = "core"`, the V5 System's `teamwork_rule`): helpers do not
roll. The leader's pool must hold exactly one Skill (`v5_contest.pool_skill`); a helper joins
with `+teamwork/join <leader>` and is refused with no dot in that Skill
(`v5_contest.check_core_helper`). On /roll the leader rolls once, an ordinary V5 roll of
`v5_contest.core_team_pool` dice with the leader's Hunger, shown with "+N teamwork" in the
pool line and remembered for the leader's +willpower as any roll. **Rulings**: the reading is
fixed when the roll is opened (stored with it), so a setting changed over a restart does not
mix the two; a pool after `=` is refused under the core reading (helpers roll nothing, so a
pool would mislead); the helpers' dots are read again on /roll (a helper whose dots fell to 0
since joining adds nothing and the roll says so), and absent helpers add nothing.
"""

import dataclasses
import uuid

from storyteller_dice.rules import v5, v5_contest, v5_sheet
from storyteller_dice.rules.display import MAX_COMMENT, escape, format_dice, format_outcome, wrap
from storyteller_dice.rules.engine import Outcome, RollRequest
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng

from .. import teamwork as shared
from ..dice_base import announce, dice_system
from .rolls import bestial_rule, split_roll_args
from .willpower import LastRoll, audience, format_reroll_successes, remember_roll

SEED, CORE = "seed", "core"  # the V5_TEAMWORK readings (docs/v5.md)
PREFIX = shared.PREFIX


def teamwork_rule():
    """This game's teamwork reading: the V5 System's `teamwork_rule` (the V5_TEAMWORK setting)."""
    return getattr(dice_system(), "teamwork_rule", SEED)


def dice_text(dice):
    return f"{dice} {'die' if dice == 1 else 'dice'}"


def describe_pool(pool):
    return f"{escape(pool.describe())} ({dice_text(pool.dice)})"


def view_of(pool, result, given):
    """The V5 System's view of one participant's roll (their pool, dice and Hunger)."""
    request = RollRequest("v5", pool.describe(), pool, result.pool, target_given=given)
    return dice_system().view(result, request)


def header(name, team):
    text = f"{PREFIX} {escape(name)}'s teamwork roll"
    if team.terms["difficulty"] is not None:
        text += f", vs {team.terms['difficulty']}"
    if team.comment:
        text += f" # {escape(team.comment, MAX_COMMENT)}"
    return text


def base_record(cmd, team, view, result, request, **details):
    system = dice_system()
    return {"kind": "teamwork", "command": cmd.raw_string.strip(), "comment": team.comment, "system": system.key,
            "view": view, "data": system.record(result, request),
            "summary": f"{view.score_text}: {view.outcome.label}",
            "details": {"opened": team.command, **details}}


def send_roll(cmd, lines, record):
    """Show the roll to the room (each line fitted to each receiver) and record it."""
    text = "\n".join(lines)
    receivers = announce(cmd.caller, lambda width: "\n".join(wrap(text, width)), record=record)
    return receivers if receivers is not None else audience(cmd.caller, False)


class TeamLastRoll(LastRoll):
    """One participant's dice in a teamwork roll, for +willpower: the total is worked out again."""

    judged_alone = False

    def __init__(self, state, index, **kwargs):
        super().__init__(**kwargs)
        self.state = state  # shared by everyone in the roll: {"team": TeamworkResult}
        self.index = index

    def current(self):
        return self.state["team"].participants[self.index]

    def apply(self, new):
        team = v5_contest.replace_participant(self.state["team"], self.index, new)
        self.state["team"] = team
        return [total_line(team, self.difficulty_given)]

    def format_reroll(self, before, after, label):
        return format_reroll_successes(before, after, label)


def total_line(team, given):
    return f"  => Total {format_outcome(dice_system().outcome_view(team, given))}"


class V5Teamwork(shared.TeamworkRules):
    """The two readings; which one a roll follows is stored with it (`terms["rule"]`)."""

    READINGS = {
        SEED: ("seed", "every helper rolls their own pool with their own Hunger\n"
               "  dice; their successes are added to the leader's and the total is\n"
               "  compared with the difficulty. Critical, messy critical and bestial\n"
               "  failure come from the leader's dice only. Joining again changes\n"
               "  your pool; each of you may +willpower your own dice."),
        CORE: ("core, V5 p.122", "helpers do not roll. The leader's pool needs\n"
               "  exactly one Skill; each helper with at least one dot in it adds\n"
               "  one die (+teamwork/join <leader>; no dot, no joining). The leader\n"
               "  rolls once, with their Hunger, and may +willpower it."),
    }

    def help_text(self):
        name, how = self.READINGS.get(teamwork_rule(), self.READINGS[SEED])
        return f"In this game (teamwork reading: {name}):\n  {how}"

    def open(self, cmd, text):
        text, difficulty, willpower, comment = split_roll_args(text)
        if willpower:
            raise DiceError("Spend Willpower after the roll, with +willpower.")
        if "=" in text:
            raise DiceError("To help someone, use +teamwork/join <leader>=<pool>.")
        pool = build_pool(text, cmd.caller.trait_table())
        rule = teamwork_rule()
        skill = v5_contest.pool_skill(pool, v5_sheet.ALL_SKILLS) if rule == CORE else ""
        return {"pool": pool, "difficulty": difficulty, "rule": rule, "skill": skill}, comment

    def opened(self, team):
        line = super().opened(team)
        if team.comment:
            line += f" # {escape(team.comment, MAX_COMMENT)}"
        leader = escape(team.leader.key)
        if team.terms.get("rule") == CORE:
            skill = escape(team.terms["skill"].title())
            return f"{line}\n  Help with +teamwork/join {leader}: each helper with a dot in {skill} adds a die."
        return f"{line}\n  Help with +teamwork/join {leader}=<pool>."

    def describe(self, team):
        difficulty = team.terms["difficulty"]
        return describe_pool(team.terms["pool"]) + (f", vs {difficulty}" if difficulty is not None else "")

    def describe_help(self, team, part):
        if team.terms.get("rule") == CORE or part is None:
            return f"{escape(team.terms['skill'].title())} (a die from a dot in it)"
        return describe_pool(part)

    def join(self, cmd, team, given, already):
        if team.terms.get("rule") == CORE:
            return self.join_core(cmd, team, given, already)
        if given is None:
            raise DiceError("Name the leader and your pool: +teamwork/join <leader>=<pool>.")
        if not given.strip():
            raise DiceError("Say what you roll to help: +teamwork/join <leader>=<pool>.")
        pool = build_pool(given, cmd.caller.trait_table())
        verb = "changes their help to" if already else "joins with"
        return pool, (f"{PREFIX} {escape(cmd.caller.key)} {verb} {describe_pool(pool)} "
                      f"in {escape(team.leader.key)}'s teamwork roll.")

    def join_core(self, cmd, team, given, already):
        """The core reading: no pool; at least one dot in the leader's Skill."""
        leader, skill = escape(team.leader.key), team.terms["skill"]
        if given is not None:
            raise DiceError("Helpers do not roll in this game's teamwork (the core reading): join with "
                            f"+teamwork/join {leader}; a dot in {escape(skill.title())} adds a die.")
        dots = int(cmd.caller.sheet_values.get(skill, 0) or 0)
        v5_contest.check_core_helper(dots, skill)
        if already:
            raise DiceError(f"You already help {leader}'s teamwork roll.")
        if len(team.helpers) >= self.max_helpers:
            raise DiceError(self.word("too_many", leader=leader, count=self.max_helpers))
        # Refused here rather than on /roll: the leader's pool with this die must stay rollable.
        v5_contest.core_team_pool(team.terms["pool"].dice, [1] * (len(team.helpers) + 1))
        return None, (f"{PREFIX} {escape(cmd.caller.key)} joins {leader}'s teamwork roll "
                      f"({escape(skill.title())} {dots}: +1 die).")

    def roll(self, cmd, team, present, absent):
        if team.terms.get("rule") == CORE:
            self.roll_core(cmd, team, present, absent)
        else:
            self.roll_seed(cmd, team, present, absent)

    @staticmethod
    def absent_lines(absent):
        return [f"  ({escape(name)} is no longer here and does not help.)" for name in absent]

    def roll_core(self, cmd, team, present, absent):
        """The core reading: the leader rolls once, +1 die per present helper with a dot."""
        caller, pool, skill = cmd.caller, team.terms["pool"], team.terms["skill"]
        given = team.terms["difficulty"] is not None
        dots = [int(cmd.traits_of(helper).traits.values.get(skill) or 0) for helper, _ in present]
        dice = v5_contest.core_team_pool(pool.dice, dots)
        hunger = cmd.traits_of(caller).state.get("hunger", 0)
        result = v5.roll(dice, hunger, team.terms["difficulty"] if given else 1, rng=get_rng(),
                         bestial_rule=bestial_rule())
        view = view_of(pool, result, given)
        lead = f"{escape(pool.describe())} +{dice - pool.dice} teamwork ({dice_text(dice)}), Hunger {hunger}"
        lines = [header(caller.key, team), f"  {escape(caller.key)} leads: {lead}"]
        lines += [f"  {escape(helper.key)} helps: {escape(skill.title())} {count} "
                  f"({'+1 die' if count else 'no die: no dot'})" for (helper, _), count in zip(present, dots)]
        lines += self.absent_lines(absent) + [f"  {format_dice(view)}  =>  {format_outcome(view)}"]
        request = RollRequest("v5", pool.describe(), pool, dice, target_given=given)
        helpers = [{"name": helper.key, "dots": count, "dice": v5_contest.core_helper_dice(count)}
                   for (helper, _), count in zip(present, dots)]
        record = base_record(cmd, team, view, result, request, reading=CORE, skill=skill, bonus=dice - pool.dice,
                             core_helpers=helpers, absent=absent)
        receivers = send_roll(cmd, lines, record)
        summary = f"their teamwork roll of {lead}" + (f", vs {result.difficulty}" if given else "")
        remember_roll(caller, LastRoll(result=result, summary=summary, difficulty_given=given, private=False,
                                       receivers=receivers, entry=getattr(receivers, "entry", None)))

    def roll_seed(self, cmd, team, present, absent):
        """The seed reading: everyone rolls their own pool with their own Hunger."""
        caller, pool = cmd.caller, team.terms["pool"]
        given = team.terms["difficulty"] is not None
        everyone = [(caller, pool)] + list(present)
        hungers = [cmd.traits_of(member).state.get("hunger", 0) for member, _ in everyone]
        result = v5_contest.roll_teamwork(
            (pool.dice, hungers[0]), [(part.dice, hunger) for (_, part), hunger in zip(present, hungers[1:])],
            team.terms["difficulty"] if given else 1, rng=get_rng(), bestial_rule=bestial_rule())
        views = [view_of(part, rolled, False) for (_, part), rolled in zip(everyone, result.participants)]
        lines = [header(caller.key, team)]
        for index, ((member, _), view) in enumerate(zip(everyone, views)):
            noun = "leads" if index == 0 else "helps"
            lines += [f"  {escape(member.key)} {noun}: {escape(view.pool)}",
                      f"    {format_dice(view)}  =>  {escape(view.score_text)}"]
        lines += self.absent_lines(absent) + [total_line(result, given)]
        record = self.seed_record(cmd, team, everyone, views, result, given)
        record["details"]["absent"] = absent
        receivers = send_roll(cmd, lines, record)
        self.remember_seed(caller, [member for member, _ in everyone], result, given, receivers)

    @staticmethod
    def seed_record(cmd, team, everyone, views, result, given):
        """The record: the leader's dice with the team's outcome, and each participant apart."""
        system, leader = dice_system(), result.leader
        total = system.outcome_view(result, given, pool=views[0].pool, groups=views[0].groups)
        request = RollRequest("v5", team.terms["pool"].describe(), team.terms["pool"], leader.pool,
                              target_given=given)
        record = base_record(cmd, team, total, leader, request, total=result.successes, helpers=[
            {"name": member.key, "pool": part.describe(), "regular": list(rolled.regular),
             "hunger": list(rolled.hunger), "successes": rolled.successes}
            for (member, part), rolled in zip(everyone[1:], result.helpers)])
        record["sides"] = [{"label": member.key, "view": dataclasses.replace(view, outcome=Outcome(
            "success" if view.score else "failure", f"adds {view.score}", "good" if view.score else "bad"))}
            for (member, _), view in zip(everyone, views)]
        return record

    @staticmethod
    def remember_seed(caller, everyone, result, given, receivers):
        """Each participant may +willpower their own dice; a reroll works the total out again."""
        state, shared_id = {"team": result}, uuid.uuid4().hex
        for index, character in enumerate(everyone):
            summary = ("their dice in their teamwork roll" if index == 0
                       else f"their dice in {escape(caller.key)}'s teamwork roll")
            last = TeamLastRoll(state, index, summary=summary, difficulty_given=given, private=False,
                                receivers=receivers, entry=getattr(receivers, "entry", None))
            last.shared_id, last.sharers = shared_id, everyone
            remember_roll(character, last)


RULES = V5Teamwork()


class CmdTeamwork(shared.CmdTeamwork):
    """
    Roll as a team: helpers add to the leader's roll.

    Usage:
      +teamwork <pool> [vs <difficulty>] [# <comment>]
      +teamwork/join <leader>=<pool>      (core reading: +teamwork/join <leader>)
      +teamwork/roll
      +teamwork/cancel
      +teamwork/leave
      +teamwork

    Switches:
      join   - help the leader here
      roll   - (leader) roll the teamwork roll
      cancel - (leader) drop the teamwork roll
      leave  - (helper) stop helping

    The leader opens the roll with their pool; helpers in that room join,
    and it is rolled there (go back to roll it, or cancel it). How helpers
    help is this game's teamwork reading, shown below. Alone, +teamwork
    shows the roll you lead or help.

    One teamwork roll at a time: you help one roll at a time (leave it
    first to help another), and you do not help while you lead one, nor
    lead while you help. An open teamwork roll survives a server reload.

    Examples:
      +teamwork int+investigation vs 4 # searching the archive
      +teamwork/join Alice=wits+investigation
      +teamwork/roll
      +teamwork/cancel
    """


def load_team(leader):
    """The open teamwork roll `leader` leads (`commands.teamwork.Team`), or None."""
    return shared.load_team(leader)


helping = shared.helping
Team = shared.Team


def pending_lines(character):
    return shared.pending_lines(character, RULES)
