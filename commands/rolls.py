"""
+roll and +check: a V5 roll of a pool with the roller's Hunger, shown to the room.

Also extended rolls (`/extended`, `/status`, `/stop`: see `extended_roll`), and every roll
is remembered on the roller (`commands.willpower.remember_roll`) for a later +willpower.
"""

import re
import time

from rules import v5, v5_extended
from rules.errors import DiceError
from rules.pools import build_pool
from rules.randomness import get_rng

from .dice_base import (COMMENT, DiceCommand, announce, bestial_rule, dice_system, find_character, split_comment,
                        whole_number)
from .dice_display import escape, format_pool, format_reroll, format_roll
from .willpower import LastRoll, audience, remember_roll

_WILLPOWER_SUFFIX = re.compile(r"/\s*(?:willpower|wp)\s*$", re.IGNORECASE)
_VS = re.compile(r"^(?P<pool>.*?)\s+vs\.?\s+(?P<difficulty>\S.*)$", re.IGNORECASE | re.DOTALL)
_VS_ONLY = re.compile(r"^vs\.?\s+", re.IGNORECASE)


def split_roll_args(text):
    """
    Split `<pool> [vs <difficulty>][/willpower] [# comment]`.

    Returns:
        (pool text, difficulty or None, willpower flag, comment)
    """
    text, comment = split_comment(text)
    willpower = False
    suffix = _WILLPOWER_SUFFIX.search(text)
    if suffix:
        willpower = True
        text = text[: suffix.start()].strip()
    difficulty = None
    match = _VS.match(text)
    if match:
        text = match.group("pool").strip()
        difficulty = whole_number(match.group("difficulty"), "The difficulty must be a whole number of successes",
                                  v5.check_difficulty)
    elif _VS_ONLY.match(text):
        raise DiceError("Say what to roll before 'vs'.")
    return text, difficulty, willpower, comment


MAX_SHARED = 10  # names after `=` in a private roll


def split_shared(text):
    """
    Split off `=<name>, <name>` (whom a private roll is shown to), before pool parsing.

    Only an `=` before the comment counts: `dex # a=b` has no names.

    Returns:
        (text without the names, list of names)
    """
    found = COMMENT.search(text)
    head, tail = (text[: found.start()], text[found.start():]) if found else (text, "")
    if "=" not in head:
        return text, []
    head, names = head.split("=", 1)
    names = [" ".join(name.split()) for name in names.split(",")]
    if not any(names):
        raise DiceError("Name the characters to share the roll with after '='.")
    if not all(names):
        raise DiceError("A name is missing in the list after '=' (names are separated by commas).")
    # Once each (any case), and few: each name is a database search, and a list of 1,200
    # names held the whole game for seconds. Counted before any search is made.
    unique = []
    for name in names:
        if name.lower() not in (seen.lower() for seen in unique):
            unique.append(name)
        if len(unique) > MAX_SHARED:
            raise DiceError(f"A private roll can be shown to at most {MAX_SHARED} characters by name "
                            "(staff here always see it).")
    return (head.rstrip() + " " + tail.strip()).strip(), unique


def willpower_at_once(caller, result, rng, difficulty_given):
    """
    The seed's `/willpower` ending: reroll the `failures` choice right after the roll.

    Returns:
        (the roll before, or None when nothing was rerolled; the roll now; the line to show)
    """
    picks = v5.choose_failures(result)
    if not picks:
        return None, result, "  |wWillpower|n: no regular dice under 6 to reroll; no Willpower spent."
    caller.spend_willpower()
    rerolled = v5.reroll(result, picks, rng=rng)
    return result, rerolled, format_reroll(result, rerolled, "failures", difficulty_given)


# ---------------------------------------------------------------- extended rolls (RULES.md §1)

EXTENDED_SWITCHES = frozenset(("extended", "status", "stop"))
EXTENDED_KEY = "extended_roll"
DICE_CATEGORY = "dice"


def stored_extended(caller):
    """(ExtendedState, stored dict) of the caller's extended roll, or (None, None)."""
    data = caller.attributes.get(EXTENDED_KEY, category=DICE_CATEGORY)
    if not data:
        return None, None
    data = dict(data)
    return v5_extended.ExtendedState.from_dict(dict(data.get("state") or {})), data


