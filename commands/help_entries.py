"""
The Dice help topics.

- `HELP_ENTRY_DICTS`: the topics every system shares (`help verifying rolls`, `help rolling in
  detail`, `help the roll log`, `help names`), file-based help entries a host game lists in
  `FILE_HELP_ENTRY_MODULES` (README: "Add to an existing game"). Each dict is one entry:
  `key`, `aliases`, `category`, `text` (see Evennia's file-based help).
- `system_entries(system, wing)`: the configured system's own, which the game's `help`
  (commands/help.py) adds while that system is configured: its guide (`help dice`: the wing's
  `guide`, then the commands a player has, then where to read on), the wing's `help_topics`
  (V5's `help hunger`, ...) and its rules (`help <key>`, from `System.help`).
  `rules_entry(system)` is that last one alone: every installed system's answers `help
  <key>`, but only the configured one is in the index.

Nothing here names a system: a sixth one gets its help by declaring it.

Our command keys are the game's (`DICE_COMMAND_KEYS`, commands/keys.py): every text here names
a renamed command by its new key (`keys.rewrite`), `HELP_ENTRY_DICTS` as the settings are when
Evennia reads it, the configured system's entries on each `help`; the guide's list leaves out
a command the setting leaves out.

Each entry must fit one page: Evennia's help pages anything longer than
CLIENT_DEFAULT_HEIGHT - 4 lines (41 of 45) counting its frame, and a telnet client that
reports its size (NAWS) gets its own height - 4. tests/test_help_entries.py holds every "Dice"
entry to that, under every system. No `|` in the texts but colour codes: a lone `|` is markup.
"""

import textwrap
from textwrap import dedent

from . import keys

HELP_CATEGORY = "Dice"  # commands.dice_base's (not imported: Evennia loads this module early)

HELP_ENTRY_DICTS = [
    {
        "key": "verifying rolls",
        "aliases": ["verify", "spoofing", "nospoof help", "fake rolls"],
        "category": "Dice",
        "text": """
            Every roll line the game shows ends with a code. To check that a roll line
            is real, and see exactly what was rolled, type:

                +roll/verify <code>

            The answer comes from the roll log, which stores every roll before anyone
            is told: who rolled, the pool, the dice, the outcome and who saw it. A line
            with no code, or whose code the log does not know or describes differently,
            was not rolled by the game.

            A player's say, pose, whisper or page can never start a line of its own: it
            always starts with the speaker's name (or "Account <name> pages:"), line
            breaks (||/) in speech become spaces, and a tag such as [Roll], [Contest]
            or [Verify] typed inside speech is shown with the speaker's name in front,
            e.g. (Alice)[Roll]. A line that starts with one of those tags is the game's.

            For more certainty, +nospoof on puts the author in front of every line of
            another player's speech: [Alice(#12)] Alice says, "...". See help +nospoof.
        """,
    },
    {
        "key": "rolling in detail",
        "aliases": ["roll details", "private rolls", "roll codes"],
        "category": "Dice",
        "text": """
            A pool adds your traits and numbers: full names, standard
            abbreviations (str, dex, int, ...) or unique prefixes. The room sees
            the pool with each trait's value, the dice, the score and the outcome.
            How the dice are read is this game's system's: help +roll shows its
            usage and examples, help dice its guide, and the guide names the
            page of its rules.

            A private roll (+roll/private, +check/private) is shown only to you,
            to the characters named after = (they must be in the room; at most
            10, separated by commas) and to staff in the room:
                +roll/private <pool> vs <target>=Alice, Bob # a secret

            Every roll is stored on the roll log and its last line ends with a
            verification code, e.g. [code ABCD2345]. Anyone can check a public
            roll with +roll/verify <code> (any case); a private roll only shows
            to those it was shown to and to staff. Anyone else gets "There is no
            such roll.", just as for a code that does not exist.

            See also: help verifying rolls, help the roll log, help +odds.
        """,
    },
    {
        "key": "the roll log",
        "aliases": ["roll log", "rolllog", "roll history"],
        "category": "Dice",
        "text": """
            Every roll, every later change to a roll (a reroll, an answer to a
            challenge) and every staff change to a sheet is stored on the roll
            log with a verification code.

            Staff see the whole log with +rolls, newest first, 15 entries to a
            page, two lines each (a list taller than your screen is paged); name
            a character to see what was rolled by or for them: +rolls Alice,
            and a page after =: +rolls Alice=2. /private shows only private
            rolls, /here only what happened in this room.

            Players see their own rolls (+rolls and +rolls/mine are the same for
            them). +roll/verify <code> shows one entry in full. The log is also
            on the game's website, at /rolls/.

            See also: help +rolls, help verifying rolls.
        """,
    },

]


