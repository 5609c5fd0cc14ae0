"""
Contests, written once for every system: a challenge the other side answers.

    +contest <your side> vs <character>        (each system writes the side its own way)
    +contest/answer <your side>                 the challenged character rolls; both sides shown
    +contest/decline                            the challenged character refuses
    +contest/cancel                             the challenger withdraws
    +contest/private ...                        shown only to the two sides and staff here

The flow is the same whatever the system: the challenger's side is checked at once (their
sheet, now) and kept; the challenged character answers with their own side, and both are
rolled then and shown as one contest (`draw_contest`), stored as one roll-log entry (the record
in the shape every roll has: `view`, `sides`, `verdict`). A system's contest command subclasses
`ContestCommand` and supplies only its rules: how a side is read (`read_side`, `describe`), how
both are rolled and who wins (`roll_contest`, a `rules.contest.Outcome`), and what follows
(`contested`: paying costs, remembering the roll for a reroll).

**Rulings** (every system's):
- One challenge at a time per challenger and per challenged character, whatever command made
  it; it waits `rules.contest.TIMEOUT` (5 minutes) and then expires, both sides told (one who
  is not connected is told when they next connect, `commands.pending.notify`).
- Challenges live in the database (Attributes OUTGOING on the challenger and INCOMING on the
  challenged, the same `id` on both; `commands.pending`), with their wall-clock expiry: they
  survive `evennia reload` and a stop/start; at every start the ones whose time ran out while
  the server was down expire and the others get their timers back (`restore_challenges`).
- Both must still be in one place when the answer comes; otherwise the challenge is void.
- `/private` on the challenge makes the challenge, the answer, a decline and a withdrawal
  private: shown to the two sides (when connected) and staff in the room. The challenged side
  may also answer with `/private`: either side may keep their dice from the room.
"""

import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from evennia.utils.utils import delay

from storyteller_dice.rules import contest as shared
from storyteller_dice.rules.display import _fit, comment_suffix, escape, format_dice, format_outcome, format_pool
from storyteller_dice.rules.engine import split_vs
from storyteller_dice.rules.errors import DiceError

from . import pending as store
from .dice_base import (DiceCommand, announce, dice_system, find_character, is_staff, refusal_text, room_audience,
                        send, split_comment, split_connected, staff_in_room)

PREFIX = "|w[Contest]|n"
PRIVATE_PREFIX = "|w[Private contest]|n"
CHALLENGE_TIMEOUT = shared.TIMEOUT
OUTGOING = "contest_outgoing"  # Attributes (category commands.pending.PENDING)
INCOMING = "contest_challenge"
ACTIONS = ("answer", "decline", "cancel")
_POOLISH = re.compile(r"[+\-/()]")  # what a pool has and a name does not


@dataclass(eq=False)
class Challenge:
    """
    A challenge waiting for its answer, stored as plain data on both characters and rebuilt
    from them when read. `pool` is what the system kept of the challenger's side (plain data,
    or a `rules` dataclass: `pending.to_plain`); `key` the command that answers it;
    `description` the challenger's side as the challenge line showed it (markup, escaped).
    """

    challenger: object
    defender: object
    pool: object
    command: str = ""
    comment: str = ""
    key: str = "+contest"
    description: str = ""
    private: bool = False
    answer_hint: str = ""
    created: float = field(default_factory=time.time)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def expired(self):
        return shared.is_expired(self.created, time.time(), CHALLENGE_TIMEOUT)

    @property
    def seconds_left(self):
        return shared.seconds_left(self.created, time.time(), CHALLENGE_TIMEOUT)

    @property
    def hint(self):
        """How the challenged side answers (`+contest/answer <pool> or +contest/decline`)."""
        return self.answer_hint or f"{self.key}/answer <pool> or {self.key}/decline"

    def to_data(self):
        return {"id": self.id, "challenger": self.challenger, "defender": self.defender,
                "pool": store.to_plain(self.pool), "command": self.command, "comment": self.comment,
                "key": self.key, "description": self.description, "private": bool(self.private),
                "answer_hint": self.answer_hint, "created": float(self.created)}

    @classmethod
    def from_data(cls, data):
        """The stored challenge, or None (unreadable, or a side's character was deleted)."""
        try:
            challenge = cls(data["challenger"], data["defender"], store.from_plain(data["pool"]),
                            command=data.get("command", ""), comment=data.get("comment", ""),
                            key=data.get("key", "+contest"), description=data.get("description", ""),
                            private=bool(data.get("private")), answer_hint=data.get("answer_hint", ""),
                            created=float(data["created"]), id=data["id"])
        except Exception:  # noqa: BLE001 - damaged data is no challenge
            return None
        if challenge.challenger is None or challenge.defender is None:
            return None
        return challenge

    def save(self):
        """Store (or store again, e.g. after changing `created`) on both characters."""
        data = self.to_data()
        store.save(self.challenger, OUTGOING, data)
        store.save(self.defender, INCOMING, data)


