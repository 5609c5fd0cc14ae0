"""
V5's teamwork rules for the shared +teamwork (`commands.teamwork`: open, join, roll, cancel,
kept over a reload), in its two readings (`V5_TEAMWORK`, the V5 System's `teamwork_rule`;
docs/v5.md, "Teamwork", has both and their rulings). Every line is drawn by the shared display
(`rules.display`) from the V5 System's views.

- Seed (the default): every helper rolls their own pool with their own Hunger; the successes
  add up; critical, messy critical and bestial failure come from the leader's dice only. Each
  participant may reroll their own dice with +willpower; the total is worked out again.
- Core: helpers do not roll; the leader's pool holds exactly one Skill and each present helper
  with a dot in it adds a die (read again on /roll); the leader rolls once, and may +willpower.
  The reading is stored with the roll when it is opened: a setting changed over a restart does
  not mix the two.
"""

import dataclasses

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import contest as v5_contest, sheet as v5_sheet
from storyteller_dice.rules.display import comment_suffix, escape, format_dice, format_outcome
from storyteller_dice.rules.engine import Outcome, RollRequest, plural, split_vs
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng
from storyteller_dice.rules.v5.system import split_willpower_ending

from .. import teamwork as shared
from ..dice_base import dice_system, split_comment, whole_number
from ..last_roll import LastRoll, audience, remember_roll, remember_shared, reroll_lines

SEED, CORE = "seed", "core"  # the V5_TEAMWORK readings (docs/v5.md)
PREFIX = shared.PREFIX
# The shared command and state, under the names the wing has always had.
CmdTeamwork, Team, load_team, helping = shared.CmdTeamwork, shared.Team, shared.load_team, shared.helping


def describe_pool(pool):
    return f"{escape(pool.describe())} ({plural(pool.dice, 'die', 'dice')})"


def request_for(pool, dice, given):
    return RollRequest("v5", pool.describe(), pool, dice, target_given=given)


def view_of(pool, result, given):
    """The V5 System's view of one participant's roll (their pool, dice and Hunger)."""
    return dice_system().view(result, request_for(pool, result.pool, given))


def total_line(team, given):
    return f"  => Total {format_outcome(dice_system().outcome_view(team, given))}"


def added(view):
    """A participant's view as one side of the record: what they added to the total."""
    return dataclasses.replace(view, outcome=Outcome("success" if view.score else "failure", f"adds {view.score}",
                                                     "good" if view.score else "bad"))


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
        return reroll_lines(before, after, label, score_only=True)


