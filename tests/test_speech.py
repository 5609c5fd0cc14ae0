"""
Stock speech that cannot forge a system line (commands/speech.py) and +nospoof
(commands/nospoof.py): say, pose (`:`, `;`, emote), whisper and page, with explicit hostile
input and with generated hostile text.
"""

import re
import unicodedata
from pathlib import Path
from types import SimpleNamespace
from unittest.mock import patch

import pytest
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from storyteller_dice.typeclasses.inputfilter import clean_line

ROOT = Path(__file__).resolve().parent.parent
FORGED = "hi|/[Roll] Admin rolls 10 dice, Hunger 0, vs 3"
# The commands import Evennia's stock commands, which need Evennia initialised (after the test
# database exists, tests/conftest.py): S holds them, loaded on first use.
S = SimpleNamespace()


def load():
    if not vars(S):
        from storyteller_dice.commands import nospoof, speech

        for module in (speech, nospoof):
            for name in dir(module):
                if not name.startswith("__"):
                    setattr(S, name, getattr(module, name))
        # What the receiver must never see at the start of a line, nor unmarked anywhere.
        tag = r"\[\s*(?:%s)\s*\]" % "|".join(
            r"\s+".join(map(re.escape, t.lower().split())) for t in speech.SYSTEM_TAGS)
        S.TAG_AT_START = re.compile(r"^\s*" + tag)
        S.TAG_ANYWHERE = re.compile(tag)
    return S
_BAD = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def fold(text):
    """Plain text as the tag check sees it (compatibility forms folded, zero-width dropped)."""
    out = []
    for char in text:
        if unicodedata.category(char) == "Cf":
            continue
        folded = unicodedata.normalize("NFKC", char)
        out.append((folded if len(folded) == 1 else char).lower())
    return "".join(out)


def plain(message):
    """What a reader sees of one message (markup rendered, then colour stripped)."""
    return ansi.parse_ansi(message, strip_ansi=True)


def check_received(test, message, speaker="Char", starts=None):
    """One received message: one line, no control or bidi character, no tag of ours that is
    not marked as the speaker's, starting as speech does."""
    seen = plain(message)
    test.assertNotIn("\n", seen, repr(message))
    test.assertNotIn("\r", seen, repr(message))
    test.assertIsNone(_BAD.search(seen), repr(message))
    test.assertIsNone(S.TAG_AT_START.match(fold(seen)), repr(message))
    folded = fold(seen)
    for found in S.TAG_ANYWHERE.finditer(folded):
        test.assertTrue(folded[: found.start()].endswith(f"({speaker.lower()})"), repr(message))
    if starts is not None:
        test.assertTrue(seen.startswith(starts), repr(seen))


