"""
The Dice help topics (`help dice`, `help v5`, `help verifying rolls`, ...), file-based help
entries a host game lists in `FILE_HELP_ENTRY_MODULES` (README: "Add to an existing game").
Each dict is one entry: `key`, `aliases`, `category`, `text` (see Evennia's file-based help).
"""

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
    # The Dice help (the V5 guide ends "See also: help hunger, help rouse, help willpower,
    # help disciplines"). Each entry must fit one page: Evennia's help pages anything longer
    # than CLIENT_DEFAULT_HEIGHT - 4 lines (41 of 45) counting its frame, and a telnet client
    # that reports its size (NAWS) gets its own height - 4. tests/test_help_entries.py holds
    # every "Dice" entry to that. No `|` in the texts but colour codes: a lone `|` is markup.
    {
        "key": "dice",
        "aliases": ["rolling", "dice help", "how to roll"],
        "category": "Dice",
        "text": """
            Rolling here (V5): a pool of d10s against a difficulty.

            |wPool|n: Attribute + Skill, +1 die for a Specialty you have, plus or
              minus modifiers; never under 1 die. |w+roll dex+stealth vs 2|n
            |wDifficulty|n: successes needed (2 routine, 3 standard, 4 hard, 5+ for
              experts). Each 6-10 is a success (shown green, 10s bright green);
              each pair of 10s adds 2 more.
              Win by 0: bare, 1-2: solid, 3+: exceptional success.
            |wHunger dice|n: your Hunger (0-5) says how many dice of the pool are
              Hunger dice, shown apart in red (a success among them green). They
              count like the others.
            |wMessy critical|n: a win with a pair of 10s where a 10 is a Hunger die:
              you win, but the Beast chooses how. Make it bloody.
            |wBestial failure|n: a roll that fails with a 1 on a Hunger die: the
              Beast acts (a Compulsion). 0 successes is a total failure.

            |wCommands|n (each has its own help, e.g. help +roll):
              +roll <pool> [vs <n>] [# comment]   roll in the room
              +check <number> [vs <n>]            a plain number of dice
              +odds <pool> [vs <n>]               exact chances, nothing rolled
              +contest <pool> vs <character>      a contest; ties go to the defender
              +teamwork <pool> vs <n>             helpers join with +teamwork/join
              +willpower [failures, best, ...]    reroll up to 3 regular dice
              +rouse                              a Rouse check (Hunger may rise)
              +hunger, +sheet, +rolls             your Hunger, sheet and rolls
              +roll/verify <code>                 check a roll line is real

            Describe first, then roll; narrate the result, do not let the dice
            tell it. See also: help hunger, help rouse, help willpower,
            help disciplines, help verifying rolls.
        """,
    },
    {
        "key": "hunger",
        "aliases": ["hunger dice", "the beast"],
        "category": "Dice",
        "text": """
            Hunger (0-5) is the Beast's hold on a vampire. Your Hunger says how
            many dice of every pool are Hunger dice (all of them when the pool is
            smaller); they are shown apart after "Hunger:", in red (a success
            among them green, a 1 or a 10 white on red).

            Hunger dice count successes like any other die, but:
              - a win with a pair of 10s, one of them on a Hunger die, is a
                |wmessy critical|n: you win, and the Beast decides how;
              - a failed roll with a 1 on a Hunger die is a |wbestial failure|n:
                you fail and the Beast acts (your clan's Compulsion).
            Willpower never rerolls Hunger dice. Rolls of a rating alone
            (+roll willpower, +roll humanity, remorse, frenzy) have no Hunger dice.

            Hunger rises by 1 on each failed Rouse check (help rouse). At Hunger
            5 the Blood cannot be roused: a hunger frenzy test (+frenzy vs 4) is
            due instead. It falls by feeding, which staff run: slaking stops at
            Hunger 1 unless the vessel was drained and killed.

              +hunger                  your Hunger
              +odds <pool> vs <n>      your chances with your Hunger dice
            Staff: +hunger <character>=<n>, +hunger/slake <character>=<n>,
            +hunger/room. Every change is kept in the roll log.
        """,
    },
    {
        "key": "rouse",
        "aliases": ["rouse check", "rouse checks", "blood surge"],
        "category": "Dice",
        "text": """
            A Rouse check wakes the Blood: for a Discipline power, a Blood Surge,
            or rising at night. One die, no pool: 6 or more and Hunger stays;
            1-5 and Hunger rises by 1.

              +rouse                   one Rouse check
              +rouse 2                 two checks (some powers need two)
              +rouse for 2             for a level-2 power: Blood Potency's reroll
              +roll/surge <pool> vs <n>  Blood Surge: a Rouse check, then extra dice

            Blood Potency lets you reroll a failed check once for a power of up to
            its level: BP 1-2 level 1, 3-4 level 2, 5-6 level 3, 7-8 level 4,
            9-10 level 5 (BP 0: no reroll). A Blood Surge gets no reroll; it adds
            dice by Blood Potency: BP 0 +1, 1-2 +2, 3-4 +3, 5-6 +4, 7-8 +5, 9-10 +6.

            At Hunger 5 no die is rolled: the Blood cannot be roused, and a hunger
            frenzy test (+frenzy vs 4) is due. Staff: +rouse <character>[=<count>].
            See also: help hunger, help disciplines.
        """,
    },
    {
        "key": "willpower",
        "aliases": ["willpower reroll", "reroll"],
        "category": "Dice",
        "text": """
            After a roll you may spend 1 Willpower (one Superficial Willpower
            damage) to reroll up to 3 regular dice of it, once. Hunger dice are
            never rerolled, nor rolls of a rating alone (+roll willpower, +roll
            humanity). The new dice make a whole new result.

              +willpower failures      reroll up to 3 dice under 6
              +willpower crits         reroll non-10s to chase a pair of 10s
              +willpower messy         reroll regular 10s that would make a win messy
              +willpower best          the choice with the best exact chance to win
              +willpower 2 4 5         reroll exactly these faces
              +odds/reroll             the exact chance of each choice first

            The ending form +roll <pool> vs <n>/willpower rolls, then rerolls the
            failures only if the roll did not win; on a win nothing is spent.
            A choice that cannot raise your chance to win (or lower that of a
            messy critical) is refused, and nothing is spent.

            Willpower is also rolled on its own (+roll willpower), and with
            Humanity for frenzy (+frenzy). See +sheet for your Willpower.
        """,
    },
    {
        "key": "disciplines",
        "aliases": ["discipline", "powers"],
        "category": "Dice",
        "text": """
            Disciplines are the Blood's powers: Animalism, Auspex, Blood Sorcery,
            Celerity, Dominate, Fortitude, Obfuscate, Oblivion, Potence, Presence,
            Protean and Thin-blood Alchemy. Their dots are on your sheet (+sheet)
            and they add to pools like any trait, by name or unique prefix:

              +roll cha+dominate vs 3       Charisma + Dominate
              +roll wits+auspex vs 2        Wits + Auspex

            Using a power usually costs a Rouse check first (help rouse):
              +rouse                        one check
              +rouse for 3                  for a level-3 power (Blood Potency
                                            may let you reroll a failed check)
              +rouse 2                      for powers that need two checks
            A failed check raises Hunger by 1, so each power makes the next roll
            hungrier. At Hunger 5 the Blood cannot be roused.

            Which power does what, its cost and its pool are in the V5 core book;
            the Storyteller rules on anything unclear. Set dots with
            +stat <discipline>=<dots> until your sheet is approved.
        """,
    },
]

