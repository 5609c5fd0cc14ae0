"""
+willpower: spend one Willpower to reroll up to three regular dice of your last roll.

Every rolling command remembers the caller's last roll with `remember_roll`: a `LastRoll`
says what was rolled, to whom it was shown, and what a reroll changes besides the dice (an
extended roll's total, a contest's winner, a team's total). It is kept in the database (an
Attribute, see `commands.pending`) as plain data and rebuilt when read, so the 10-minute
window survives `evennia reload` and a stop/start (it is wall-clock time: it runs on while the
server is down). The rolls of a contest or a teamwork roll share their state (the contest, the
team's dice): a reroll by one participant is written into the others' kept rolls too.

**Rulings** (docs/v5.md and V5 core):
- Only the caller's own last roll, made within the last 10 minutes, once per roll; never
  Hunger dice. The reroll is shown to the same audience as the roll (a public roll: the
  room; a private one: the same receivers, and staff in the room).
- Rerollable: +roll and +check (and their extended rolls), your side of a contest, your dice
  in a teamwork roll. After a contest or teamwork reroll, the winner or the total is worked
  out again and shown.
- Not rerollable: Rouse checks (Blood Potency rerolls those), Remorse tests, frenzy tests
  (Willpower tests are not rerolled with Willpower), and an NPC's dice rolled by staff.
- `best` picks the dice that maximise the exact chance to win (`rules.v5_odds.best_reroll`),
  then the lowest messy-critical chance, then the most expected successes, and keeps the roll
  (refused, nothing spent) when no reroll beats keeping it; `+odds/reroll` shows this very
  choice (`rules.v5_odds.willpower_choice`). Any strategy is
  refused with nothing spent when its dice neither raise the chance to win nor lower the
  chance of a messy critical (`rules.v5_odds.refusal`; `crits` may also raise the chance of a
  critical). Rating rolls (`+roll willpower`, `+roll humanity`) are never rerolled.
- `crits` on a roll that already wins shows `rules.v5_odds.warning_for` (the exact chances
  after the reroll) and spends nothing; `+willpower/confirm crits` spends.
"""

import importlib
import re
import time

from storyteller_dice.rules import v5, v5_odds
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from .. import pending
from ..dice_base import DiceCommand, announce, staff_in_room, width_of
from .character import has_sheet, spend_willpower, willpower_left
from .display import PREFIX, PRIVATE_PREFIX, escape, fit, fitted, format_faces, format_reroll, regular_face

REROLL_WINDOW = 600  # seconds: a Willpower reroll follows the roll it changes
LAST_ROLL = "last_roll"  # the Attribute (category commands.pending.PENDING)
_FACES = re.compile(r"^\d+(?:[\s,]+\d+)*$")
# Where the kept rolls' classes lived before the V5 wing had its own package (kept values name
# their class; a window open over the upgrade still rerolls).
MOVED = {f"commands.{name}": f"commands.v5.{name}" for name in ("willpower", "rolls", "contest", "teamwork")}


class LastRoll:
    """
    A roll that +willpower may change.

    Args:
        result (rules.v5.V5Result): the roll as shown.
        summary (str): what was rolled, already escaped (shown in the reroll's first line).
        difficulty_given (bool): whether the roll had a stated difficulty.
        private (bool): whether it was a private roll.
        receivers (list): who saw it (for a private roll, they see the reroll).
        record (dict or None): the roll's record, for the reroll's record.
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
        return format_reroll(before, after, label, self.difficulty_given)

    # ------------------------------------------------------------ stored as plain data

    def to_data(self):
        """Plain data for an Attribute: the class's name and its fields (see pending.to_plain)."""
        fields = dict(vars(self))
        # The record was only for the roll log, already written; the entry is kept by its id.
        fields.pop("record", None)
        entry = fields.get("entry")
        fields["entry"] = getattr(entry, "id", entry)
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
            module = MOVED.get(module, module)
            module = f"storyteller_dice.{module}" if module.startswith("commands.") else module
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
        except Exception:  # noqa: BLE001 - an old or damaged value is no roll to reroll
            return None