class V5Teamwork(shared.TeamworkRules):
    """The two readings; which one a roll follows is stored with it (`terms["rule"]`)."""

    def help_text(self):
        readings = dice_system().teamwork_readings
        name, how = readings.get(dice_system().teamwork_rule, readings[SEED])
        return f"In this game (teamwork reading: {name}):\n  {how}"

    def open(self, cmd, text):
        text, comment = split_comment(text)
        text, willpower = split_willpower_ending(text)
        if willpower:
            raise DiceError("Spend Willpower after the roll, with +willpower.")
        text, difficulty = split_vs(text)
        if difficulty is not None:
            difficulty = whole_number(difficulty, "The difficulty must be a whole number of successes",
                                      v5.check_difficulty)
        if "=" in text:
            raise DiceError("To help someone, use +teamwork/join <leader>=<pool>.")
        pool = build_pool(text, cmd.caller.trait_table())
        rule = dice_system().teamwork_rule  # the V5_TEAMWORK setting
        skill = v5_contest.pool_skill(pool, v5_sheet.ALL_SKILLS) if rule == CORE else ""
        return {"pool": pool, "difficulty": difficulty, "rule": rule, "skill": skill}, comment

    def opened(self, team):
        line = super().opened(team) + comment_suffix(team.comment)
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
        if given is None or not given.strip():
            raise DiceError("Name the leader and your pool: +teamwork/join <leader>=<pool>." if given is None
                            else "Say what you roll to help: +teamwork/join <leader>=<pool>.")
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
        (self.roll_core if team.terms.get("rule") == CORE else self.roll_seed)(cmd, team, present, absent)

    @staticmethod
    def header(cmd, team):
        vs = f", vs {team.terms['difficulty']}" if team.terms["difficulty"] is not None else ""
        return f"{PREFIX} {escape(cmd.caller.key)}'s teamwork roll{vs}{comment_suffix(team.comment)}"

    def roll_core(self, cmd, team, present, absent):
        """The core reading: the leader rolls once, +1 die per present helper with a dot."""
        caller, pool, skill = cmd.caller, team.terms["pool"], team.terms["skill"]
        given = team.terms["difficulty"] is not None
        dots = [int(cmd.traits_of(helper).traits.values.get(skill) or 0) for helper, _ in present]
        dice = v5_contest.core_team_pool(pool.dice, dots)
        hunger = cmd.traits_of(caller).state.get("hunger", 0)
        result = v5.roll(dice, hunger, team.terms["difficulty"] if given else 1, rng=get_rng(),
                         bestial_rule=dice_system().bestial_rule)
        view = view_of(pool, result, given)
        lead = (f"{escape(pool.describe())} +{dice - pool.dice} teamwork ({plural(dice, 'die', 'dice')}), "
                f"Hunger {hunger}")
        lines = [self.header(cmd, team), f"  {escape(caller.key)} leads: {lead}"]
        lines += [f"  {escape(helper.key)} helps: {escape(skill.title())} {count} "
                  f"({'+1 die' if count else 'no die: no dot'})" for (helper, _), count in zip(present, dots)]
        lines += shared.absent_lines(absent) + [f"  {format_dice(view)}  =>  {format_outcome(view)}"]
        helpers = [{"name": helper.key, "dots": count, "dice": v5_contest.core_helper_dice(count)}
                   for (helper, _), count in zip(present, dots)]
        record = shared.base_record(cmd, team, view, dice_system().record(result, request_for(pool, dice, given)),
                                    reading=CORE, skill=skill, bonus=dice - pool.dice, core_helpers=helpers,
                                    absent=absent)
        receivers = shared.show_roll(cmd, lines, record) or audience(caller, False)
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
            team.terms["difficulty"] if given else 1, rng=get_rng(), bestial_rule=dice_system().bestial_rule)
        views = [view_of(part, rolled, False) for (_, part), rolled in zip(everyone, result.participants)]
        lines = [self.header(cmd, team)]
        for index, ((member, _), view) in enumerate(zip(everyone, views)):
            lines += [f"  {escape(member.key)} {'helps' if index else 'leads'}: {escape(view.pool)}",
                      f"    {format_dice(view)}  =>  {escape(view.score_text)}"]
        lines += shared.absent_lines(absent) + [total_line(result, given)]
        # The record: the leader's dice with the team's outcome, and each participant apart.
        total = dice_system().outcome_view(result, given, pool=views[0].pool, groups=views[0].groups)
        record = shared.base_record(
            cmd, team, total, dice_system().record(result.leader, request_for(pool, result.leader.pool, given)),
            total=result.successes, absent=absent, helpers=[
                {"name": member.key, "pool": part.describe(), "regular": list(rolled.regular),
                 "hunger": list(rolled.hunger), "successes": rolled.successes}
                for (member, part), rolled in zip(everyone[1:], result.helpers)])
        record["sides"] = [{"label": member.key, "view": added(view)} for (member, _), view in zip(everyone, views)]
        receivers = shared.show_roll(cmd, lines, record) or audience(caller, False)
        self.remember_seed(caller, [member for member, _ in everyone], result, given, receivers)

    @staticmethod
    def remember_seed(caller, everyone, result, given, receivers):
        """Each participant may +willpower their own dice; a reroll works the total out again."""
        state, whose = {"team": result}, ["their"] + [f"{escape(caller.key)}'s"] * (len(everyone) - 1)
        remember_shared([(character, TeamLastRoll(
            state, index, summary=f"their dice in {whose[index]} teamwork roll", difficulty_given=given,
            private=False, receivers=receivers, entry=getattr(receivers, "entry", None)))
            for index, character in enumerate(everyone)])


RULES = V5Teamwork()

