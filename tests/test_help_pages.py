"""
Every Dice command's help fits one page under every DICE_SYSTEM (no Dice help
entry opens the pager; the shared commands add the system's own help).

`help <command>` shows the command's docstring plus, for the shared +roll, +check, +odds,
+sheet and +stat, the configured system's own part (its usage, `System.help`, the wing's
`roll_help` / `odds_help`, the sheet's `help()`): that whole page must stay under Evennia's
pager, which opens when the message has more than CLIENT_DEFAULT_HEIGHT - 4 = 41 lines
(`evennia.utils.evmore`), and no line may be wider than CLIENT_DEFAULT_WIDTH (78): the pager
does not re-wrap, so a wider line takes two rows. The long explanations live in file help
entries (commands/help_entries.py and the system's own, commands/<key>/help.py), each held to
the same page here.

The character's commands are the ones `CharacterCmdSet` builds under the setting: the shared
ones plus the configured system's wing cmdset (commands/default_cmdsets.py reads the wing
when the cmdset is created, so it is built inside `override_settings`).
"""

import pytest
from django.conf import settings
from django.test import override_settings
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.dice_base import HELP_CATEGORY
from storyteller_dice.commands.help_entries import HELP_ENTRY_DICTS

SYSTEMS = ("v5", "v20", "seyruun", "whalefall", "dicecheck")
PAGE = max(4, settings.CLIENT_DEFAULT_HEIGHT - 4)  # what evmore.EvMore pages at
WIDTH = settings.CLIENT_DEFAULT_WIDTH
DICE_ENTRY_KEYS = [entry["key"] for entry in HELP_ENTRY_DICTS if entry.get("category") == "Dice"]


def dice_commands(cmdset):
    """The commands of the Dice help category in a (merged) cmdset, by key, once each."""
    found = {}
    for cmd in cmdset.commands:
        if cmd.help_category.lower() == HELP_CATEGORY.lower() and cmd.access(None, "view", default=True):
            found.setdefault(cmd.key, cmd)
    return found


class HelpPages(EvenniaCommandTest):
    """`help <topic>` as a puppeted character, under one DICE_SYSTEM."""

    def help(self, topic, cmdset):
        from storyteller_dice.commands.help import CmdHelp

        self.char1.ndb._more = None
        # What Evennia's telnet session holds before (or without) NAWS: help is laid out at it.
        self.session.protocol_flags["SCREENWIDTH"] = {0: WIDTH}
        output = self.call(CmdHelp(), topic, cmdset=cmdset)
        return output

    def assert_one_page(self, topic, output, system):
        where = f"{system}: help {topic}"
        assert self.char1.ndb._more is None, f"{where} opened the pager"
        assert "page 1/" not in output, where
        lines = output.split("\n")
        assert len(lines) <= PAGE, f"{where}: {len(lines)} lines"
        wide = [line for line in (ansi.strip_ansi(line) for line in lines) if len(line) > WIDTH]
        assert not wide, f"{where}: lines wider than {WIDTH}: {wide}"

    def check_system(self, system):
        from commands.default_cmdsets import CharacterCmdSet

        with override_settings(DICE_SYSTEM=system):
            cmdset = CharacterCmdSet()
            commands = dice_commands(cmdset)
            # The shared commands are there under every system, and the wing's own where it has one.
            assert {"+roll", "+check", "+odds", "+sheet", "+stat", "+approve", "+rolls"} <= set(commands)
            from storyteller_dice.commands.dice_base import dice_wing

            wing_cmdset = dice_wing().cmdset
            if wing_cmdset is not None:
                wing_keys = {cmd.key for cmd in wing_cmdset().commands}
                assert wing_keys <= set(commands), wing_keys - set(commands)
            for key in sorted(commands):
                with self.subTest(system=system, topic=key):
                    output = self.help(key, cmdset)
                    assert output.startswith("-"), output[:200]
                    assert f"Help for {key}" in output, output[:300]
                    self.assert_one_page(key, output, system)
            own = [topic["key"] for topic in dice_wing().help_topics]
            for topic in ["dice", system] + DICE_ENTRY_KEYS + own:
                with self.subTest(system=system, topic=topic):
                    output = self.help(topic, cmdset)
                    assert f"Help for {topic}" in output, output[:300]
                    self.assert_one_page(topic, output, system)
            return commands

    def test_v5(self):
        commands = self.check_system("v5")
        assert {"+rouse", "+hunger", "+willpower", "+contest"} <= set(commands)

    def test_v20(self):
        self.check_system("v20")

    def test_seyruun(self):
        self.check_system("seyruun")

    def test_whalefall(self):
        self.check_system("whalefall")

    def test_dicecheck(self):
        self.check_system("dicecheck")

    def test_roll_help_shows_the_systems_usage_on_a_fresh_command(self):
        # `help +roll` asks a command object that never parsed: the usage must still be the system's.
        from commands.default_cmdsets import CharacterCmdSet
        from storyteller_dice.commands.dice_base import dice_system

        for system in SYSTEMS:
            with self.subTest(system=system), override_settings(DICE_SYSTEM=system):
                cmdset = CharacterCmdSet()
                rules = dice_system()
                odds_usage = rules.roll_usage.replace("+roll", "+odds", 1).replace(" [# <comment>]", "")
                for key, usage in (("+roll", rules.roll_usage), ("+check", rules.check_usage),
                                   ("+odds", odds_usage)):
                    output = self.help(key, cmdset)
                    assert f"In this game ({rules.title}):\n  {usage}" in output, (key, output)


@pytest.mark.parametrize("system", SYSTEMS)
def test_system_usage_lines_fit(system):
    # The usage lines are shown indented by two: they must fit the width then.
    from storyteller_dice.commands.dice_base import dice_system

    with override_settings(DICE_SYSTEM=system):
        rules = dice_system()
        for usage in (rules.roll_usage, rules.check_usage):
            assert len(usage) + 2 <= WIDTH, usage
