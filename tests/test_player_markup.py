"""
Player text never becomes a link, a line or markup: the one tokenizer that tames a player's
markup (`rules.display.colour_only`, used by speech and descriptions), what each client option
makes of it (colour off, MXP, the web client, screen reader: `typeclasses.sessionhandler`), and
the speech commands and descriptions with exact output.
"""

import re
from types import SimpleNamespace

from evennia.server.portal.mxp import mxp_parse
from evennia.utils.ansi import parse_ansi, strip_ansi, strip_raw_ansi
from evennia.utils.test_resources import EvenniaCommandTest
from evennia.utils.text2html import parse_html
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storyteller_dice.rules.display import WORD_JOINER, colour_only, escape, inert
from storyteller_dice.typeclasses.sessionhandler import _SCREENREADER_STRIP, ServerSessionHandler, screenreader_text
from storyteller_dice.typeclasses.speech_text import description_text, speech_text

WJ = WORD_JOINER
ATTACK = "Staff, please |l|ltc+stat Alice/dex=5|l|ltt[click here to verify my roll]|l|lte"
# Markup a hostile player mixes; links split and nested, escapes of every parity.
PIECES = [
    "|l", "|lc", "|lt", "|le", "|lu", "|l|ltc", "||lc", "|||lc", "||||lc", "|", "||", "|||", "l", "c",
    "|/", "||/", "|-", "|_", "|>", "|r", "|n", "|[r", "|[R", "|#abc", "|#aabbcc", "|555", "|=a", "|H",
    "|*", "{", "{{", "}", "{you}", "$you()", "\\", "[Roll]", "quit", "http://x", " ", "%r", WJ,
]
HOSTILE = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=14).map("".join)
# What every renderer may do with a message to a player: telnet (colour on/off, MXP on/off),
# the web client (colour on/off).
RENDERERS = {
    "telnet": lambda t: parse_ansi(t, xterm256=True),
    "telnet nocolor": lambda t: parse_ansi(t, strip_ansi=True),
    "telnet mxp": lambda t: mxp_parse(parse_ansi(t, xterm256=True, mxp=True)),
    "telnet mxp nocolor": lambda t: mxp_parse(parse_ansi(t, strip_ansi=True, mxp=True)),
    "web": parse_html,
    "web nocolor": lambda t: parse_html(t, strip_ansi=True),
}


def assert_no_link(markup):
    for name, render in RENDERERS.items():
        out = render(markup)
        assert "<SEND" not in out and "\x1b[4z" not in out, (name, markup, out)
        assert "mxplink" not in out and "onclick" not in out, (name, markup, out)


# ------------------------------------------------------------------ the tokenizer


def test_split_link_codes_never_join_into_a_link():
    tamed = colour_only(ATTACK)
    assert tamed == (f"Staff, please ||{WJ}l c+stat Alice/dex=5||{WJ}l t[click here to verify my roll]"
                     f"||{WJ}l e")
    assert_no_link(tamed)


def test_exact_hostile_strings():
    for typed, tamed in (
        ("||lcquit||ltx||le", f"||{WJ}lcquit||{WJ}ltx||{WJ}le"),  # hides nothing, eats no letter
        ("|||lc", "|| "),  # an escaped `|`, then a link code: the code goes
        ("||||lc", f"||||{WJ}lc"),
        ("|lcquit|ltclick me|le", "quit click me "),
        ("|luhttp://evil.example|ltok|le", "http://evil.example ok "),  # the address, shown in full
        ("a|/b|-c|_d|>e", "a b c d e"),
        ("||/[Roll]", "||/[Roll]"),
        ("|#abc|ltdef", "|#aabbccdef"),  # the short colour is not lengthened by what was behind
        ("|#abc|rdef", "|#aabbcc|rdef"),
        ("|#abcdef", "|#abcdef"),
        ("|||[r x", "||||[r x"),
        ("x|[ry", "x|[500y"),
        ("{{ {x} $you()", "{{ {{x} $you()"),
        ("$you() $eval(2**10) {you} {0} {x:>1000000}", "$you() $eval(2**10) {{you} {{0} {{x:>1000000}"),
        ("|rred|n", "|rred|n"),
        ("end|", "end||"),
        ("|#ff0000|*inverse", "|#ff0000inverse"),  # the web client fails on the pair
        ("|r|*inverse", "|r|*inverse"),
    ):
        assert colour_only(typed) == tamed, typed
        assert_no_link(tamed)


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE)
def test_tamed_markup_is_a_fixed_point_and_shows_what_it_keeps(typed):
    tamed = colour_only(typed)
    assert colour_only(tamed) == tamed
    assert_no_link(tamed)
    shown = strip_ansi(tamed)
    assert "\n" not in shown and "\r" not in shown and "\t" not in shown
    # A screen reader's text (stripped on the Server) parses once to exactly what is shown.
    assert strip_ansi(screenreader_text(tamed)) == _SCREENREADER_STRIP.sub("", shown)
    assert_no_link(screenreader_text(tamed))