# ---------------------------------------------------------------- the store


def load_challenge(character, key):
    """The challenge stored on `character` under OUTGOING or INCOMING (pending or not), or None."""
    data = store.load(character, key)
    return Challenge.from_data(data) if isinstance(data, dict) else None


def _stored_id(character, key):
    data = store.load(character, key)
    return data.get("id") if isinstance(data, dict) else None


def is_pending(challenge):
    """True while `challenge` is the one stored on both characters."""
    return (challenge is not None and _stored_id(challenge.defender, INCOMING) == challenge.id
            and _stored_id(challenge.challenger, OUTGOING) == challenge.id)


def clear(challenge):
    if _stored_id(challenge.defender, INCOMING) == challenge.id:
        store.remove(challenge.defender, INCOMING)
    if _stored_id(challenge.challenger, OUTGOING) == challenge.id:
        store.remove(challenge.challenger, OUTGOING)


def expire_challenge(challenge):
    """Called by `delay` after CHALLENGE_TIMEOUT: drop an unanswered challenge, tell both."""
    if not is_pending(challenge):
        return False
    clear(challenge)
    minutes = CHALLENGE_TIMEOUT // 60
    challenger, defender = escape(challenge.challenger.key), escape(challenge.defender.key)
    store.notify(challenge.challenger,
                 f"{PREFIX} Your challenge to {defender} expired unanswered after {minutes} minutes.",
                 away=f"{PREFIX} Your challenge to {defender} expired unanswered while you were away.")
    store.notify(challenge.defender,
                 f"{PREFIX} {challenger}'s challenge expired unanswered after {minutes} minutes.",
                 away=f"{PREFIX} {challenger}'s challenge to you expired unanswered while you were away.")
    return True


def restore_challenges():
    """
    At server start: expire the challenges whose time ran out while the server was down,
    drop half-stored ones, and give the others their timers back (`delay` is not persistent).
    """
    for character in store.holders(OUTGOING):
        challenge = load_challenge(character, OUTGOING)
        if challenge is None or not is_pending(challenge):
            store.remove(character, OUTGOING)
        elif challenge.expired:
            expire_challenge(challenge)
        else:
            delay(challenge.seconds_left, expire_challenge, challenge)
    for character in store.holders(INCOMING):
        challenge = load_challenge(character, INCOMING)
        if challenge is None or not is_pending(challenge):
            store.remove(character, INCOMING)


def live(challenge):
    """The challenge if it is still pending and not out of time (an old one is expired now)."""
    if challenge is None or not is_pending(challenge):
        return None
    if challenge.expired:
        expire_challenge(challenge)
        return None
    return challenge


def pending_lines(character):
    """The character's open challenges (made and received), for the notice on connecting."""
    lines = []
    mine = live(load_challenge(character, OUTGOING))
    if mine:
        lines.append(f"{PREFIX} Your challenge to {escape(mine.defender.key)} is still open: "
                     f"{store.minutes(mine.seconds_left)} left for their answer.")
    theirs = live(load_challenge(character, INCOMING))
    if theirs:
        lines.append(f"{PREFIX} {escape(theirs.challenger.key)}'s challenge to you is still open: answer "
                     f"with {theirs.hint} within {store.minutes(theirs.seconds_left)}.")
    return lines


