"""
`ooc <text>` (commands/ooc.py): an out-of-character say or pose to the room, with the same
anti-forgery rules as `say` (commands/speech.py); Evennia's unpuppeting `ooc` is `unpuppet` or
`@ooc` while a character is puppeted.
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

    def test_nothing_to_say_gives_usage(self):
        self.call(self.cmd(), "", "Usage: ooc <message>, or ooc :<pose>. To leave your character: unpuppet.")
        self.call(self.cmd(), ":   ", "Usage: ooc <message>")

    def test_sent_per_receiver_never_msg_contents(self):
        with patch.object(type(self.room1), "msg_contents") as contents:
            self.run_ooc("hi")
        contents.assert_not_called()


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

        from storyteller_dice.commands.ooc import CmdOOC, CmdUnpuppet

        for raw in ("unpuppet", "@ooc"):
            found = self.find(raw)
            assert isinstance(found, CmdUnpuppet) and isinstance(found, StockOOC), raw
            assert not isinstance(found, CmdOOC)

    def test_unpuppet_unpuppets(self):
        from storyteller_dice.commands.ooc import CmdUnpuppet

        self.call(CmdUnpuppet(), "", "\nYou go OOC.", caller=self.account)
        assert self.account.get_puppet(self.session) is None
