"""
What reaches a character from someone else (typeclasses/incoming.py, `DiceCharacterMixin.msg`
and `at_look`), with Evennia's own commands and no speech command of ours installed: the host's
`say`, `pose` and `whisper` cannot forge a roll line, our own lines pass unchanged, a channel is
the Account's to protect, and `look` shows names as text even when the host's
`get_display_name` prints the raw key.
"""

from unittest.mock import patch

from evennia.accounts.accounts import DefaultAccount
from evennia.comms.comms import DefaultChannel
from evennia.objects.objects import DefaultCharacter, DefaultExit, DefaultObject, DefaultRoom
from evennia.utils import ansi, create
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.typeclasses.characters import DiceCharacterMixin

FORGED = "hi|/[Roll] Admin rolls 9"
GEM = "Gem|/[Roll] Gem rolls 9 successes"


class RawNameParent:
    """A host's ObjectParent whose get_display_name prints the raw key, without super()."""

    def get_display_name(self, looker=None, **kwargs):
        return self.key


class RawNameCharacter(DiceCharacterMixin, RawNameParent, DefaultCharacter):
    pass


class RawNameObject(RawNameParent, DefaultObject):
    pass


class RawNameExit(RawNameParent, DefaultExit):
    pass


class RawNameRoom(RawNameParent, DefaultRoom):
    pass


class LoudNameObject(DefaultObject):
    """A host's object whose get_display_name changes the key before printing it."""

    def get_display_name(self, looker=None, **kwargs):
        return self.key.upper()


class ChannelCharacter(DiceCharacterMixin, DefaultCharacter):
    """A host's character that can subscribe to channels itself (Evennia's objects cannot):
    the account's channel hooks."""

    at_pre_channel_msg = DefaultAccount.at_pre_channel_msg
    channel_msg = DefaultAccount.channel_msg
    at_post_channel_msg = DefaultAccount.at_post_channel_msg


class EveryoneChannel(DefaultChannel):
    """A channel that sends to subscribers without a session too (a character a script plays)."""

    send_to_online_only = False


def plain(text):
    return ansi.parse_ansi(text, strip_ansi=True)


class IncomingTest(EvenniaCommandTest):
    character_typeclass = RawNameCharacter
    object_typeclass = RawNameObject
    exit_typeclass = RawNameExit
    room_typeclass = RawNameRoom

    def sent(self, run):
        """{object: [text as the mixin passed it on to Evennia's msg(), ...]} while `run()` runs."""
        got = {}
        original = DefaultObject.msg

        def record(obj, text=None, *args, **kwargs):
            got.setdefault(obj, []).append(text)
            return original(obj, text, *args, **kwargs)

        with patch.object(DefaultObject, "msg", record):
            run()
        return got


class TestHostSpeech(IncomingTest):
    """Evennia's own say, pose and whisper (no SpeechCmdSet): what another character gets."""

    def test_say_cannot_forge_a_roll_line(self):
        from evennia.commands.default.general import CmdSay

        got = self.sent(lambda: self.call(CmdSay(), FORGED, caller=self.char1))
        assert got[self.char2] == [('Char says, "hi (Char)[Roll] Admin rolls 9"', {"type": "say"})]

    def test_pose_cannot_forge_a_roll_line(self):
        from evennia.commands.default.general import CmdPose

        got = self.sent(lambda: self.call(CmdPose(), "grins.|/[Roll] Admin rolls 9", caller=self.char1))
        assert got[self.char2] == [("Char grins. (Char)[Roll] Admin rolls 9", {"type": "pose"})]

    def test_whisper_cannot_forge_a_roll_line(self):
        from evennia.commands.default.general import CmdWhisper

        got = self.sent(lambda: self.call(CmdWhisper(), "Char2 = psst|/[Roll] Admin rolls 9", caller=self.char1))
        assert got[self.char2] == [('Char whispers: "|npsst (Char)[Roll] Admin rolls 9|n"', {"type": "whisper"})]

    def test_real_line_breaks_links_and_colour(self):
        got = self.sent(lambda: self.char2.msg(
            "|rred\r\n[Roll] x\n|lcquit|ltclick|le\u2028[Verify] y", from_obj=self.char1))
        # The link's end and the line separator are a space each.
        assert got[self.char2] == ["|rred (Char)[Roll] x quit click  (Char)[Verify] y|n"]

    def test_colour_reset_only_when_a_colour_is_on(self):
        got = self.sent(lambda: [self.char2.msg(text, from_obj=self.char1)
                                 for text in ("plain", "|gon", "|gon|n off", "bars ||n", "bars ||")])
        assert got[self.char2] == ["plain", "|gon|n", "|gon|n off", "bars ||n", "bars ||"]

    def test_nospoof_tags_the_filtered_line(self):
        from evennia.commands.default.general import CmdSay

        from storyteller_dice.typeclasses.nospoof import set_nospoof

        self.char2.account = self.account2
        set_nospoof(self.account2, True)
        got = self.sent(lambda: self.call(CmdSay(), FORGED, caller=self.char1))
        assert got[self.char2] == [
            (f'[Char(#{self.char1.id})] Char says, "hi (Char)[Roll] Admin rolls 9"', {"type": "say"})]


