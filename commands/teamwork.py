"""
+teamwork, written once for every system: a leader rolls with helpers. This module keeps the
roll, its helpers and who helps whom (Attributes, `commands.pending`: it survives
`evennia reload` and a stop/start); what helping means, how the roll comes out and how it is
shown are the system's, supplied by its wing as `Wing.teamwork` (a `TeamworkRules`).

Two shapes, the rules say which (`TeamworkRules.at_once`):

- **Open, join, roll**: `+teamwork <pool>` opens the roll in the room; helpers there join
  (`/join <leader>[=<what they give>]`; joining again replaces what you give); the leader
  `/roll`s it there, or `/cancel`s it; `/leave` withdraws your help from anywhere; alone,
  `+teamwork` shows the roll you lead or help.
- **At once**: helpers first offer their help (`/join <leader>`: for that leader's next team
  roll, `/leave` takes it back); `+teamwork <pool>=<helper>, ...` rolls at once with those
  named, each of whom must have offered (or be the caller's own character, or the caller is
  staff: `typeclasses.access`). An offer is spent by the roll it helps.

**Rulings** (open, join, roll):
- The roll belongs to the room it was opened in, the scene whose players saw it opened and
  joined it: helpers join it there and the leader rolls it there (`/roll` elsewhere is refused,
  saying where; nothing is rolled). Rolling where the leader happens to stand would show it to
  people who never saw it opened and count helpers in the wrong scene as absent; cancelling it
  the moment the leader steps out would lose a roll to a stray exit. A roll stored before rooms
  were kept (or whose room is gone) is rolled where the leader is.
- A helper who has left the room when the leader rolls does not help (the roll says so).
- One teamwork roll at a time: a character helps one roll at a time, cannot help while leading
  one and cannot lead while helping. An open roll does not expire (the leader rolls or cancels
  it; a reconnecting leader or helper is told it is still open).
- A helper's traits are read because they joined (their consent, `typeclasses.access`).
"""

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from storyteller_dice.rules.display import escape, wrap
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import access

from . import pending as store
from .dice_base import DiceCommand, announce, dice_wing, find_character, split_comment, tell_room, width_of

PREFIX = "|w[Teamwork]|n"
TEAM = "teamwork"  # on the leader (Attributes, category commands.pending.PENDING)
HELPING = "teamwork_helping"  # on a helper: {"id", "leader"} of the roll they help
_KEPT = ("id", "leader", "comment", "command", "helpers", "created", "room")  # the rest: the rules' terms


@dataclass(eq=False)
class Team:
    """
    A team roll: open on the leader until rolled or cancelled (`save`, `load_team`), or made
    and rolled at once. `terms` are the rules' own (a pool, a difficulty, a reading ...) and
    each helper's part what the rules keep for them; both are stored as plain data.
    """

    leader: object
    terms: dict = field(default_factory=dict)
    comment: str = ""
    command: str = ""
    helpers: list = field(default_factory=list)  # [(character, part)] in joining order
    created: float = field(default_factory=time.time)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    room: object = None  # where it was opened: it is joined and rolled there

    def to_data(self):
        data = {key: store.to_plain(value) for key, value in self.terms.items()}
        data.update(id=self.id, leader=self.leader, comment=self.comment, command=self.command,
                    helpers=[[helper, store.to_plain(part)] for helper, part in self.helpers],
                    created=float(self.created), room=self.room)
        return data

    @classmethod
    def from_data(cls, data):
        try:
            terms = {key: store.from_plain(value) for key, value in data.items() if key not in _KEPT}
            team = cls(data["leader"], terms, comment=data.get("comment", ""), command=data.get("command", ""),
                       helpers=[(helper, store.from_plain(part)) for helper, part in data.get("helpers", ())
                                if helper is not None],  # a deleted helper helps no more
                       created=float(data.get("created", 0)), id=data["id"], room=data.get("room"))
        except Exception:  # noqa: BLE001 - damaged data is no open roll
            return None
        return team if team.leader is not None else None

    def save(self):
        store.save(self.leader, TEAM, self.to_data())

    def part_of(self, character):
        """(True, part) when `character` helps, else (False, None)."""
        for helper, part in self.helpers:
            if helper == character:
                return True, part
        return False, None

    def elsewhere(self, character):
        """Whether `character` is out of the room the roll was opened in (None: no room kept)."""
        return self.room is not None and character.location != self.room


