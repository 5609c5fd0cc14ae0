"""
Every line reaches a client wrapped at that client's width, in terminal columns
(typeclasses/columns.py): the measure (wcwidth: wide characters two columns, combining marks
and zero-width characters none, markup and ANSI colour nothing), `rules.display.wrap` with it
at 20, 41, 80 and 250 columns, a message's lines (line feeds and `|/`), and the delivery to
each session at its own width by the Character's and Account's `msg()` and the bundle's
session, with `+nospoof`, a screen reader and MXP.
"""

from unittest.mock import MagicMock, patch

from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.rules.display import append_code, fit, visible_len, wrap
from storyteller_dice.typeclasses.columns import session_width, terminal_columns, wrapped
from tests.scene_helpers import Scene, run

WIDE = "一"  # two columns
ACUTE = "e\u0301"  # e and a combining acute accent: one column
ZWSP = "\u200b"  # zero-width space: no column (and no break: only U+0020 breaks)

# The attacks, as the lines another player receives them.
PADDED_POSE = ("Alice glances at the clock." + " " * 53
               + "|wAccount|n |cadmin|n |wpages:|n Staff audit: page me your password now.|n")
PADDED_SAY = 'Alice says, "ok' + " " * 65 + '[admin(#1)] admin says, "hi"|n"'
WIDE_COMMENT = "|w[Roll]|n Alice rolls 3 (3 dice) # " + WIDE * 21 + " [Roll] Admin rolls 9"
DESCRIPTION = "|cAlice|n\n  A tall woman.\n  " + "x" * 78 + 'Bob says, "hi"|n'


# ---------------------------------------------------------------- the measure


def test_columns_of_shown_text():
    assert terminal_columns("abc") == 3
    assert terminal_columns(WIDE * 3) == 6
    assert terminal_columns("😀") == 2
    assert terminal_columns(ACUTE * 3) == 3
    assert terminal_columns(f"a{ZWSP}b\u2060c") == 3
    assert terminal_columns("\t") == 1  # ASCII as Evennia counts it
    assert terminal_columns("\x85") == 0  # a control character shows nothing


def test_markup_and_ansi_count_no_columns():
    assert visible_len(f"|r{WIDE}|n||") == 3
    assert visible_len(f"\x1b[31m{WIDE}\x1b[0m x") == 4
    assert visible_len("|[500|#ff0000|*ab|n") == 2
    assert visible_len("||lc not a link") == 14


# ---------------------------------------------------------------- rules.display.wrap in columns


def test_wide_characters_at_80_and_41():
    # 32 columns, then 42: counted as characters (21) the line fitted, and the terminal put
    # `[Roll] Admin rolls 9` at column 0 of the next screen line.
    assert wrap(WIDE_COMMENT, 80) == [
        "|w[Roll]|n Alice rolls 3 (3 dice) # " + WIDE * 21,
        "  [Roll] Admin rolls 9",
    ]
    # A word longer than a whole line starts on what is left of the current one.
    assert wrap(WIDE_COMMENT, 41) == [
        "|w[Roll]|n Alice rolls 3 (3 dice) # " + WIDE * 4,
        "  " + WIDE * 17,
        "  [Roll] Admin rolls 9",
    ]


def test_a_wide_word_longer_than_the_line_is_split_between_characters():
    assert wrap(WIDE * 15, 20) == [WIDE * 10, "  " + WIDE * 5]
    # 40 columns fit in 41; the 21st character would be the 42nd column.
    assert wrap("ab" + WIDE * 20, 41) == ["ab" + WIDE * 19, "  " + WIDE]


def test_combining_marks_and_zero_width_take_no_column():
    assert wrap(ACUTE * 45, 41) == [ACUTE * 41, "  " + ACUTE * 4]
    assert wrap(f"a{ZWSP}" * 45, 41) == [f"a{ZWSP}" * 41, "  " + f"a{ZWSP}" * 4]
    assert wrap(ACUTE * 80, 80) == [ACUTE * 80]


def test_markup_and_ansi_take_no_column():
    assert wrap("|r" + "x" * 80 + "|n", 80) == ["|r" + "x" * 80 + "|n"]
    assert wrap("\x1b[31m" + "x" * 80 + "\x1b[0m", 80) == ["\x1b[31m" + "x" * 80 + "\x1b[0m"]
    # An ANSI colour open at a break is closed and opened again after the indent, as markup is.
    assert wrap("\x1b[31m" + "word " * 10, 20) == [
        "\x1b[31mword word word word|n", "  \x1b[31mword word word|n", "  \x1b[31mword word word"]
    assert wrap(f"|rred words {WIDE * 5} and more words here|n", 20) == [
        f"|rred words {WIDE * 5}|n", "  |rand more words|n", "  |rhere|n"]