def save_extended(caller, state, data):
    data = dict(data)
    data["state"] = state.to_dict()
    caller.attributes.add(EXTENDED_KEY, data, category=DICE_CATEGORY)
    return data


def extended_progress(state, result=None):
    """`  Extended: 7/10 after 2 rolls.` (with the bestial failure note for this roll)."""
    rolls = f"{state.rolls} roll{'s' if state.rolls != 1 else ''}"
    text = f"  |wExtended|n: {state.total}/{state.target} after {rolls}"
    if state.complete:
        text += ": |gcomplete|n"
    if result is not None and result.bestial_failure:
        text += " (|[r|wbestial failure|n on this roll: the total is kept)"
    return text + "."


def describe_extended(state):
    rolls = f"{state.rolls} roll{'s' if state.rolls != 1 else ''}"
    done = ", complete" if state.complete else ""
    return f"{escape(state.pool)} toward {state.target}: {state.total}/{state.target} after {rolls}{done}"


class ExtendedLastRoll(LastRoll):
    """The latest roll of an extended roll: a Willpower reroll corrects the total."""

    def __init__(self, caller, run, number, **kwargs):
        super().__init__(**kwargs)
        self.caller = caller
        self.run = run
        self.number = number

    def check(self):
        state, data = stored_extended(self.caller)
        if state is None or data.get("run") != self.run or state.rolls != self.number:
            raise DiceError("That extended roll was stopped or rolled again; its last roll can no longer be rerolled.")

    def apply(self, new):
        state, data = stored_extended(self.caller)
        state = v5_extended.correct_last_roll(state, self.result, new)
        save_extended(self.caller, state, data)
        self.result = new
        return [extended_progress(state, new)]


def extended_roll(cmd):
    """
    `+roll/extended <pool> vs <target>` starts an extended roll and makes its first roll;
    `+roll/extended` rolls again (the same pool, read from your sheet now, with your Hunger
    now); `/status` shows it; `/stop` drops it. The state lives in a database Attribute on
    the character (category "dice"), so it survives a restart.
    """
    caller = cmd.caller
    switches = set(cmd.switches)
    try:
        state, data = stored_extended(caller)
    except DiceError:
        if switches != {"stop"} or cmd.args.strip():
            raise
        # The refusal says "stop it and start again": a damaged state must still be dropped.
        caller.attributes.remove(EXTENDED_KEY, category=DICE_CATEGORY)
        caller.msg("You stop your damaged extended roll.")
        return
    if "status" in switches or "stop" in switches:
        if "status" in switches and "stop" in switches:
            raise DiceError("Use /status or /stop, not both.")
        if "willpower" in switches or "private" in switches:
            raise DiceError("/status and /stop take no other switch.")
        if cmd.args.strip():
            raise DiceError("/status and /stop take nothing after them.")
        if state is None:
            raise DiceError("You have no extended roll.")
        if "stop" in switches:
            caller.attributes.remove(EXTENDED_KEY, category=DICE_CATEGORY)
            caller.msg(f"You stop your extended roll of {describe_extended(state)}.")
        else:
            caller.msg(f"Your extended roll: {describe_extended(state)}.")
        return

    text, target, willpower, comment = split_roll_args(cmd.args)
    willpower = willpower or "willpower" in switches
    if text:
        if target is None:
            raise DiceError("Say the total to reach: +roll/extended <pool> vs <target>.")
        if state is not None and not state.complete:
            raise DiceError(f"You already have an extended roll going ({describe_extended(state)}); "
                            "roll it with /extended or drop it with /stop.")
        state = v5_extended.start(text, target)
        data = {"private": "private" in switches, "numbers_only": cmd.numbers_only,
                "run": f"{caller.id}-{time.time():.6f}"}
        title = "starts an extended roll toward"
    else:
        if target is not None:
            raise DiceError("Say what to roll before 'vs'.")
        if state is None:
            raise DiceError("You have no extended roll going: start one with +roll/extended <pool> vs <target>.")
        if state.complete:
            raise DiceError(f"Your extended roll is complete ({state.total}/{state.target}); "
                            "start a new one with +roll/extended <pool> vs <target>.")
        if "private" in switches and not data.get("private"):
            raise DiceError("This extended roll is public; /private only applies when starting one.")
        title = "continues an extended roll toward"
    private = bool(data.get("private"))
    table = None if data.get("numbers_only") else caller.trait_table()
    pool = build_pool(state.pool, table)
    if willpower and caller.willpower_left < 1:
        raise DiceError("Your Willpower is exhausted: you cannot reroll with Willpower.")

    rng = get_rng()
    result = v5_extended.roll(pool.dice, caller.hunger, rng=rng, bestial_rule=bestial_rule())
    private_to = [caller.key, "staff"] if private else None
    title = f"{title} {state.target} (roll {state.rolls + 1}):"
    lines = [format_roll(caller.key, pool, result, False, comment, private_to=private_to, title=title)]
    initial = None
    if willpower:
        initial, result, line = willpower_at_once(caller, result, rng, False)
        lines.append(line)
    state = v5_extended.add_roll(state, result)
    data = save_extended(caller, state, data)
    lines.append(extended_progress(state, result))
    record = {
        "kind": "extended",
        "command": cmd.raw_string.strip(),
        "pool": pool,
        "result": result,
        "initial": initial,
        "difficulty_given": False,
        "comment": comment,
        "details": {"target": state.target, "total": state.total, "roll": state.rolls,
                    "complete": state.complete},
    }
    receivers = announce(caller, "\n".join(lines), private=private, record=record)
    summary = f"extended roll {state.rolls} of " + format_pool(pool, result.pool, result.hunger_level, 1, False)
    remember_roll(caller, ExtendedLastRoll(
        caller, data["run"], state.rolls, result=result, summary=summary, difficulty_given=False, private=private,
        record=record, entry=getattr(receivers, "entry", None),
        receivers=receivers if receivers is not None else audience(caller, private)))


