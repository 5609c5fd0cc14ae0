"""
Seyruun's teamwork rules for the shared +teamwork (`commands.teamwork`, at once): the leader
names the pool and the helpers here; each member's pool is read from their own sheet; the
highest pool rolls with +1 die per other member (`rules.seyruun.system.team`: the +1 dice are
external bonuses, within the +5 cap).

**Rulings**:
- The helpers must be characters here with a sheet, at most 5 (more could not add a die under
  the cap). Their pools are read from their own sheets, so each helper consents first
  (`typeclasses.access`): `+teamwork/join <leader>` offers your help for that leader's next
  team roll here (`/leave` takes it back); naming someone who has not joined is refused,
  since naming is not consent and would roll (and show) their traits. Staff, and a player
  naming their own characters, need no join. A join is spent by the roll it helps.
- `/willpower` is refused in a team roll: spend it on a roll of your own.
- The roll is shown to the room and recorded under the leader who typed it, whoever's pool
  rolled; the record's details name the roller.
"""

from storyteller_dice.rules.seyruun import system as seyruun_system
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError

from .. import teamwork as shared
from ..dice_base import dice_system
from .common import base_record, replace_request, roll_request, show_roll

JOINED = "seyruun_team_join"  # on the helper: the leader whose next team roll they help


class SeyruunTeamwork(shared.TeamworkRules):
    at_once = True
    offer_key = JOINED
    max_helpers = 5
    words = {**shared.TeamworkRules.words,
             "no_sheet": "Only characters with a sheet can roll.",
             "too_many": "At most {count} helpers: more cannot add a die under the +5 cap."}

    def roll(self, cmd, team, present, absent):
        caller, system = cmd.caller, dice_system()
        members = [caller] + [helper for helper, _ in present]
        requests = []
        for member in members:
            roller = cmd.traits_of(member)
            request = system.parse(team.terms["text"], frozenset(), roller=roller)
            if request.option("willpower"):
                raise DiceError("Willpower is not spent on a team roll; spend it on a roll of your own.")
            requests.append((member, roller, request))
        leader, pool = seyruun_system.team(request.pool for _, _, request in requests)
        member, roller, request = requests[leader]
        request = replace_request(request, pool=pool, dice=pool.total)
        result, view = roll_request(request, roller)
        others = ", ".join(escape(m.key) for m in members if m != member)
        line = (f"  Team: {escape(member.key)}'s pool rolls, helped by {others} "
                f"(pools: " + ", ".join(f"{escape(m.key)} {r.pool.total}" for m, _, r in requests) + ")")
        record = base_record(cmd, "teamwork", view, result, request, comment=team.comment,
                             details={"roller": member.key, "team": [m.key for m in members]})
        show_roll(caller, view, verb="leads a team roll:", comment=team.comment, extra=lambda width: [line],
                  record=record)


RULES = SeyruunTeamwork()


def joined(helper, leader):
    """Whether `helper` offered to help `leader`'s next team roll (their consent)."""
    return shared.offered_to(helper, leader, JOINED)


class CmdTeamwork(shared.CmdTeamwork):
    """
    A team roll: the highest pool rolls, +1 die for each helper.

    Usage:
      +teamwork <pool> [vs <successes>]=<helper>[, <helper>...] [# <comment>]
      +teamwork/join <leader>
      +teamwork/leave

    Switches:
      join  - offer your help for the leader's next team roll here
      leave - take your offer back

    Everyone named (they must be here) and you roll the same pool, each
    from their own sheet; the highest pool is rolled, with +1 die per
    other member (external bonuses, at most +5 an action). On equal
    pools you lead, then the helpers in the order named.
    Each helper joins first (+teamwork/join <leader>): their sheet is
    theirs, so naming them is not enough. Staff need no join.

    Examples:
      +teamwork/join Alice
      +teamwork int+crafts vs 3=Alice, Bob # the ward-stone
      +teamwork str+athletics=Alice
    """

    aliases = ["teamwork"]
    usage = "+teamwork <pool> [vs <successes>]=<helper>[, <helper>...] [# <comment>], +teamwork/join <leader>"
    switch_options = ("join", "leave")
