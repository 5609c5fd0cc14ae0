"""
V20 resisted actions: `+contest` (docs/v20.md, "Resisted actions") on the shared challenge flow
(`commands.contest`). Both sides roll their own pool at their own difficulty; the one with more
net successes wins and keeps its net minus the other's (`rules.v20.resist`); equal nets: nobody
wins (no tie goes to the defender in V20).

**Rulings**:
- A player challenges a character here (`+contest <pool> [vs <diff>] = <character>`, or
  `vs <character>` as in every system: `commands.contest.split_challenged`; a `vs` followed by
  a number stays the difficulty, so `+contest dex vs 7` names no one and is refused); the
  challenged player answers with their own pool and difficulty (`+contest/answer <pool>
  [vs <diff>]`), or declines. Their sheet is rolled only by their answer, so nobody rolls
  another player's sheet without their consent.
- The challenger's pool is checked when the challenge is made and read again from their sheet
  when it is answered: both sides roll with their wounds at that moment, as one resisted action.
- The Storyteller (staff) may still roll both sides at once, from each character's own sheet
  (`+contest <character>: <pool> = <character>: <pool>`): no answer is waited for.
- A botch on either side is shown as that side's outcome; the margin is counted from the nets.
"""

from storyteller_dice.rules import v20
from storyteller_dice.rules.contest import Outcome, Side
from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from ..contest import ContestCommand, challenger_side, show_contest, split_challenged
from ..dice_base import dice_system, find_character, is_staff
from ..rolls import roll_summary


def read_side(caller, text):
    name, colon, pool = text.partition(":")
    if not colon or not name.strip() or not pool.strip():
        raise DiceError("Write each side as <character>: <pool> [vs <difficulty>].")
    character = find_character(caller, name, room_only=True)
    if not hasattr(character, "roller"):
        raise DiceError(f"{escape(character.key)} has no character sheet.")
    return character, pool.strip()


def parse(character, text):
    """The request of `text` rolled from `character`'s sheet (no switches: a resisted action takes none)."""
    return dice_system().parse(text, frozenset(), roller=character.roller())


def resolve(sides):
    """Roll both (character, pool text) sides; the shared flow's Outcome."""
    system, rng = dice_system(), get_rng()
    rolled, results = [], []
    for character, text in sides:
        request = parse(character, text)
        result = system.roll(request, character.roller(), rng=rng)
        results.append(result)
        rolled.append(Side(character.key, system.view(result, request), system.record(result, request)))
    outcome = v20.resist(*results)
    if outcome.winner is None:
        said = f"equal nets ({results[0].successes} each): nobody wins"
    else:
        winner = rolled[0].label if outcome.winner == "first" else rolled[1].label
        said = f"{winner} wins by {outcome.margin} {'success' if outcome.margin == 1 else 'successes'}"
    summary = f"{roll_summary(rolled[0].view)} vs {roll_summary(rolled[1].view)}: {said}"
    return Outcome(tuple(rolled), escape(said) + ".", summary,
                   {"system": system.key, "winner": outcome.winner, "margin": outcome.margin})


class CmdContest(ContestCommand):
    """
    A resisted action: your pool against another character's.

    Usage:
      +contest <pool> [vs <diff>] = <character> [# <comment>]
      +contest <pool> [vs <diff>] vs <character> [# <comment>]
      +contest/answer <pool> [vs <diff>]
      +contest/decline
      +contest/cancel
      +contest <character>: <pool> [vs <diff>] =
               <character>: <pool> [vs <diff>] [# <comment>]   (staff)

    Switches:
      answer  - answer the challenge made to you, with your pool
      decline - refuse the challenge made to you
      cancel  - withdraw the challenge you made
      private - shown only to both sides and staff here

    You challenge a character here; they answer with their own pool (or
    decline) within 5 minutes, and both roll then, each from their own
    sheet (wounds, Specialties and untrained Abilities apply, default
    difficulty 6). A 'vs' followed by a number is a difficulty; followed
    by anything else, the character you challenge. The side with more net
    successes wins and keeps its net successes minus the other's; equal
    nets: nobody wins. Staff may roll both sides at once. It is kept on
    the roll log as one entry.

    Examples:
      +contest dex+brawl = Bruno # the grapple
      +contest dex+brawl vs 7 vs Bruno
      +contest/answer dex+athletics vs 7
      +contest Anna: dex+brawl = Bruno: dex+athletics vs 7
    """

    key = "+contest"
    aliases = ["contest"]
    usage = "+contest <pool> [vs <diff>] vs <character>; +contest/answer <pool> [vs <diff>]"
    answer_usage = "<pool> [vs <diff>]"

    def start(self, text, comment):
        first, equals, second = (part.strip() for part in text.partition("="))
        if not equals:
            found = split_challenged(text)
            if found is None:
                raise DiceError("Name the character you challenge: +contest <pool> [vs <diff>] vs <character> "
                                "(or = <character>).")
            first, second = found
        if ":" in first:
            self.both_at_once(first, second, comment)
            return
        if not first or not second:
            raise DiceError("Write it as +contest <pool> [vs <diff>] = <character>.")
        request = parse(self.caller, first)
        defender = self.find_defender(second)
        self.challenge(defender, first, escape(request.text or first), comment)

    def both_at_once(self, first, second, comment):
        caller = self.caller
        if not is_staff(caller):
            raise DiceError("Only staff roll a resisted action for both sides; challenge the other "
                            "character instead: +contest <pool> = <character>.")
        sides = [read_side(caller, first), read_side(caller, second)]
        if sides[0][0] == sides[1][0]:
            raise DiceError("A resisted action needs two different characters.")
        others = [character for character, _ in sides]
        show_contest(self, resolve(sides), comment, self.private, others, subject=sides[0][0])

    def read_answer(self, challenge, text):
        text = super().read_answer(challenge, text)
        parse(self.caller, text)
        return text

    def roll_contest(self, challenge, answer):
        challenger_side(challenge, lambda text, character: parse(character, text))
        return resolve([(challenge.challenger, challenge.pool), (self.caller, answer)])
