"""
Our command keys in a host's game (commands/keys.py): `DICE_COMMAND_KEYS` renames or leaves out
a command of ours, help and the web panel follow the new key, a command or alias the host's
cmdsets already have is left to the host's, and a bad setting is one line naming it.

The host here is `HostCharacterCmdSet`: Evennia's character commands, its own `+roll` and
`+sheet` (alias `sh`), a command `odds` (our `+odds`' alias) and `DiceCmdSet` added last, as
the README's block does.
"""

import os
import subprocess
import sys
from pathlib import Path

from django.test import override_settings
from evennia.commands.command import Command
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import keys
from storyteller_dice.rules import systems
from storyteller_dice.typeclasses import panel

HOST = "tests.test_command_keys.HostCharacterCmdSet"
SHARED = "+approve, +check, +dice, +odds, +roll, +rolls, +sheet, +stat, ooc"
def catalogue():
    """`commands.catalogue`, imported once Evennia is initialised (it imports the commands)."""
    from storyteller_dice.commands import catalogue as module

    return module


V5_OURS = ("+approve, +check, +contest, +dice, +frenzy, +hunger, +odds, +remorse, +roll, +rolls, +rouse, +sheet, "
           "+stat, +teamwork, +willpower, ooc")


class HostRoll(Command):
    """
    the host's own roll

    Usage:
      +roll <dice>
    """

    key = "+roll"

    def func(self):
        self.msg("The host's +roll.")


class HostSheet(Command):
    """the host's own sheet"""

    key = "+sheet"
    aliases = ["sh"]

    def func(self):
        self.msg("The host's +sheet.")


class HostOdds(Command):
    """the host's own odds (our +odds' alias)"""

    key = "odds"

    def func(self):
        self.msg("The host's odds.")


def _host_cmdset():
    from evennia import default_cmds

    from storyteller_dice.commands import DiceCmdSet as StorytellerDiceCmdSet

    class HostCharacterCmdSet(default_cmds.CharacterCmdSet):
        key = "DefaultCharacter"

        def at_cmdset_creation(self):
            super().at_cmdset_creation()
            self.add(HostRoll)
            self.add(HostSheet)
            self.add(HostOdds)
            self.add(StorytellerDiceCmdSet)

    HostCharacterCmdSet.__module__ = __name__
    return HostCharacterCmdSet


_MADE = []


def __getattr__(name):
    # The host's cmdset is made once Evennia is loaded (its default cmdsets need that), and is
    # found by its path as a host's would be (CMDSET_CHARACTER).
    if name == "HostCharacterCmdSet":
        if not _MADE:
            _MADE.append(_host_cmdset())
        return _MADE[0]
    raise AttributeError(name)


def answering(cmdset, name):
    """The class of the one command of `cmdset` answering to `name` (None: none)."""
    found = [type(cmd) for cmd in cmdset.commands if name in cmd._matchset]
    assert len(found) <= 1, found
    return found[0] if found else None


def ours(cls):
    return cls is not None and cls.__module__.startswith("storyteller_dice.")


class HostTest(EvenniaCommandTest):
    """Under the host's character cmdset (the names read afresh for each test)."""

    def setUp(self):
        super().setUp()
        keys.reset()
        self.addCleanup(keys.reset)
        host = override_settings(CMDSET_CHARACTER=HOST, DICE_SYSTEM="v5")
        host.enable()
        self.addCleanup(host.disable)

    def cmdset(self):
        return __getattr__("HostCharacterCmdSet")()


