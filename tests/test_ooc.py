"""
`ooc <text>` (commands/ooc.py): an out-of-character say or pose to the room, with the same
anti-forgery rules as `say` (commands/speech.py); bare `ooc` (and `unpuppet`) is Evennia's
stock `ooc`, which leaves the character: ours extends it.
"""

from unittest.mock import patch

from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest


def plain(text):
    return ansi.parse_ansi(text, strip_ansi=True)


class TestOOC(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        from storyteller_dice.commands.ooc import CmdOOC

        self.cmd = CmdOOC

    def heard(self, receiver, mock):
        """The plain text of every message `receiver.msg` got (and their types)."""
        lines = []
        for call in mock.call_args_list:
            text = call.kwargs.get("text")
            if isinstance(text, tuple):
                lines.append((plain(text[0]), text[1].get("type")))
        return lines

    def run_ooc(self, args):
        """(what the speaker saw, what the other character in the room got with its type)."""
        with patch.object(self.char2, "msg") as theirs:
            mine = self.call(self.cmd(), args, caller=self.char1)
        return mine, self.heard(self.char2, theirs)

    def test_say(self):
        mine, theirs = self.run_ooc("Back in five.")
        assert mine == '<OOC> You say, "Back in five."'
        assert theirs == [('<OOC> Char says, "Back in five."', "say")]

    def test_pose(self):
        mine, theirs = self.run_ooc(":waves.")
        assert mine == "<OOC> Char waves."
        assert theirs == [("<OOC> Char waves.", "pose")]

    def test_pose_without_space(self):
        _, theirs = self.run_ooc(";'s phone rings.")
        assert theirs == [("<OOC> Char's phone rings.", "pose")]

    def test_forged_system_line_is_inert(self):
        _, theirs = self.run_ooc("lol|/[Roll] Admin rolls 10 dice, Hunger 0, vs 3")
        assert len(theirs) == 1
        line = theirs[0][0]
        assert "\n" not in line
        assert line.startswith('<OOC> Char says, "lol ')
        assert "(Char)[Roll] Admin rolls" in line

    def test_no_template_evaluation(self):
        _, theirs = self.run_ooc("{char} $you() |lcquit|ltclick|le")
        assert theirs == [('<OOC> Char says, "{char} $you() quit click"', "say")]

    def test_nothing_to_pose_gives_usage(self):
        self.call(self.cmd(), ":   ", "Usage: ooc <message>, or ooc :<pose>. ooc alone leaves your character.",
                  caller=self.char1)
        self.call(self.cmd(), ";", "Usage: ooc <message>", caller=self.char1)

    def test_text_is_kept_as_typed(self):
        # MuxCommand's parse would take `/x` for a switch and split at `=`.
        mine, theirs = self.run_ooc("/me = 2 + 2")
        assert theirs == [('<OOC> Char says, "/me = 2 + 2"', "say")]

    def test_sent_per_receiver_never_msg_contents(self):
        with patch.object(type(self.room1), "msg_contents") as contents:
            self.run_ooc("hi")
        contents.assert_not_called()


class TestBareOOCIsEvennias(EvenniaCommandTest):
    """With no text, `ooc` is Evennia's own command: it leaves the character."""

    def setUp(self):
        super().setUp()
        from storyteller_dice.commands.ooc import CmdOOC

        self.cmd = CmdOOC

    def test_it_extends_the_stock_command(self):
        from evennia.commands.default.account import CmdOOC as StockOOC

        assert issubclass(self.cmd, StockOOC)
        assert self.cmd.extends_stock == "evennia.commands.default.account.CmdOOC"
        assert self.cmd.key == "ooc" and "unpuppet" in self.cmd.aliases
        assert self.cmd.account_caller is True

    def test_bare_ooc_leaves_the_character(self):
        assert self.account.get_puppet(self.session) == self.char1
        self.call(self.cmd(), "", "\nYou go OOC.", caller=self.char1, receiver=self.account)
        assert self.account.get_puppet(self.session) is None

    def test_bare_ooc_as_the_account_leaves_the_character(self):
        self.call(self.cmd(), "  ", "\nYou go OOC.", caller=self.account)
        assert self.account.get_puppet(self.session) is None

    def test_unpuppet_with_text_still_leaves(self):
        self.call(self.cmd(), "hello", "\nYou go OOC.", caller=self.char1, receiver=self.account,
                  cmdstring="unpuppet")
        assert self.account.get_puppet(self.session) is None

    def test_already_ooc(self):
        self.account.unpuppet_object(self.session)
        self.call(self.cmd(), "", "You are already OOC.", caller=self.account)
        # Text with no character to speak as: the stock command's answer, nothing said.
        self.call(self.cmd(), "hello", "You are already OOC.", caller=self.account)

    def test_leaving_keeps_the_stock_lock(self):
        self.account.permissions.clear()
        self.account.permissions.add("Guest")
        self.account.is_superuser = False
        self.call(self.cmd(), "", "You cannot leave your character.", caller=self.char1, receiver=self.account)
        assert self.account.get_puppet(self.session) == self.char1


class TestOOCInCmdset(EvenniaCommandTest):
    """What `ooc`, `unpuppet` and `@ooc` reach from the game's character cmdset."""

    def find(self, raw):
        from evennia.commands import cmdparser

        from commands.default_cmdsets import CharacterCmdSet

        cmdset = CharacterCmdSet()
        matches = cmdparser.cmdparser(raw, cmdset, self.char1)
        return matches[0][2] if matches else None

    def test_ooc_is_the_ooc_say(self):
        from storyteller_dice.commands.ooc import CmdOOC

        assert isinstance(self.find("ooc hello"), CmdOOC)

    def test_stock_unpuppet_stays_reachable(self):
        from evennia.commands.default.account import CmdOOC as StockOOC

        for raw in ("unpuppet", "@ooc", "ooc"):
            found = self.find(raw)
            assert isinstance(found, StockOOC), raw

    def test_unpuppet_is_the_same_command(self):
        from storyteller_dice.commands.ooc import CmdOOC, CmdUnpuppet

        assert issubclass(CmdUnpuppet, CmdOOC)
        assert CmdUnpuppet.key == "ooc" and set(CmdUnpuppet.aliases) == {"unpuppet", "@ooc"}

    def test_unpuppet_unpuppets(self):
        from storyteller_dice.commands.ooc import CmdUnpuppet

        self.call(CmdUnpuppet(), "", "\nYou go OOC.", caller=self.account)
        assert self.account.get_puppet(self.session) is None


class TestOOCThroughTheCommandHandler(EvenniaCommandTest):
    """`ooc` as a player types it: the character's cmdset merged over the account's, whose stock
    `ooc` ours extends."""

    def setUp(self):
        super().setUp()
        from typeclasses.accounts import Account
        from typeclasses.characters import Character

        self.char1.swap_typeclass(Character)
        self.account.swap_typeclass(Account)

    def test_ooc_with_text_speaks_and_bare_ooc_leaves(self):
        with patch.object(self.char2, "msg") as theirs:
            self.char1.execute_cmd("ooc hello", session=self.session)
        assert [call.kwargs["text"] for call in theirs.call_args_list] == [
            ('|w<OOC>|n Char says, "hello|n"', {"type": "say"})]
        assert self.account.get_puppet(self.session) == self.char1
        self.char1.execute_cmd("ooc", session=self.session)
        assert self.account.get_puppet(self.session) is None