class SpeechTestBase(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        load()

    def run_cmd(self, cmd, args, receivers, caller=None, cmdstring=None):
        """{receiver: [raw message, ...]} for each receiver (their msg() mocked)."""
        out = {}
        originals = {}
        for receiver in receivers:
            originals[receiver] = receiver.msg
            out[receiver] = []

            def fake(text=None, *a, _out=out[receiver], **kw):
                message = kw.get("text", text)
                _out.append(message[0] if isinstance(message, tuple) else message)

            receiver.msg = fake
        try:
            # self.call mocks one receiver's msg() itself: give it one we do not watch.
            self.call(cmd, args, None, caller=caller, cmdstring=cmdstring, receiver=self.obj2)
        finally:
            for receiver, original in originals.items():
                receiver.msg = original
        return out


class TestSay(SpeechTestBase):
    def test_room_and_speaker(self):
        self.call(S.CmdSay(), "Hello there.", {self.char1: 'You say, "Hello there."',
                                            self.char2: 'Char says, "Hello there."'})

    def test_colour_is_kept_and_reset(self):
        out = self.run_cmd(S.CmdSay(), "|rred|n and |500more", [self.char2])
        self.assertEqual(out[self.char2], ['Char says, "|rred|n and |500more|n"'])

    def test_line_break_cannot_forge_a_roll_line(self):
        out = self.run_cmd(S.CmdSay(), FORGED, [self.char1, self.char2])
        self.assertEqual(
            [plain(m) for m in out[self.char2]],
            ['Char says, "hi (Char)[Roll] Admin rolls 10 dice, Hunger 0, vs 3"'],
        )
        for receiver in (self.char1, self.char2):
            for message in out[receiver]:
                check_received(self, message)

    def test_other_layout_markup_becomes_a_space(self):
        out = self.run_cmd(S.CmdSay(), "a|-b|_c|>d||/e", [self.char2])
        self.assertEqual(plain(out[self.char2][0]), 'Char says, "a b c d|/e"')

    def test_escape_sequences_c1_and_bidi_are_removed(self):
        out = self.run_cmd(S.CmdSay(), "\x1b[2J\x1b[1;1H\x1b[Kcrit\u202eliated\x9b2J\u2066x\u2069",
                           [self.char2])
        self.assertEqual(out[self.char2], ['Char says, "critliatedx|n"'])

    def test_templates_are_not_evaluated(self):
        out = self.run_cmd(S.CmdSay(), "$eval(2**10) $You() {you} { } {0} {x:>1000000}", [self.char2])
        self.assertEqual(plain(out[self.char2][0]),
                         'Char says, "$eval(2**10) $You() {you} { } {0} {x:>1000000}"')

    def test_tag_variants_are_marked(self):
        for typed in ("[roll]", "[ Private  ROLL ]", "|w[|rContest|w]|n", "［Ｖｅｒｉｆｙ］", "[Ro\u200bll]",
                      "x|123[Teamwork]"):
            out = self.run_cmd(S.CmdSay(), typed, [self.char2])
            seen = plain(out[self.char2][0])
            self.assertIn("(Char)", seen, typed)
            check_received(self, out[self.char2][0])

    def test_links_show_as_plain_text(self):
        out = self.run_cmd(S.CmdSay(), "|lcquit|ltclick me|le", [self.char2])
        self.assertEqual(out[self.char2], ['Char says, "quit click me|n"'])

    def test_empty_after_cleaning(self):
        self.call(S.CmdSay(), "\x1b[2J", "Say what?")
        self.call(S.CmdSay(), "", "Say what?")


class TestPose(SpeechTestBase):
    def test_pose_emote_colon_and_semicolon(self):
        for cmdstring, args, seen in (
            ("pose", "waves.", "Char waves."),
            ("emote", "waves.", "Char waves."),
            (":", "waves.", "Char waves."),
            (":", "'s coat is wet.", "Char's coat is wet."),
            (";", "'s coat is wet.", "Char's coat is wet."),
            (";", "-shaped hole", "Char-shaped hole"),
        ):
            out = self.run_cmd(S.CmdPose(), args, [self.char1, self.char2], cmdstring=cmdstring)
            self.assertEqual([plain(m) for m in out[self.char2]], [seen], cmdstring)
            self.assertEqual([plain(m) for m in out[self.char1]], [seen], cmdstring)

    def test_forged_roll_line(self):
        out = self.run_cmd(S.CmdPose(), "grins.|/[Roll] Admin rolls 10 dice", [self.char2])
        self.assertEqual(plain(out[self.char2][0]), "Char grins. (Char)[Roll] Admin rolls 10 dice")
        check_received(self, out[self.char2][0])

    def test_braces_and_funcs_are_literal(self):
        # The stock pose goes through msg_contents: `{` was a traceback, $eval() evaluated.
        out = self.run_cmd(S.CmdPose(), "{ $eval(2**10) {you}", [self.char2])
        self.assertEqual(plain(out[self.char2][0]), "Char { $eval(2**10) {you}")

    def test_control_characters(self):
        out = self.run_cmd(S.CmdPose(), "\x1b[2Jrolls a \u202ecrit\x9b", [self.char2], cmdstring=":")
        self.assertEqual(plain(out[self.char2][0]), "Char rolls a crit")

    def test_nothing_to_pose(self):
        self.call(S.CmdPose(), "", "What do you want to do?")
        self.call(S.CmdPose(), "|/", "What do you want to do?")


class TestWhisper(SpeechTestBase):
    def test_whisper(self):
        out = self.run_cmd(S.CmdWhisper(), "Char2 = psst|/[Roll] fake", [self.char1, self.char2])
        self.assertEqual([plain(m) for m in out[self.char2]], ['Char whispers: "psst (Char)[Roll] fake"'])
        self.assertEqual(len(out[self.char1]), 1)
        self.assertTrue(plain(out[self.char1][0]).startswith("You whisper to Char2"))
        self.assertTrue(plain(out[self.char1][0]).endswith('"psst (Char)[Roll] fake"'))

    def test_whisper_escape_sequences(self):
        out = self.run_cmd(S.CmdWhisper(), "Char2 = \x1b[2J\x1b[Hhi\u202e", [self.char2])
        self.assertEqual(out[self.char2], ['Char whispers: "hi|n"'])

    def test_duplicate_names_get_one_message(self):
        out = self.run_cmd(S.CmdWhisper(), "Char2, Char2 = hi", [self.char2])
        self.assertEqual(len(out[self.char2]), 1)

    def test_usage(self):
        self.call(S.CmdWhisper(), "Char2", "Usage: whisper <character> = <message>")


class TestPage(SpeechTestBase):
    def page(self, args):
        return self.run_cmd(S.CmdPage(), args, [self.account, self.account2], caller=self.account)

    def test_page_reaches_the_account(self):
        out = self.page("TestAccount2 = hello")
        self.assertEqual([plain(m) for m in out[self.account2]], ["Account TestAccount pages: hello"])
        self.assertIn("You paged TestAccount2 with: 'hello'.", plain(out[self.account][-1]))

    def test_page_without_equals_and_pose(self):
        out = self.page("TestAccount2 hello there")
        self.assertEqual(plain(out[self.account2][0]), "Account TestAccount pages: hello there")
        out = self.page("TestAccount2 = :waves.")
        self.assertEqual(plain(out[self.account2][0]), "Account TestAccount pages: TestAccount waves.")

    def test_page_cannot_clear_screens_or_forge(self):
        out = self.page("TestAccount2 = \x1b[2J\x1b[3J\x1bc\x9b2Jgone|/[Roll] Admin rolls")
        message = out[self.account2][0]
        self.assertEqual(plain(message), "Account TestAccount pages: gone (TestAccount)[Roll] Admin rolls")
        self.assertNotIn("\x1b", message)
        check_received(self, message, speaker="TestAccount")

    def test_the_record_holds_what_was_sent(self):
        from evennia.comms.models import Msg

        self.page("TestAccount2 = a|/[Verify] b\x1b[2J")
        stored = Msg.objects.get_messages_by_sender(self.account).order_by("-db_date_created")[0]
        self.assertEqual(stored.message, "a (TestAccount)[Verify] b")

    def test_page_last_and_history_still_work(self):
        self.page("TestAccount2 = one")
        self.call(S.CmdPage(), "", "Your latest pages:", caller=self.account)
        self.call(S.CmdPage(), "/last", "You last paged", caller=self.account)
        out = self.page("again")  # to the last one paged
        self.assertEqual(plain(out[self.account2][0]), "Account TestAccount pages: again")


class TestChannel(SpeechTestBase):
    def test_channel_message_cannot_forge(self):
        from evennia.utils import create

        channel = create.create_channel("TestChan", typeclass="typeclasses.channels.Channel")
        self.assertEqual(channel.at_pre_msg(FORGED, senders=[self.account]),
                         "hi (TestAccount)[Roll] Admin rolls 10 dice, Hunger 0, vs 3")
        # A broadcast from the game itself (no sender) is left alone.
        self.assertEqual(channel.at_pre_msg("|w[Roll]|n x", senders=[]), "|w[Roll]|n x")


class TestCmdsets(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        load()

    def test_speech_commands_replace_the_stock_ones(self):
        from commands.default_cmdsets import AccountCmdSet, CharacterCmdSet

        chars = CharacterCmdSet()
        chars.at_cmdset_creation()
        by_key = {cmd.key: cmd for cmd in chars.commands}
        for key, cls in (("say", S.CmdSay), ("pose", S.CmdPose), ("whisper", S.CmdWhisper)):
            self.assertIsInstance(by_key[key], cls)
        self.assertTrue({":", ";", "emote"} <= set(by_key["pose"].aliases))
        accounts = AccountCmdSet()
        accounts.at_cmdset_creation()
        by_key = {cmd.key: cmd for cmd in accounts.commands}
        self.assertIsInstance(by_key["page"], S.CmdPage)
        self.assertIsInstance(by_key["+nospoof"], S.CmdNospoof)


@pytest.mark.django_db
def test_every_system_tag_is_listed():
    """Every `|w[Tag]` our commands and the roll log print is in SYSTEM_TAGS."""
    load()
    found = set()
    for folder in ("commands", "rolllog"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(re.findall(r"\|w\[([A-Z][A-Za-z ]*)\]", path.read_text()))
    assert found, "no tags found: has the markup changed?"
    assert found <= set(S.SYSTEM_TAGS), found - set(S.SYSTEM_TAGS)


# ---------------------------------------------------------------------------------------------
# +nospoof
# ---------------------------------------------------------------------------------------------


class TestNospoof(SpeechTestBase):
    def test_off_by_default_and_toggle(self):
        self.assertFalse(S.nospoof_on(self.char2))
        # (self.call drops a leading "+" from what it compares.)
        self.call(S.CmdNospoof(), "", "nospoof is off.", caller=self.account2)
        self.call(S.CmdNospoof(), "on", "nospoof is on", caller=self.account2)
        self.assertTrue(S.nospoof_on(self.char2))
        self.assertTrue(S.nospoof_on(self.account2))
        self.call(S.CmdNospoof(), "maybe", "Usage: +nospoof [on|off]", caller=self.account2)
        self.call(S.CmdNospoof(), "off", "nospoof is off.", caller=self.account2)
        self.assertFalse(S.nospoof_on(self.char2))

    def test_works_from_the_character_too(self):
        self.call(S.CmdNospoof(), "on", "nospoof is on", caller=self.char2)
        self.assertTrue(S.nospoof_on(self.account2))

    def _room_messages(self, cmd, args, cmdstring=None):
        """Run `cmd` by char1; what char2's (real) msg() hands to the base class."""
        from evennia.objects.objects import DefaultObject

        with patch.object(DefaultObject, "msg", autospec=True) as base:
            self.call(cmd, args, None, cmdstring=cmdstring)
        return [call.kwargs["text"][0] for call in base.call_args_list
                if call.args and call.args[0] == self.char2]

    def test_say_pose_whisper_are_tagged_when_on(self):
        S.set_nospoof(self.account2, True)
        tag = f"[Char(#{self.char1.id})] "
        self.assertEqual(self._room_messages(S.CmdSay(), "hi"), [tag + 'Char says, "hi|n"'])
        self.assertEqual(self._room_messages(S.CmdPose(), "waves.", cmdstring=":"), [tag + "Char waves.|n"])
        self.assertEqual(self._room_messages(S.CmdWhisper(), "Char2 = psst"), [tag + 'Char whispers: "psst|n"'])

    def test_not_tagged_when_off(self):
        self.assertEqual(self._room_messages(S.CmdSay(), "hi"), ['Char says, "hi|n"'])

    def test_page_is_tagged_with_the_account(self):
        from evennia.accounts.accounts import DefaultAccount

        S.set_nospoof(self.account2, True)
        with patch.object(DefaultAccount, "msg", autospec=True) as base:
            self.call(S.CmdPage(), "TestAccount2 = hi", None, caller=self.account)
        got = [call.kwargs["text"][0] for call in base.call_args_list if call.args[0] == self.account2]
        self.assertEqual(got, [f"[TestAccount(#{self.account.id})] |wAccount|n |cTestAccount|n |wpages:|n hi|n"])

    def test_system_lines_and_own_speech_are_not_tagged(self):
        S.set_nospoof(self.account2, True)
        roll = "|w[Roll]|n Char rolls 3 dice"
        self.assertEqual(S.tag_message(self.char2, roll, self.char1), roll)
        self.assertEqual(S.tag_message(self.char2, (roll, {}), self.char1), (roll, {}))
        own = ("You say, \"hi\"", {"type": "say"})
        self.assertEqual(S.tag_message(self.char2, own, self.char2), own)
        self.assertEqual(S.tag_message(self.char2, own, self.account2), own)
        self.assertEqual(S.tag_message(self.char2, own, None), own)

    def test_author_name_is_literal(self):
        self.char1.key = "Evil|/[Roll]"
        self.assertEqual(S.author_tag(self.char1), f"[Evil||/[Roll](#{self.char1.id})] ")


# ---------------------------------------------------------------------------------------------
# Generated hostile text
# ---------------------------------------------------------------------------------------------

PIECES = [
    "|/", "|-", "|_", "|>", "||", "|", "||/", "|r", "|[r", "|123", "|[500", "|=a", "|#ff0000", "|*",
    "|lc", "|lt", "|le", "|lu", "|n", "$eval(2**10)", "$clr(w,[Roll])", "$randint(1,10)", "$You()",
    "{", "}", "{you}", "{0}", "{x:>9}", "{{", "}}", "[Roll]", "[roll]", "[ Contest ]", "［Roll］",
    "[Private roll]", "[Verify]", "[", "]", "\x1b[2J", "\x1b[1;1H", "\x1b", "\x9b", "\x9b2J", "\u202e",
    "\u2066", "\u200b", "\u200f", "\n", "\r", "\t", "\x00", "\x07", "\x7f", "\u2028", "x" * 60, ":", ";",
    "'", "=", ",", " ", "Admin rolls 10 dice", "é漢😀",
]
HOSTILE = st.lists(st.sampled_from(PIECES) | st.text(max_size=6), min_size=1, max_size=25).map("".join)
_HYPO = hsettings(max_examples=40, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])


class TestHostileSpeech(SpeechTestBase):
    # Hypothesis refuses @given on a Django TestCase method; an inner function runs the
    # examples inside the one test (all in its transaction, which is fine: speech keeps no state).

    def test_say(self):
        @_HYPO
        @given(text=HOSTILE)
        def check(text):
            out = self.run_cmd(S.CmdSay(), text, [self.char1, self.char2])
            for message in out[self.char2]:
                check_received(self, message, starts='Char says, "')
            for message in out[self.char1]:
                if message != "Say what?":
                    check_received(self, message, starts='You say, "')

        check()

    def test_pose(self):
        @_HYPO
        @given(text=HOSTILE, cmdstring=st.sampled_from(["pose", ":", ";", "emote"]))
        def check(text, cmdstring):
            out = self.run_cmd(S.CmdPose(), text, [self.char1, self.char2], cmdstring=cmdstring)
            for message in out[self.char1] + out[self.char2]:
                if message != "What do you want to do?":
                    check_received(self, message, starts="Char")

        check()

    def test_whisper(self):
        @_HYPO
        @given(text=HOSTILE)
        def check(text):
            out = self.run_cmd(S.CmdWhisper(), f"Char2 = {text}", [self.char1, self.char2])
            for message in out[self.char2]:
                check_received(self, message, starts='Char whispers: "')

        check()

    def test_page(self):
        @_HYPO
        @given(text=HOSTILE)
        def check(text):
            out = self.run_cmd(S.CmdPage(), f"TestAccount2 = {text}", [self.account, self.account2],
                               caller=self.account)
            for message in out[self.account2]:
                check_received(self, message, speaker="TestAccount", starts="Account TestAccount pages: ")

        check()


@pytest.mark.django_db
@hsettings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=HOSTILE)
def test_speech_text_is_one_clean_line(text):
    """The function behind all four: one line, nothing hidden, every tag of ours marked."""
    load()
    out = S.speech_text(text, "Alice")
    seen = plain(out)
    assert "\n" not in seen and "\r" not in seen and "\t" not in seen
    assert _BAD.search(seen) is None
    folded = fold(seen)
    for found in S.TAG_ANYWHERE.finditer(folded):
        assert folded[: found.start()].endswith("(alice)"), (text, out)
    assert clean_line(out) == out