class TestCollisions(HostTest):
    def test_by_default_the_hosts_commands_answer_and_our_clashing_alias_is_dropped(self):
        cmdset = self.cmdset()
        assert answering(cmdset, "+roll") is HostRoll
        assert answering(cmdset, "+sheet") is HostSheet
        assert answering(cmdset, "sh") is HostSheet
        # Our +roll is left out whole, its alias too; our +sheet likewise.
        assert answering(cmdset, "roll") is None
        assert answering(cmdset, "sheet") is None
        # `odds` is the host's; our +odds stays, without that alias.
        assert answering(cmdset, "odds") is HostOdds
        odds = answering(cmdset, "+odds")
        assert ours(odds) and odds.aliases == []
        # The rest of ours is there as it was.
        assert ours(answering(cmdset, "+check")) and ours(answering(cmdset, "check"))
        assert ours(answering(cmdset, "+willpower")) and ours(answering(cmdset, "+wp"))

    def test_the_lines_for_the_log_and_the_staff_notice(self):
        assert catalogue().collision_lines() == [
            'storyteller_dice: "+sheet" is a command of the host\'s (tests.test_command_keys.HostSheet) and of '
            'ours; the host\'s answers. DICE_COMMAND_KEYS = {"+sheet": "<new key>"} gives ours another key.',
            'storyteller_dice: "+roll" is a command of the host\'s (tests.test_command_keys.HostRoll) and of '
            'ours; the host\'s answers. DICE_COMMAND_KEYS = {"+roll": "<new key>"} gives ours another key.',
            'storyteller_dice: "odds" is a command of the host\'s (tests.test_command_keys.HostOdds) and an '
            'alias of our "+odds"; the host\'s answers, and ours answers to "+odds".',
        ]

    def test_the_start_logs_them(self):
        from unittest.mock import patch

        with patch("evennia.utils.logger.log_warn") as warn:
            lines = catalogue().report_collisions()
        assert [call.args[0] for call in warn.call_args_list] == lines and len(lines) == 3

    def test_an_alias_that_is_a_host_name_but_for_its_prefix_is_dropped(self):
        with override_settings(DICE_COMMAND_KEYS={"+roll": "+droll"}):
            assert (
                'storyteller_dice: "roll" is a command of the host\'s (tests.test_command_keys.HostRoll, as '
                '"+roll") and an alias of our "+droll"; the host\'s answers, and ours answers to "+droll".'
            ) in catalogue().collision_lines()

    def test_a_new_key_that_the_host_has_is_left_out_too(self):
        with override_settings(DICE_COMMAND_KEYS={"+roll": "sh", "+sheet": None}):
            assert catalogue().collision_lines() == [
                'storyteller_dice: "sh" is a command of the host\'s (tests.test_command_keys.HostSheet) and of '
                'ours (DICE_COMMAND_KEYS renames our "+roll" to it); the host\'s answers. '
                'DICE_COMMAND_KEYS = {"+roll": "<another key>"} gives ours another key.',
                'storyteller_dice: "odds" is a command of the host\'s (tests.test_command_keys.HostOdds) and an '
                'alias of our "+odds"; the host\'s answers, and ours answers to "+odds".',
            ]
            cmdset = self.cmdset()
            assert answering(cmdset, "sh") is HostSheet and answering(cmdset, "roll") is None

    def test_the_host_names_are_read_once(self):
        first = keys.host_names()
        assert keys.host_names() is first
        assert first["+roll"] is HostRoll and first["sh"] is HostSheet and first["look"].__name__ == "CmdLook"
        assert not any(ours(cls) for cls in first.values())
        assert not any(name.startswith("__") for name in first)

    def test_a_command_that_extends_the_stock_one_it_meets_is_no_collision(self):
        from evennia.commands.default.account import CmdOOC as StockOOC

        class CmdOurOOC(Command):
            key = "ooc"
            extends_stock = "evennia.commands.default.account.CmdOOC"

        class CmdHostOOC(StockOOC):
            pass

        assert keys.decide(CmdOurOOC, {}, {"ooc": StockOOC}).key == "ooc"
        decision = keys.decide(CmdOurOOC, {}, {"ooc": CmdHostOOC})
        assert decision.key is None
        assert decision.lines == [
            'storyteller_dice: "ooc" is a command of the host\'s (tests.test_command_keys.'
            'TestCollisions.test_a_command_that_extends_the_stock_one_it_meets_is_no_collision.<locals>.'
            'CmdHostOOC) and of ours; the host\'s answers. DICE_COMMAND_KEYS = {"ooc": "<new key>"} gives '
            'ours another key.']

    def test_names_in_the_lines_are_inert(self):
        assert keys.shown("+r|roll\x1b[31m\u202e") == '"+r\\u007croll\\u001b[31m\\u202e"'
        assert keys.shown("x" * 90) == '"' + "x" * 80 + '..."'


