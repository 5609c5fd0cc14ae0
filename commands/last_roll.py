"""
A character's last roll, kept for a later command that changes it (a Willpower reroll): what
was rolled, to whom it was shown, and what a change does besides the dice (an extended roll's
total, a contest's winner, a team's total). It is kept in the database (an Attribute, see
`commands.pending`) as plain data and rebuilt when read, so it survives `evennia reload` and a
stop/start. The rolls of a contest or a teamwork roll share their state (the contest, the
team's dice): a change by one participant is written into the others' kept rolls too
(`share_state`). How long a roll stays open to change, and what may change it, are the
system's (its wing's command).

Shown through the shared display: `reroll_lines` draws a reroll from the configured system's
views (`rules.display.format_reroll`).
"""

import importlib
import time
import uuid

from storyteller_dice.rules import extended as rules_extended
from storyteller_dice.rules.display import escape, format_dice, format_outcome, format_pool, format_reroll
from storyteller_dice.rules.engine import RollRequest
from storyteller_dice.rules.errors import DiceError

from . import extended, pending
from .dice_base import dice_system, staff_in_room

LAST_ROLL = "last_roll"  # the Attribute (category commands.pending.PENDING)
UNWRAPPED = 10**6  # columns: lines drawn whole, fitted to each receiver when sent


def reroll_request(result, difficulty_given=True):
    """The request a kept result is viewed and recorded with (its pool is shown by the roll)."""
    return RollRequest(dice_system().key, "", None, getattr(result, "pool", 0), target_given=difficulty_given)


def views(before, after, difficulty_given=True):
    """The configured system's views of a result before and after a reroll."""
    system, request = dice_system(), reroll_request(after, difficulty_given)
    return system.view(before, request), system.view(after, request)


def reroll_lines(before, after, label, difficulty_given=True, score_only=False, tag=""):
    """
    A reroll's two lines (`  Willpower (failures): rerolled 2 3 -> 7 10`, then the dice and the
    outcome), or with the score alone (`score_only`: one part of a whole, a contest side or a
    helper's dice, whose own verdict says nothing), `tag` after it.
    """
    old, new = views(before, after, difficulty_given)
    lines = format_reroll(old, new, "Willpower", width=UNWRAPPED, detail=label).split("\n")
    if score_only:
        lines[1] = f"  {format_dice(new)}  =>  {escape(new.score_text)}{tag}"
    else:
        lines[1] = f"  {format_dice(new)}  =>  {format_outcome(new)}"
    return "\n".join(lines)


class LastRoll:
    """
    A roll a later command may change.

    Args:
        result: the roll as shown (the system's result).
        summary (str): what was rolled, already escaped (shown in the reroll's first line).
        difficulty_given (bool): whether the roll had a stated difficulty.
        private (bool): whether it was a private roll.
        receivers (list): who saw it (for a private roll, they see the reroll).
        record (dict or None): the roll's record (not kept: it was written already).
        entry: the roll log's entry for the roll (what `announce` returned), the reroll's parent.
    """

    rerollable = True
    reason = ""
    # False where the roll is one part of a whole (a contest side, a helper's dice, an extended
    # roll's step): its own chance to win says nothing, so a strategy is only refused when it
    # picks no dice.
    judged_alone = True
    # A contest's or teamwork roll's participants share `state`: see `share_state`.
    shared_id = None
    sharers = ()

    def __init__(self, result=None, summary="", difficulty_given=True, private=False, receivers=(),
                 record=None, entry=None, when=None):
        self.result = result
        self.summary = summary
        self.difficulty_given = difficulty_given
        self.private = private
        self.receivers = list(receivers)
        self.record = record
        self.entry = entry
        self.time = time.time() if when is None else when

    def current(self):
        """The roll as it stands now (a contest side may be scored again by the other side)."""
        return self.result

    def check(self):
        """Raise DiceError when the roll can no longer be rerolled (its context is gone)."""

    def apply(self, new):
        """Take the rerolled result in; return extra lines (already formatted) to show."""
        self.result = new
        return []

    def format_reroll(self, before, after, label):
        """The reroll's lines (which dice, the new dice and outcome)."""
        return reroll_lines(before, after, label, self.difficulty_given)

    # ------------------------------------------------------------ stored as plain data

    def to_data(self):
        """Plain data for an Attribute: the class's name and its fields (see pending.to_plain)."""
        fields = dict(vars(self))
        fields.pop("record", None)  # only for the roll log, already written
        # The entry is kept by its code (unique, and what its players saw): a roll's state is
        # written with the roll, before PostgreSQL has given the entry its id
        # (`rolllog.counting.inserted_first`). A reroll finds its parent by either.
        entry = fields.get("entry")
        fields["entry"] = getattr(entry, "code", entry)
        # A reroll reaches the same audience as the roll: the room for a public roll (as it
        # is then), the receivers for a private one: only those are worth keeping (a full
        # room's 50 characters would be packed into the value on every roll).
        kept = fields.get("receivers", ()) if self.private else ()
        fields["receivers"] = [obj for obj in kept if obj is not None]
        cls = type(self)
        return {"class": f"{cls.__module__}:{cls.__qualname__}", "fields": pending.to_plain(fields)}

    @classmethod
    def from_data(cls, data):
        """The LastRoll stored by `to_data`, or None for anything unreadable."""
        try:
            module, _, name = data["class"].partition(":")
            if not module.startswith("storyteller_dice.commands."):
                return None
            found = getattr(importlib.import_module(module), name)
            if not (isinstance(found, type) and issubclass(found, LastRoll)):
                return None
            last = found.__new__(found)
            fields = pending.from_plain(data["fields"])
            fields["receivers"] = [obj for obj in fields.get("receivers", ()) if obj is not None]
            fields.setdefault("record", None)
            last.__dict__.update(fields)
            return last
        except Exception:  # noqa: BLE001 - a damaged value is no roll to reroll
            return None