def test_250_columns():
    assert wrap("x " * 130, 250) == ["x " * 124 + "x", "  " + "x x x x x"]
    assert wrap(WIDE * 125, 250) == [WIDE * 125]


def test_a_measure_for_one_call():
    assert wrap(WIDE * 15, 20, columns=len) == [WIDE * 15]


# ---------------------------------------------------------------- a message's lines


def test_the_attacks_start_no_screen_line():
    assert wrapped(PADDED_POSE, 80) == (
        "Alice glances at the clock.\n"
        "  |wAccount|n |cadmin|n |wpages:|n Staff audit: page me your password now.|n")
    assert wrapped(PADDED_POSE, 41) == (
        "Alice glances at the clock.\n"
        "  |wAccount|n |cadmin|n |wpages:|n Staff audit: page\n"
        "  me your password now.|n")
    assert wrapped(PADDED_POSE, 100) == (
        "Alice glances at the clock." + " " * 53 + "|wAccount|n |cadmin|n |wpages:|n\n"
        "  Staff audit: page me your password now.|n")
    assert wrapped(PADDED_SAY, 80) == 'Alice says, "ok\n  [admin(#1)] admin says, "hi"|n"'
    assert wrapped(DESCRIPTION, 80) == (
        "|cAlice|n\n  A tall woman.\n  " + "x" * 78 + '\n    Bob says, "hi"|n')


def test_our_wrapped_lines_are_not_wrapped_again():
    roll = append_code(fit(WIDE_COMMENT + " and a long tail of words to fill the second line too", 80),
                       "K7QD2MXA", 80)
    assert wrapped(roll, 80) == roll
    for width in (20, 41, 100, 250):
        drawn = append_code(fit(WIDE_COMMENT, width), "K7QD2MXA", width)
        assert wrapped(drawn, width) == drawn
        assert wrapped(wrapped(PADDED_POSE, width), width) == wrapped(PADDED_POSE, width)


def test_line_breaks_are_kept_and_each_line_wrapped():
    assert wrapped("a|/" + "b " * 45, 41) == "a|/" + "b " * 20 + "b\n  " + "b " * 19 + "b\n  b b b b"
    assert wrapped("one\n" + "x " * 25, 20) == "one\nx x x x x x x x x x\n  x x x x x x x x x\n  x x x x x x"
    # An escaped `||/` is text, not a break.
    assert wrapped("||/ " + "y " * 10, 20) == "||/ y y y y y y y y y\n  y"


def test_what_is_not_wrapped():
    link = "|lchelp verifying rolls|ltverifying rolls|le " + "word " * 20
    assert wrapped(link, 41) == link  # a break would change the link's command
    assert wrapped(("x " * 30, {"type": "say"}), 20) == (
        "x x x x x x x x x x\n  x x x x x x x x x\n  x x x x x x x x x\n  x x", {"type": "say"})
    assert wrapped(None, 80) is None
    assert wrapped(("x " * 30,), 80) == ("x " * 30,)


def test_mxp_entities_count_one_column():
    escaped = "&lt;" * 30
    assert wrapped(escaped, 41, mxp=True) == escaped
    assert wrapped("&lt; " * 12, 41, mxp=True) == "&lt; " * 12


def test_a_sessions_width():
    def session(**flags):
        return MagicMock(protocol_flags=flags)

    assert session_width(session()) == 80
    assert session_width(session(SCREENWIDTH={0: 41})) == 41
    assert session_width(session(SCREENWIDTH={0: 78})) == 78  # Evennia's default for telnet
    assert session_width(session(SCREENWIDTH={0: 65535})) == 250
    assert session_width(session(SCREENWIDTH={0: 5})) == 80
    assert session_width(session(SCREENWIDTH={0: "abc"})) == 80
    assert session_width(session(SCREENWIDTH=100)) == 100


# ---------------------------------------------------------------- delivery, per session


def _session(protocol_key="telnet", **flags):
    return MagicMock(protocol_key=protocol_key, protocol_flags=dict(flags))


def _texts(session):
    return [call.kwargs.get("text") for call in session.data_out.call_args_list]