class TeamworkRules:
    """
    What a system says about teamwork; its wing's `teamwork` is one of these (subclassed).
    The command's words are in `words` (a subclass may change any); the methods are the rules.
    """

    at_once: bool = False
    offer_key: str = HELPING  # at once: where a helper's offer is kept
    max_helpers: int = 10
    prefix: str = PREFIX
    usage: str = "+teamwork <pool> [vs <difficulty>]"
    join_usage: str = "+teamwork/join <leader>=<pool>"
    words: dict[str, str] = {
        "no_sheet": "Only characters with a sheet roll teamwork.",
        "join_self": "You lead this teamwork roll; helpers join it.",
        "too_many": "{leader}'s teamwork roll already has {count} helpers.",
    }

    def word(self, key: str, **names: Any) -> str:
        return self.words[key].format(**names)

    def open(self, cmd: "CmdTeamwork", text: str) -> tuple[Any, str]:
        """(terms, comment) of a roll opened with `text`; refuse with DiceError."""
        raise DiceError("This game has no teamwork rolls.")

    def opened(self, team: Team) -> str:
        """The room's line: the roll is open (and how to help)."""
        return f"{self.prefix} {escape(team.leader.key)} leads a teamwork roll: {self.describe(team)}"

    def join(self, cmd: "CmdTeamwork", team: Team, given: str | None, already: bool) -> tuple[Any, str]:
        """(part, the room's line) of `cmd.caller` joining `team` with `given` (text after '=',
        or None); `already`: they help it now. Refuse with DiceError."""
        raise DiceError("This game has no teamwork rolls.")

    def describe(self, team: Team) -> str:
        """What the leader rolls, for the status and the notice on connecting."""
        return ""

    def describe_help(self, team: Team, part: Any) -> str:
        """What a helper gives."""
        return ""

    def before_roll(self, cmd: "CmdTeamwork", team: Team, present: list[tuple[Any, Any]]) -> None:
        """Refuse (DiceError) before anything changes: the roll stays open."""

    def roll(self, cmd: "CmdTeamwork", team: Team, present: list[tuple[Any, Any]], absent: list[str]) -> None:
        """Roll `team` (`present`: [(helper, part)]; `absent`: names), show and record it."""
        raise DiceError("This game has no teamwork rolls.")

    def help_text(self) -> str:
        """More in-game help: how teamwork is played in this game ("" for none)."""
        return ""


def team_rules():
    """The configured system's `TeamworkRules`; DiceError when it has no teamwork."""
    rules = getattr(dice_wing(), "teamwork", None)
    if rules is None:
        raise DiceError("This game has no teamwork rolls.")
    return rules


# ---------------------------------------------------------------- the kept state


def load_team(leader):
    """The teamwork roll `leader` leads, or None."""
    data = store.load(leader, TEAM)
    return Team.from_data(data) if isinstance(data, dict) else None


def _pointer(character, key=HELPING):
    pointer = store.load(character, key)
    if pointer is not None and not isinstance(pointer, dict):  # an offer kept as the leader alone
        pointer = {"leader": pointer, "id": None}
    return pointer


def helping(character):
    """The open teamwork roll `character` helps (still open and still listing them), or None."""
    pointer = _pointer(character)
    if pointer is None or pointer.get("id") is None:
        return None
    team = load_team(pointer.get("leader"))
    if team is None or team.id != pointer.get("id") or not team.part_of(character)[0]:
        return None
    return team


def offered_to(helper, leader, key=HELPING):
    """Whether `helper` offered to help `leader`'s next team roll (their consent, at once)."""
    pointer = _pointer(helper, key)
    return pointer is not None and pointer.get("id") is None and pointer.get("leader") == leader


def clear_team(team):
    """Close `team`: the leader's roll and every helper's note that they help it."""
    stored = store.load(team.leader, TEAM)
    if isinstance(stored, dict) and stored.get("id") == team.id:
        store.remove(team.leader, TEAM)
    for helper, _ in team.helpers:
        pointer = _pointer(helper)
        if pointer is not None and pointer.get("id") == team.id:
            store.remove(helper, HELPING)


def pending_lines(character, rules=None):
    """The teamwork roll the character leads or helps, for the notice on connecting."""
    rules = rules or team_rules()
    lines = []
    team = load_team(character)
    if team is not None:
        count = len(team.helpers)
        lines.append(f"{rules.prefix} Your teamwork roll is still open: {rules.describe(team)}; {count} "
                     f"helper{'s' if count != 1 else ''}. +teamwork/roll or +teamwork/cancel it.")
    theirs = helping(character)
    if theirs is not None:
        part = theirs.part_of(character)[1]
        lines.append(f"{rules.prefix} You still help {escape(theirs.leader.key)}'s teamwork roll with "
                     f"{rules.describe_help(theirs, part)} (+teamwork/leave to stop).")
    return lines


