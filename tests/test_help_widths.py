"""
`help` at every width a client may have (20 to 250 columns): on a 390-pixel phone the web client
reports 41, a small telnet window 40, a wide screen 250 (commands/help_layout.py).

For each of the five systems, at 20, 41, 80 and 250 columns, every page a player can ask for
(the index, each Dice command, each of our help topics and the system's own, the name rule, a
topic that does not exist) is read as the session gets it, before any client parses it, and:

- every MXP link is whole (`|lc<command>|lt<text>|le` on one line) and runs `help <topic>`;
- no other `|l` markup is left (what Evennia would print as raw text);
- no line is wider than the width as the terminal draws it (wcwidth), unless it is one word.

The texts are the game's own, so the pages are exact for none of them here; the shapes of the
layout are held exactly in the unit tests at the end.
"""

import re

import pytest
from django.test import override_settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import help_layout
from storyteller_dice.commands.help_entries import HELP_ENTRY_DICTS

SYSTEMS = ("v5", "v20", "seyruun", "whalefall", "dicecheck")
WIDTHS = (20, 41, 80, 250)
LINK = re.compile(r"\|l([cu])(.*?)\|lt(.*?)\|le", re.DOTALL)
ESCAPED_BAR = "\x00"
TYPED_LINK = "|lchelp v5|ltclick me|le"


def whole_help():
    """`help` without the pager: the whole text at once, as a client with a tall window gets it."""
    from storyteller_dice.commands.help import CmdHelp

    return type("WholeHelp", (CmdHelp,), {"help_more": False})()


def problems(text, width):
    """What is wrong with a help page as sent (see the module docstring), as readable lines."""
    found = []
    text = text.replace("||", ESCAPED_BAR)
    for kind, command, shown in LINK.findall(text):
        if "\n" in command or "\n" in shown:
            found.append(f"a link cut across lines: {command!r} {shown!r}")
        if kind != "c" or not command.startswith("help "):
            found.append(f"a link that is not a help topic: {command!r}")
    plain = LINK.sub(lambda link: link.group(3), text)
    if "|l" in plain:
        at = plain.index("|l")
        found.append(f"raw link markup: {plain[max(0, at - 20):at + 30]!r}")
    for line in ansi.strip_ansi(plain.replace(ESCAPED_BAR, "||")).split("\n"):
        if help_layout.columns(line) > width and len(line.split()) > 1:
            found.append(f"{help_layout.columns(line)} columns: {line!r}")
    return found


class HelpAtEveryWidth(EvenniaCommandTest):
    def page(self, topic, cmdset, width):
        """`help <topic>` as the session gets it: the raw text, markup and links as sent."""
        self.session.protocol_flags["SCREENWIDTH"] = {0: width}
        sent = []
        self.char1.msg = lambda text=None, **kwargs: sent.append(text[0] if isinstance(text, tuple) else text)
        try:
            command = whole_help()
            command.caller, command.session, command.account, command.obj = (
                self.char1, self.session, self.account, self.char1)
            command.cmdset, command.cmdname, command.cmdstring = cmdset, "help", "help"
            command.args = f" {topic}" if topic else ""
            command.raw_string = f"help{command.args}"
            command.parse()
            command.func()
        finally:
            del self.char1.msg
        return "\n".join(str(part) for part in sent)

    def topics(self, cmdset, system):
        from storyteller_dice.commands.dice_base import HELP_CATEGORY, dice_wing

        commands = sorted({cmd.key for cmd in cmdset.commands
                           if cmd.help_category.lower() == HELP_CATEGORY.lower()})
        files = [entry["key"] for entry in HELP_ENTRY_DICTS]
        own = [topic["key"] for topic in dice_wing().help_topics]
        # the index, a category's list, the guide, the rules, every command and topic, no match,
        # a topic too long to search, a link typed as the topic
        return ["", "general", "dice", system, *commands, *files, *own, "no such topic",
                "a topic of far too many words", TYPED_LINK]

    def check_system(self, system):
        from commands.default_cmdsets import CharacterCmdSet

        with override_settings(DICE_SYSTEM=system):
            cmdset = CharacterCmdSet()
            topics = self.topics(cmdset, system)
            assert len(topics) > 15, topics
            for width in WIDTHS:
                for topic in topics:
                    with self.subTest(system=system, width=width, topic=topic):
                        text = self.page(topic, cmdset, width)
                        assert text.strip(), topic
                        assert problems(text, width) == [], (topic, width)
                        if topic == TYPED_LINK:  # what was typed is shown as text, not a link
                            assert not LINK.search(text.replace("||", ESCAPED_BAR)), text
                            assert "||\u2060lchelp" in text, text
                        if topic in ("", "+rolls") and width == 41:
                            assert "|lchelp the roll log|lt" in text

    def test_v5(self):
        self.check_system("v5")

    def test_v20(self):
        self.check_system("v20")

    def test_seyruun(self):
        self.check_system("seyruun")

    def test_whalefall(self):
        self.check_system("whalefall")

    def test_dicecheck(self):
        self.check_system("dicecheck")


