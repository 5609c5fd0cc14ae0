"""
+teamwork: a V5 teamwork roll (docs/v5.md).

The leader opens it in the room with their pool and the difficulty; helpers here join with
their own pools; the leader rolls (or cancels). Everyone rolls with their own Hunger; each
helper's successes are added to the leader's and the total is compared with the difficulty.
Critical, messy critical and bestial failure come from the leader's dice only. The room sees
every roll and the total.

**Rulings**: a helper who has left the room when the leader rolls does not help (the roll
says so); joining again replaces your pool; at most 10 helpers. One teamwork roll at a time:
a character helps one roll at a time (`/leave` withdraws the help, from anywhere), cannot
help while leading one and cannot lead while helping. An open teamwork roll lives in the
database (an Attribute on the leader, and one on each helper naming the roll they help; see
`commands.pending`): it survives `evennia reload` and a stop/start, and does not expire (the
leader rolls or cancels it; a reconnecting leader or helper is told it is still open).
Leader and helpers may each reroll their own dice once with +willpower; the total is then
worked out again and shown.

**Ruling** (where it is rolled): the roll belongs to the room it was opened in, the scene whose
players saw it opened and joined it. Helpers join it there, and the leader rolls it there: from
another room `/roll` is refused, saying where it was opened (go back, or `/cancel` it), and
nothing is rolled. Rolling it where the leader happens to stand would show it to people who
never saw it opened and count helpers in the wrong scene as absent; cancelling it the moment
the leader steps out would lose a roll to a stray exit. A roll stored before rooms were kept
(or whose room is gone) is rolled where the leader is.

**Core reading** (`V5_TEAMWORK = "core"`, read from the V5 System's `teamwork_rule`): helpers
do not roll. The leader's pool must hold exactly one Skill (`v5_contest.pool_skill`); a
helper joins with `+teamwork/join <leader>` and is refused with no dot in that Skill
(`v5_contest.check_core_helper`). On /roll the leader rolls once, an ordinary V5 roll of
`v5_contest.core_team_pool` dice with the leader's Hunger, shown with "+N teamwork" in the
pool line and remembered for the leader's +willpower as any roll. **Rulings**: the reading
is fixed when the roll is opened (stored with it), so a setting changed over a restart does
not mix the two; a pool after `=` is refused under the core reading (helpers roll nothing, so
a pool would mislead); the helpers' dots are read again on /roll (a helper whose dots fell to
0 since joining adds nothing and the roll says so), and absent helpers add nothing.
"""

import time
import uuid
from dataclasses import dataclass, field

from storyteller_dice.rules import v5, v5_contest, v5_sheet
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng

from .. import pending as store
from ..dice_base import DiceCommand, announce, dice_system, find_character, width_of
from .character import hunger
from .display import MAX_COMMENT, escape, fit, fitted, format_faces, format_outcome, format_pool
from .rolls import bestial_rule, split_roll_args
from .willpower import LastRoll, audience, format_reroll_successes, remember_roll

PREFIX = "|w[Teamwork]|n"
SEED, CORE = "seed", "core"  # the V5_TEAMWORK readings (docs/v5.md)
TEAM = "teamwork"  # on the leader (Attributes, category commands.pending.PENDING)
HELPING = "teamwork_helping"  # on a helper: {"id", "leader"} of the roll they help


@dataclass(eq=False)
class Team:
    """
    An open teamwork roll, stored as plain data on the leader until rolled or cancelled
    (`save`, `load_team`); this object is rebuilt from it when read.
    """

    leader: object
    pool: object
    difficulty: int | None
    comment: str = ""
    command: str = ""
    helpers: list = field(default_factory=list)  # [(character, pool)] in joining order
    created: float = field(default_factory=time.time)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    rule: str = SEED  # the teamwork reading it was opened under
    skill: str = ""  # the core reading: the leader's Skill (helpers need a dot in it)
    room: object = None  # where it was opened: it is joined and rolled there

    @property
    def difficulty_given(self):
        return self.difficulty is not None

    def to_data(self):
        return {"id": self.id, "leader": self.leader, "pool": store.to_plain(self.pool),
                "difficulty": self.difficulty, "comment": self.comment, "command": self.command,
                "helpers": [[helper, store.to_plain(pool)] for helper, pool in self.helpers],
                "created": float(self.created), "rule": self.rule, "skill": self.skill,
                "room": self.room}

    @classmethod
    def from_data(cls, data):
        try:
            team = cls(data["leader"], store.from_plain(data["pool"]), data.get("difficulty"),
                       comment=data.get("comment", ""), command=data.get("command", ""),
                       helpers=[(helper, store.from_plain(pool)) for helper, pool in data.get("helpers", ())
                                if helper is not None],  # a deleted helper helps no more
                       created=float(data.get("created", 0)), id=data["id"],
                       rule=data.get("rule", SEED), skill=data.get("skill", ""), room=data.get("room"))
        except Exception:  # noqa: BLE001 - damaged data is no open roll
            return None
        return team if team.leader is not None else None

    def save(self):
        store.save(self.leader, TEAM, self.to_data())

    def helps(self, character):
        return any(helper == character for helper, _ in self.helpers)

    def elsewhere(self, character):
        """Whether `character` is out of the room the roll was opened in (None: no room kept)."""
        return self.room is not None and character.location != self.room


