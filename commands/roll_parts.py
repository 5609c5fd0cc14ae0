"""
The pieces every roll command shares (`+roll`, `+check`, extended rolls, the wings' own rolls):
whom a private roll is shown to (`split_shared`, `named_audience`, `private_to`) and what the roll
log stores of a roll (`roll_record`, `roll_summary`). Apart from `commands.rolls`, so that
`commands.extended` takes them without importing +roll, which starts extended rolls.
"""

from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import Pool

from .dice_base import COMMENT, find_character, split_connected

# An extended roll's (`commands.extended`), in every system with extended-roll rules.
EXTENDED_SWITCHES = ("extended", "status", "stop")


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


def named_audience(caller, names, private, key="+roll"):
    """
    The characters a private roll is shown to by name (`split_shared`'s names), each found in
    the caller's room, once, the caller left out. Every roll that takes `/private` reads its
    `=<names>` with this (the wings' /multi and /extended too), so the rule is the same.

    Raises:
        DiceError: names without /private, or a name that is nobody here.
    """
    if names and not private:
        raise DiceError(f"To show a roll only to some characters, roll privately: "
                        f"{key}/private <pool>=<name>, <name>.")
    shared = []
    for name in names:
        found = find_character(caller, name, room_only=True)
        if found != caller and found not in shared:
            shared.append(found)
    return shared


def private_to(caller, private, shared):
    """
    The names a private roll's line says it was shown to (None: a public roll): the roller,
    those of `shared` who are connected (`split_connected`: `announce` tells the roller who
    else was named), and staff.
    """
    if not private:
        return None
    return [caller.key] + [obj.key for obj in split_connected(shared)[0]] + ["staff"]


def roll_summary(view):
    """`5 successes: messy critical` (plain words, for the record)."""
    score = view.score_text
    return f"{score}: {view.outcome.label}" if score else view.outcome.label


def roll_record(cmd, kind, request, result, view, comment, data=None):
    """
    What the roll log stores of a roll (the record contract of `commands.dice_base.announce`):
    `data` is the system's record of it, with anything more the command keeps (`data`).
    """
    system = cmd.system
    return {
        "kind": kind,
        "command": cmd.raw_string.strip(),
        "comment": comment,
        "system": system.key,
        "view": view,
        "data": {**system.record(result, request), **(data or {})},
        "summary": roll_summary(view),
        # the pool's parts, for the log's pool column (a system's own pool object, e.g.
        # Seyruun's, is not a `rules.pools.Pool`: its text)
        "pool": request.pool if isinstance(request.pool, Pool) else view.pool,
    }
