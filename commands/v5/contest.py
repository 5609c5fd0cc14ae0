"""
+contest: V5 contests (docs/v5.md), rolled in the room.

Two forms:

- `+contest <pool> vs <number> [hunger <n>]`: your pool (your traits, your Hunger) against
  opposition given as a number of dice with its Hunger (default 0), both rolled at once.
  **Ruling**: open to everyone, not only staff: V5 players use it for quick NPC opposition
  the Storyteller names, and the room sees every die. You are the side acting (the
  attacker) unless you add `/defend`; the defender wins ties. Staff may also roll an NPC on
  the left side, `+contest <number> hunger <n> vs <number> hunger <n>`; players always roll
  their own side with their own Hunger.
  **Ruling** (staff opposition is marked): dice that are not a character's are always
  labelled with who set them, from their account's permissions, never from a name a player
  typed or chose: `Opposition (staff: Anna)` / `NPC (staff: Anna)` when staff rolled them,
  `Opposition (set by Bob)` when a player did. A player named `NPC` or `Opposition` rolls
  "NPC vs Opposition (set by NPC)", which nobody reads as staff opposition; and a player's
  name is one word (Evennia's username validator: letters, digits, `.@+-_`, the character
  being named after the account), so no player is called "NPC (staff: Anna)".
- `+contest <pool> vs <character>`: a challenge to a character in the room. Your pool is
  checked at once and rolled when they answer (`+contest/answer <pool>`), with each side's
  Hunger at that moment; they may `/decline`, you may `/cancel`. An unanswered challenge
  expires after 5 minutes and both are told (a side who is not connected is told when they
  next connect). One challenge at a time per challenger and per challenged character.
  Challenges live in the database (Attributes on both characters, `commands.pending`), with
  their wall-clock expiry: they survive `evennia reload` and a stop/start. At every start
  the challenges whose 5 minutes ran out while the server was down are expired (both sides
  told) and the others get their timers back; a reconnecting player is told what is open.

The room sees both rolls, the winner and the margin; a tie is shown as a tie won by the
defender (the one challenged). Each side may reroll its own dice once with +willpower; the
winner is then worked out again and shown, with the other side's outcome when the reroll
changed it (a bestial failure now that it loses, a messy critical that no longer wins).
"""

import re
import time
import uuid
from dataclasses import dataclass, field

from evennia.utils.utils import delay

from storyteller_dice.rules import v5, v5_contest
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng

from .. import pending as store
from ..dice_base import DiceCommand, announce, find_character, is_staff, split_comment
from .rolls import bestial_rule, split_hunger
from .character import hunger
from .display import MAX_COMMENT, OUTCOME_COLOURS, escape, fitted, format_faces, format_pool
from .willpower import LastRoll, NotRerollable, audience, format_reroll_successes, remember_roll

PREFIX = "|w[Contest]|n"
CHALLENGE_TIMEOUT = 300  # seconds
NPC_NAME = "Opposition"
STAFF_NPC_NAME = "NPC"
OUTGOING = "contest_outgoing"  # Attributes (category commands.pending.PENDING)
INCOMING = "contest_challenge"

_VS = re.compile(r"^(?P<left>.*?)\s+vs\.?\s+(?P<right>\S.*)$", re.IGNORECASE | re.DOTALL)
_NUMBERS = re.compile(r"^[\s+\-]*\d[\d\s+\-]*$")


# ---------------------------------------------------------------- parsing


def set_by(caller):
    """Who set dice that are no character's: `staff: Anna` or `set by Bob` (see the ruling)."""
    return f"staff: {caller.key}" if is_staff(caller) else f"set by {caller.key}"


def is_number_side(text):
    """Whether the right side is opposition dice (numbers) rather than a character's name."""
    pool, hunger = split_hunger(text)
    return hunger is not None or bool(_NUMBERS.match(pool))


# ---------------------------------------------------------------- display


def side_key(result):
    """The most notable flag of a contest side (see v5.OUTCOME_LABELS), or None."""
    for key, flag in (("messy_critical", result.messy_critical), ("critical", result.critical),
                      ("bestial_failure", result.bestial_failure), ("total_failure", result.total_failure)):
        if flag:
            return key
    return None


def side_tag(result):
    """`: messy critical` and the like for a contest side, from its own flags."""
    key = side_key(result)
    return f": {OUTCOME_COLOURS[key]}{v5.OUTCOME_LABELS[key]}|n" if key else ""