class TestProbe(EvenniaCommandTest):
    def test_while_probing_our_cmdsets_add_nothing(self):
        from commands.default_cmdsets import AccountCmdSet, CharacterCmdSet, UnloggedinCmdSet
        from storyteller_dice.commands import default_cmdsets
        from storyteller_dice.commands.default_cmdsets import DiceCmdSet

        with keys._probe():
            assert keys.probing()
            for cmdset in (DiceCmdSet, default_cmdsets.SpeechCmdSet, default_cmdsets.BuildingCmdSet,
                           default_cmdsets.HelpCmdSet, default_cmdsets.DiceAccountCmdSet,
                           default_cmdsets.DiceUnloggedinCmdSet):
                assert cmdset().commands == [], cmdset
            for cmdset in (CharacterCmdSet, AccountCmdSet, UnloggedinCmdSet):
                assert not [cmd for cmd in cmdset().commands if ours(type(cmd))], cmdset
        assert not keys.probing()
        assert ours(answering(CharacterCmdSet(), "+roll"))

    def test_this_game_has_no_collision(self):
        keys.reset()
        self.addCleanup(keys.reset)
        assert catalogue().collision_lines() == []


def panels():
    from storyteller_dice.commands import panel as command_panel
    from storyteller_dice.typeclasses import panel

    command_panel.install()
    return command_panel, panel


class TestRenamed(HostTest):
    def setUp(self):
        super().setUp()
        renamed = override_settings(DICE_COMMAND_KEYS={"+roll": "+droll", "+check": "+chk", "+stat": None})
        renamed.enable()
        self.addCleanup(renamed.disable)

    def test_ours_answers_under_the_new_key_and_its_alias_still_works(self):
        from storyteller_dice.commands.rolls import CmdCheck, CmdRoll

        cmdset = self.cmdset()
        chk = answering(cmdset, "+chk")
        assert issubclass(chk, CmdCheck) and chk.key == "+chk" and chk.aliases == ["check"]
        assert answering(cmdset, "check") is chk and answering(cmdset, "+check") is None
        # +roll's alias `roll` is the host's `+roll` to Evennia's help: dropped.
        droll = answering(cmdset, "+droll")
        assert issubclass(droll, CmdRoll) and droll.key == "+droll" and droll.aliases == []
        assert answering(cmdset, "roll") is None
        assert answering(cmdset, "+roll") is HostRoll
        # +stat is left out, its alias too
        assert answering(cmdset, "+stat") is None and answering(cmdset, "stat") is None
        self.char1.set_trait("dexterity", 3)
        output = self.call(droll(), "dex vs 1", caller=self.char1, cmdstring="+droll")
        assert output.startswith("[Roll] Char rolls Dexterity 3 (3 dice), Hunger 1, vs 1\n"), output
        # a refusal's usage line names the new key
        output = self.call(droll(), "/nonsense dex", caller=self.char1, cmdstring="+droll")
        assert "Usage: +droll <pool> [vs <difficulty>] [# <comment>]" in output, output

    def test_help_follows_the_new_key(self):
        from evennia.commands.default.help import CmdHelp as StockHelp

        from storyteller_dice.commands.help import CmdHelp

        cmdset = self.cmdset()
        for helper in (CmdHelp, StockHelp):
            self.char1.ndb._more = None
            output = self.call(helper(), "+droll", cmdset=cmdset)
            lines = [line.strip() for line in output.split("\n")]
            # (Evennia's help shows a key without its + when no command is called the rest)
            assert "Help for droll\n" in output, output[:300]
            assert "+droll <pool> [vs <target>] [# <comment>]" in lines
            assert "+droll/verify <code>" in lines
            assert "See also: help rolling in detail, help verifying rolls, help +rolls." in lines
            assert "+roll " not in output and "+roll/" not in output
            self.char1.ndb._more = None
            output = self.call(helper(), "+roll", cmdset=cmdset)
            assert "Help for roll\n\nthe host's own roll\n" in output, (helper, output[:300])

    def test_the_help_topics_name_the_new_key(self):
        from storyteller_dice.commands import help_entries
        from storyteller_dice.commands.dice_base import system_and_wing

        entries = help_entries._renamed(help_entries.HELP_ENTRY_DICTS, keys.renames())
        verifying = next(entry for entry in entries if entry["key"] == "verifying rolls")
        assert "+droll/verify <code>" in verifying["text"] and "+roll/" not in verifying["text"]
        system, wing = system_and_wing()
        guide = help_entries.system_entries(system, wing)[0]["text"].split("\n")
        assert "  +droll <pool> [vs <difficulty>] [# <comment>]" in guide
        assert "  +droll/verify <code>  check that a roll line is real" in guide
        assert "  +chk <number> [vs <difficulty>] [# <comment>]" in guide
        assert not any(line.startswith("  +check") for line in guide)

    def test_the_panel_rolls_with_the_new_key(self):
        command_panel, panel = panels()
        assert panel.sheet_message(self.char1)["keys"] == {"+roll": "+droll"}
        # the line the panel sends reaches our roll
        cmdset = self.cmdset()
        line = panel.sheet_message(self.char1)["keys"]["+roll"] + " dex vs 1"
        name, args = line.split(" ", 1)
        output = self.call(answering(cmdset, name)(), args, caller=self.char1, cmdstring=name)
        assert output.startswith("[Roll] Char rolls Dexterity 1 (1 die), Hunger 1, vs 1\n"), output

    def test_a_left_out_roll_gives_the_panel_no_key(self):
        command_panel, panel = panels()
        with override_settings(DICE_COMMAND_KEYS={}):
            assert panel.sheet_message(self.char1)["keys"] == {"+roll": None}  # the host's +roll
        with override_settings(DICE_COMMAND_KEYS={"+willpower": "+will"}):
            actions = [{"label": "Reroll with Willpower", "command": "+willpower", "seconds": 60},
                       {"label": "Left out", "command": "+check/private 3", "seconds": None}]
            assert command_panel.in_this_game(actions) == [
                {"label": "Reroll with Willpower", "command": "+will", "seconds": 60},
                {"label": "Left out", "command": "+check/private 3", "seconds": None}]
        with override_settings(DICE_COMMAND_KEYS={"+check": None}):
            assert command_panel.in_this_game(actions[1:]) == []