class NotRerollable(LastRoll):
    """A roll that cannot be rerolled; `reason` says why."""

    rerollable = False

    def __init__(self, reason, **kwargs):
        super().__init__(**kwargs)
        self.reason = reason


def audience(caller, private, shared_with=()):
    """Who sees a roll (as `dice_base.announce` sends it): the room, or the private receivers."""
    if private or not caller.location:
        receivers = [caller]
        for obj in list(shared_with) + staff_in_room(caller):
            if obj not in receivers:
                receivers.append(obj)
        return receivers
    return list(caller.location.contents)


def remember_roll(caller, last):
    """Make `last` the caller's last roll, kept in the database."""
    pending.save(caller, LAST_ROLL, last.to_data())
    return last


def last_roll(character):
    """The character's kept last roll (a LastRoll rebuilt from the database), or None."""
    data = pending.load(character, LAST_ROLL)
    return LastRoll.from_data(data) if isinstance(data, dict) else None


def share_state(owner, last):
    """
    After `owner` rerolled `last`, write its shared state into the kept rolls of the others
    who share it (only where that roll is still their last one).
    """
    if last.shared_id is None:
        return
    for other in last.sharers:
        if other is None or other == owner:
            continue
        theirs = last_roll(other)
        if theirs is not None and theirs.shared_id == last.shared_id:
            theirs.state = last.state
            remember_roll(other, theirs)


def remember_shared(rolls):
    """Make each (character, LastRoll) of one contest or teamwork roll that character's last
    roll, sharing their state: a reroll by one is written into the others' (`share_state`)."""
    shared_id, sharers = uuid.uuid4().hex, [character for character, _ in rolls]
    for character, last in rolls:
        last.shared_id, last.sharers = shared_id, sharers
        remember_roll(character, last)


class ExtendedLastRoll(LastRoll):
    """The latest roll of an extended roll (`commands.extended`): a reroll corrects the total."""

    judged_alone = False

    def __init__(self, caller, run, number, **kwargs):
        super().__init__(**kwargs)
        self.caller = caller
        self.run = run
        self.number = number

    def check(self):
        state = extended.load(self.caller)
        if state is None or state.run != self.run or state.rolls != self.number:
            raise DiceError("That extended roll was stopped or rolled again; its last roll can no longer be rerolled.")

    def apply(self, new):
        rules = dice_system().extended
        step = rules.step(new)
        state = rules_extended.correct_last(extended.load(self.caller), step)
        extended.save(self.caller, state)
        self.result = new
        return [extended.progress_line(state, rules, step)]


def remember_extended(cmd, state, result, view, record, receivers):
    """An extended roll's latest roll, for a later reroll (the V5 wing's `extended_keep`: in the roll's commit)."""
    remember_roll(cmd.caller, ExtendedLastRoll(
        cmd.caller, state.run, state.rolls, result=result, summary=f"extended roll {state.rolls} of {format_pool(view)}",
        difficulty_given=False, private=state.private, record=record, entry=receivers.entry, receivers=receivers))
