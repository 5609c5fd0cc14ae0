"""
No traceback reaches a player: an error a command did not expect (one of ours or a stock
Evennia command) is one line for the player, with a reference, and the full traceback in the
log under that reference (`typeclasses.player_errors`, installed at server start).
"""

import re
from unittest.mock import MagicMock, patch

from django.conf import settings
from evennia.commands import cmdhandler
from evennia.commands.cmdset import CmdSet
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.dice_base import DiceCommand

LINE = re.compile(r"^Something went wrong; staff have been told \(error [0-9A-F]{6}\)\.$")


class CmdBoom(DiceCommand):
    """Breaks."""

    key = "+boom"
    locks = "cmd:all()"

    def run(self):
        return " " * 10**30  # OverflowError, as a width of 10**30 once gave


class BoomSet(CmdSet):
    key = "boom"

    def at_cmdset_creation(self):
        self.add(CmdBoom())


class TestPlayerErrors(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        from storyteller_dice.typeclasses import player_errors

        self._original = cmdhandler._msg_err
        player_errors.install()
        self.addCleanup(setattr, cmdhandler, "_msg_err", self._original)
        self.char1.msg = MagicMock()

    def said(self):
        return [call.args[0] if call.args else call.kwargs.get("text") for call in self.char1.msg.call_args_list]

    def run_line(self, line):
        with patch("evennia.utils.logger.log_trace") as log_trace:
            self.char1.execute_cmd(line, session=self.session)
        return log_trace

    def test_settings_hide_tracebacks(self):
        self.assertFalse(settings.IN_GAME_ERRORS)

    def test_our_command(self):
        self.char1.cmdset.add(BoomSet)
        log_trace = self.run_line("+boom")
        said = self.said()
        self.assertEqual(len(said), 1, said)
        text = said[0][0] if isinstance(said[0], tuple) else said[0]
        self.assertRegex(text, LINE)
        self.assertNotIn("Traceback", text)
        self.assertNotIn(".py", text)
        ref = re.search(r"error ([0-9A-F]{6})", text).group(1)
        log_trace.assert_called_once()
        logged = log_trace.call_args.args[0]
        self.assertEqual(logged, f"error {ref}: an unexpected error in a command of Char (#{self.char1.id})")

    def test_a_stock_command(self):
        with patch("evennia.commands.default.general.CmdLook.func", side_effect=KeyError("/srv/secret/path.py")):
            self.run_line("look")
        said = self.said()
        self.assertEqual(len(said), 1, said)
        text = said[0][0] if isinstance(said[0], tuple) else said[0]
        self.assertRegex(text, LINE)
        self.assertNotIn("secret", text)

    def test_the_real_traceback_is_logged(self):
        from storyteller_dice.typeclasses import player_errors

        try:
            raise OverflowError("cannot fit 'int' into an index-sized integer")
        except OverflowError:
            with patch("evennia.utils.logger._log") as log:
                ref = player_errors.report_error(self.char1, None)
        logged = "\n".join(str(call.args[0]) for call in log.call_args_list)
        self.assertIn("Traceback (most recent call last)", logged)
        self.assertIn("OverflowError: cannot fit 'int' into an index-sized integer", logged)
        self.assertIn(f"error {ref}:", logged)
        self.assertEqual(self.said(), [f"Something went wrong; staff have been told (error {ref})."])

    def test_the_server_installs_it_at_start(self):
        from storyteller_dice.commands import hooks
        from storyteller_dice.typeclasses import player_errors

        cmdhandler._msg_err = self._original
        hooks.at_server_init()  # game/ turns the bundle on (DICE_HARDEN_GAME)
        self.assertIs(cmdhandler._msg_err, player_errors.report_error)