# The long parts of the shared dice commands' help (+roll, +rolls), so that `help <command>`
# fits one page under every DICE_SYSTEM (tests/test_help_pages.py).
HELP_ENTRY_DICTS += [
    {
        "key": "rolling in detail",
        "aliases": ["roll details", "private rolls", "roll codes"],
        "category": "Dice",
        "text": """
            A pool adds your traits and numbers: full names, standard
            abbreviations (str, dex, int, ...) or unique prefixes. The room sees
            the pool with each trait's value, the dice, the score and the outcome.
            How the dice are read is this game's system's: help +roll shows its
            usage and examples, and help <system> (help v5, help v20, ...) its
            rules.

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
            Every roll, every later change to a roll (a Willpower reroll, a
            contest answer) and every staff change to a sheet is stored on the
            roll log with a verification code.

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


# The long parts of +contest's help, so that `help +contest` fits one page.
HELP_ENTRY_DICTS += [
    {
        "key": "contests",
        "aliases": ["contest rules", "opposed rolls"],
        "category": "Dice",
        "text": """
            A contest (+contest) pits your pool against another's, both rolled at
            once. Both sides roll their pools, each with its own Hunger dice, and
            the side with more successes wins by the difference. A tie goes to
            the defender (the side challenged) and is shown as a tie. The room
            sees both rolls, the winner and the margin. 0 successes is a total
            failure on either side, even when a tie at 0 goes to the defender.

            Against a number of dice (NPC opposition the Storyteller gives you),
            the opposition rolls with the Hunger you state (default 0). Such dice
            are always labelled with who set them: 'Opposition (set by Bob)' when
            a player rolled, 'Opposition (staff: Anna)' or 'NPC (staff: Anna)'
            only when staff did, so no one can pass their dice off as staff
            opposition. With /defend you are the defender (you win ties);
            otherwise you are acting and the opposition defends.

            Against a character here, your pool is checked now and rolled when
            they answer (+contest/answer <pool>), within 5 minutes; both of you
            are told if the challenge expires (told when you next connect, if
            you are away). A challenge survives a server reload. Your side
            always rolls with your own Hunger; only staff roll an NPC on the
            left side with 'hunger <n>'.

            Each side may reroll its own dice once with +willpower afterwards;
            the room sees the new winner, and the other side's new outcome when
            the reroll changed it (a bestial failure once it loses, say).

            See also: help +contest, help willpower, help +odds.
        """,
    },
]


def _system_entries():
    """
    One entry per dice system, named by its key (`help v20`): how its rolls are read
    (`System.help`, rules/<key>_system.py), which `help +roll` names instead of showing it,
    so that the +roll page fits one screen under every system. Every system has its entry,
    whichever is configured (the file entries are read once, at start).
    """
    from storyteller_dice.rules.errors import DiceError
    from storyteller_dice.rules.systems import SYSTEMS, get_system

    entries = []
    for key in SYSTEMS:
        try:
            system = get_system(key)
        except DiceError:  # a system whose module is not installed has no help
            continue
        if not system.help:
            continue
        text = system.help.rstrip() + "\n\nSee also: help +roll, help rolling in detail."
        # a lone `|` would be Evennia markup: the texts mean it literally
        entries.append({"key": key, "aliases": [system.title.lower()], "category": "Dice",
                        "text": text.replace("|", "||")})
    return entries


HELP_ENTRY_DICTS += _system_entries()


# The name rule (typeclasses/names.py), where players meet it: create, charcreate, @name and
# the website's forms refuse a name that breaks it, with one line saying why.
HELP_ENTRY_DICTS += [
    {
        "key": "names",
        "aliases": ["name rule", "character names"],
        "category": "General",
        "text": """
            A character's or account's name holds letters (of any script),
            digits, single spaces and the joiners ' - . and _ only, starts with
            a letter and has at most 30 characters (an account name: 3 to 30,
            plain ASCII, no spaces). Letters are written in their plain forms
            (no full-width letters or brackets).

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
