"""
+contest and +resist (Seyruun, docs/seyruun.md) on the shared challenge flow
(`commands.contest`): two pools, each judged at Simple for its own outcome, then compared
(`rules.seyruun.contest`, `rules.seyruun.resisted`).

**Rulings**:
- The other side is a pool of numbers (an NPC or a circumstance: `+contest dex+stealth vs 3+2`),
  rolled at once; or a character here, who is challenged (`+contest dex+stealth vs Alice`) and
  answers with their own pool (`+contest/answer wits+insight`) or declines: their sheet is rolled
  only by their answer. Staff (the Storyteller running both sides) may still roll a character's
  pool at once (`+contest wits+insight vs man+deception=Alice`); a player never rolls another
  player's sheet without their answer (`typeclasses.access`).
- The challenger's pool is checked when the challenge is made and read again from their sheet
  when it is answered (their wound and Willpower at that moment).
- The base Attribute of a pool of numbers, for the contested tie, is its first number
  (`3+2`: Attribute 3), as a pool is written Attribute first.
- A roll's costs (`/willpower`) are paid by the side whose sheet rolled it, once it is shown.
"""

import re

from storyteller_dice.rules import seyruun
from storyteller_dice.rules.contest import Outcome, Side
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import access

from ..contest import ContestCommand, challenger_side, show_contest, split_sides
from ..dice_base import dice_system, find_character
from .common import can_pay, pay, replace_request, roll_request

_POOLISH = re.compile(r"[+\-/()]|^[0-9]+$")


def base_attribute(pool):
    if pool.attribute is not None:
        return pool.attribute
    for label, value, sign in pool.parts:
        if value is None and sign > 0 and label.isdigit():
            return max(1, int(label))
    return 1


def side_request(text, character=None):
    """A side's request judged at Simple (a sheet's when `character` is given, else numbers), its costs checked."""
    system = dice_system()
    roller = character.roller() if character is not None else None
    request = system.parse(text, frozenset(), roller=roller, numbers_only=character is None)
    if roller is not None:
        can_pay(roller, system.costs(request))
    return replace_request(request, target=seyruun.MIN_DIFFICULTY, target_given=False)


def numbers_or_name(text):
    """The request of a pool of numbers, or None when `text` names a character instead."""
    try:
        return side_request(text)
    except DiceError:
        if _POOLISH.search(text):
            raise
    return None


def contest_verdict(result, attacker, defender, attacker_attribute, defender_attribute):
    a, d = result.attacker.successes, result.defender.successes
    if result.decided_by == "successes":
        winner = attacker if result.winner == "attacker" else defender
        return f"{winner} wins, {max(a, d)} to {min(a, d)} successes (margin {result.margin})."
    if result.winner == "attacker":
        return (f"Tie at {a}: {attacker} wins on the higher base Attribute "
                f"({attacker_attribute} to {defender_attribute}).")
    return (f"Tie at {a}: {defender} wins, the defender takes a tie "
            f"(base Attribute {attacker_attribute} to {defender_attribute}).")


def resist_verdict(first, second):
    result = seyruun.resisted(first.result, second.result)
    if result.takes_effect:
        return (f"The power takes effect: {result.power.successes} to {result.resistance.successes} "
                f"(net {result.net}).")
    return f"Resisted: {result.power.successes} to {result.resistance.successes}, the resistance holds."