def teamwork_rule():
    """This game's teamwork reading: the V5 System's `teamwork_rule` (the V5_TEAMWORK setting)."""
    return getattr(dice_system(), "teamwork_rule", SEED)


def skill_dots(character, skill):
    return int(character.sheet_values.get(skill, 0) or 0)


def describe_help(team, pool):
    """A helper's part: their pool (seed reading) or their dots in the Skill (core reading)."""
    if team.rule == CORE or pool is None:
        return f"{escape(team.skill.title())} (a die from a dot in it)"
    return describe_pool(pool)


def load_team(leader):
    """The teamwork roll `leader` leads, or None."""
    data = store.load(leader, TEAM)
    return Team.from_data(data) if isinstance(data, dict) else None


def helping(character):
    """The teamwork roll `character` helps (still open and still listing them), or None."""
    pointer = store.load(character, HELPING)
    if not isinstance(pointer, dict):
        return None
    team = load_team(pointer.get("leader"))
    if team is None or team.id != pointer.get("id") or not team.helps(character):
        return None
    return team


def clear_team(team):
    """Close `team`: the leader's roll and every helper's note that they help it."""
    stored = store.load(team.leader, TEAM)
    if isinstance(stored, dict) and stored.get("id") == team.id:
        store.remove(team.leader, TEAM)
    for helper, _ in team.helpers:
        pointer = store.load(helper, HELPING)
        if isinstance(pointer, dict) and pointer.get("id") == team.id:
            store.remove(helper, HELPING)


def pending_lines(character):
    """The teamwork roll the character leads or helps, for the notice on connecting."""
    lines = []
    team = load_team(character)
    if team is not None:
        helpers = len(team.helpers)
        lines.append(f"{PREFIX} Your teamwork roll is still open: {describe_pool(team.pool)}"
                     + (f", vs {team.difficulty}" if team.difficulty_given else "")
                     + f"; {helpers} helper{'s' if helpers != 1 else ''}. +teamwork/roll or +teamwork/cancel it.")
    theirs = helping(character)
    if theirs is not None:
        pool = next(pool for helper, pool in theirs.helpers if helper == character)
        lines.append(f"{PREFIX} You still help {escape(theirs.leader.key)}'s teamwork roll with "
                     f"{describe_help(theirs, pool)} (+teamwork/leave to stop).")
    return lines


def describe_pool(pool):
    dice = pool.dice
    return f"{escape(pool.describe())} ({dice} {'die' if dice == 1 else 'dice'})"


def participant_lines(name, role, pool, result):
    noun = "success" if result.successes == 1 else "successes"
    return [
        f"  {escape(name)} {role}: {format_pool(pool, result.pool, result.hunger_level, 0, difficulty_given=False)}",
        f"    {format_faces(result)}  =>  {result.successes} {noun}",
    ]


def core_pool_line(pool, bonus, result, with_difficulty=False):
    """`Dexterity 3 + Athletics 2 = 5 +2 teamwork (7 dice), Hunger 2` (the core reading)."""
    dice = result.pool
    text = f"{escape(pool.describe())} +{bonus} teamwork ({dice} {'die' if dice == 1 else 'dice'})"
    text += f", Hunger {result.hunger_level}"
    if with_difficulty:
        text += f", vs {result.difficulty}"
    return text


def total_line(team, difficulty_given):
    return f"  => Total {format_outcome(team, difficulty_given)}"