# The name rule (typeclasses/names.py), where players meet it: create, charcreate, @name and
# the website's forms refuse a name that breaks it, with one line saying why.
HELP_ENTRY_DICTS += [
    {
        "key": "names",
        "aliases": ["name rule", "character names"],
        "category": "General",
        "text": """
            A character's name holds letters (of any script), digits, single
            spaces and the joiners ' - . and _ only, starts with a letter and
            has at most 30 characters. An account name has 3 to 30 characters:
            letters A-Z, digits and ' - . _, starting with a letter, and no
            spaces. Letters are written in their plain forms (no full-width
            letters or brackets).

            So no name can carry colour or other markup (||, {, $), control,
            escape or invisible characters, the characters the game's locks are
            made of (; : ( ) , & !), or anything that imitates a tag such as
            [Roll] or the +nospoof tag [Name(#12)]. A name that breaks the rule
            is refused with a line saying what is wrong, on every way a name
            is made: create, charcreate, @name, @create, @dig, @open and the
            website.

            Rooms, exits and things may hold any printable text up to 80
            characters, but no markup (||, {, }) and no control characters.

            Every name is shown as text wherever the game prints it. Names
            stored before this rule that break it are listed in the server log
            at every start and shown to staff when they log in; staff rename
            them with @name.
        """,
    },
]



def _renamed(entries, table=None):
    """The entries with the renamed command keys in their texts (`keys.rewrite`)."""
    return [{**entry, "text": keys.rewrite(entry["text"], table)} for entry in entries]


def _table():
    """DICE_COMMAND_KEYS' renames, or none where the settings are not there to read."""
    try:
        return keys.renames()
    except Exception:  # noqa: BLE001 - read without Django settings (the pure tests): no renames
        return {}


HELP_ENTRY_DICTS = _renamed(HELP_ENTRY_DICTS, _table())

WIDTH = 78  # Evennia's CLIENT_DEFAULT_WIDTH: the pager does not re-wrap a wider line
COLUMN = 13  # where a command's summary starts in the guide's list


def rules_entry(system):
    """`help <key>`: how the system's rolls are read (`System.help`), which `help +roll` names
    instead of showing it, so that the +roll page fits one screen."""
    text = system.help.rstrip() + "\n\nSee also: help dice, help +roll, help rolling in detail."
    # a lone `|` would be Evennia markup: the texts mean it literally
    return {"key": system.key, "aliases": [system.title.lower()], "category": HELP_CATEGORY,
            "text": text.replace("|", "||")}


def _wrapped(first, rest, indent):
    """`first` + `rest` on lines of at most WIDTH, the later ones indented by `indent`."""
    return textwrap.wrap(first + rest, WIDTH, subsequent_indent=" " * indent, break_on_hyphens=False)


def _summary(command):
    """A command's first line of help (its docstring's first line, as Evennia's index shows)."""
    doc = dedent(command.__doc__ or "").strip()
    return doc.splitlines()[0].strip() if doc else ""


def command_lines(system, wing):
    """The guide's list: the shared commands in the system's syntax, then the wing's own."""
    table = _table()
    present = lambda key: table.get(key, key) is not None  # noqa: E731 - left out by DICE_COMMAND_KEYS
    lines = [*(_wrapped("  ", system.roll_usage, 6) if present("+roll") else []),
             *(_wrapped("  ", system.check_usage, 6) if present("+check") else []),
             *(_wrapped("  ", system.odds_usage + "  the exact chances, nothing rolled", 6)
               if present("+odds") else [])]
    sheet_rolls = [key for key in ("+sheet", "+rolls") if present(key)]
    if sheet_rolls:
        what = {"+sheet": "your sheet", "+rolls": "your rolls"}
        lines.append(f"  {', '.join(sheet_rolls)}  {' and '.join(what[key] for key in sheet_rolls)}")
    if present("+roll"):
        lines.append("  +roll/verify <code>  check that a roll line is real")
    if wing.cmdset is not None:
        commands = sorted(wing.cmdset().commands, key=lambda cmd: keys.rewrite(cmd.key, table))
        for command in commands:
            if present(command.key):
                key = keys.rewrite(command.key, table)
                lines += _wrapped(f"  {key}".ljust(COLUMN), _summary(command), COLUMN)
    return [keys.rewrite(line, table) for line in lines]


def guide_text(system, wing):
    """`help dice`: the wing's guide (or the system's blurb), its commands, where to read on."""
    intro = dedent(wing.guide).strip("\n") if wing.guide else "\n".join(
        _wrapped(f"Rolling here ({system.name}): ", system.blurb or system.title, 2))
    topics = [f"help {topic['key']}" for topic in wing.help_topics]
    more = ", ".join([f"help {system.key} (its rules)", *topics, "help rolling in detail",
                      "help verifying rolls"])
    return "\n".join([intro, "", *first_steps(), "|wCommands|n (each has its own help, e.g. help +roll):",
                      *command_lines(system, wing), "", *_wrapped("See also: ", more + ".", 2)])


def first_steps():
    """How a new character gets its sheet (+stat), one line over the list of commands (the
    longest guide is a line short of the pager); nothing where the game leaves +stat out.
    Written with our keys: `system_entries` renames them."""
    if _table().get("+stat", "+stat") is None:
        return []
    return ["|wNew here?|n Set your sheet with +stat <trait>=<value> (help +stat lists them)."]


def system_entries(system, wing):
    """The configured system's own entries: its guide, the wing's topics, its rules."""
    guide = {"key": "dice", "aliases": ["rolling", "dice help", "how to roll"], "category": HELP_CATEGORY,
             "text": guide_text(system, wing)}
    topics = [{"category": HELP_CATEGORY, **topic} for topic in wing.help_topics]
    return _renamed([guide, *topics, rules_entry(system)], _table())