class TestWhatPassesUnchanged(IncomingTest):
    def test_our_roll_lines_pass_unchanged_as_plain_text(self):
        from storyteller_dice.commands.dice_base import send

        line = "|w[Roll]|n Char rolls Strength 2 + Brawl 3 (5 dice)|/  Dice: |g10|n 3\n  [code ABCD2345]"
        got = self.sent(lambda: send([self.char1, self.char2], line, from_obj=self.char1))
        assert got[self.char2] == [line]
        assert type(got[self.char2][0]) is str  # the mark stops at msg()

    def test_no_sender_is_not_changed(self):
        got = self.sent(lambda: self.char2.msg(("a|/[Roll] b", {"type": "look"})))
        assert got[self.char2] == [("a|/[Roll] b", {"type": "look"})]

    def test_own_messages_are_not_changed(self):
        got = self.sent(lambda: [self.char2.msg("a|/[Roll] b", from_obj=self.char2),
                                 self.char2.msg("c|/[Roll] d", from_obj=[self.char2])])
        assert got[self.char2] == ["a|/[Roll] b", "c|/[Roll] d"]

    def test_the_first_other_sender_names_the_tags(self):
        got = self.sent(lambda: self.char2.msg("a|/[Roll] b", from_obj=[self.char2, self.obj1]))
        assert got[self.char2] == ["a (Obj)[Roll] b"]

    def test_entering_the_game_is_a_line_of_ours_with_the_name_as_text(self):
        self.char1.key = "Ann|/[Roll] Ann"
        got = self.sent(lambda: self.char1.at_post_puppet())
        assert got[self.char2] == ["Ann||/[Roll] Ann has entered the game."]


class TestTwice(IncomingTest):
    """Filtering twice gives what filtering once gives: our speech commands' lines, already made
    so, reach the other players exactly as the command wrote them."""

    def test_player_line_is_a_fixed_point(self):
        from storyteller_dice.typeclasses.incoming import player_line

        for text, once in (
            (FORGED, "hi (Char)[Roll] Admin rolls 9"),
            ("(Char)[Roll] x", "(Char)[Roll] x"),
            ("(Char)|r[Roll] x", "(Char)|r(Char)[Roll] x|n"),
            ("|r[Contest]|n |lcquit|ltgo|le", "|r(Char)[Contest]|n quit go"),
            ("a\r\nb\nc\u2028d", "a b c d"),
        ):
            assert player_line(text, "Char") == once, text
            assert player_line(once, "Char") == once, text

    def test_our_say_reaches_the_room_as_it_wrote_it(self):
        from storyteller_dice.commands.speech import CmdSay

        got = self.sent(lambda: self.call(CmdSay(), "|rred|/[Roll] Admin rolls 9", caller=self.char1))
        assert got[self.char2] == [('Char says, "|rred (Char)[Roll] Admin rolls 9|n"', {"type": "say"})]

    def test_our_ooc_reaches_the_room_as_it_wrote_it(self):
        from storyteller_dice.commands.ooc import CmdOOC

        got = self.sent(lambda: self.call(CmdOOC(), ":waves.|/[Roll] x", caller=self.char1))
        assert got[self.char2] == [("|w<OOC>|n Char waves. (Char)[Roll] x|n", {"type": "pose"})]