class TestDelivery(EvenniaCommandTest):
    def sessions(self, obj, *sessions):
        patcher = patch.object(obj.sessions, "all", return_value=list(sessions))
        patcher.start()
        self.addCleanup(patcher.stop)
        return sessions

    def test_each_session_at_its_width(self):
        from evennia.commands.default.general import CmdPose

        wide, narrow, unknown = self.sessions(
            self.char2, _session(SCREENWIDTH={0: 100}), _session(SCREENWIDTH={0: 41}), _session("websocket"))
        self.call(CmdPose(), "glances at the clock." + " " * 53 + "|wAccount|n |cadmin|n |wpages:|n Staff",
                  caller=self.char1)
        pose = "Char glances at the clock." + " " * 53
        assert _texts(wide) == [(pose + "|wAccount|n |cadmin|n |wpages:|n\n  Staff", {"type": "pose"})]
        assert _texts(narrow) == [("Char glances at the clock.\n  |wAccount|n |cadmin|n |wpages:|n Staff",
                                   {"type": "pose"})]
        assert _texts(unknown) == [("Char glances at the clock.\n  |wAccount|n |cadmin|n |wpages:|n Staff",
                                    {"type": "pose"})]

    def test_sessions_at_one_width_get_one_msg(self):
        first, second = self.sessions(self.char2, _session(), _session())
        with patch("evennia.objects.objects.DefaultObject.msg") as stock:
            self.char2.msg("x " * 45, from_obj=self.char1)
        assert stock.call_count == 1
        assert stock.call_args.kwargs["text"] == "x " * 39 + "x\n  x x x x x"

    def test_nospoof_tag_then_wrap(self):
        from evennia.commands.default.general import CmdSay

        from storyteller_dice.typeclasses.nospoof import set_nospoof

        self.char2.account = self.account2
        set_nospoof(self.account2, True)
        (session,) = self.sessions(self.char2, _session(SCREENWIDTH={0: 80}))
        self.call(CmdSay(), "ok" + " " * 65 + '[admin(#1)] admin says, "hi"', caller=self.char1)
        tag = f"[Char(#{self.char1.id})] "
        assert _texts(session) == [(f'{tag}Char says, "ok\n  [admin(#1)] admin says, "hi""', {"type": "say"})]

    def test_a_roll_comment_is_wrapped_for_a_narrower_session(self):
        from storyteller_dice.commands.dice_base import send

        wide, narrow = self.sessions(self.char2, _session(SCREENWIDTH={0: 80}), _session(SCREENWIDTH={0: 41}))
        roll = fit(WIDE_COMMENT, 80)
        send([self.char2], roll, from_obj=self.char1)
        assert _texts(wide) == [roll]
        assert _texts(narrow) == ["\n".join(wrap(WIDE_COMMENT, 41))]

    def test_a_screen_reader_gets_its_text_wrapped(self):
        from storyteller_dice.typeclasses.screenreader import msg_readable

        reader, = self.sessions(self.char2, _session(SCREENWIDTH={0: 41}, SCREENREADER=True))
        msg_readable(self.char2, (PADDED_POSE, {"type": "pose"}), from_obj=self.char1)
        assert _texts(reader) == [("Alice glances at the clock.\n  Account admin pages: Staff audit: page\n"
                                   "  me your password now.", {"type": "pose"})]

    def test_mxp_is_escaped_after_wrapping(self):
        mxp, = self.sessions(self.char2, _session(MXP=True, SCREENWIDTH={0: 20}))
        self.char2.msg("<b> " * 6, from_obj=self.char1)
        assert _texts(mxp) == ["&lt;b&gt; " * 4 + "&lt;b&gt;\n  &lt;b&gt;"]

    def test_look_wraps_a_description(self):
        (session,) = self.sessions(self.char2, _session(SCREENWIDTH={0: 80}))
        self.char1.db.desc = "A tall woman.%r" + "x" * 78 + 'Bob says, "hi"'
        self.char2.msg(text=(self.char2.at_look(self.char1), {"type": "look"}), options=None)
        (text, _), = _texts(session)
        assert text.split("\n")[-3:] == ["  A tall woman.", "  " + "x" * 78, '    Bob says, "hi"|n']

    def test_raw_is_not_wrapped(self):
        (session,) = self.sessions(self.char2, _session(SCREENWIDTH={0: 20}))
        self.char2.msg("x " * 30, options={"raw": True})
        assert _texts(session) == ["x " * 30]

    def test_a_page_to_an_account(self):
        from typeclasses.accounts import Account
        from evennia.utils import create

        account = create.create_account("Narrow", email=None, password="correct-horse-7261", typeclass=Account)
        (session,) = self.sessions(account, _session(SCREENWIDTH={0: 41}))
        account.msg(("|wAccount|n |cChar|n |wpages:|n " + "y " * 20, {"type": "page"}), from_obj=self.account)
        assert _texts(session) == [("|wAccount|n |cChar|n |wpages:|n y y y y y y y y y y y\n  y y y y y y y y y",
                                    {"type": "page"})]