def side_change(name, before, after):
    """
    The line for the side that was not rerolled when a reroll turned its outcome (it now
    loses with a Hunger 1, or its messy critical no longer wins); None when nothing changed.
    """
    old, new = side_key(before), side_key(after)
    if old == new:
        return None
    noun = "success" if after.successes == 1 else "successes"
    text = f"  {escape(name)} now: {after.successes} {noun}"
    return text + (side_tag(after) if new else f": no longer a {v5.OUTCOME_LABELS[old]}")


def side_lines(name, pool, result):
    noun = "success" if result.successes == 1 else "successes"
    return [
        f"  {escape(name)}: {format_pool(pool, result.pool, result.hunger_level, 0, difficulty_given=False)}",
        f"    {format_faces(result)}  =>  {result.successes} {noun}{side_tag(result)}",
    ]


def verdict(contest, attacker_name, defender_name):
    a, d = contest.attacker.successes, contest.defender.successes
    if contest.tie:
        noun = "success" if a == 1 else "successes"
        return f"  => Tie at {a} {noun}: |w{escape(defender_name)}|n wins (ties go to the defender)."
    winner = attacker_name if contest.winner == v5_contest.ATTACKER else defender_name
    high, low = max(a, d), min(a, d)
    return f"  => |w{escape(winner)}|n wins by {contest.margin} ({high} to {low})."


def format_contest(contest, attacker, defender, comment=""):
    """
    The lines the room sees. `attacker` and `defender` are (name, pool) pairs.
    """
    header = f"{PREFIX} {escape(attacker[0])} vs {escape(defender[0])}"
    if comment:
        header += f" # {escape(comment, MAX_COMMENT)}"
    lines = [header]
    lines += side_lines(attacker[0], attacker[1], contest.attacker)
    lines += side_lines(defender[0], defender[1], contest.defender)
    lines.append(verdict(contest, attacker[0], defender[0]))
    return "\n".join(lines)


def contest_record(command, contest, attacker, defender, comment, **extra):
    winner = attacker[0] if contest.winner == v5_contest.ATTACKER else defender[0]
    summary = (f"tie at {contest.attacker.successes}: {defender[0]} wins" if contest.tie
               else f"{winner} wins by {contest.margin}")
    record = {
        "kind": "contest",
        "command": command,
        "comment": comment,
        "result": contest,
        "regular": list(contest.attacker.regular) + list(contest.defender.regular),
        "hunger": list(contest.attacker.hunger) + list(contest.defender.hunger),
        "summary": f"{contest.attacker.successes} to {contest.defender.successes}: {summary}",
        "details": {
            "attacker": {"name": attacker[0], "pool": attacker[1].describe(),
                         "regular": list(contest.attacker.regular), "hunger": list(contest.attacker.hunger),
                         "successes": contest.attacker.successes},
            "defender": {"name": defender[0], "pool": defender[1].describe(),
                         "regular": list(contest.defender.regular), "hunger": list(contest.defender.hunger),
                         "successes": contest.defender.successes},
            "winner": "defender" if contest.winner == v5_contest.DEFENDER else "attacker",
            "margin": contest.margin,
            "tie": contest.tie,
        },
    }
    record.update(extra)
    return record


class ContestLastRoll(LastRoll):
    """One side of a contest, for +willpower: a reroll works out the winner again."""

    judged_alone = False

    def __init__(self, state, side, **kwargs):
        super().__init__(**kwargs)
        self.state = state  # shared by both sides: {"contest", "attacker", "defender"}
        self.side = side

    def current(self):
        return self.state["contest"].side(self.side)

    def apply(self, new):
        before = self.state["contest"]
        contest = v5_contest.replace_side(before, self.side, new)
        self.state["contest"] = contest
        other = v5_contest.DEFENDER if self.side == v5_contest.ATTACKER else v5_contest.ATTACKER
        change = side_change(self.state[other], before.side(other), contest.side(other))
        return ([change] if change else []) + [verdict(contest, self.state["attacker"], self.state["defender"])]

    def format_reroll(self, before, after, label):
        return format_reroll_successes(before, after, label, side_tag(after))


def remember_sides(state, sides, receivers, record, entry):
    """Make the contest each rolling character's last roll (their own side)."""
    names = {v5_contest.ATTACKER: state["attacker"], v5_contest.DEFENDER: state["defender"]}
    shared_id = uuid.uuid4().hex
    sharers = [character for character in sides.values() if character is not None]
    for side, character in sides.items():
        if character is None:
            continue
        other = names[v5_contest.DEFENDER if side == v5_contest.ATTACKER else v5_contest.ATTACKER]
        last = ContestLastRoll(
            state, side, summary=f"their dice in the contest with {escape(other)}",
            difficulty_given=False, private=False, receivers=receivers, record=record, entry=entry)
        last.shared_id, last.sharers = shared_id, sharers
        remember_roll(character, last)


