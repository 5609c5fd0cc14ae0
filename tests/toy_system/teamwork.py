"""
The toy's teamwork rules for the shared `+teamwork` (`commands.teamwork`: open, join, roll):
everyone tosses their own pool and the heads add up; the leader spends 1 Nerve (the sheet's
Willpower, `DiceCharacterMixin.spend_willpower`) on every team toss, refused with nothing
tossed when none is left.
"""

from storyteller_dice.commands import teamwork
from storyteller_dice.commands.dice_base import dice_system, split_comment
from storyteller_dice.rules.display import escape, format_dice
from storyteller_dice.rules.engine import DiceGroup, Outcome, RollRequest, RollView
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng

from .system import coin_dice


class CoinTeamwork(teamwork.TeamworkRules):
    usage = "+teamwork <pool>"

    def open(self, cmd, text):
        text, comment = split_comment(text)
        return {"pool": build_pool(text, cmd.caller.trait_table())}, comment

    def describe(self, team):
        return escape(team.terms["pool"].describe())

    def describe_help(self, team, part):
        return escape(part.describe())

    def join(self, cmd, team, given, already):
        pool = build_pool(given or "", cmd.caller.trait_table())
        return pool, f"{self.prefix} {escape(cmd.caller.key)} tosses with {escape(pool.describe())}."

    def before_roll(self, cmd, team, present):
        left = cmd.caller.willpower_left()
        if left < 1:
            raise DiceError(cmd.caller.sheet.no_willpower.format(left=left, need=1))

    def roll(self, cmd, team, present, absent):
        cmd.caller.spend_willpower()
        system, rng = dice_system(), get_rng()
        everyone = [(cmd.caller, team.terms["pool"])] + list(present)
        tossed = [(member, system.roll(toss(system, pool), rng=rng)) for member, pool in everyone]
        lines = [f"{self.prefix} {escape(cmd.caller.key)}'s team toss"]
        for member, result in tossed:
            view = system.view(result)
            lines.append(f"  {escape(member.key)}: {format_dice(view)}  =>  {view.score_text}")
        total = sum(result.heads for _, result in tossed)
        lines += [f"  ({escape(name)} is not here.)" for name in absent] + [f"  => Total {total}"]
        view = team_view(system, tossed, total)
        data = {"team": [member.key for member, _ in tossed], "total": total}
        teamwork.show_roll(cmd, lines, teamwork.base_record(cmd, team, view, data))

    def help_text(self):
        return "Here each member tosses their own pool and the heads add up; the leader spends 1 Nerve a toss."


def toss(system, pool):
    """A member's own toss: their pool, one head needed (a team toss has no target of its own)."""
    return RollRequest(system.key, pool.describe(), pool, pool.dice, target=1)


def team_view(system, tossed, total):
    """The record's view of a team toss: each member's coins, the heads of all."""
    groups = tuple(DiceGroup(member.key, coin_dice(result.faces), sides=2) for member, result in tossed)
    won = total > 0
    return RollView(system=system.key, pool="team toss", target="", groups=groups, score=total,
                    noun=("head", "heads"),
                    outcome=Outcome("success", "success", "good") if won else Outcome("failure", "failure", "bad"))


RULES = CoinTeamwork()


class CmdTeamwork(teamwork.CmdTeamwork):
    """
    Toss as a team: every member's heads add up.

    Usage:
      +teamwork <pool> [# <comment>]
      +teamwork/join <leader>=<pool>
      +teamwork/roll
      +teamwork/cancel
      +teamwork/leave
      +teamwork

    Switches:
      join   - toss with the leader here
      roll   - (leader) toss the team's coins, for 1 Nerve
      cancel - (leader) drop the team toss
      leave  - (helper) stop helping

    One teamwork roll at a time; an open one survives a server reload.
    """

    usage = "+teamwork <pool>, +teamwork/join <leader>=<pool>, +teamwork/roll"
