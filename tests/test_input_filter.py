"""
The global input filter (typeclasses/inputfilter.py) and its hook, ServerSession.data_in
(typeclasses/serversession.py): explicit strings, then the hook with a real session.
"""

from unittest.mock import MagicMock

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from storyteller_dice.typeclasses.inputfilter import clean_data, clean_line

REMOVED = (
    [chr(c) for c in range(0x00, 0x20) if c != 0x09]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
       "\u200e", "\u200f", "\u061c", "\u2028", "\u2029"]
)


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("say \x1b[2Jhello", "say hello"),  # clear screen
        ("say \x1b[1;1Hhi\x1b[K", "say hi"),  # cursor home, erase line
        ("say \x1b[3Aup", "say up"),  # cursor up
        ("say \x1b[31mred\x1b[0m", "say red"),
        ("say \x1b]0;title\x07x", "say x"),  # OSC window title, BEL-terminated
        ("say \x1b]8;;http://evil\x1b\\link", "say link"),  # OSC 8 hyperlink, ST-terminated
        ("say \x1bc reset", "say  reset"),  # RIS
        ("say \x9b2J C1 CSI", "say  C1 CSI"),
        ("say a\u202eevil\u202c b", "say aevil b"),  # right-to-left override
        ("say a\u2066b\u2069c\u200e\u200f\u061c", "say abc"),
        ("say tab\there", "say tab here"),
        ("say hi\r\n", "say hi"),
        ("say one\ntwo", "say onetwo"),
        ("say \x00nul \x07bel \x08bs \x7fdel", "say nul bel bs del"),
        ("say line\u2028sep\u2029par", "say lineseppar"),
        ("say \ud800lone surrogate", "say lone surrogate"),
        ("connect \x1b[2Jadmin pw", "connect admin pw"),
        ("look", "look"),
    ],
)
def test_explicit_strings(typed, expected):
    assert clean_line(typed) == expected


@pytest.mark.parametrize(
    "kept",
    ["é à ü ñ ç", "漢字かなカナ한국어", "😀👍🏽🧛‍♀️", "👨‍👩‍👧", "مرحبا", "שלום", "|r red |n", "$eval(1)", "{x}",
     "ﬁ ½ ™", "\u200d\u200c"],  # zero-width joiner / non-joiner: emoji and scripts need them
)
def test_printable_unicode_and_markup_kept(kept):
    assert clean_line(f"say {kept}") == f"say {kept}"


# These start an escape sequence or string, which goes with them when complete.
STARTERS = {"\x1b", "\x9b", "\x90", "\x98", "\x9d", "\x9e", "\x9f"}


@pytest.mark.parametrize("char", REMOVED)
def test_every_listed_character_removed(char):
    assert clean_line(f"a{char}") == "a"
    assert clean_line(f"a{char}1") == ("a" if char in ("\x1b", "\x9b") else "a1")
    if char not in STARTERS:
        assert clean_line(f"a{char}b") == "ab"


def test_unterminated_string_only_loses_its_introducer():
    assert clean_line("a\x1b]0;title") == "a0;title"
    assert clean_line("a\x9dtitle") == "atitle"
    assert clean_line("a\x9dtitle\x07b") == "ab"


def test_plain_line_is_returned_untouched():
    line = "say just words"
    assert clean_line(line) is line


def test_bytes_and_other_types():
    assert clean_line(b"say \x1b[2Jhi \xff") == "say hi \ufffd"
    assert clean_line(12) == "12"


def test_clean_data_walks_args_and_kwargs():
    assert clean_data((["say \x1b[2Jx"], {"a": "\u202eb", "n": 80})) == (["say x"], {"a": "b", "n": 80})


@hsettings(max_examples=50, deadline=None)
@given(st.lists(st.text(max_size=10) | st.sampled_from(REMOVED + ["\x1b[", "\x1b]", "\x9b", "\t", "2J"]),
                max_size=40).map("".join))
def test_nothing_listed_survives(text):
    out = clean_line(text)
    assert not any(char in out for char in REMOVED)
    assert "\t" not in out and "\x1b" not in out
    assert clean_line(out) == out  # idempotent


# ---------------------------------------------------------------------------------------------
# The hook
# ---------------------------------------------------------------------------------------------


def test_settings_use_the_filtering_session():
    assert settings.SERVER_SESSION_CLASS == "storyteller_dice.typeclasses.serversession.ServerSession"


def _session():
    from storyteller_dice.typeclasses.serversession import ServerSession

    session = ServerSession()
    session.sessionhandler = MagicMock()
    return session


def test_data_in_filters_text_before_the_inputfuncs():
    session = _session()
    session.data_in(text=(["say \x1b[2J\u202ehi\x9b"], {}), options={"raw": False})
    session.sessionhandler.call_inputfuncs.assert_called_once()
    args, kwargs = session.sessionhandler.call_inputfuncs.call_args
    assert args == (session,)
    assert kwargs["text"] == (["say hi"], {})
    assert kwargs["options"] == {"raw": False}


def test_data_in_filters_every_inputfunc():
    session = _session()
    session.data_in(client_options=([], {"screenwidth": 80, "client": "evil\x1b[2J"}))
    kwargs = session.sessionhandler.call_inputfuncs.call_args.kwargs
    assert kwargs["client_options"] == ([], {"screenwidth": 80, "client": "evil"})


@pytest.mark.django_db
def test_real_session_runs_the_filtered_command():
    """A real ServerSession, through the stock sessionhandler and `text` inputfunc, to the
    command handler: the command sees the filtered line."""
    import evennia
    from evennia.server import inputfuncs

    from storyteller_dice.typeclasses.serversession import ServerSession

    assert evennia.SESSION_HANDLER is not None
    session = ServerSession()
    session.init_session("telnet", ("localhost", "testmode"), evennia.SESSION_HANDLER)
    session.sessid = 998
    seen = []
    original = inputfuncs.cmdhandler
    inputfuncs.cmdhandler = lambda sess, txt, **kw: seen.append(txt)
    try:
        session.execute_cmd("say \x1b[2J\x1b[1;1Hhi\u202e\x9b2J there")
    finally:
        inputfuncs.cmdhandler = original
    assert seen == ["say hi there"]