# ---------------------------------------------------------------- challenges


@dataclass(eq=False)
class Challenge:
    """
    A challenge waiting for its answer. Stored as plain data on both characters (Attributes
    OUTGOING on the challenger, INCOMING on the defender, the same `id` on both); this object
    is rebuilt from them when read.
    """

    challenger: object
    defender: object
    pool: object  # rules.pools.Pool, checked when the challenge was made
    command: str = ""
    comment: str = ""
    created: float = field(default_factory=time.time)  # wall clock: the expiry survives a restart
    id: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def expired(self):
        return time.time() - self.created > CHALLENGE_TIMEOUT

    @property
    def seconds_left(self):
        return max(0.0, CHALLENGE_TIMEOUT - (time.time() - self.created))

    def to_data(self):
        return {"id": self.id, "challenger": self.challenger, "defender": self.defender,
                "pool": store.to_plain(self.pool), "command": self.command, "comment": self.comment,
                "created": float(self.created)}

    @classmethod
    def from_data(cls, data):
        """The stored challenge, or None (unreadable, or a side's character was deleted)."""
        try:
            challenge = cls(data["challenger"], data["defender"], store.from_plain(data["pool"]),
                            command=data.get("command", ""), comment=data.get("comment", ""),
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


def load_challenge(character, key):
    """The challenge stored on `character` under OUTGOING or INCOMING (pending or not), or None."""
    data = store.load(character, key)
    return Challenge.from_data(data) if isinstance(data, dict) else None


def _stored_id(character, key):
    data = store.load(character, key)
    return data.get("id") if isinstance(data, dict) else None


def pending(challenge):
    """True while `challenge` is the one stored on both characters."""
    return (
        challenge is not None
        and _stored_id(challenge.defender, INCOMING) == challenge.id
        and _stored_id(challenge.challenger, OUTGOING) == challenge.id
    )


def clear(challenge):
    if _stored_id(challenge.defender, INCOMING) == challenge.id:
        store.remove(challenge.defender, INCOMING)
    if _stored_id(challenge.challenger, OUTGOING) == challenge.id:
        store.remove(challenge.challenger, OUTGOING)


def expire_challenge(challenge):
    """Called by `delay` after CHALLENGE_TIMEOUT: drop an unanswered challenge, tell both."""
    if not pending(challenge):
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
        if challenge is None or not pending(challenge):
            store.remove(character, OUTGOING)
            continue
        if challenge.expired:
            expire_challenge(challenge)
        else:
            delay(challenge.seconds_left, expire_challenge, challenge)
    for character in store.holders(INCOMING):
        challenge = load_challenge(character, INCOMING)
        if challenge is None or not pending(challenge):
            store.remove(character, INCOMING)


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
                     f"with +contest/answer <pool> or +contest/decline within {store.minutes(theirs.seconds_left)}.")
    return lines


def live(challenge):
    """The challenge if it is still pending and not out of time (an old one is expired now)."""
    if challenge is None or not pending(challenge):
        return None
    if challenge.expired:
        expire_challenge(challenge)
        return None
    return challenge


def tell_room(caller, text):
    """A message that is not a roll, to the caller's room (or the caller alone, nowhere), fitted to
    each receiver's width."""
    from .. import dice_base  # the one way out for player text (see dice_base.send)

    dice_base.tell_room(caller, text if callable(text) else fitted(text))