def make_challenge(caller, defender, pool, **fields):
    """
    Keep a new challenge from `caller` to `defender` (one at a time each) and start its timer.

    Raises:
        DiceError: either side already has a challenge open.
    """
    mine = live(load_challenge(caller, OUTGOING))
    if mine:
        raise DiceError(f"You already challenged {escape(mine.defender.key)}; wait for the answer "
                        f"or withdraw it with {mine.key}/cancel.")
    if live(load_challenge(defender, INCOMING)):
        raise DiceError(f"{escape(defender.key)} already has a challenge to answer; try again later.")
    challenge = Challenge(caller, defender, pool, **fields)
    challenge.save()
    delay(CHALLENGE_TIMEOUT, expire_challenge, challenge)
    return challenge


def challenger_side(challenge, read):
    """
    The challenger's side read again when the answer comes (`read(kept, challenger)`): their
    sheet may have changed since (a wound, a point spent). A refusal says whose side it is,
    since the one who answered reads it.
    """
    try:
        return read(challenge.pool, challenge.challenger)
    except DiceError as err:
        raise DiceError(f"{escape(challenge.challenger.key)}'s side: {refusal_text(err)}") from None


def challenge_to(caller):
    """
    The live challenge made to `caller`, both still in one place.

    Raises:
        DiceError: none (or expired), or the challenger has gone (the challenge is void now).
    """
    stored = load_challenge(caller, INCOMING)
    challenge = live(stored)
    if challenge is None:
        if stored is not None and stored.expired:
            raise DiceError(f"{escape(stored.challenger.key)}'s challenge has expired.")
        raise DiceError("No one has challenged you.")
    if challenge.challenger.location != caller.location:
        clear(challenge)
        name = escape(caller.key)
        store.notify(challenge.challenger, f"{PREFIX} Your challenge to {name} is void: "
                     "you are no longer in the same place.",
                     away=f"{PREFIX} Your challenge to {name} became void while you were "
                     "away: you were no longer in the same place when they answered.")
        raise DiceError(f"{escape(challenge.challenger.key)} is no longer here; the challenge is void.")
    return challenge


# ---------------------------------------------------------------- what people see


def set_by(caller):
    """
    Who set dice that are no character's (an NPC, opposition): `staff: Anna` or `set by Bob`.
    **Ruling**: from the account's permissions, never from a name a player typed or chose, so
    no player's opposition reads as the Storyteller's.
    """
    return f"staff: {caller.key}" if is_staff(caller) else f"set by {caller.key}"


def split_sides(text, other="a number of dice or a character here"):
    """`<left> vs <right>` -> (left, right), refused with one line when a side is missing."""
    text = text.strip()
    if text.lower() == "vs" or text.lower().startswith(("vs ", "vs.")):
        raise DiceError("Say what you roll before 'vs'.")
    left, right = split_vs(text)
    if right is None or not left:
        raise DiceError(f"Say both sides: your pool, 'vs', then {other}.")
    return left, right


_EVERY_VS = re.compile(r"\s+vs\.?\s+(?=\S)", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\s|$)")


def split_challenged(text):
    """
    `<pool> [vs <number>] vs <character>` -> (pool, character name), or None when no 'vs' is
    followed by a character. **Ruling** (every system): a 'vs' followed by a number is the
    system's own (dice, a difficulty); the last 'vs' followed by anything else names the one
    challenged, so `dex+brawl vs Bert`, `dex+brawl vs 7 vs Bert` and, for staff,
    `Anna: dex vs Bert: dex vs 7` read alike in every system.
    """
    text = text.strip()
    for found in reversed(list(_EVERY_VS.finditer(text))):
        left, right = text[:found.start()].strip(), text[found.end():].strip()
        if left and right and not _NUMBER.match(right):
            return left, right
    return None


def audience(caller, others, private):
    """The room, or for a private contest the caller, the others who are connected and staff here."""
    if not private or not caller.location:
        return room_audience(caller)
    return [caller, *split_connected([obj for obj in others if obj is not None])[0], *staff_in_room(caller)]


def shown_to(caller, others, private):
    """The names a private contest's line says it was shown to (None: public)."""
    if not private:
        return None
    return [caller.key] + [obj.key for obj in split_connected(others)[0] if obj != caller] + ["staff"]