class TestChannels(IncomingTest):
    """
    Evennia's channels send to Accounts (`Account.channel_msg` -> `Account.msg`, straight to the
    sessions): a Character's msg() never sees them, so the Account and Channel mixins
    (optional) protect them. A character a host subscribes itself is protected by its msg().
    """

    def test_a_stock_channel_goes_to_the_account_not_the_character(self):
        channel = create.create_channel("Public", typeclass=DefaultChannel)
        channel.connect(self.account)  # online, puppeting char1
        with patch.object(DefaultAccount, "msg") as account_msg:
            got = self.sent(lambda: channel.msg(FORGED, senders=[self.account2]))
        assert self.char1 not in got
        assert account_msg.call_args.kwargs["text"] == (
            f"[Public] |c{self.account2.key}|n: hi|/[Roll] Admin rolls 9", {"from_channel": channel.id})

    def test_a_character_subscribed_by_the_host_gets_one_line(self):
        channel = create.create_channel("Public", typeclass=EveryoneChannel)
        listener = create.create_object(ChannelCharacter, key="Listener", location=self.room1)
        channel.connect(listener)
        got = self.sent(lambda: channel.msg(FORGED, senders=[self.char1]))
        assert got[listener] == [("[Public] Char: hi (Char)[Roll] Admin rolls 9", {"from_channel": channel.id})]


class TestLookShowsNamesAsText(IncomingTest):
    """`look` by a character with our mixin, in a host whose get_display_name prints the raw key."""

    def setUp(self):
        super().setUp()
        self.gem = create.create_object(RawNameObject, key="Gem", location=self.room1)
        self.gem.key = GEM  # as a name that came in around the name rule

    def lines(self, text):
        return plain(text).replace("\r\n", "\n").split("\n")

    def test_looking_at_the_object(self):
        from evennia.commands.default.general import CmdLook

        shown = self.call(CmdLook(), "Gem", caller=self.char1)
        assert shown == f"Gem|/[Roll] Gem rolls 9 successes(#{self.gem.id})\nYou see nothing special."
        text = self.char1.at_look(self.gem)
        assert text == f"|cGem||/[Roll] Gem rolls 9 successes(#{self.gem.id})|n\nYou see nothing special."
        assert not any(line.lstrip().lower().startswith("[roll]") for line in self.lines(text))

    def test_contents_and_exits_are_listed_as_text(self):
        self.obj1.key = "Box|/[Roll] Box rolls"
        self.exit.key = "out|/[Contest] Admin"
        self.char2.key = "Bo|/[Verify] b"
        text = self.char1.at_look(self.room1)
        # (Evennia's numbered names, inflected as an ANSIString, show a name with a line break in
        # it as nothing, ours or not: "You see: , , and an Obj2".)
        assert text == ("|cRoom(#1)|n\nroom_desc\n|wExits:|n out||/[Contest] Admin\n"
                        "|wCharacters:|n Bo||/[Verify] b\n|wYou see:|n , , and an Obj2")
        for line in self.lines(text):
            assert not line.lstrip().startswith("["), line

    def test_a_name_the_host_changed_is_caught_at_the_line_start(self):
        loud = create.create_object(LoudNameObject, key="Ruby", location=self.room1)
        loud.key = "Ruby|/[Roll] Ruby rolls 9"
        text = self.char1.at_look(loud)
        assert self.lines(text)[:2] == ["RUBY", f"(Ruby|/[Roll] Ruby rolls 9)[ROLL] RUBY ROLLS 9(#{loud.id})"]

    def test_a_builders_description_is_caught_at_the_line_start(self):
        self.room1.db.desc = "A hall.|/[Roll] Admin rolls 9|/  [Contest] x"
        text = self.char1.at_look(self.room1)
        assert self.lines(text)[1:4] == ["A hall.", "(Room)[Roll] Admin rolls 9", "  (Room)[Contest] x"]

    def test_an_ordinary_look_is_unchanged(self):
        self.gem.key = "Gem"
        assert self.char1.at_look(self.room1) == DefaultCharacter.at_look(self.char1, self.room1)
        assert self.char1.at_look(self.gem) == DefaultCharacter.at_look(self.char1, self.gem)