class CmdContest(DiceCommand):
    """
    Roll a contest: your pool against another's, both at once.

    Usage:
      +contest <pool> vs <number> [hunger <n>] [# <comment>]
      +contest <pool> vs <character> [# <comment>]
      +contest/answer <pool>
      +contest/decline
      +contest/cancel
      +contest <number> hunger <n> vs <number> [hunger <n>]    (staff)

    Switches:
      defend  - against a number of dice: you are the defender (you win
                ties); otherwise you are acting and the opposition defends
      answer  - answer the challenge made to you, with your pool
      decline - refuse the challenge made to you
      cancel  - withdraw the challenge you made

    Both sides roll at once, each with its own Hunger; more successes wins
    by the difference, and a tie goes to the defender. Each side may reroll
    its own dice once with +willpower. The details (NPC opposition, who set
    the dice, challenges, ties at 0): help contests.

    Examples:
      +contest dex+athletics vs 6 hunger 2 # the chase
      +contest/defend wits+awareness vs 5
      +contest manipulation+persuasion vs John
      +contest/answer composure+resolve
      +contest/decline
      +contest 6 hunger 2 vs 5 hunger 1 # the hounds against the ghoul
    """

    key = "+contest"
    aliases = ["contest"]
    locks = "cmd:all()"
    switch_options = ("defend", "answer", "decline", "cancel")
    usage = "+contest <pool> vs <number> [hunger <n>] or <character>; +contest/answer <pool>"

    def run(self):
        caller = self.caller
        if not hasattr(caller, "trait_table"):
            raise DiceError("Only characters with a sheet roll contests.")
        switches = set(self.switches)
        actions = switches & {"answer", "decline", "cancel"}
        if len(actions) > 1 or (actions and "defend" in switches):
            raise DiceError("Use one switch at a time: /answer, /decline or /cancel.")
        if "answer" in switches:
            self.answer()
        elif "decline" in switches:
            self.decline()
        elif "cancel" in switches:
            self.cancel()
        else:
            self.start()

    # ------------------------------------------------------------ rolling now or challenging

    def start(self):
        text, comment = split_comment(self.args)
        found = _VS.match(text)
        if not found:
            if text.lower().startswith("vs ") or text.lower() == "vs":
                raise DiceError("Say what you roll before 'vs'.")
            raise DiceError("Say both sides: your pool, 'vs', then a number of dice or a character here.")
        left, right = found.group("left").strip(), found.group("right").strip()
        if is_number_side(right):
            self.against_dice(left, right, comment)
        else:
            self.challenge(left, right, comment)

    def against_dice(self, left, right, comment):
        caller = self.caller
        right_text, right_hunger = split_hunger(right)
        opposition = build_pool(right_text, None)
        right_hunger = 0 if right_hunger is None else right_hunger
        left_text, left_hunger = split_hunger(left)
        npc_left = left_hunger is not None
        if npc_left:
            if not is_staff(caller):
                raise DiceError("Your side rolls with your own Hunger; only staff give the left side a "
                                "Hunger (to roll an NPC).")
            mine = build_pool(left_text, None)
            my_name = f"{STAFF_NPC_NAME} ({set_by(caller)})"
        else:
            mine = build_pool(left_text, caller.trait_table())
            left_hunger = hunger(caller)
            my_name = caller.key
        v5.split_pool(mine.dice, left_hunger)
        v5.split_pool(opposition.dice, right_hunger)

        their_name = f"{NPC_NAME} ({set_by(caller)})"
        if "defend" in self.switches:
            attacker, defender = (their_name, opposition, right_hunger), (my_name, mine, left_hunger)
            my_side = v5_contest.DEFENDER
        else:
            attacker, defender = (my_name, mine, left_hunger), (their_name, opposition, right_hunger)
            my_side = v5_contest.ATTACKER
        contest = v5_contest.roll_contest(attacker[1].dice, attacker[2], defender[1].dice, defender[2],
                                          rng=get_rng(), bestial_rule=bestial_rule())
        text = fitted(format_contest(contest, attacker[:2], defender[:2], comment))
        record = contest_record(self.raw_string.strip(), contest, attacker[:2], defender[:2], comment)
        receivers = announce(caller, text, record=record)
        receivers = receivers if receivers is not None else audience(caller, False)
        entry = getattr(receivers, "entry", None)
        if npc_left:
            remember_roll(caller, NotRerollable(
                "That contest was an NPC's roll: Willpower rerolls your own character's dice only."))
        else:
            state = {"contest": contest, "attacker": attacker[0], "defender": defender[0]}
            remember_sides(state, {my_side: caller}, receivers, record, entry)

    def challenge(self, left, right, comment):
        caller = self.caller
        if "defend" in self.switches:
            raise DiceError("/defend is for a contest against a number of dice; a challenged character defends.")
        left_text, left_hunger = split_hunger(left)
        if left_hunger is not None:
            raise DiceError("Against a character, each side rolls with their own Hunger.")
        pool = build_pool(left_text, caller.trait_table())
        if not caller.location:
            raise DiceError("You are nowhere: there is no one here to challenge.")
        try:
            defender = find_character(caller, right, room_only=True)
        except DiceError:
            if "+" in right:
                raise DiceError("The other side is a number of dice (like 6 hunger 2) or a character "
                                f"here to challenge; '{escape(right)}' is neither.") from None
            raise
        if defender == caller:
            raise DiceError("You cannot challenge yourself.")
        if not hasattr(defender, "trait_table"):
            raise DiceError(f"{escape(defender.key)} has no character sheet to roll with.")
        mine = live(load_challenge(caller, OUTGOING))
        if mine:
            raise DiceError(f"You already challenged {escape(mine.defender.key)}; wait for the answer "
                            "or withdraw it with +contest/cancel.")
        theirs = live(load_challenge(defender, INCOMING))
        if theirs:
            raise DiceError(f"{escape(defender.key)} already has a challenge to answer; try again later.")

        challenge = Challenge(caller, defender, pool, command=self.raw_string.strip(), comment=comment)
        challenge.save()
        delay(CHALLENGE_TIMEOUT, expire_challenge, challenge)
        dice = pool.dice
        text = (f"{PREFIX} {escape(caller.key)} challenges {escape(defender.key)}: "
                f"{escape(pool.describe())} ({dice} {'die' if dice == 1 else 'dice'})")
        if comment:
            text += f" # {escape(comment, MAX_COMMENT)}"
        text += (f"\n  {escape(defender.key)} answers with +contest/answer <pool> or +contest/decline "
                 f"(within {CHALLENGE_TIMEOUT // 60} minutes).")
        tell_room(caller, text)

    # ------------------------------------------------------------ answering

    def answer(self):
        caller = self.caller
        challenge = self._challenge_to_me()
        challenger = challenge.challenger
        text, comment = split_comment(self.args)
        if not text:
            raise DiceError("Answer with your pool: +contest/answer <pool>.")
        if split_hunger(text)[1] is not None:
            raise DiceError("You roll with your own Hunger; leave 'hunger' out of your answer.")
        pool = build_pool(text, caller.trait_table())
        clear(challenge)
        attacker = (challenger.key, challenge.pool)
        defender = (caller.key, pool)
        contest = v5_contest.roll_contest(challenge.pool.dice, hunger(challenger), pool.dice, hunger(caller),
                                          rng=get_rng(), bestial_rule=bestial_rule())
        shown_comment = " / ".join(part for part in (challenge.comment, comment) if part)
        text = fitted(format_contest(contest, attacker, defender, shown_comment))
        record = contest_record(self.raw_string.strip(), contest, attacker, defender, shown_comment,
                                challenge=challenge.command, subject=challenger)
        receivers = announce(caller, text, record=record)
        receivers = receivers if receivers is not None else audience(caller, False)
        state = {"contest": contest, "attacker": challenger.key, "defender": caller.key}
        remember_sides(state, {v5_contest.ATTACKER: challenger, v5_contest.DEFENDER: caller},
                       receivers, record, getattr(receivers, "entry", None))

    def _challenge_to_me(self):
        caller = self.caller
        stored = load_challenge(caller, INCOMING)
        challenge = live(stored)
        if challenge is None:
            if stored is not None and stored.expired:
                raise DiceError(f"{escape(stored.challenger.key)}'s challenge has expired.")
            raise DiceError("No one has challenged you.")
        if challenge.challenger.location != caller.location:
            clear(challenge)
            store.notify(challenge.challenger, f"{PREFIX} Your challenge to {escape(caller.key)} is void: "
                         "you are no longer in the same place.",
                         away=f"{PREFIX} Your challenge to {escape(caller.key)} became void while you were "
                         "away: you were no longer in the same place when they answered.")
            raise DiceError(f"{escape(challenge.challenger.key)} is no longer here; the challenge is void.")
        return challenge

    def decline(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/decline takes nothing after it.")
        challenge = self._challenge_to_me()
        clear(challenge)
        tell_room(caller, f"{PREFIX} {escape(caller.key)} declines {escape(challenge.challenger.key)}'s challenge.")

    def cancel(self):
        caller = self.caller
        if self.args.strip():
            raise DiceError("/cancel takes nothing after it.")
        challenge = live(load_challenge(caller, OUTGOING))
        if challenge is None:
            raise DiceError("You have no challenge waiting for an answer.")
        clear(challenge)
        text = f"{PREFIX} {escape(caller.key)} withdraws the challenge to {escape(challenge.defender.key)}."
        if challenge.defender.location != caller.location:
            store.notify(challenge.defender, text)
        tell_room(caller, text)
