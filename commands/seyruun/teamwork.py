"""
+teamwork (Seyruun): a team roll, at once. The leader names the pool and the helpers here;
each member's pool is read from their own sheet; the highest pool rolls with +1 die per other
member (`rules.seyruun_system.team`: the +1 dice are external bonuses, within the +5 cap).

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

from storyteller_dice.rules import seyruun_system
from storyteller_dice.rules.errors import DiceError

from storyteller_dice.rules.display import escape
from storyteller_dice.typeclasses import access

from .. import pending
from ..dice_base import DiceCommand, dice_system, find_character, split_comment
from .common import base_record, replace_request, roll_request, show_roll

MAX_HELPERS = 5
JOINED = "seyruun_team_join"  # on the helper: the leader whose next team roll they help
NOT_JOINED = "{name} has not joined your team roll: they join with +teamwork/join {leader}."


def joined(helper, leader):
    """Whether `helper` offered to help `leader`'s next team roll (their consent)."""
    return pending.load(helper, JOINED) == leader


class CmdTeamwork(DiceCommand):
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

    key = "+teamwork"
    aliases = ["teamwork"]
    locks = "cmd:all()"
    usage = "+teamwork <pool> [vs <successes>]=<helper>[, <helper>...] [# <comment>], +teamwork/join <leader>"
    switch_options = ("join", "leave")

    def run(self):
        caller = self.caller
        if not hasattr(caller, "roller"):
            raise DiceError("Only characters with a sheet can roll.")
        if "join" in self.switches:
            return self.join()
        if "leave" in self.switches:
            return self.leave()
        text, comment = split_comment(self.args)
        if "=" not in text:
            raise DiceError("Name your helpers after '=': +teamwork <pool>=<helper>, <helper>.")
        text, names = text.split("=", 1)
        names = [" ".join(name.split()) for name in names.split(",")]
        if not all(names):
            raise DiceError("A helper's name is missing in the list after '='.")
        if len(names) > MAX_HELPERS:
            raise DiceError(f"At most {MAX_HELPERS} helpers: more cannot add a die under the +5 cap.")
        helpers = []
        for name in names:
            found = find_character(caller, name, room_only=True)
            if found == caller:
                raise DiceError("You lead the team roll; name only your helpers.")
            if found in helpers:
                raise DiceError(f"{escape(found.key)} is named twice.")
            access.require(caller, found, NOT_JOINED.format(name=escape(found.key), leader=escape(caller.key)),
                           consent=joined(found, caller))
            if not hasattr(found, "roller"):
                raise DiceError(f"{escape(found.key)} has no character sheet.")
            helpers.append(found)
        system = dice_system()
        members = [caller] + helpers
        requests = []
        for member in members:
            roller = member.roller()
            request = system.parse(text, frozenset(), roller=roller)
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
        record = base_record(self, "teamwork", view, result, request, comment=comment,
                             details={"roller": member.key, "team": [m.key for m in members]})
        show_roll(caller, view, verb="leads a team roll:", comment=comment, extra=lambda width: [line],
                  record=record)
        for helper in helpers:
            if joined(helper, caller):
                pending.remove(helper, JOINED)

    def join(self):
        caller = self.caller
        name = self.args.strip()
        if not name:
            raise DiceError("Name the leader: +teamwork/join <leader>.")
        leader = find_character(caller, name, room_only=True)
        if leader == caller:
            raise DiceError("You lead your own team roll; join someone else's.")
        pending.save(caller, JOINED, leader)
        self.msg(f"You join {escape(leader.key)}'s next team roll (+teamwork/leave to take it back).")
        pending.notify(leader, f"{escape(caller.key)} joins your next team roll: name them after '=' "
                               f"(+teamwork <pool>={escape(caller.key)}).")

    def leave(self):
        caller = self.caller
        leader = pending.load(caller, JOINED)
        if leader is None:
            raise DiceError("You have joined no team roll.")
        pending.remove(caller, JOINED)
        self.msg(f"You no longer help {escape(leader.key)}'s team roll.")
        pending.notify(leader, f"{escape(caller.key)} no longer helps your team roll.")