class CmdRoll(DiceCommand):
    """
    Roll a dice pool with your Hunger dice.

    Usage:
      +roll <pool> [vs <difficulty>] [# <comment>]
      +roll <pool> vs <difficulty>/willpower
      +roll/private <pool> [vs <difficulty>][=<name>, <name>...] [# <comment>]
      +roll/verify <code>
      +roll/extended <pool> vs <target total> [# <comment>]
      +roll/extended [# <comment>]
      +roll/status   or   +roll/stop

    Switches:
      private   - show the roll only to yourself, the characters named
                  after = (they must be here; at most 10) and staff in
                  the room
      willpower - after rolling, spend 1 Willpower to reroll up to three
                  regular dice under 6 (same as the /willpower ending)
      verify    - show the stored roll with that verification code
      extended  - start an extended roll (with a pool and a target total),
                  or, alone, roll your extended roll again
      status    - show your extended roll's progress
      stop      - drop your extended roll

    A pool adds Attributes, Skills, Disciplines and numbers: full names,
    standard abbreviations (str, dex, int, ...) or unique prefixes. A
    Specialty you have adds one die: str+brawl(grappling). The difficulty is
    the number of successes needed; without one, any success is a success.
    0 successes never wins, not even vs 0: it is a total failure.
    Your current Hunger says how many of the dice are Hunger dice.

    The room sees the pool with each trait's value, your regular and Hunger
    dice apart, the successes and the outcome: bare, solid or exceptional
    success, critical, messy critical, failure, total failure or bestial
    failure, and the margin against a stated difficulty.

    Extended rolls: each roll's successes add up toward the target total.
    The first roll is made when you start; +roll/extended rolls the same
    pool again (with your Hunger at that moment). A bestial failure on a
    roll is shown on that roll and the total so far is kept. The extended
    roll is kept on your character (even over a restart) until you start a
    new one after completing it, or /stop it. Start it with /private to
    keep all its rolls private.

    Every roll is stored on the roll log and its last line ends with a
    verification code, e.g. [code ABCD2345]. Anyone can check a public roll
    with +roll/verify <code> (any case); a private roll only shows to those
    it was shown to and to staff. Anyone else gets "There is no such roll.",
    just as for a code that does not exist. See also +rolls.

    Examples:
      +roll dex+stealth vs 3
      +roll dexterity + stealth + 2 - 1 vs 2 # in the dark, with a head start
      +roll str+brawl(grappling) vs 4
      +roll/private wits+awareness
      +roll/private wits+awareness vs 2=Bob, Carla # who is lying?
      +roll/verify abcd2345
      +roll res+occult vs 3/willpower
      +roll/extended int+occult vs 10 # researching the ritual
      +roll/extended
      +roll/status
    """

    key = "+roll"
    aliases = ["roll"]
    locks = "cmd:all()"
    switch_options = ("private", "willpower", "verify", "extended", "status", "stop")
    usage = "+roll <pool> [vs <difficulty>] [# <comment>]"
    verb = "rolls"
    numbers_only = False

    def run(self):
        caller = self.caller
        if "verify" in self.switches:
            from .rolllog import verify_roll

            verify_roll(caller, self.args)
            return
        if not hasattr(caller, "trait_table"):
            raise DiceError("Only characters with a sheet can roll.")
        if EXTENDED_SWITCHES & set(self.switches):
            self.run_extended()
            return
        system = dice_system()
        private = "private" in self.switches
        args, names = split_shared(self.args)
        if names and not private:
            raise DiceError(f"To show a roll only to some characters, roll privately: "
                            f"{self.key}/private <pool>=<name>, <name>.")
        shared = []
        for name in names:
            found = find_character(caller, name, room_only=True)
            if found != caller and found not in shared:
                shared.append(found)
        text, difficulty, willpower, comment = split_roll_args(args)
        willpower = willpower or "willpower" in self.switches
        table = None if self.numbers_only else caller.trait_table()
        pool = build_pool(text, table)
        if willpower and caller.willpower_left < 1:
            raise DiceError("Your Willpower is exhausted: you cannot reroll with Willpower.")

        rng = get_rng()
        given = difficulty is not None
        result = system.roll(pool.dice, caller.hunger, difficulty if given else 1, rng=rng,
                             bestial_rule=bestial_rule())
        private_to = [caller.key] + [obj.key for obj in shared] + ["staff"] if private else None
        text = format_roll(caller.key, pool, result, given, comment,
                           private_to=private_to, title=self.verb)
        initial = None
        if willpower:
            initial, result, line = willpower_at_once(caller, result, rng, given)
            text += "\n" + line
        record = {
            "kind": self.key.lstrip("+"),
            "command": self.raw_string.strip(),
            "pool": pool,
            "result": result,
            "initial": initial,
            "difficulty_given": given,
            "comment": comment,
        }
        receivers = announce(caller, text, private=private, shared_with=shared, record=record)
        remember_roll(caller, LastRoll(
            result=result, summary=format_pool(pool, result.pool, result.hunger_level, result.difficulty, given),
            difficulty_given=given, private=private, record=record, entry=getattr(receivers, "entry", None),
            receivers=receivers if receivers is not None else audience(caller, private, shared)))

    def run_extended(self):
        """+roll/extended, /status and /stop (see `extended_roll`)."""
        extended_roll(self)


class CmdCheck(CmdRoll):
    """
    Roll a number of dice with your Hunger dice (a quick roll).

    Usage:
      +check <number> [vs <difficulty>] [# <comment>]
      +check/private <number> [vs <difficulty>][=<name>, <name>...]

    Switches:
      private   - show the roll only to yourself, the characters named
                  after = (they must be here) and staff in the room
      willpower - after rolling, spend 1 Willpower to reroll up to three
                  regular dice under 6
      verify    - show the stored roll with that verification code
      extended  - an extended roll of a number of dice (see +roll)
      status    - show your extended roll's progress
      stop      - drop your extended roll

    Like +roll, but with a plain number of dice (modifiers like 5+2 work)
    instead of traits. Your current Hunger says how many are Hunger dice.

    Examples:
      +check 5 vs 2
      +check 6+1 # soaking up the blast
      +check/extended 6 vs 12
      +check/extended
    """

    key = "+check"
    aliases = ["check"]
    usage = "+check <number> [vs <difficulty>] [# <comment>]"
    verb = "checks"
    numbers_only = True