class NotRerollable(LastRoll):
    """A roll Willpower cannot reroll; `reason` says why."""

    rerollable = False

    def __init__(self, reason, **kwargs):
        super().__init__(**kwargs)
        self.reason = reason


def format_reroll_successes(before, after, label, tag=""):
    """A reroll shown with successes only (a contest side, a teamwork participant)."""
    old = " ".join(str(before.regular[i]) for i in after.rerolled)
    new = " ".join(regular_face(after.regular[i]) for i in after.rerolled)
    noun = "success" if after.successes == 1 else "successes"
    return (
        f"  |wWillpower|n ({escape(label)}): rerolled {old} -> {new}\n"
        f"  {format_faces(after)}  =>  {after.successes} {noun}{tag}"
    )


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
    """Make `last` the caller's last roll (what +willpower acts on), kept in the database."""
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


def pending_lines(character):
    """The +willpower window of the character's last roll, for the notice on connecting."""
    last = last_roll(character)
    if last is None or not last.rerollable:
        return []
    try:
        last.check()
        rerolled = bool(last.current().rerolled)
    except Exception:  # noqa: BLE001 - a roll whose context is gone is not pending
        return []
    if rerolled:
        return []
    left = REROLL_WINDOW - (time.time() - last.time)
    if left > 0:
        return [f"{PREFIX} You may still reroll your last roll ({last.summary}) with +willpower "
                f"for {pending.minutes(left)}."]
    if not getattr(last, "closed_told", False):
        last.closed_told = True
        remember_roll(character, last)
        return [f"{PREFIX} The {REROLL_WINDOW // 60} minutes to reroll your last roll ({last.summary}) "
                "with +willpower ran out."]
    return []


def rerollable_roll(caller):
    """
    The caller's last roll and its result, if Willpower may still reroll it.

    Raises:
        DiceError: no recent roll, too old, not rerollable, or already rerolled.
    """
    last = last_roll(caller)
    if last is None:
        raise DiceError("You have no recent roll to reroll.")
    if time.time() - last.time > REROLL_WINDOW:
        raise DiceError(f"Your last roll was more than {REROLL_WINDOW // 60} minutes ago; "
                        "Willpower rerolls a roll just made.")
    if not last.rerollable:
        raise DiceError(last.reason)
    last.check()
    result = last.current()
    if result.rerolled:
        raise DiceError("Your last roll has already been rerolled with Willpower (once per roll).")
    refusal = v5.reroll_refusal(result)
    if refusal:
        raise DiceError(refusal)
    return last, result


def panel_actions(character):
    """The web client's dice panel: `+willpower` while the last roll may still be rerolled."""
    try:
        last, result = rerollable_roll(character)
        spendable = willpower_left(character) > 0
    except DiceError:
        return []
    left = max(0, int(REROLL_WINDOW - (time.time() - last.time)))
    if not spendable or not left or not result.regular:  # Hunger dice are never rerolled
        return []
    return [{"label": "Reroll with Willpower", "command": "+willpower", "seconds": left}]


def parse_choice(text):
    """
    `+willpower` arguments: a strategy name (unique prefix) or dice faces.

    Returns:
        (label, strategy or None, faces or None)
    """
    text = text.strip().lower()
    if not text:
        return "failures", "failures", None
    if _FACES.match(text):
        faces = [int(face) for face in re.split(r"[\s,]+", text)]
        return "dice " + " ".join(str(face) for face in faces), None, faces
    matches = [name for name in v5.REROLL_STRATEGIES if name.startswith(text)]
    if len(matches) != 1:
        raise DiceError(
            f"Unknown Willpower choice '{escape(text)}': use {', '.join(v5.REROLL_STRATEGIES)} "
            "or the faces of the dice to reroll (like 2 3)."
        )
    return matches[0], matches[0], None