class TestGeneratedHostileText(IncomingTest):
    """Generated hostile text, as a host's speech command would send it (`tests/test_speech.py`'s
    pieces and checks): one clean line, every tag of ours marked, and a fixed point."""

    def test_one_line_and_a_fixed_point(self):
        from hypothesis import given

        from storyteller_dice.typeclasses.incoming import player_line
        from tests.test_speech import _HYPO, HOSTILE, check_received, load

        load()

        @_HYPO
        @given(text=HOSTILE)
        def check(text):
            said = (f'Char says, "{text}"', {"type": "say"})
            got = self.sent(lambda: self.char2.msg(text=said, from_obj=self.char1))[self.char2]
            assert len(got) == 1 and got[0][1] == {"type": "say"}
            check_received(self, got[0][0], starts='Char says, "')
            assert player_line(got[0][0], "Char") == got[0][0]

        check()


class TestTheSendersName(IncomingTest):
    """A line that starts with the sender's name as text keeps the name as every line shows it."""

    def test_player_line_keeps_the_leading_name(self):
        from storyteller_dice.typeclasses.incoming import player_line

        for text, author, shown in (
            ("Ann||/[Roll] Ann has left the game.", "Ann|/[Roll] Ann", "Ann||/[Roll] Ann has left the game."),
            ("Ann||/[Roll] Ann says, \"[Roll]\"", "Ann|/[Roll] Ann",
             "Ann||/[Roll] Ann says, \"(Ann||/[Roll] Ann)[Roll]\""),
            ("[Roll] Admin has left the game.", "[Roll] Admin", "([Roll] Admin)[Roll] Admin has left the game."),
            # Printed raw (a host's get_display_name): not the name as text, the whole is player text.
            ("Ann|/[Roll] Ann has left the game.", "Ann|/[Roll] Ann",
             "Ann (Ann||/[Roll] Ann)[Roll] Ann has left the game."),
        ):
            assert player_line(text, author) == shown, text
            assert player_line(shown, author) == shown, text

    def test_a_stored_name_leaving_in_a_game_with_our_object_parent(self):
        from typeclasses.characters import Character

        ann = create.create_object(Character, key="Ann", location=self.room1)
        ann.db_key = "Ann|/[Roll] Ann"
        ann.save()
        got = self.sent(lambda: ann.at_post_unpuppet(session=None))
        assert got[self.char2] == ["Ann||/[Roll] Ann has left the game."]

    def test_a_raw_name_leaving_in_a_host_that_prints_it_raw(self):
        ann = create.create_object(RawNameCharacter, key="Ann", location=self.room1)
        ann.key = "Ann|/[Roll] Ann"
        got = self.sent(lambda: ann.at_post_unpuppet(session=None))
        assert got[self.char2] == ["Ann (Ann||/[Roll] Ann)[Roll] Ann has left the game."]


# ---------------------------------------------------------------- MXP
# A telnet client that negotiated MXP read `<SEND href="quit">click</SEND>` in a say, a roll's
# comment or a description as a live link: its sessions get `<`, `>` and `&` escaped.

LINK = '<SEND href="quit">click</SEND> & co'
ESCAPED = '&lt;SEND href="quit"&gt;click&lt;/SEND&gt; &amp; co'


def _session(protocol_key="telnet", **flags):
    from unittest.mock import MagicMock

    return MagicMock(protocol_key=protocol_key, protocol_flags=dict(flags))