# ---------------------------------------------------------------- the bundle's session


def _bundle_session(width):
    from storyteller_dice.typeclasses.serversession import ServerSession

    session = ServerSession()
    session.sessionhandler = MagicMock()
    session.sessid = 1
    session.protocol_key = "telnet"
    session.protocol_flags["SCREENWIDTH"] = {0: width}
    return session


def test_the_bundles_session_wraps_everything_it_sends():
    session = _bundle_session(41)
    session.data_out(text=("|cwho|n " + "name " * 10, {"type": "who"}), prompt="> " * 30)
    assert session.sessionhandler.data_out.call_args.kwargs == {
        "text": ("|cwho|n name name name name name name name\n  name name name", {"type": "who"}),
        "prompt": "> " * 30,
    }


def test_the_bundles_session_leaves_a_wrapped_line_alone():
    session = _bundle_session(80)
    line = wrapped(PADDED_POSE, 80)
    session.data_out(text=line)
    assert session.sessionhandler.data_out.call_args.kwargs == {"text": line}


def test_the_bundles_session_bounds_the_wrapped_lines():
    session = _bundle_session(20)
    session.data_out(text="x " * 20_000)
    text = session.sessionhandler.data_out.call_args.kwargs["text"]
    lines = text.split("\n")
    assert len(lines) == 1001 and lines[-1] == "|n(1,223 more lines were not shown.)"
    assert max(visible_len(line) for line in lines[:-1]) <= 20


# ---------------------------------------------------------------- a real roll, to real sessions


class TestARollsLines(Scene, EvenniaCommandTest):
    """`+roll` with a comment of wide characters, to sessions at 80 and 41 columns: the 80-column
    one gets exactly the stored text (our lines, drawn in columns, are not wrapped again); the
    41-column one gets lines that fit, with the comment's text never at column 0."""

    def test_a_roll_reaches_each_width(self):
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.rolllog.models import RollEntry
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        roller, wide, narrow = self.scene(3, widths=(80, 80, 41))
        self.outputs()
        with seeded(FixedFaces([2, 6, 10])):
            run(self, CmdRoll, f" 3 # {WIDE_COMMENT[len('|w[Roll]|n Alice rolls 3 (3 dice) # '):]}")
        stored = RollEntry.objects.order_by("-id").first().text
        got = {session.puppet: texts for session, texts in self.outputs().items()}
        assert got[wide] == [stored]
        assert stored.split("\n")[0].endswith(WIDE * 21)  # 42 columns counted as 42
        (text,) = got[narrow]
        lines = text.split("\n")
        assert max(visible_len(line) for line in lines) <= 41
        assert [line for line in lines[1:] if not line.startswith("  ")] == [], lines
        assert " ".join(" ".join(lines).split()).count("[Roll] Admin rolls 9") == 1


def test_an_escaped_link_is_text_and_wrapped():
    escaped = "||lchelp||ltx||le " + "word " * 10
    assert wrapped(escaped, 20) == "||lchelp||ltx||le word\n  word word word\n  word word word\n  word word word"


def test_a_text_sent_to_many_receivers_is_measured_once_per_width_and_measure():
    from storyteller_dice.rules import display
    from storyteller_dice.typeclasses import columns

    columns._wrapped_text.cache_clear()
    text = "|w[Roll]|n Alice rolls 7 " + "一" * 40  # wide characters: measured, not the quick path
    first = wrapped(text, 80)
    with patch.object(columns, "_wrapped_line", side_effect=AssertionError("measured again")):
        for _receiver in range(50):
            assert wrapped(text, 80) == first
    assert wrapped(text, 41) != first  # another width is its own
    assert columns._wrapped_text.cache_info().misses == 2
    # A measure swapped in (as a test may) never reads a text wrapped under another.
    before = display.measure_columns(None)  # one column a code point
    try:
        assert wrapped(text, 80) != first
    finally:
        display.measure_columns(before)
    assert wrapped(text, 80) == first
    assert columns._wrapped_text.cache_info().maxsize == columns.WRAPPED_KEPT