# ---------------------------------------------------------------- the layout, exactly


def test_a_line_that_fits_is_left_as_written():
    text = "Usage:\n  +roll <pool>   (two spaces kept)\n|wbold|n"
    assert help_layout.wrap_text(text, 40) == text


def test_prose_is_filled_again_and_a_long_line_hangs():
    text = ("A pool adds your traits and numbers: full names, standard\n"
            "abbreviations (str, dex, int, ...) or unique prefixes.\n"
            "\n"
            "Usage:\n"
            "  +stat <character>/<trait>=<value>             (staff)")
    assert help_layout.wrap_text(text, 24).split("\n") == [
        "A pool adds your traits",
        "and numbers: full names,",
        "standard abbreviations",
        "(str, dex, int, ...) or",
        "unique prefixes.",
        "",
        "Usage:",
        "  +stat",
        "    <character>/<trait>=",
        "    <value>",
        "    (staff)",
    ]


def test_a_link_moves_whole_or_becomes_its_text():
    room = help_layout.link("help the roll log", "the roll log")
    assert help_layout.wrap_text(f"See also: {room}, and more.", 20).split("\n") == [
        "See also:",
        f"  {room}, and",
        "  more.",
    ]
    # wider than a line can hold: its text, broken between words as any text
    long = help_layout.link("help rolling in detail", "rolling in detail and more")
    assert help_layout.wrap_text(f"See {long}.", 20).split("\n") == ["See rolling in", "  detail and more."]


def test_columns_are_what_the_terminal_draws():
    assert help_layout.columns("Zoë") == 3
    assert help_layout.columns("骰子") == 4
    assert help_layout.shown_width("|w骰子|n ||") == 6
    wide = help_layout.wrap_text("骰子骰子骰子 骰子骰子骰子骰子", 20)  # 12 columns, then 16
    assert wide.split("\n") == ["骰子骰子骰子", "  骰子骰子骰子骰子"]


def test_a_grid_keeps_every_topic_whole():
    items = [help_layout.link(f"help {name}", name) for name in ("dice", "names", "verifying rolls")]
    assert help_layout.grid(items, 20) == items
    assert help_layout.grid(items, 41) == [items[0] + " " * 13 + items[1], items[2]]


# Help's width is the one every line sent to the session is wrapped at: a width below 20 is
# not believed (80), as in typeclasses.columns.
@pytest.mark.parametrize("flags,width", [({}, 80), ({"SCREENWIDTH": {0: 41}}, 41), ({"SCREENWIDTH": {0: 5}}, 80),
                                         ({"SCREENWIDTH": {0: 999}}, 250), ({"SCREENWIDTH": {0: "x"}}, 80)])
def test_session_width(flags, width):
    class Session:
        protocol_flags = flags

    assert help_layout.session_width(Session()) == width


def test_a_lone_link_code_shows_as_typed():
    # V20's `+damage <character>=<n> <bashing|lethal|aggravated>`: the bars are meant
    assert help_layout.wrap_text("<bashing|lethal>", 80) == "<bashing||\u2060lethal>"
    assert help_layout.shown_width("<bashing|lethal>") == 16