# Markup with nothing to remove (no link or layout code can be formed: no `l`, `/`, `-`, `_`, `>`):
# Evennia's own parser is then the judge of what must be shown.
COLOURED = st.lists(st.one_of(
    st.sampled_from(["|r", "|n", "|[r", "|[R", "|#abc", "|#aabbcc", "|555", "|[123", "|=a", "|*", "|H",
                     "|", "||", "|||", "{", "{{", "}", "$you()", "\\", "[Roll]", " "]),
    st.text(st.characters(blacklist_characters="l/-_>\x1b", blacklist_categories=("Cc",)), max_size=3),
), max_size=14).map("".join)


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(COLOURED)
def test_colour_only_shows_what_evennia_shows(typed):
    assert strip_ansi(colour_only(typed)) == strip_ansi(typed)


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=30))
def test_inert_text_shows_exactly_as_given(text):
    assert strip_ansi(inert(text)) == re.sub(r"\|(?=l)", "|" + WJ, text)
    assert_no_link(inert(text))


# ------------------------------------------------------------------ screen reader


class FakeSession:
    def __init__(self, **flags):
        self.protocol_flags = {"ENCODING": "utf-8", **flags}


def portal_text(message, flags):
    """What telnet's send_text makes of one message (its screen-reader pass, then its parse)."""
    handler = ServerSessionHandler()
    session = FakeSession(**flags)
    (args, kwargs) = handler.clean_senddata(session, {"text": message})["text"]
    text, options = args[0], kwargs["options"]
    if options.get("screenreader", flags.get("SCREENREADER", False)):
        text = parse_ansi(text, strip_ansi=True, xterm256=False, mxp=False)
    return parse_ansi(text + "|n", strip_ansi=options.get("nocolor", False), mxp=True)


def test_screen_reader_gets_escaped_text_as_text():
    say = 'Alice says, "x ||/[Ro||nll] Admin rolls 9 dice|n"'
    roll = "|w[Roll]|n Alice rolls 3 dice # ||/[Roll] Admin rolls 9 dice"
    for message, seen in ((say, 'Alice says, "x |/[Ro|nll] Admin rolls 9 dice"'),
                          (roll, "[Roll] Alice rolls 3 dice # |/[Roll] Admin rolls 9 dice")):
        out = portal_text(message, {"SCREENREADER": True})
        assert strip_raw_ansi(out) == seen
        assert "\n" not in out
    out = portal_text(escape("|lcquit|ltx|le"), {"SCREENREADER": True})
    assert "<SEND" not in mxp_parse(out)
    # Without the option nothing changes; raw output is never parsed anyway.
    assert portal_text(say, {}) == parse_ansi(say + "|n", mxp=True)
    handler = ServerSessionHandler()
    raw = handler.clean_senddata(FakeSession(SCREENREADER=True, RAW=True), {"text": say})["text"]
    assert raw[0] == [say]


def test_screen_reader_keeps_evennias_own_stripping():
    out = portal_text("|rHello|n +----+ ==== there", {"SCREENREADER": True})
    assert strip_raw_ansi(out) == "Hello +  there"  # Evennia's SCREENREADER_REGEX_STRIP


# ------------------------------------------------------------------ descriptions


def test_description_lines_are_indented_and_marked():
    forged = "|/|w[Roll]|n Admin rolls Strength 5 + Brawl 4 (9 dice)|/  Dice: |g10|n 7 3"
    assert description_text(forged, "Alice") == (
        "  |w(Alice)[Roll]|n Admin rolls Strength 5 + Brawl 4 (9 dice)\n    Dice: |g10|n 7 3|n")
    assert description_text("Tall.%rHer eyes are |ggreen|n.%R%tScar: 50%%", "Alice") == (
        "  Tall.\n  Her eyes are |ggreen|n.\n      Scar: 50%|n")
    assert description_text("|%r/ |l|ltcquit|l|ltt x|l|lte", "Alice") == (
        f"  ||\n  / ||{WJ}l cquit||{WJ}l t x||{WJ}l e|n")
    assert_no_link(description_text(ATTACK, "Alice"))


