"""
What V5 players read in the help: the guide of `help dice` (`GUIDE`, above the commands the
shared help lists) and V5's own topics (`TOPICS`: Hunger, Rouse checks, Willpower, Disciplines,
contests), declared by the V5 wing (`commands.v5.wing`) and shown only in a V5 game. Each
must fit one page (tests/test_help_entries.py); no `|` in the texts but colour codes.
"""

GUIDE = """
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
"""

TOPICS = [
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

            Using a power usually costs a Rouse check first (help rouse): +rouse
            (one check), +rouse 2 (powers that need two), +rouse for 3 (a level-3
            power: Blood Potency may let you reroll a failed check). A failed
            check raises Hunger by 1, so each power makes the next roll hungrier.
            At Hunger 5 the Blood cannot be roused.

            Which power does what, its cost and its pool are in the V5 core book;
            the Storyteller rules on anything unclear. Set dots with
            +stat <discipline>=<dots> until your sheet is approved.
        """,
    },
    {
        "key": "contests",
        "aliases": ["contest rules", "opposed rolls"],
        "category": "Dice",
        "text": """
            A contest (+contest) pits your pool against another's. Each side
            rolls with its own Hunger dice; more successes wins by the
            difference, and a tie goes to the defender (the side challenged),
            shown as a tie. The room sees both rolls, the winner and the margin.
            0 successes is a total failure on either side, even in a tie at 0.

            Against a number of dice (NPC opposition the Storyteller gives you),
            the opposition rolls with the Hunger you state (default 0), always
            labelled with who set it: 'Opposition (set by Bob)' when a player
            rolled, 'Opposition (staff: Anna)' or 'NPC (staff: Anna)' only when
            staff did, so no one passes their dice off as staff's. With /defend
            you defend (you win ties); otherwise the opposition defends.

            Against a character here, your pool is checked now and rolled when
            they answer (+contest/answer <pool>) within 5 minutes; if it
            expires, both of you are told (when you next connect, if away). A
            challenge survives a server reload. Your side rolls with your own
            Hunger; only staff roll an NPC on the left side with 'hunger <n>'.

            Each side may reroll its own dice once with +willpower; the room
            sees the new winner, and the other side's new outcome when it
            changed (a bestial failure once it loses, say).

            See also: help +contest, help willpower, help +odds.
        """,
    },
]