class SeyruunContest(ContestCommand):
    """+contest and +resist share their flow (not a command itself)."""

    locks = "cmd:all()"
    other = "their pool or a character here"
    other_example = "a pool of numbers (vs 3+2) or a character here to challenge"

    def start(self, text, comment):
        text, _, other_name = (part.strip() for part in text.partition("="))
        if not other_name:
            super().start(text, comment)
            return
        mine, theirs = split_sides(text, self.other)
        character = find_character(self.caller, other_name, room_only=True)
        access.require(self.caller, character, "Only staff roll another character's pool; name the other "
                                               "side's pool as numbers (e.g. vs 3+2), or challenge them.")
        self.now(comment, (self.caller, side_request(mine, self.caller)), (character, side_request(theirs, character)))

    def read_opposition(self, text):
        return numbers_or_name(text)

    def read_side(self, text):
        return text, escape(side_request(text, self.caller).pool.describe())

    def roll_now(self, left, opposition, comment):
        self.now(comment, (self.caller, side_request(left, self.caller)), (None, opposition))

    def now(self, comment, first, second):
        """Roll both sides at once (no answer waited for) and show them."""
        others = [character for character, _ in (first, second) if character is not None]
        outcome = self.resolve(first, second)
        show_contest(self, outcome, comment, self.private, others)
        self.pay(first, second)

    def resolve(self, first, second):
        """Both (character or None, request) sides rolled: the shared flow's Outcome."""
        system, rolled, results = dice_system(), [], []
        for character, request in (first, second):
            result, view = roll_request(request, character.roller() if character is not None else None)
            label = character.key if character is not None else "the opposition"
            rolled.append(Side(label, view, system.record(result, request)))
            results.append(result)
        verdict = self.verdict(*results, rolled[0].label, rolled[1].label)
        return Outcome(tuple(rolled), escape(verdict), verdict, {"system": system.key})

    def pay(self, first, second):
        for character, request in (first, second):
            if character is not None:
                pay(character, dice_system().costs(request))

    def read_answer(self, challenge, text):
        return side_request(super().read_answer(challenge, text), self.caller)

    def roll_contest(self, challenge, answer):
        self.sides = ((challenge.challenger, challenger_side(challenge, side_request)), (self.caller, answer))
        return self.resolve(*self.sides)

    def contested(self, challenge, outcome, receivers):
        self.pay(*self.sides)


class CmdContest(SeyruunContest):
    """
    A contested roll: your pool against another's.

    Usage:
      +contest <your pool> vs <their pool> [# <comment>]
      +contest <your pool> vs <character> [# <comment>]
      +contest/answer <your pool>
      +contest/decline
      +contest/cancel
      +contest <your pool> vs <their pool>=<character>   (staff)

    Switches:
      answer  - answer the challenge made to you, with your pool
      decline - refuse the challenge made to you
      cancel  - withdraw the challenge you made
      private - shown only to both sides and staff here

    More successes wins. A tie goes to the defender (the one challenged,
    or the pool of numbers) unless your base Attribute is higher; the
    result says which rule decided. A pool of numbers (an NPC: its first
    number is its base Attribute) rolls at once; a character here is
    challenged and answers with their own pool within 5 minutes (or
    declines); staff may roll a character's pool at once. Wounds count on
    every sheet's pool; /willpower may end your pool (1 Willpower, +3 dice).

    Examples:
      +contest dex+stealth vs 3+2 # past the guard
      +contest wits+insight vs Alice
      +contest/answer man+deception
      +contest wits+insight vs man+deception=Alice
    """

    key = "+contest"
    aliases = ["contest"]
    usage = "+contest <your pool> vs <their pool or character>[=<character>] [# <comment>]"

    def verdict(self, first, second, attacker, defender):
        a_attr, d_attr = base_attribute(first.pool), base_attribute(second.pool)
        result = seyruun.contest(first.result, second.result, a_attr, d_attr)
        return contest_verdict(result, attacker, defender, a_attr, d_attr)


class CmdResist(SeyruunContest):
    """
    A resisted roll: your power's pool against a resistance pool.

    Usage:
      +resist <power pool> vs <resistance pool> [# <comment>]
      +resist <power pool> vs <character> [# <comment>]
      +resist/answer <resistance pool>
      +resist/decline
      +resist/cancel
      +resist <power pool> vs <resistance pool>=<character>   (staff)

    Switches:
      answer  - resist the power used on you, with your pool
      decline - refuse the challenge made to you
      cancel  - withdraw the challenge you made
      private - shown only to both sides and staff here

    Both pools roll at once. The power takes effect only with more
    successes than the resistance (a tie: the resistance holds); the
    result gives the net successes. The resistance is a pool of numbers,
    a character here who answers with their own pool (resistance is often
    Willpower + Resolve: res+willpower), or for staff a character's pool.

    Examples:
      +resist man+dominate vs 5
      +resist cha+dominate vs Alice # "Kneel."
      +resist/answer res+willpower
      +resist cha+dominate vs res+willpower=Alice
    """

    key = "+resist"
    aliases = ["resist"]
    kind = "resist"
    other = "the resistance pool or a character here"
    usage = "+resist <power pool> vs <resistance pool or character>[=<character>] [# <comment>]"
    answer_usage = "<resistance pool>"

    def verdict(self, first, second, attacker, defender):
        return resist_verdict(first, second)
