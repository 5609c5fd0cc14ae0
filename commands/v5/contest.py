"""
+contest (V5, docs/v5.md "Contests"): the shared challenge flow (`commands.contest`) with V5's
rules: each side's own Hunger when it rolls, a tie to the defender, a Willpower reroll of each
side that works the winner out again, and opposition dice rolled at once (staff may give the
left side an NPC's Hunger; dice no character's are labelled with who set them: `set_by`).
"""

import re

from storyteller_dice.rules.v5 import contest as v5_contest
from storyteller_dice.rules.contest import Outcome
from storyteller_dice.rules.display import TONE_STYLES, escape
from storyteller_dice.rules.engine import RollRequest, plural
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng
from storyteller_dice.rules.v5.system import LABELS, TONES

from ..contest import ContestCommand, rolled_side, set_by, show_contest, split_sides
from ..dice_base import dice_system, is_staff
from ..last_roll import LastRoll, NotRerollable, remember_roll, remember_shared, reroll_lines
from .character import hunger
from .rolls import split_hunger

ATTACKER, DEFENDER = v5_contest.ATTACKER, v5_contest.DEFENDER
OTHER = {ATTACKER: DEFENDER, DEFENDER: ATTACKER}
_NUMBERS = re.compile(r"^[\s+\-]*\d[\d\s+\-]*$")


def side_tag(result):
    key = v5_contest.notable(result)
    return f": {TONE_STYLES.get(TONES[key], '')}{LABELS[key]}|n" if key else ""


def outcome(contest, attacker, defender):
    """The shared flow's Outcome: `attacker`, `defender` are (name, pool) pairs."""
    sides = tuple(rolled_side(name, result, RollRequest(system="v5", text="", pool=pool, dice=result.pool))
                  for (name, pool), result in ((attacker, contest.attacker), (defender, contest.defender)))
    return Outcome(sides, v5_contest.verdict(contest, escape(attacker[0]), escape(defender[0])),
                   v5_contest.summary(contest, attacker[0], defender[0]),
                   {"winner": contest.winner, "margin": contest.margin, "tie": contest.tie})


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
        other = OTHER[self.side]
        old, now = before.side(other), contest.side(other)
        lines = []
        if v5_contest.notable(old) != v5_contest.notable(now):
            tag = side_tag(now) or f": no longer a {LABELS[v5_contest.notable(old)]}"
            lines.append(f"  {escape(self.state[other])} now: {plural(now.successes, 'success', 'successes')}{tag}")
        return lines + [f"  => {v5_contest.verdict(contest, *(escape(self.state[k]) for k in (ATTACKER, DEFENDER)))}"]

    def format_reroll(self, before, after, label):
        return reroll_lines(before, after, label, score_only=True, tag=side_tag(after))


def remember_sides(state, sides, receivers, private):
    """Make the contest each rolling character's last roll (their own side)."""
    remember_shared([(character, ContestLastRoll(
        state, side, summary=f"their dice in the contest with {escape(state[OTHER[side]])}",
        difficulty_given=False, private=private, receivers=receivers, entry=receivers.entry))
        for side, character in sides.items()])


class CmdContest(ContestCommand):
    """
    Roll a contest: your pool against another's.

    Usage:
      +contest <pool> vs <number> [hunger <n>] [# <comment>]
      +contest <pool> vs <character> [# <comment>]
      +contest/answer <pool>     +contest/decline     +contest/cancel
      +contest <number> hunger <n> vs <number> [hunger <n>]    (staff)

    Switches:
      defend  - against a number of dice: you defend (you win ties)
      answer, decline - answer the challenge made to you, or refuse it
      cancel  - withdraw the challenge you made
      private - shown only to both sides and staff here

    Each side rolls with its own Hunger; more successes wins by the
    difference, a tie goes to the defender (the one challenged), who has 5
    minutes to answer. Each side may reroll its own dice once with
    +willpower. The details: help contests.

    Examples:
      +contest dex+athletics vs 6 hunger 2 # the chase
      +contest manipulation+persuasion vs John
      +contest/answer composure+resolve
    """

    key = "+contest"
    aliases = ["contest"]
    switch_options = ContestCommand.switch_options + ("defend",)
    exclusive = ("defend",)
    other_example = "a number of dice (like 6 hunger 2) or a character here to challenge"
    usage = "+contest <pool> vs <number> [hunger <n>] or <character>; +contest/answer <pool>"

    def read_opposition(self, text):
        pool, level = split_hunger(text)
        return (build_pool(pool, None), level or 0) if level is not None or _NUMBERS.match(pool) else None

    def my_side(self, left):
        """(name, pool, Hunger) of the left side: the caller's own, or staff's NPC."""
        text, level = split_hunger(left)
        if level is None:
            return self.caller.key, build_pool(text, self.caller.trait_table()), hunger(self.caller)
        if not is_staff(self.caller):
            raise DiceError("Your side rolls with your own Hunger; only staff give the left side a "
                            "Hunger (to roll an NPC).")
        return f"NPC ({set_by(self.caller)})", build_pool(text, None), level

    def roll_now(self, left, opposition, comment):
        mine, defend = self.my_side(left), "defend" in self.switches
        theirs = (f"Opposition ({set_by(self.caller)})",) + opposition
        attacker, defender = (theirs, mine) if defend else (mine, theirs)
        contest = v5_contest.roll_contest(attacker[1].dice, attacker[2], defender[1].dice, defender[2],
                                          rng=get_rng(), bestial_rule=dice_system().bestial_rule)
        receivers = show_contest(self, outcome(contest, attacker[:2], defender[:2]), comment, self.private)
        if mine[0] != self.caller.key:
            remember_roll(self.caller, NotRerollable(
                "That contest was an NPC's roll: Willpower rerolls your own character's dice only."))
            return
        state = {"contest": contest, ATTACKER: attacker[0], DEFENDER: defender[0]}
        remember_sides(state, {DEFENDER if defend else ATTACKER: self.caller}, receivers, self.private)

    def read_side(self, left):
        if "defend" in self.switches:
            raise DiceError("/defend is for a contest against a number of dice; a challenged character defends.")
        text, level = split_hunger(left)
        if level is not None:
            raise DiceError("Against a character, each side rolls with their own Hunger.")
        pool = build_pool(text, self.caller.trait_table())
        return pool, f"{escape(pool.describe())} ({plural(pool.dice, 'die', 'dice')})"

    def read_answer(self, challenge, text):
        text = super().read_answer(challenge, text)
        if split_hunger(text)[1] is not None:
            raise DiceError("You roll with your own Hunger; leave 'hunger' out of your answer.")
        return build_pool(text, self.caller.trait_table())

    def roll_contest(self, challenge, pool):
        self.rolled = v5_contest.roll_contest(challenge.pool.dice, hunger(challenge.challenger), pool.dice,
                                              hunger(self.caller), rng=get_rng(),
                                              bestial_rule=dice_system().bestial_rule)
        return outcome(self.rolled, (challenge.challenger.key, challenge.pool), (self.caller.key, pool))

    def contested(self, challenge, outcome, receivers):
        state = {"contest": self.rolled, ATTACKER: challenge.challenger.key, DEFENDER: self.caller.key}
        remember_sides(state, {ATTACKER: challenge.challenger, DEFENDER: self.caller}, receivers,
                       challenge.private or self.private)