class TestSwap(EvenniaCommandTest):
    def test_two_renamed_keys_swap_in_the_help_texts(self):
        assert keys.rewrite("+roll/verify, +check, +rolls and (+roll)", {"+roll": "+check", "+check": "+roll"}) \
            == "+check/verify, +roll, +rolls and (+check)"


class TestDeclaration(EvenniaCommandTest):
    def test_the_written_out_keys_are_the_cmdsets(self):
        from storyteller_dice.commands.default_cmdsets import DiceCmdSet
        from storyteller_dice.commands.dice_base import dice_wing

        for key in systems.installed():
            with self.subTest(system=key), override_settings(DICE_SYSTEM=key, DICE_COMMAND_KEYS={}):
                keys.reset()
                real = {cmd.key: tuple(sorted(cmd.aliases)) for cmd in DiceCmdSet().commands}
                declared = {name: tuple(sorted(aliases)) for name, aliases in keys.declared_keys(key).items()}
                assert declared == real
                wing = dice_wing(systems.get_system(key))
                if wing.cmdset is None:
                    assert set(declared) == set(keys.SHARED_KEYS)
        keys.reset()


class TestSettingsProblem(EvenniaCommandTest):
    def problem(self, value, system="v5"):
        with override_settings(DICE_COMMAND_KEYS=value, DICE_SYSTEM=system):
            return keys.settings_problem()

    def test_good_settings(self):
        assert self.problem({}) is None
        assert self.problem({"+roll": "+droll", "+sheet": None, "+Check": "+chk"}) is None
        assert self.problem({"+roll": "+check", "+check": "+roll"}) is None  # a swap
        assert self.problem({"+roll": "roll"}) is None  # its own alias
        assert self.problem({"+hunger": "+blood"}) is None

    def test_each_bad_entry_is_named(self):
        cases = [
            ("+roll=+droll", 'DICE_COMMAND_KEYS must be a dict of our command keys to new keys (or None), not str.'),
            ({"+nope": "+x"}, f'DICE_COMMAND_KEYS["+nope"]: "+nope" is no command of ours (ours: {V5_OURS}).'),
            ({"+dice/fairness": "+fair"},
             f'DICE_COMMAND_KEYS["+dice/fairness"]: "+dice/fairness" is no command of ours (ours: {V5_OURS}).'),
            ({"roll": "+x"},
             'DICE_COMMAND_KEYS["roll"]: "roll" is an alias of our "+roll"; name the command by its key.'),
            ({3: "+x"}, f'DICE_COMMAND_KEYS[3]: a key must be the text of a command key of ours ({V5_OURS}).'),
            ({"+roll": 5}, 'DICE_COMMAND_KEYS["+roll"]: the new key must be text, or None to leave the command out.'),
            ({"+roll": ""}, 'DICE_COMMAND_KEYS["+roll"]: the new key "" is empty.'),
            ({"+roll": "+d roll"}, 'DICE_COMMAND_KEYS["+roll"]: the new key "+d roll" has a space.'),
            ({"+roll": "|r+r"}, 'DICE_COMMAND_KEYS["+roll"]: the new key "\\u007cr+r" has markup (| or $).'),
            ({"+roll": "+r\x07"},
             'DICE_COMMAND_KEYS["+roll"]: the new key "+r\\u0007" has a control character.'),
            ({"+roll": "+r/x"},
             'DICE_COMMAND_KEYS["+roll"]: the new key "+r/x" has a / (that starts a switch).'),
            ({"+roll": "__x"},
             'DICE_COMMAND_KEYS["+roll"]: the new key "__x" starts with __ (Evennia\'s system commands).'),
            ({"+roll": "+x", "+check": "+x"},
             'DICE_COMMAND_KEYS["+roll"]: the new key "+x" is also the new key of our "+check".'),
            ({"+roll": "check"},
             'DICE_COMMAND_KEYS["+roll"]: the new key "check" is already a name of our "+check".'),
            ({"+roll": "+a", "+ROLL": "+b"}, 'DICE_COMMAND_KEYS["+ROLL"]: names our "+roll" a second time.'),
        ]
        for value, line in cases:
            with self.subTest(value=value):
                assert self.problem(value) == line

    def test_only_the_configured_systems_commands_are_ours(self):
        v20 = "+approve, +check, +contest, +damage, +dice, +heal, +odds, +roll, +rolls, +sheet, +stat, ooc"
        assert self.problem({"+hunger": "+blood"}, "v20") == (
            f'DICE_COMMAND_KEYS["+hunger"]: "+hunger" is no command of ours (ours: {v20}).')
        assert self.problem({"+roll": "+r"}, "dicecheck") is None
        assert self.problem({"+contest": "+c"}, "dicecheck") == (
            f'DICE_COMMAND_KEYS["+contest"]: "+contest" is no command of ours (ours: {SHARED}).')

    def test_it_runs_before_evennia_is_loaded(self):
        root = Path(__file__).resolve().parents[1]
        script = (
            "import sys\n"
            "from django.conf import settings\n"
            "settings.configure(DICE_SYSTEM='v5', DICE_COMMAND_KEYS={'+roll': '+droll', '+nope': None})\n"
            "from storyteller_dice.commands import keys\n"
            "print(keys.settings_problem())\n"
            "print(sorted(name for name in sys.modules if name.startswith('evennia')))\n"
        )
        env = {**os.environ}
        env.pop("DJANGO_SETTINGS_MODULE", None)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root / "tests",
                              env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split("\n")[:2] == [
            f'DICE_COMMAND_KEYS["+nope"]: "+nope" is no command of ours (ours: {V5_OURS}).', "[]"]
