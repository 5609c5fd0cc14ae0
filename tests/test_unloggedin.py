"""
`create` at the login screen (commands/unloggedin.py): the [Y]/N confirmation names the account
but never shows the password back; the rest is Evennia's stock command.
"""

from unittest.mock import Mock

import pytest
from evennia.utils.test_resources import EvenniaCommandTest

STOCK = ("You want to create an account '{name}' with password '{password}'."
         "\nIs this what you intended? [Y]/N?")


@pytest.mark.parametrize("password", [
    "hunter22", "pass word", "it's'.", "a'. b'", "'", ".'.\t", "with password 'x'",
])
def test_hide_password_removes_any_password(db, password):
    # commands.unloggedin imports Evennia's login commands, which read the database on import.
    from storyteller_dice.commands.unloggedin import hide_password

    prompt = STOCK.format(name="Anna", password=password)
    assert hide_password(prompt) == ("You want to create an account 'Anna'."
                                     "\nIs this what you intended? [Y]/N?")


def test_hide_password_with_a_hostile_name(db):
    from storyteller_dice.commands.unloggedin import hide_password

    # A name that imitates the clause: everything up to the real clause's end goes, so the
    # password still never shows.
    prompt = STOCK.format(name="x' with password 'y", password="s3cret")
    assert "s3cret" not in hide_password(prompt)


class TestCreate(EvenniaCommandTest):
    def run_create(self, args, answer):
        """(the prompt shown, what the session was told after `answer`)."""
        from storyteller_dice.commands.unloggedin import CmdUnconnectedCreate

        session = Mock(address="127.0.0.1")
        cmd = CmdUnconnectedCreate()
        cmd.caller, cmd.args, cmd.cmdname = session, args, "create"
        steps = cmd.func()
        prompt = next(steps)
        with pytest.raises(StopIteration):
            steps.send(answer)
        told = [call.args[0] for call in session.msg.call_args_list]
        return prompt, told

    def test_prompt_has_no_password(self):
        prompt, told = self.run_create("Newcomer Sekrit99pw", "n")
        assert prompt == "You want to create an account 'Newcomer'.\nIs this what you intended? [Y]/N?"
        assert told == ["Aborted. If your user name contains spaces, surround it by quotes."]

    def test_quoted_password_with_spaces(self):
        prompt, _ = self.run_create('"Ann Lee" "my pass phrase"', "n")
        assert "pass" not in prompt.replace("create", "")
        assert "Ann" in prompt

    def test_yes_creates_the_account(self):
        from evennia.accounts.models import AccountDB

        prompt, told = self.run_create("Freshface Sekrit99pw", "y")
        assert "Sekrit99pw" not in prompt
        account = AccountDB.objects.get(username="Freshface")
        assert account.check_password("Sekrit99pw")
        assert told[-1].startswith("A new account 'Freshface' was created. Welcome!")
        assert all("Sekrit99pw" not in line for line in told)

    def test_registered_at_the_login_screen(self):
        from commands.default_cmdsets import UnloggedinCmdSet
        from storyteller_dice.commands.unloggedin import CmdUnconnectedCreate

        cmdset = UnloggedinCmdSet()
        cmdset.at_cmdset_creation()
        create = [cmd for cmd in cmdset.commands if cmd.key == "create"]
        assert len(create) == 1 and type(create[0]) is CmdUnconnectedCreate
        assert set(create[0].aliases) >= {"cre", "cr"}


class TestEncoding(EvenniaCommandTest):
    """`encoding` at the login screen takes only a text encoding: rot13 dropped the connection."""

    def run_encoding(self, args, switches=()):
        from storyteller_dice.commands.unloggedin import CmdUnconnectedEncoding

        session = Mock(protocol_flags={"ENCODING": "utf-8"})
        cmd = CmdUnconnectedEncoding()
        cmd.caller, cmd.session, cmd.args, cmd.switches, cmd.cmdname = session, session, args, list(switches), "encoding"
        cmd.msg = Mock()
        cmd.func()
        return session.protocol_flags["ENCODING"], [call.args[0] for call in cmd.msg.call_args_list]

    def test_rot13_is_refused_in_one_line(self):
        assert self.run_encoding("rot13") == (
            "utf-8", ["'rot13' is not a text encoding this game can use; try utf-8 (or latin-1, cp437, ascii)."])

    def test_a_text_encoding_is_set_by_its_codec_name(self):
        assert self.run_encoding("Latin-1") == (
            "iso8859-1", ["Your custom text encoding was changed from '|wutf-8|n' to '|wiso8859-1|n'."])

    def test_registered_at_the_login_screen(self):
        from commands.default_cmdsets import UnloggedinCmdSet
        from storyteller_dice.commands.unloggedin import CmdUnconnectedEncoding

        cmdset = UnloggedinCmdSet()
        cmdset.at_cmdset_creation()
        found = [cmd for cmd in cmdset.commands if cmd.key == "encoding"]
        assert len(found) == 1 and type(found[0]) is CmdUnconnectedEncoding


@pytest.mark.parametrize("servername", ["Storyteller Dice", "The Very Long Name of a Game That Goes On and On",
                                        "Name|rRed{x}"])
def test_every_line_of_the_connection_screen_fits_41_columns(db, servername):
    # Shown before a client's NAWS may have told its width: laid out for the narrowest screen.
    from django.test import override_settings
    from evennia.utils import ansi

    from storyteller_dice.typeclasses import welcome
    from storyteller_dice.typeclasses.columns import terminal_columns

    with override_settings(SERVERNAME=servername, DICE_COMMAND_KEYS={"+stat": "+setmystatnow"}):
        screen = welcome.connection_screen()
    lines = ansi.parse_ansi(screen, strip_ansi=True).split("\n")
    assert max(terminal_columns(line) for line in lines) <= welcome.SCREEN_WIDTH == 41, "\n".join(lines)
    shown = " ".join(" ".join(lines).split())
    assert " ".join(servername.split()) in shown
    assert "create <username> <password>" in shown and "connect <username> <password>" in shown
    assert "+setmystatnow <trait>=<value>" in shown