def _texts(session):
    return [call.kwargs.get("text") for call in session.data_out.call_args_list]


class TestMxp(IncomingTest):
    def sessions(self, obj):
        """An MXP telnet session, a plain telnet one and a web client's (MXP flag and all) for `obj`."""
        mxp, plain, web = _session(MXP=True), _session(), _session("websocket", MXP=True)
        self.patcher = patch.object(obj.sessions, "all", return_value=[mxp, plain, web])
        self.patcher.start()
        self.addCleanup(self.patcher.stop)
        return mxp, plain, web

    def test_mxp_inert(self):
        from storyteller_dice.typeclasses.incoming import mxp_inert

        assert mxp_inert(LINK) == ESCAPED
        assert mxp_inert(("a<b", {"type": "say"})) == ("a&lt;b", {"type": "say"})
        assert mxp_inert("&lt; stays what was typed") == "&amp;lt; stays what was typed"
        assert mxp_inert(None) is None

    def test_mxp_active(self):
        from storyteller_dice.typeclasses.incoming import mxp_active

        assert mxp_active(_session(MXP=True)) is True
        assert mxp_active(_session("telnet/ssl", MXP=True)) is True
        assert mxp_active(_session()) is False
        assert mxp_active(_session("websocket", MXP=True)) is False
        assert mxp_active(_session("ssh", MXP=True)) is False
        assert mxp_active(_session(MXP=True), {"mxp": False}) is False
        assert mxp_active(_session(), {"mxp": True}) is True

    def test_say_reaches_an_mxp_client_escaped(self):
        from evennia.commands.default.general import CmdSay

        mxp, plain, web = self.sessions(self.char2)
        self.call(CmdSay(), LINK, caller=self.char1)
        assert _texts(mxp) == [(f'Char says, "{ESCAPED}"', {"type": "say"})]
        assert _texts(plain) == _texts(web) == [(f'Char says, "{LINK}"', {"type": "say"})]

    def test_a_roll_comment_reaches_an_mxp_client_escaped(self):
        from storyteller_dice.commands.dice_base import send

        mxp, plain, web = self.sessions(self.char2)
        line = f"|w[Roll]|n Char rolls Strength 2 (2 dice): {LINK}|/  Dice: |g10|n 3"
        send([self.char2], line, from_obj=self.char1)
        assert _texts(mxp) == [f"|w[Roll]|n Char rolls Strength 2 (2 dice): {ESCAPED}|/  Dice: |g10|n 3"]
        assert _texts(plain) == _texts(web) == [line]

    def test_a_description_reaches_an_mxp_client_escaped(self):
        self.char1.db.desc = LINK
        mxp, plain, _web = self.sessions(self.char2)
        # what Evennia's `look` sends (`self.msg(...)`, whose sender is the looker)
        self.char2.msg(text=(self.char2.at_look(self.char1), {"type": "look"}), from_obj=self.char2, options=None)
        assert _texts(mxp) == [(f"|cChar|n\n  {ESCAPED}|n", {"type": "look"})]
        assert _texts(plain) == [(f"|cChar|n\n  {LINK}|n", {"type": "look"})]

    def test_all_mxp_sessions_get_one_msg(self):
        mxp = _session(MXP=True)
        with patch.object(self.char2.sessions, "all", return_value=[mxp]):
            got = self.sent(lambda: self.char2.msg(LINK, from_obj=self.char1))
        assert got[self.char2] == [ESCAPED]
        assert _texts(mxp) == [ESCAPED]

    def test_a_page_to_an_account_reaches_an_mxp_client_escaped(self):
        from typeclasses.accounts import Account

        account = create.create_account("Telnetter", email=None, password="correct-horse-7261", typeclass=Account)
        mxp, plain = _session(MXP=True), _session()
        with patch.object(account.sessions, "all", return_value=[mxp, plain]):
            account.msg(LINK, from_obj=self.account)
        assert _texts(mxp) == [ESCAPED]
        assert _texts(plain) == [LINK]
