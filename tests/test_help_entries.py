"""
The Dice help topics (commands/help_entries.py, and each system's own, commands/<key>/help.py):
the V5 guide ends "See also: ... help hunger, help rouse, help willpower, help disciplines",
and `help dice` is the one-screen guide. Each must answer, and none may open Evennia's pager,
under every installed system.

Evennia 6.1 pages help through `evennia.utils.evmore` when the message has more lines than the
session's SCREENHEIGHT - 4 (`settings.CLIENT_DEFAULT_HEIGHT`, 45, unless the client reports its
size): 41 lines, counting help's frame (two rules, the title, a blank line and any "Other topic
suggestions"). Lines are not re-wrapped by the pager, so a line wider than the client
(`CLIENT_DEFAULT_WIDTH`, 78) would take two rows on screen: held to that too.

`help <topic>` is the game's (commands/help.py): a help entry named exactly as typed answers
before a category of that name ("Dice") or a command with that alias (`+hunger`'s `hunger`).

Command help (+roll, +contest, ...) is not held here: it is split elsewhere.
"""

import pytest
from django.conf import settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest
from evennia.utils.utils import dedent

from storyteller_dice.commands.help_entries import HELP_ENTRY_DICTS

PAGE = max(4, settings.CLIENT_DEFAULT_HEIGHT - 4)  # what evmore.EvMore pages at
WIDTH = settings.CLIENT_DEFAULT_WIDTH
# help's frame around an entry's text: rule, title, blank line ... rule, plus room for the
# "Other topic suggestions:" heading and two lines of suggestions.
FRAME = 4 + 3
SHARED_ENTRIES = [entry for entry in HELP_ENTRY_DICTS if entry.get("category") == "Dice"]
SEED_TOPICS = ("dice", "hunger", "rouse", "willpower", "disciplines")


def system_entries(key):
    """The entries the game's help adds under `key` (its guide, its topics, its rules)."""
    from storyteller_dice.commands.dice_base import dice_wing
    from storyteller_dice.commands.help_entries import system_entries as entries
    from storyteller_dice.rules import systems

    system = systems.get_system(key)
    return entries(system, dice_wing(system))


def every_dice_entry():
    from storyteller_dice.rules import systems

    return SHARED_ENTRIES + [entry for key in systems.installed() for entry in system_entries(key)]


def text_lines(entry):
    """The entry's text as help shows it (dedented, colour codes taken out)."""
    text = dedent(entry["text"].strip("\n")).rstrip()
    return [ansi.strip_ansi(line) for line in text.split("\n")]


def test_page_height_is_what_evennia_uses():
    from evennia.utils import evmore

    assert settings.HELP_MORE_ENABLED
    assert evmore._SCREEN_HEIGHT == settings.CLIENT_DEFAULT_HEIGHT == 45
    assert PAGE == 41


def test_every_seed_topic_is_a_dice_entry(db):  # db: Evennia initialised (the wings import its Command)
    assert set(SEED_TOPICS) <= {entry["key"] for entry in system_entries("v5")}
    assert "verifying rolls" in {entry["key"] for entry in SHARED_ENTRIES}


def test_dice_entries_fit_one_page(db):
    for entry in every_dice_entry():
        lines = text_lines(entry)
        assert len(lines) + FRAME <= PAGE, f"{entry['key']}: {len(lines)} lines of text"
        too_wide = [line for line in lines if len(line) > WIDTH]
        assert not too_wide, too_wide


def test_no_stray_pipe(db):
    # A lone `|` is Evennia markup (`|c` turns text cyan): every one must be a colour code.
    for entry in every_dice_entry():
        text = entry["text"].replace("||", "")
        for at, char in enumerate(text):
            if char == "|":
                assert text[at + 1] in "wnWrRgGyYcC", f"{entry['key']}: {text[at:at + 12]!r}"


class TestHelpCommand(EvenniaCommandTest):
    """`help <topic>` in game, as a puppeted character: the entry answers, unpaged."""

    def help(self, topic):
        from commands.default_cmdsets import CharacterCmdSet
        from storyteller_dice.commands.help import CmdHelp

        output = self.call(CmdHelp(), topic, cmdset=CharacterCmdSet())
        # `call` strips the text; help starts with a rule of dashes, then the title.
        rule, _, rest = output.partition("\n")
        assert set(rule) == {"-"}, rule
        self.lines = output.split("\n")
        return rest

    def test_seed_topics_answer_in_one_page(self):
        for topic in SEED_TOPICS + ("verifying rolls",):
            with self.subTest(topic=topic):
                output = self.help(topic)
                assert output.startswith("Help for " + topic), output[:200]
                # The pager keeps its state on the caller and prints "(page 1/2)" and its keys.
                assert self.char1.ndb._more is None, f"help {topic} opened the pager"
                assert "page 1/" not in output
                assert len(self.lines) <= PAGE, len(self.lines)

    def test_dice_names_the_parts_of_a_roll(self):
        output = self.help("dice")
        for words in ("Pool", "Difficulty", "Hunger dice", "Messy critical", "Bestial failure",
                      "+roll", "+check", "+contest", "+willpower", "+rouse", "+odds"):
            assert words in output, words

    def test_hunger_topic_is_the_file_entry_not_the_command(self):
        # `+hunger` is a command of its own; `help hunger` is the guide, which names it.
        output = self.help("hunger")
        assert "Hunger (0-5) is the Beast's hold" in output
        assert "+hunger" in output

    def test_command_help_still_answers_by_its_own_name(self):
        assert self.help("+hunger").startswith("Help for +hunger")

    def test_aliases_answer(self):
        assert self.help("rouse check").startswith("Help for rouse")
        assert self.help("rolling").startswith("Help for dice")