def show_roll(cmd, lines, record):
    """Show a team roll to the room (each line fitted to each receiver) and record it; the receivers."""
    text = "\n".join(lines)
    return announce(cmd.caller, lambda width: "\n".join(wrap(text, width)), record=record)


def base_record(cmd, team, view, data, **details):
    """A team roll's record (`rolllog.api`): the view shown, the system's data, and `details`."""
    return {"kind": "teamwork", "command": cmd.raw_string.strip(), "comment": team.comment, "system": view.system,
            "view": view, "data": data, "summary": f"{view.score_text}: {view.outcome.label}",
            "details": {"opened": team.command, **details}}


def absent_lines(absent):
    """The roll's note of each helper who left the room before it was rolled (they do not help)."""
    return [f"  ({escape(name)} is no longer here and does not help.)" for name in absent]


def tell_here(caller, text):
    """A line that is no roll, to the caller's room, fitted to each receiver's width."""
    tell_room(caller, lambda width: "\n".join(wrap(text, width)))


# ---------------------------------------------------------------- the command


class CmdTeamwork(DiceCommand):
    """
    Roll as a team: helpers add to the leader's roll.

    Usage:
      +teamwork <pool> [vs <difficulty>] [# <comment>]
      +teamwork/join <leader>=<pool>   (or +teamwork/join <leader>, below)
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
    help is this game's, shown below. Alone, +teamwork shows the roll you
    lead or help.

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

    def get_help(self, caller, cmdset):
        text = super().get_help(caller, cmdset)
        try:
            more = team_rules().help_text()
        except DiceError:  # a system without teamwork: the page as written
            return text
        return f"{text.rstrip()}\n\n{more}" if more else text

    def run(self):
        rules = self.rules = team_rules()
        if not hasattr(self.caller, "roller"):
            raise DiceError(rules.word("no_sheet"))
        switches = set(self.switches)
        if len(switches) > 1:
            names = [f"/{name}" for name in self.switch_options]
            raise DiceError(f"Use one switch at a time: {', '.join(names[:-1])} or {names[-1]}.")
        action = next(iter(switches), None)
        if rules.at_once:
            {"join": self.offer, "leave": self.withdraw}.get(action, self.roll_at_once)()
            return
        handlers = {"join": self.join, "roll": self.roll, "cancel": self.cancel, "leave": self.leave}
        handlers.get(action, self.open if self.args.strip() else self.status)()

    def traits_of(self, helper):
        """A helper's traits (`Roller`) for the rules, read through the one access check: they
        joined (or were named and checked, at once), which is their consent."""
        return access.read_traits(self.caller, helper, "", consent=True)

    # -- open, join, roll

    def _my_team(self):
        team = load_team(self.caller)
        if team is None:
            raise DiceError(f"You lead no teamwork roll: open one with {self.rules.usage}.")
        return team

    def open(self):
        caller = self.caller
        if load_team(caller) is not None:
            raise DiceError("You already lead a teamwork roll: +teamwork/roll or +teamwork/cancel it first.")
        theirs = helping(caller)
        if theirs is not None:
            raise DiceError(f"You help {escape(theirs.leader.key)}'s teamwork roll: one at a time; "
                            "+teamwork/leave it first.")
        terms, comment = self.rules.open(self, self.args)
        team = Team(caller, terms, comment=comment, command=self.raw_string.strip(), room=caller.location)
        team.save()
        tell_here(caller, self.rules.opened(team))

    def _team_to_join(self):
        caller = self.caller
        name = self.lhs if self.rhs is not None else self.args
        if not name.strip():
            raise DiceError(f"Name the leader and your pool: {self.rules.join_usage}.")
        leader = find_character(caller, name.strip(), room_only=True)
        if leader == caller:
            raise DiceError(self.rules.word("join_self"))
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
        return team

    def join(self):
        caller = self.caller
        team = self._team_to_join()
        already = team.part_of(caller)[0]
        part, line = self.rules.join(self, team, self.rhs, already)
        if already:
            team.helpers = [(helper, part if helper == caller else old) for helper, old in team.helpers]
        elif len(team.helpers) >= self.rules.max_helpers:
            raise DiceError(self.rules.word("too_many", leader=escape(team.leader.key), count=self.rules.max_helpers))
        else:
            team.helpers.append((caller, part))
        team.save()
        store.save(caller, HELPING, {"id": team.id, "leader": team.leader})
        tell_here(caller, line)

    def roll(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/roll takes nothing after it (your pool was given when you opened the roll).")
        team = self._my_team()
        if team.elsewhere(caller):
            raise DiceError(f"You opened this teamwork roll in {escape(team.room.key)}: roll it there, "
                            "or +teamwork/cancel it.")
        present = [(helper, part) for helper, part in team.helpers if helper.location == caller.location]
        absent = [helper.key for helper, _ in team.helpers if helper.location != caller.location]
        self.rules.before_roll(self, team, present)
        clear_team(team)
        self.rules.roll(self, team, present, absent)

    def cancel(self):
        if self.args.strip():
            raise DiceError("/cancel takes nothing after it.")
        clear_team(self._my_team())
        tell_here(self.caller, f"{self.rules.prefix} {escape(self.caller.key)} cancels the teamwork roll.")

    def leave(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/leave takes nothing after it.")
        team = helping(caller)
        if team is None:
            raise DiceError("You help no teamwork roll.")
        team.helpers = [(helper, part) for helper, part in team.helpers if helper != caller]
        team.save()
        store.remove(caller, HELPING)
        text = f"{self.rules.prefix} {escape(caller.key)} stops helping {escape(team.leader.key)}'s teamwork roll."
        if team.leader.location != caller.location:
            store.notify(team.leader, text)
        tell_here(caller, text)

    def status(self):
        caller = self.caller
        team = load_team(caller) or helping(caller)
        if team is None:
            raise DiceError("You lead and help no teamwork roll. Say what to roll to open one.")
        lines = [f"{self.rules.prefix} {escape(team.leader.key)} leads: {self.rules.describe(team)}"]
        lines += [f"  {escape(helper.key)} helps: {self.rules.describe_help(team, part)}"
                  for helper, part in team.helpers]
        if not team.helpers:
            lines.append("  No helpers yet.")
        self.msg("\n".join(line for text in lines for line in wrap(text, width_of(caller))))

    # -- at once

    def roll_at_once(self):
        caller, rules = self.caller, self.rules
        text, comment = split_comment(self.args)
        if "=" not in text:
            raise DiceError("Name your helpers after '=': +teamwork <pool>=<helper>, <helper>.")
        text, names = text.split("=", 1)
        names = [" ".join(name.split()) for name in names.split(",")]
        if not all(names):
            raise DiceError("A helper's name is missing in the list after '='.")
        if len(names) > rules.max_helpers:
            raise DiceError(rules.word("too_many", leader=escape(caller.key), count=rules.max_helpers))
        helpers = []
        for name in names:
            helpers.append(self._named_helper(name, helpers))
        team = Team(caller, {"text": text}, comment=comment, command=self.raw_string.strip(),
                    helpers=[(helper, None) for helper in helpers], room=caller.location)
        rules.before_roll(self, team, team.helpers)
        rules.roll(self, team, team.helpers, [])
        for helper in helpers:
            if offered_to(helper, caller, rules.offer_key):
                store.remove(helper, rules.offer_key)

    def _named_helper(self, name, named):
        caller = self.caller
        found = find_character(caller, name, room_only=True)
        if found == caller:
            raise DiceError("You lead the team roll; name only your helpers.")
        if found in named:
            raise DiceError(f"{escape(found.key)} is named twice.")
        refusal = (f"{escape(found.key)} has not joined your team roll: they join with "
                   f"+teamwork/join {escape(caller.key)}.")
        access.read_traits(caller, found, refusal, consent=offered_to(found, caller, self.rules.offer_key))
        if not hasattr(found, "roller"):
            raise DiceError(f"{escape(found.key)} has no character sheet.")
        return found

    def offer(self):
        caller = self.caller
        name = self.args.strip()
        if not name:
            raise DiceError("Name the leader: +teamwork/join <leader>.")
        leader = find_character(caller, name, room_only=True)
        if leader == caller:
            raise DiceError("You lead your own team roll; join someone else's.")
        store.save(caller, self.rules.offer_key, {"leader": leader, "id": None})
        self.msg(f"You join {escape(leader.key)}'s next team roll (+teamwork/leave to take it back).")
        store.notify(leader, f"{escape(caller.key)} joins your next team roll: name them after '=' "
                             f"(+teamwork <pool>={escape(caller.key)}).")

    def withdraw(self):
        caller = self.caller
        pointer = _pointer(caller, self.rules.offer_key)
        if pointer is None or pointer.get("id") is not None:
            raise DiceError("You have joined no team roll.")
        store.remove(caller, self.rules.offer_key)
        leader = pointer.get("leader")
        self.msg(f"You no longer help {escape(leader.key)}'s team roll.")
        store.notify(leader, f"{escape(caller.key)} no longer helps your team roll.")