def side_lines(side):
    """`  Name: <pool>` and `    <dice>  =>  <outcome>`: one side, drawn from its RollView."""
    return [f"  {escape(side.label)}: {format_pool(side.view)}",
            f"    {format_dice(side.view)}  =>  {format_outcome(side.view)}"]


def draw_contest(outcome, comment="", private_to=None, width=80):
    """A rolled contest as the room sees it: the header, each side, the verdict (markup)."""
    prefix = PREFIX if private_to is None else PRIVATE_PREFIX
    header = f"{prefix} " + " vs ".join(escape(side.label) for side in outcome.sides)
    lines = [header + comment_suffix(comment)]
    for side in outcome.sides:
        lines += side_lines(side)
    lines.append(f"  => {outcome.verdict}")
    if private_to is not None:
        lines.append("  (private: shown to " + ", ".join(escape(name) for name in private_to) + ")")
    return _fit(lines, width)


def rolled_side(label, result, request):
    """A rolled side as the shared flow keeps it: its label, the system's view and record of it."""
    system = dice_system()
    return shared.Side(label, system.view(result, request), system.record(result, request))


def contest_record(cmd, outcome, comment, **extra):
    """The roll log's record of a contest, in the shape every roll has (`view`, `sides`, `verdict`)."""
    record = {
        "kind": cmd.kind,
        "command": cmd.raw_string.strip(),
        "comment": comment,
        "system": dice_system().key,
        "view": outcome.sides[0].view,
        "sides": [{"label": side.label, "view": side.view} for side in outcome.sides],
        "verdict": outcome.summary,
        "data": {**outcome.data, "sides": [side.data for side in outcome.sides]},
        "summary": outcome.summary[:250],
    }
    record.update(extra)
    return record


def show_contest(cmd, outcome, comment, private=False, others=(), **extra):
    """Store the contest and show it to its audience; return the receivers (`announce`)."""
    caller = cmd.caller
    others = [obj for obj in others if obj is not None and obj != caller]
    names = shown_to(caller, others, private)
    record = contest_record(cmd, outcome, comment, **extra)
    return announce(caller, lambda width: draw_contest(outcome, comment, names, width), private=private,
                    shared_with=others, record=record)


def tell(caller, others, private, text):
    """A line about a challenge (not a roll) to its audience, fitted to each receiver's width."""
    return send(audience(caller, others, private), lambda width: _fit(text.split("\n"), width), from_obj=caller)


# ---------------------------------------------------------------- the command