# ------------------------------------------------------------------ commands, exact output

S = SimpleNamespace()


class PlayerMarkupCommands(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        from storyteller_dice.commands import speech

        S.speech = speech

    def heard(self, cmd, args, receivers, caller=None):
        out = {receiver: [] for receiver in receivers}
        originals = {receiver: receiver.msg for receiver in receivers}
        for receiver in receivers:
            def fake(text=None, *a, _out=out[receiver], **kw):
                message = kw.get("text", text)
                _out.append(message[0] if isinstance(message, tuple) else message)
            receiver.msg = fake
        try:
            self.call(cmd, args, None, caller=caller, receiver=self.obj2)
        finally:
            for receiver, original in originals.items():
                receiver.msg = original
        return out

    def test_say_with_split_link_codes(self):
        out = self.heard(S.speech.CmdSay(), ATTACK, [self.char2])
        self.assertEqual(out[self.char2], [
            f'Char says, "Staff, please ||{WJ}l c+stat Alice/dex=5||{WJ}l t[click here to verify my roll]'
            f'||{WJ}l e|n"'])
        assert_no_link(out[self.char2][0])

    def test_say_with_escaped_link_hides_nothing(self):
        out = self.heard(S.speech.CmdSay(), "see ||lcquit||ltthis||le now", [self.char2])
        self.assertEqual(out[self.char2], [f'Char says, "see ||{WJ}lcquit||{WJ}ltthis||{WJ}le now|n"'])
        self.assertEqual(strip_ansi(out[self.char2][0]),
                         f'Char says, "see |{WJ}lcquit|{WJ}ltthis|{WJ}le now"')

    def test_say_with_outside_link(self):
        out = self.heard(S.speech.CmdSay(), "|luhttp://evil.example|ltfree dice|le", [self.char2])
        self.assertEqual(out[self.char2], ['Char says, "http://evil.example free dice|n"'])

    def test_pose_whisper_and_page(self):
        out = self.heard(S.speech.CmdPose(), "points: |l|ltcquit|l|ltthere|l|lte", [self.char2])
        self.assertEqual(out[self.char2], [f"Char points: ||{WJ}l cquit||{WJ}l there||{WJ}l e|n"])
        out = self.heard(S.speech.CmdWhisper(), "Char2 = ||lcquit||ltgo||le", [self.char2])
        self.assertEqual(out[self.char2], [f'Char whispers: "||{WJ}lcquit||{WJ}ltgo||{WJ}le|n"'])
        out = self.heard(S.speech.CmdPage(), "TestAccount2 = |l|ltcquit|l|ltgo|l|lte", [self.account2],
                         caller=self.account)
        self.assertEqual(strip_ansi(out[self.account2][0]),
                         f"Account TestAccount pages: |{WJ}l cquit|{WJ}l go|{WJ}l e")
        for message in out[self.account2]:
            assert_no_link(message)

    def test_speech_sanitised_twice_is_sanitised_once(self):
        for typed in (ATTACK, "||lc|||lc{{x", "|rred|[r|/x"):
            once = speech_text(typed, "Char")
            self.assertEqual(colour_only(once), once)

    def test_setdesc_then_look(self):
        forged = "|/|w[Roll]|n Admin rolls 9 dice|/  Dice: |g10|n 10 7"
        self.call(S.speech.CmdSetDesc(), forged, "You set your description.")
        self.assertEqual(self.char1.db.desc, forged)
        looked = self.char1.return_appearance(self.char2)
        self.assertIn("  |w(Char)[Roll]|n Admin rolls 9 dice\n    Dice: |g10|n 10 7|n", looked)
        shown = strip_ansi(looked)
        self.assertFalse([line for line in shown.split("\n") if line.startswith("[")], shown)

    def test_setdesc_help_states_the_ruling(self):
        doc = S.speech.CmdSetDesc.__doc__
        self.assertIn("%r", doc)
        self.assertIn("two spaces in", doc)
