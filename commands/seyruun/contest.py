"""
+contest and +resist (Seyruun): two pools rolled at once, each judged at Simple for its own
outcome, then compared (`rules.seyruun.contest`, `rules.seyruun.resisted`).

**Rulings**:
- The other side is a pool of numbers (an NPC or a circumstance: `+contest dex+stealth vs 3+2`)
  or, for staff only (the Storyteller running both sides), a character here whose sheet rolls
  that pool (`+contest wits+insight vs man+deception=Alice`): a player never rolls another
  player's sheet (`typeclasses.access`: staff, or the player's own characters). There is no
  challenge/answer flow, so there is no answer to take as consent: a player against a player is
  run by staff.
- The base Attribute of a pool of numbers, for the contested tie, is its first number
  (`3+2`: Attribute 3), as a pool is written Attribute first.
- A roll's costs (`/willpower`) are paid by the side whose sheet rolled it.
"""

from storyteller_dice.rules import seyruun
from storyteller_dice.rules.engine import split_vs
from storyteller_dice.rules.errors import DiceError

from storyteller_dice.rules.display import escape
from storyteller_dice.typeclasses import access

from ..dice_base import DiceCommand, dice_system, find_character, split_comment
from .common import can_pay, pay, replace_request, roll_request, show_roll


def base_attribute(pool):
    if pool.attribute is not None:
        return pool.attribute
    for label, value, sign in pool.parts:
        if value is None and sign > 0 and label.isdigit():
            return max(1, int(label))
    return 1


def parse_sides(cmd, what):
    """(caller's request, roller), (other request, roller or None, character or None, name), comment."""
    caller = cmd.caller
    if not hasattr(caller, "roller"):
        raise DiceError("Only characters with a sheet can roll.")
    text, comment = split_comment(cmd.args)
    other_name = None
    if "=" in text:
        text, other_name = (part.strip() for part in text.split("=", 1))
    mine, theirs = split_vs(text)
    if theirs is None or not mine.strip():
        raise DiceError(f"Say both sides: your pool, 'vs', then {what}.")
    system = dice_system()
    roller = caller.roller()
    request = system.parse(mine, frozenset(), roller=roller)
    request = replace_request(request, target=seyruun.MIN_DIFFICULTY, target_given=False)
    can_pay(roller, system.costs(request))
    character = None
    if other_name:
        character = find_character(caller, other_name, room_only=True)
        access.require(caller, character, "Only staff roll another character's pool; name the other side's pool "
                                          "as numbers (e.g. vs 3+2).")
        other_roller = character.roller()
        other = system.parse(theirs, frozenset(), roller=other_roller)
        can_pay(other_roller, system.costs(other))
        name = character.key
    else:
        other_roller = None
        other = system.parse(theirs, frozenset(), roller=None, numbers_only=True)
        name = "the opposition"
    other = replace_request(other, target=seyruun.MIN_DIFFICULTY, target_given=False)
    return (request, roller), (other, other_roller, character, name), comment


def _both(cmd, what):
    (mine, roller), (other, other_roller, character, name), comment = parse_sides(cmd, what)
    first, first_view = roll_request(mine, roller)
    second, second_view = roll_request(other, other_roller)
    return mine, first, first_view, other, second, second_view, character, name, comment


def _side_lines(name, view):
    from storyteller_dice.rules.display import format_dice, format_outcome, format_pool

    return [f"  vs {escape(name)}: {format_pool(view)}", f"  {format_dice(view)}  =>  {format_outcome(view)}"]


def _finish(cmd, kind, verb, mine, first, view, other, second, other_view, character, name, comment, verdict):
    system = dice_system()
    caller = cmd.caller
    record = {
        "kind": kind,
        "command": cmd.raw_string.strip(),
        "comment": comment,
        "system": system.key,
        "view": view,
        "data": {"sides": [system.record(first, mine), system.record(second, other)]},
        "sides": [{"label": caller.key, "view": view}, {"label": name, "view": other_view}],
        "verdict": verdict,
    }
    if character is not None:
        record["details"] = {"other": character.key}
    show_roll(caller, view, verb=verb, comment=comment,
              extra=lambda width: _side_lines(name, other_view) + [f"  |w{escape(verdict)}|n"], record=record)
    pay(caller, system.costs(mine))
    if character is not None:
        pay(character, system.costs(other))


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


class CmdContest(DiceCommand):
    """
    A contested roll: your pool against another's, both rolled at once.

    Usage:
      +contest <your pool> vs <their pool> [# <comment>]
      +contest <your pool> vs <their pool>=<character>   (staff)

    More successes wins. A tie goes to the defender (the other side)
    unless your base Attribute is higher; the result says which rule
    decided. The other side is a pool of numbers (an NPC: its first
    number is its base Attribute), or for staff a character here whose
    sheet rolls it. Wounds count on every sheet's pool; /willpower may
    end your pool (1 Willpower, +3 dice).

    Examples:
      +contest dex+stealth vs 3+2 # past the guard
      +contest str+brawl/willpower vs 4+3
      +contest wits+insight vs man+deception=Alice
    """

    key = "+contest"
    aliases = ["contest"]
    locks = "cmd:all()"
    usage = "+contest <your pool> vs <their pool>[=<character>] [# <comment>]"

    def run(self):
        mine, first, view, other, second, other_view, character, name, comment = _both(self, "their pool")
        a_attr, d_attr = base_attribute(first.pool), base_attribute(second.pool)
        result = seyruun.contest(first.result, second.result, a_attr, d_attr)
        verdict = contest_verdict(result, self.caller.key, name, a_attr, d_attr)
        _finish(self, "contest", "contests", mine, first, view, other, second, other_view, character, name,
                comment, verdict)


class CmdResist(DiceCommand):
    """
    A resisted roll: your power's pool against a resistance pool.

    Usage:
      +resist <power pool> vs <resistance pool> [# <comment>]
      +resist <power pool> vs <resistance pool>=<character>   (staff)

    Both pools roll at once. The power takes effect only with more
    successes than the resistance (a tie: the resistance holds); the
    result gives the net successes. The resistance is a pool of numbers,
    or for staff a character here whose sheet rolls it (resistance is
    often Willpower + Resolve: res+willpower).

    Examples:
      +resist man+dominate vs 5
      +resist cha+dominate vs res+willpower=Alice # "Kneel."
    """

    key = "+resist"
    aliases = ["resist"]
    locks = "cmd:all()"
    usage = "+resist <power pool> vs <resistance pool>[=<character>] [# <comment>]"

    def run(self):
        mine, first, view, other, second, other_view, character, name, comment = _both(self, "the resistance pool")
        result = seyruun.resisted(first.result, second.result)
        if result.takes_effect:
            verdict = (f"The power takes effect: {result.power.successes} to {result.resistance.successes} "
                       f"(net {result.net}).")
        else:
            verdict = (f"Resisted: {result.power.successes} to {result.resistance.successes}, "
                       "the resistance holds.")
        _finish(self, "resist", "uses a power:", mine, first, view, other, second, other_view, character, name,
                comment, verdict)