def format_teamwork(leader_name, team, pools, helper_names, difficulty_given, comment="", absent=()):
    header = f"{PREFIX} {escape(leader_name)}'s teamwork roll"
    if difficulty_given:
        header += f", vs {team.difficulty}"
    if comment:
        header += f" # {escape(comment, MAX_COMMENT)}"
    lines = [header]
    lines += participant_lines(leader_name, "leads", pools[0], team.leader)
    for name, pool, result in zip(helper_names, pools[1:], team.helpers):
        lines += participant_lines(name, "helps", pool, result)
    for name in absent:
        lines.append(f"  ({escape(name)} is no longer here and does not help.)")
    lines.append(total_line(team, difficulty_given))
    return "\n".join(lines)


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


def tell_room(caller, text):
    """A message that is not a roll, to the caller's room, fitted to each receiver's width."""
    from .. import dice_base  # the one way out for player text (see dice_base.send)

    dice_base.tell_room(caller, text if callable(text) else fitted(text))


class CmdTeamwork(DiceCommand):
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

    key = "+teamwork"
    aliases = ["teamwork", "+team"]
    locks = "cmd:all()"
    switch_options = ("join", "roll", "cancel", "leave")
    usage = "+teamwork <pool> [vs <difficulty>], +teamwork/join <leader>=<pool>, +teamwork/roll"

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

    def get_help(self, caller, cmdset):
        text = super().get_help(caller, cmdset)
        try:
            rule = teamwork_rule()
        except DiceError:  # a system without teamwork: the page as written
            return text
        name, how = self.READINGS.get(rule, self.READINGS[SEED])
        return f"{text.rstrip()}\n\nIn this game (teamwork reading: {name}):\n  {how}"

    def run(self):
        caller = self.caller
        if not hasattr(caller, "trait_table"):
            raise DiceError("Only characters with a sheet roll teamwork.")
        switches = set(self.switches)
        if len(switches) > 1:
            raise DiceError("Use one switch at a time: /join, /roll, /cancel or /leave.")
        if "join" in switches:
            self.join()
        elif "roll" in switches:
            self.roll()
        elif "cancel" in switches:
            self.cancel()
        elif "leave" in switches:
            self.leave()
        elif self.args.strip():
            self.open()
        else:
            self.status()

    def _my_team(self):
        team = load_team(self.caller)
        if team is None:
            raise DiceError("You lead no teamwork roll: open one with +teamwork <pool> [vs <difficulty>].")
        return team

    def open(self):
        caller = self.caller
        if load_team(caller) is not None:
            raise DiceError("You already lead a teamwork roll: +teamwork/roll or +teamwork/cancel it first.")
        theirs = helping(caller)
        if theirs is not None:
            raise DiceError(f"You help {escape(theirs.leader.key)}'s teamwork roll: one at a time; "
                            "+teamwork/leave it first.")
        text, difficulty, willpower, comment = split_roll_args(self.args)
        if willpower:
            raise DiceError("Spend Willpower after the roll, with +willpower.")
        if "=" in text:
            raise DiceError("To help someone, use +teamwork/join <leader>=<pool>.")
        pool = build_pool(text, caller.trait_table())
        rule = teamwork_rule()
        skill = v5_contest.pool_skill(pool, v5_sheet.ALL_SKILLS) if rule == CORE else ""
        team = Team(caller, pool, difficulty, comment=comment, command=self.raw_string.strip(),
                    rule=rule, skill=skill, room=caller.location)
        team.save()
        line = f"{PREFIX} {escape(caller.key)} leads a teamwork roll: {describe_pool(pool)}"
        if difficulty is not None:
            line += f", vs {difficulty}"
        if comment:
            line += f" # {escape(comment, MAX_COMMENT)}"
        if team.rule == CORE:
            line += (f"\n  Help with +teamwork/join {escape(caller.key)}: each helper with a dot "
                     f"in {escape(skill.title())} adds a die.")
        else:
            line += f"\n  Help with +teamwork/join {escape(caller.key)}=<pool>."
        tell_room(caller, line)

    def join(self):
        caller = self.caller
        name = self.lhs if self.rhs is not None else self.args
        if not name.strip():
            raise DiceError("Name the leader and your pool: +teamwork/join <leader>=<pool>.")
        leader = find_character(caller, name.strip(), room_only=True)
        if leader == caller:
            raise DiceError("You lead this teamwork roll; helpers join it.")
        team = load_team(leader)
        if team is None:
            raise DiceError(f"{escape(leader.key)} has no teamwork roll open.")
        if team.elsewhere(caller):
            raise DiceError(f"{escape(leader.key)}'s teamwork roll was opened in {escape(team.room.key)}: "
                            "help it there.")
        if load_team(caller) is not None:
            raise DiceError("You lead a teamwork roll: one at a time; +teamwork/roll or +teamwork/cancel "
                            "yours before you help another.")
        theirs = helping(caller)
        if theirs is not None and theirs.id != team.id:
            raise DiceError(f"You already help {escape(theirs.leader.key)}'s teamwork roll: one at a time; "
                            "+teamwork/leave it first.")
        if team.rule == CORE:
            self.join_core(leader, team)
            return
        if self.rhs is None:
            raise DiceError("Name the leader and your pool: +teamwork/join <leader>=<pool>.")
        if not self.rhs.strip():
            raise DiceError("Say what you roll to help: +teamwork/join <leader>=<pool>.")
        pool = build_pool(self.rhs, caller.trait_table())
        for index, (helper, _) in enumerate(team.helpers):
            if helper == caller:
                team.helpers[index] = (caller, pool)
                verb = "changes their help to"
                break
        else:
            if len(team.helpers) >= v5_contest.MAX_HELPERS:
                raise DiceError(f"{escape(leader.key)}'s teamwork roll already has {v5_contest.MAX_HELPERS} helpers.")
            team.helpers.append((caller, pool))
            verb = "joins with"
        team.save()
        store.save(caller, HELPING, {"id": team.id, "leader": leader})
        tell_room(caller, f"{PREFIX} {escape(caller.key)} {verb} {describe_pool(pool)} "
                          f"in {escape(leader.key)}'s teamwork roll.")

    def join_core(self, leader, team):
        """The core reading: no pool; at least one dot in the leader's Skill."""
        caller = self.caller
        if self.rhs is not None:
            raise DiceError("Helpers do not roll in this game's teamwork (the core reading): "
                            f"join with +teamwork/join {escape(leader.key)}; a dot in "
                            f"{escape(team.skill.title())} adds a die.")
        dots = skill_dots(caller, team.skill)
        v5_contest.check_core_helper(dots, team.skill)
        if team.helps(caller):
            raise DiceError(f"You already help {escape(leader.key)}'s teamwork roll.")
        if len(team.helpers) >= v5_contest.MAX_HELPERS:
            raise DiceError(f"{escape(leader.key)}'s teamwork roll already has {v5_contest.MAX_HELPERS} helpers.")
        # Refused here rather than on /roll: the leader's pool with this die must stay rollable.
        v5_contest.core_team_pool(team.pool.dice, [1] * (len(team.helpers) + 1))
        team.helpers.append((caller, None))
        team.save()
        store.save(caller, HELPING, {"id": team.id, "leader": leader})
        tell_room(caller, f"{PREFIX} {escape(caller.key)} joins {escape(leader.key)}'s teamwork roll "
                          f"({escape(team.skill.title())} {dots}: +1 die).")

    def roll_core(self, team, present, absent):
        """The core reading: the leader rolls once, +1 die per present helper with a dot."""
        caller = self.caller
        dots = [skill_dots(helper, team.skill) for helper, _ in present]
        dice = v5_contest.core_team_pool(team.pool.dice, dots)
        bonus = dice - team.pool.dice
        difficulty = team.difficulty if team.difficulty_given else 1
        result = v5.roll(dice, hunger(caller), difficulty, rng=get_rng(), bestial_rule=bestial_rule())
        pool_line = core_pool_line(team.pool, bonus, result)
        header = f"{PREFIX} {escape(caller.key)}'s teamwork roll"
        if team.difficulty_given:
            header += f", vs {team.difficulty}"
        if team.comment:
            header += f" # {escape(team.comment, MAX_COMMENT)}"
        lines = [header, f"  {escape(caller.key)} leads: {pool_line}"]
        for (helper, _), count in zip(present, dots):
            adds = "+1 die" if count else "no die: no dot"
            lines.append(f"  {escape(helper.key)} helps: {escape(team.skill.title())} {count} ({adds})")
        for name in absent:
            lines.append(f"  ({escape(name)} is no longer here and does not help.)")
        lines.append(f"  {format_faces(result)}  =>  {format_outcome(result, team.difficulty_given)}")
        record = {
            "kind": "teamwork",
            "command": self.raw_string.strip(),
            "comment": team.comment,
            "pool": team.pool,
            "result": result,
            "regular": list(result.regular),
            "hunger": list(result.hunger),
            "difficulty_given": team.difficulty_given,
            "details": {
                "opened": team.command,
                "reading": CORE,
                "skill": team.skill,
                "bonus": bonus,
                "core_helpers": [{"name": helper.key, "dots": count, "dice": v5_contest.core_helper_dice(count)}
                                 for (helper, _), count in zip(present, dots)],
                "absent": absent,
            },
        }
        receivers = announce(caller, fitted("\n".join(lines)), record=record)
        receivers = receivers if receivers is not None else audience(caller, False)
        summary = f"their teamwork roll of {core_pool_line(team.pool, bonus, result, team.difficulty_given)}"
        remember_roll(caller, LastRoll(
            result=result, summary=summary, difficulty_given=team.difficulty_given, private=False,
            receivers=receivers, record=record, entry=getattr(receivers, "entry", None)))

    def roll(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/roll takes nothing after it (your pool was given when you opened the roll).")
        team = self._my_team()
        if team.elsewhere(caller):
            raise DiceError(f"You opened this teamwork roll in {escape(team.room.key)}: roll it there, "
                            "or +teamwork/cancel it.")
        present = [(helper, pool) for helper, pool in team.helpers if helper.location == caller.location]
        absent = [helper.key for helper, _ in team.helpers if helper.location != caller.location]
        difficulty = team.difficulty if team.difficulty_given else 1
        if team.rule == CORE:
            clear_team(team)
            self.roll_core(team, present, absent)
            return
        clear_team(team)
        result = v5_contest.roll_teamwork(
            (team.pool.dice, hunger(caller)),
            [(pool.dice, hunger(helper)) for helper, pool in present],
            difficulty, rng=get_rng(), bestial_rule=bestial_rule(),
        )
        names = [helper.key for helper, _ in present]
        pools = [team.pool] + [pool for _, pool in present]
        text = fitted(format_teamwork(caller.key, result, pools, names, team.difficulty_given, team.comment,
                                      absent))
        record = {
            "kind": "teamwork",
            "command": self.raw_string.strip(),
            "comment": team.comment,
            "pool": team.pool,
            "result": result,
            "regular": list(result.leader.regular),
            "hunger": list(result.leader.hunger),
            "difficulty_given": team.difficulty_given,
            "details": {
                "opened": team.command,
                "helpers": [
                    {"name": name, "pool": pool.describe(), "regular": list(res.regular),
                     "hunger": list(res.hunger), "successes": res.successes}
                    for name, pool, res in zip(names, pools[1:], result.helpers)
                ],
                "absent": absent,
                "total": result.successes,
            },
        }
        receivers = announce(caller, text, record=record)
        receivers = receivers if receivers is not None else audience(caller, False)
        entry = getattr(receivers, "entry", None)
        state = {"team": result}
        everyone = [caller] + [helper for helper, _ in present]
        shared_id = uuid.uuid4().hex
        for index, character in enumerate(everyone):
            summary = ("their dice in their teamwork roll" if index == 0
                       else f"their dice in {escape(caller.key)}'s teamwork roll")
            last = TeamLastRoll(
                state, index, summary=summary, difficulty_given=team.difficulty_given, private=False,
                receivers=receivers, record=record, entry=entry)
            last.shared_id, last.sharers = shared_id, everyone
            remember_roll(character, last)

    def cancel(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/cancel takes nothing after it.")
        clear_team(self._my_team())
        tell_room(caller, f"{PREFIX} {escape(caller.key)} cancels the teamwork roll.")

    def leave(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/leave takes nothing after it.")
        team = helping(caller)
        if team is None:
            raise DiceError("You help no teamwork roll.")
        team.helpers = [(helper, pool) for helper, pool in team.helpers if helper != caller]
        team.save()
        store.remove(caller, HELPING)
        text = f"{PREFIX} {escape(caller.key)} stops helping {escape(team.leader.key)}'s teamwork roll."
        if team.leader.location != caller.location:
            store.notify(team.leader, text)
        tell_room(caller, text)

    def status(self):
        caller = self.caller
        team = load_team(caller) or helping(caller)
        if team is None:
            raise DiceError("You lead and help no teamwork roll. Say what to roll to open one.")
        lines = [f"{PREFIX} {escape(team.leader.key)} leads: {describe_pool(team.pool)}"
                 + (f", vs {team.difficulty}" if team.difficulty_given else "")]
        for helper, pool in team.helpers:
            lines.append(f"  {escape(helper.key)} helps: {describe_help(team, pool)}")
        if not team.helpers:
            lines.append("  No helpers yet.")
        self.msg(fit("\n".join(lines), width_of(caller)))