def choose_dice(result, strategy, faces, judged_alone=True):
    """
    The regular dice to reroll; DiceError when none or when the strategy cannot help
    (`rules.v5_odds.refusal`: nothing raises the chance to win or lowers the chance of a messy
    critical). Nothing is spent then. A player's own faces are never second-guessed.
    """
    if faces is not None:
        return v5.choose_faces(result, faces)
    if not result.regular:
        raise DiceError("That roll has no regular dice (all are Hunger dice); no Willpower spent.")
    picks, refusal = v5_odds.willpower_choice(result, strategy, judged_alone)
    if refusal:
        raise DiceError(refusal)
    return picks


class CmdWillpower(DiceCommand):
    """
    Spend Willpower to reroll up to three dice of your last roll.

    Usage:
      +willpower [failures, crits, messy or best]
      +willpower <dice faces>
      +willpower/confirm crits

    Costs one point of Superficial Willpower damage and rerolls up to three
    regular dice of your last roll (made in the last 10 minutes); Hunger
    dice are never rerolled. A roll is rerolled once. The new dice and the
    new outcome go to whoever saw the roll.

    Which dice:
      failures - up to three regular dice under 6 (the default)
      crits    - with one unpaired 10 showing, up to three non-10s, to
                 chase a critical
      messy    - the regular 10s that make a critical messy, when the roll
                 still wins without them
      best     - the dice that give the best exact chance to win (then the
                 least chance of a messy critical, then the most successes)
      2 3      - the regular dice showing these faces
    A strategy that raises neither the chance to win nor lowers the
    chance of a messy critical is refused, and nothing is spent. `crits`
    on a roll that already wins shows the chances and asks you to repeat
    it as +willpower/confirm crits.

    Rerollable: +roll, +check, extended rolls, your side of a +contest,
    your dice in a +teamwork roll. Not Rouse checks, Remorse or frenzy
    tests, nor +roll willpower / +roll humanity (rating rolls).

    Examples:
      +willpower
      +willpower crits
      +willpower 2 3 5
      +willpower best
    """

    key = "+willpower"
    aliases = ["willpower", "+wp"]
    locks = "cmd:all()"
    usage = "+willpower [failures, crits, messy, best or <dice faces>]"
    switch_options = ("confirm",)

    def run(self):
        caller = self.caller
        if not has_sheet(caller):
            raise DiceError("Only characters with a sheet spend Willpower.")
        last, result = rerollable_roll(caller)
        label, strategy, faces = parse_choice(self.args)
        if willpower_left(caller) < 1:
            raise DiceError("Your Willpower is exhausted: there is no Willpower left to spend.")
        picks = choose_dice(result, strategy, faces, last.judged_alone)
        warning = v5_odds.warning_for(result, strategy, picks) if strategy and last.judged_alone else None
        if warning and "confirm" not in self.switches:
            caller.msg(fit(f"{warning} Nothing spent yet: to reroll all the same, +willpower/confirm {strategy}.",
                           width_of(caller)))
            return

        spend_willpower(caller)
        new = v5.reroll(result, picks, rng=get_rng())
        extra = last.apply(new)
        remember_roll(caller, last)
        share_state(caller, last)
        prefix = PRIVATE_PREFIX if last.private else PREFIX
        lines = [f"{prefix} {escape(caller.key)} spends Willpower to reroll: {last.summary}",
                 last.format_reroll(result, new, label)]
        lines.extend(extra)
        record = {
            "kind": "willpower",
            "command": self.raw_string.strip(),
            "result": new,
            "initial": result,
            "strategy": label,
            "rerolled": tuple(picks),
            "parent": last.entry,
            "difficulty_given": last.difficulty_given,
        }
        announce(caller, fitted("\n".join(lines)), private=last.private, shared_with=last.receivers, record=record)