class ContestCommand(DiceCommand):
    """
    The shared challenge-and-answer flow (not a command itself). A system's contest command
    subclasses it and supplies its rules:

    - `read_side(text)`: the challenger's side, checked now: (what to keep, its description).
    - `read_opposition(text)`: the other side when it needs no answer (dice, numbers: rolled at
      once by `roll_now(left, opposition, comment)`), or None when it names a character.
    - `read_answer(challenge, text)`: the answering side, checked (DiceError changes nothing).
    - `roll_contest(challenge, answer)`: both sides rolled, a `rules.contest.Outcome`.
    - `contested(challenge, outcome, receivers)`: after it was shown (costs, rerolls).
    """

    locks = "cmd:all()"
    switch_options = ("private",) + ACTIONS
    answer_usage = "<pool>"
    kind = "contest"  # the roll log's kind of the entry
    exclusive = ()  # the system's switches that go with no /answer, /decline or /cancel
    other = "a number of dice or a character here"  # what may follow 'vs'
    other_example = "a number of dice or a character here to challenge"

    def run(self):
        if not hasattr(self.caller, "roller"):
            raise DiceError("Only characters with a sheet roll contests.")
        actions = set(self.switches) & set(ACTIONS)
        if len(actions) > 1 or (actions and set(self.switches) & set(self.exclusive)):
            raise DiceError("Use one switch at a time: /answer, /decline or /cancel.")
        self.private = "private" in self.switches
        action = next(iter(actions), None)
        if action is None:
            self.start(*split_comment(self.args))
        else:
            getattr(self, action)()

    def start(self, text, comment):
        """`<your side> vs <their side>`: rolled at once, or a challenge to the character named."""
        left, right = split_sides(text, self.other)
        opposition = self.read_opposition(right)
        if opposition is not None:
            self.roll_now(left, opposition, comment)
            return
        pool, description = self.read_side(left)
        self.challenge(self.find_defender(right), pool, description, comment)

    def read_side(self, text: str) -> tuple[Any, str]:
        """The challenger's side, checked now: (what to keep, its description, markup)."""
        raise NotImplementedError

    def read_opposition(self, text: str) -> Any | None:
        """The other side when it needs no answer (dice, numbers), or None: it names a character."""
        return None

    def roll_now(self, left: str, opposition: Any, comment: str) -> None:
        """Roll `left` against an `opposition` that needs no answer (`read_opposition`), and show it."""
        raise NotImplementedError

    def find_defender(self, name):
        caller = self.caller
        if not caller.location:
            raise DiceError("You are nowhere: there is no one here to challenge.")
        try:
            defender = find_character(caller, name, room_only=True)
        except DiceError:
            if _POOLISH.search(name):
                raise DiceError(f"The other side is {self.other_example}; '{escape(name)}' is neither.") from None
            raise
        if defender == caller:
            raise DiceError("You cannot challenge yourself.")
        if not hasattr(defender, "roller"):
            raise DiceError(f"{escape(defender.key)} has no character sheet to roll with.")
        return defender

    def challenge(self, defender, pool, description, comment):
        """Challenge `defender` (a character here) with the challenger's side `pool`, shown as `description`."""
        caller = self.caller
        hint = f"{self.key}/answer {self.answer_usage}".rstrip() + f" or {self.key}/decline"
        made = make_challenge(caller, defender, pool, command=self.raw_string.strip(), comment=comment,
                              key=self.key, description=description, private=self.private, answer_hint=hint)
        prefix = PRIVATE_PREFIX if made.private else PREFIX
        text = (f"{prefix} {escape(caller.key)} challenges {escape(defender.key)}: {description}"
                f"{comment_suffix(comment)}")
        text += f"\n  {escape(defender.key)} answers with {hint} (within {CHALLENGE_TIMEOUT // 60} minutes)."
        tell(caller, [defender], made.private, text)
        return made

    def answer(self):
        challenge = challenge_to(self.caller)
        if challenge.key != self.key:
            raise DiceError(f"{escape(challenge.challenger.key)}'s challenge is answered with "
                            f"{challenge.key}/answer.")
        text, comment = split_comment(self.args)
        answer = self.read_answer(challenge, text)
        outcome = self.roll_contest(challenge, answer)
        clear(challenge)
        private = challenge.private or self.private
        receivers = show_contest(self, outcome, shared.joined_comment(challenge.comment, comment), private,
                                 [challenge.challenger], challenge=challenge.command,
                                 subject=challenge.challenger)
        self.contested(challenge, outcome, receivers)

    def read_answer(self, challenge: Challenge, text: str) -> Any:
        if not text:
            raise DiceError(f"Answer with your pool: {self.key}/answer <pool>.")
        return text

    def roll_contest(self, challenge: Challenge, answer: Any) -> shared.Outcome:
        raise NotImplementedError

    def contested(self, challenge: Challenge, outcome: shared.Outcome, receivers: Any) -> None:
        """After the answered contest was shown (a system pays its costs, keeps rerolls)."""

    def decline(self):
        if self.args.strip():
            raise DiceError("/decline takes nothing after it.")
        challenge = challenge_to(self.caller)
        clear(challenge)
        tell(self.caller, [challenge.challenger], challenge.private,
             f"{PREFIX} {escape(self.caller.key)} declines {escape(challenge.challenger.key)}'s challenge.")

    def cancel(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/cancel takes nothing after it.")
        challenge = live(load_challenge(caller, OUTGOING))
        if challenge is None:
            raise DiceError("You have no challenge waiting for an answer.")
        clear(challenge)
        text = f"{PREFIX} {escape(caller.key)} withdraws the challenge to {escape(challenge.defender.key)}."
        away = challenge.defender.location != caller.location
        if away:  # told once: now, or when they next connect
            store.notify(challenge.defender, text)
        tell(caller, [] if away else [challenge.defender], challenge.private, text)
