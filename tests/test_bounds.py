"""
Sizes a client controls are bounded: the screen width and height a client reports (NAWS, the
web client's and GMCP's `client_options`, the `option` command, saved options) and the width
every reply is laid out for. A width of 3,000,000 made `+dice/fairness` build a 60 MB reply;
10**30 raised OverflowError in front of the player; "abc" logged a traceback.
"""

import pickle
from unittest.mock import MagicMock

import pytest
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.rules.display import fit_width


# ------------------------------------------------------------------ the layout's width


@pytest.mark.parametrize("reported, used", [
    (80, 80), (20, 20), (250, 250), (19, 20), (1, 20), (251, 250), (3_000_000, 250),
    (10**30, 250), ("132", 132), (" 90 ", 90), ("9" * 5000, 250), (None, 80), (0, 80),
    (-5, 80), ("abc", 80), ("", 80), ("1e30", 80), (True, 80), (80.5, 80), ([80], 80),
    ("٣٣", 80),  # Arabic-Indic digits: not the ASCII number a client sends
])
def test_fit_width(reported, used):
    assert fit_width(reported) == used


def test_the_fairness_chart_is_never_wider_than_the_bound():
    from storyteller_dice.rules.fairness import face_test, text_chart

    test = face_test({face: 10 + face for face in range(1, 11)}, 10, "Dice")
    for width in (3_000_000, 10**30):
        lines = text_chart(test, width).split("\n")
        assert text_chart(test, width) == text_chart(test, 250)
        assert max(len(line) for line in lines) == 250


# ------------------------------------------------------------------ the session's flags


def _session():
    from storyteller_dice.typeclasses.serversession import ServerSession

    session = ServerSession()
    session.sessionhandler = MagicMock()
    session.sessid = 1
    return session


def test_flags_bound_sizes_however_they_are_set():
    session = _session()
    flags = session.protocol_flags
    flags["SCREENWIDTH"] = {0: 3_000_000}
    assert flags["SCREENWIDTH"] == {0: 250}
    flags.update({"SCREENWIDTH": {0: 10**30}, "SCREENHEIGHT": {0: 10**6}, "ANSI": True})
    assert (flags["SCREENWIDTH"], flags["SCREENHEIGHT"], flags["ANSI"]) == ({0: 250}, {0: 200}, True)
    flags.update(SCREENWIDTH={0: 5}, SCREENHEIGHT={0: 2})
    assert (flags["SCREENWIDTH"], flags["SCREENHEIGHT"]) == ({0: 20}, {0: 10})
    flags["SCREENWIDTH"] = {0: "abc"}  # garbage: the width it had stays
    flags["SCREENWIDTH"] = "abc"
    flags["SCREENWIDTH"] = {0: 0}  # NAWS's "no size"
    assert flags["SCREENWIDTH"] == {0: 20}
    flags.setdefault("SCREENHEIGHT", {0: 9999})
    assert flags["SCREENHEIGHT"] == {0: 10}
    flags |= {"SCREENWIDTH": {0: 10**9}}
    assert flags["SCREENWIDTH"] == {0: 250}
    flags["SCREENWIDTH"] = {1: 100}  # no main window: Evennia reads [0]
    flags["SCREENWIDTH"] = {0: 90, 1: 10**6}
    assert flags["SCREENWIDTH"] == {0: 90, 1: 250}


def test_flags_from_the_portal_and_saved_options_are_bounded():
    from evennia.server.session import Session

    session = _session()
    # NAWS is read in the Portal (up to 65,535 columns) and synced over
    session.load_sync_data({"protocol_flags": {"SCREENWIDTH": {0: 65535}, "SCREENHEIGHT": {0: 65535}}})
    assert session.protocol_flags["SCREENWIDTH"] == {0: 250}
    session.protocol_flags = {"SCREENWIDTH": {0: 10**30}}  # a whole new dict
    assert session.protocol_flags["SCREENWIDTH"] == {0: 250}
    session.account = MagicMock()
    session.account.attributes.get.return_value = {"SCREENWIDTH": {0: 3_000_000}}
    Session.at_sync(session)  # the part of at_sync that loads the saved options
    assert session.protocol_flags["SCREENWIDTH"] == {0: 250}
    session.update_flags(SCREENWIDTH={0: 999})  # the `option` command's road
    assert session.protocol_flags["SCREENWIDTH"] == {0: 250}


def test_flags_travel_and_are_saved_as_a_plain_dict():
    session = _session()
    session.protocol_flags["SCREENWIDTH"] = {0: 100}
    copy = pickle.loads(pickle.dumps(session.protocol_flags))
    assert type(copy) is dict and copy["SCREENWIDTH"] == {0: 100}
    assert type(session.get_sync_data()["protocol_flags"]) in (dict, type(session.protocol_flags))
    assert type(pickle.loads(pickle.dumps(session.get_sync_data()))["protocol_flags"]) is dict


# ------------------------------------------------------------------ client_options


@pytest.mark.parametrize("sent, width", [
    (3_000_000, 250), (10**30, 250), ("3000000", 250), (132, 132), ("132", 132), (4, 20),
    ("abc", 80), ("1e30", 80), (None, 80), ([1, 2], 80), (0, 80),
])
def test_client_options_bounds_the_width_and_ignores_garbage(sent, width):
    from storyteller_dice.typeclasses import client_options as inputfuncs

    session = _session()
    session.protocol_flags["SCREENWIDTH"] = {0: 80}
    session.msg = MagicMock()
    # Evennia's own raised ValueError on "abc" (the session handler logs it as a traceback)
    inputfuncs.client_options(session, screenwidth=sent, screenheight=sent, ansi="on")
    assert session.protocol_flags["SCREENWIDTH"] == {0: width}
    assert session.protocol_flags["ANSI"] is True  # the other options still apply
    session.msg.assert_not_called()


def test_client_options_with_only_garbage_sends_nothing_back():
    from storyteller_dice.typeclasses import client_options as inputfuncs

    session = _session()
    session.msg = MagicMock()
    inputfuncs.client_options(session, screenwidth="abc")
    session.msg.assert_not_called()
    assert "SCREENWIDTH" not in session.protocol_flags


def test_the_game_uses_our_client_options():
    from evennia.server.sessionhandler import _INPUT_FUNCS

    from storyteller_dice.typeclasses import client_options as inputfuncs

    for name in ("client_options", "hello", "supports_set"):  # and GMCP's Core.Hello, Core.Supports.Set
        assert _INPUT_FUNCS[name] is inputfuncs.client_options, name
    assert _INPUT_FUNCS["webclient_options"] is inputfuncs.webclient_options


# ------------------------------------------------------------------ what a reply is laid out for


class TestWideClient(EvenniaCommandTest):
    def screen(self, width):
        self.session.protocol_flags["SCREENWIDTH"] = {0: width}

    def test_width_of_is_bounded(self):
        """Even flags that were never bounded (a session of another class) give 20-250."""
        from types import SimpleNamespace

        from storyteller_dice.commands.dice_base import width_of

        for reported, used in ((3_000_000, 250), (10**30, 250), ("abc", 80), (10, 80), (132, 132)):
            player = SimpleNamespace(sessions=[SimpleNamespace(protocol_flags={"SCREENWIDTH": {0: reported}})])
            self.assertEqual(width_of(player), used, reported)

    def test_the_sessions_in_play_are_bounded(self):
        from storyteller_dice.commands.dice_base import width_of

        self.screen(3_000_000)
        self.assertEqual(width_of(self.char1), 250)
        self.screen("abc")  # ignored: the width it had stays
        self.assertEqual(width_of(self.char1), 250)

    def test_fairness_report_at_a_huge_width_is_the_250_column_report(self):
        from storyteller_dice.commands.fairness import CmdDice
        from storyteller_dice.commands.rolls import CmdCheck
        from storyteller_dice.rules.randomness import seeded

        with seeded(3):
            for _ in range(5):
                self.call(CmdCheck(), "4", caller=self.char1)
        self.screen(250)
        wide = self.call(CmdDice(), "/fairness", caller=self.char1)
        for huge in (3_000_000, 10**30):
            self.screen(huge)
            got = self.call(CmdDice(), "/fairness", caller=self.char1)
            self.assertEqual(got, wide)
        self.assertLessEqual(max(len(line) for line in wide.split("\n")), 250)
        lines = wide.split("\n")
        self.assertIn("d10 Dice: 15 dice, 1.5 expected per face", lines)
        bars = [line for line in lines if line.endswith("(exp. 1.5)")]
        self.assertEqual([len(line) for line in bars], [250] * 10)
        self.assertTrue(bars[8].startswith(" 9 " + "#" * 87 + ":" + "#" * 146 + " 4 (exp. 1.5)"), bars[8])
        self.assertNotIn("Traceback", wide)


# ------------------------------------------------------------------ one reply's size


def test_a_reply_has_at_most_1000_lines():
    session = _session()
    session.data_out(text=("\n".join(f"line {i}" for i in range(5000)), {"type": "look"}))
    text, options = session.sessionhandler.data_out.call_args.kwargs["text"]
    lines = text.split("\n")
    assert len(lines) == 1001
    assert lines[999] == "line 999"
    assert lines[-1] == "|n(4,000 more lines were not shown.)"
    assert options == {"type": "look"}


def _wide_session():
    """A session on a 250-column screen: lines up to 250 columns reach it unwrapped."""
    session = _session()
    session.protocol_flags["SCREENWIDTH"] = {0: 250}
    return session


def test_a_reply_has_at_most_200000_characters():
    session = _wide_session()
    kept = "|r" + "\n".join(["x" * 250] * 600)
    session.data_out(text=kept + "\n" + "y" * 100_000)
    text = session.sessionhandler.data_out.call_args.kwargs["text"]
    assert text == kept + "\n|n(1 more line was not shown.)"


def test_a_normal_reply_is_untouched():
    session = _wide_session()
    reply = "\n".join(["x" * 250] * 700)
    session.data_out(text=reply, prompt=">")
    assert session.sessionhandler.data_out.call_args.kwargs == {"text": reply, "prompt": ">"}


def test_a_line_over_the_char_limit_is_refused_whatever_the_protocol():
    """The Portal's check measured the web client's [args, kwargs] pair (2), not the line."""
    from django.conf import settings

    session = _session()
    session.msg = MagicMock()
    session.data_in(text=(["say " + "x" * 6000], {}))
    session.sessionhandler.call_inputfuncs.assert_not_called()
    session.msg.assert_called_once_with(text=settings.MAX_CHAR_LIMIT_WARNING)
    assert settings.MAX_CHAR_LIMIT_WARNING == ("You entered a string that was too long. "
                                               "Please break it up into multiple parts.")
    session = _session()
    session.data_in(text=(["say " + "x" * 5996], {}))  # 6,000: allowed
    session.sessionhandler.call_inputfuncs.assert_called_once()


class TestOptionCommand(EvenniaCommandTest):
    def option(self, args):
        from unittest.mock import patch

        from storyteller_dice.commands.options import CmdOption

        with patch.object(type(self.session.sessionhandler), "session_portal_sync"):  # no Portal here
            return self.call(CmdOption(), args, caller=self.account)

    def test_a_huge_width_is_set_as_250_and_says_so(self):
        self.session.protocol_flags["SCREENWIDTH"] = {0: 80}
        out = self.option("screenwidth=3000000")
        self.assertEqual(out.split("\n")[0], "Option SCREENWIDTH was changed from '{0: 80}' to '{0: 250}'.")
        self.assertEqual(self.session.protocol_flags["SCREENWIDTH"], {0: 250})

    def test_garbage_is_one_line_and_changes_nothing(self):
        self.session.protocol_flags["SCREENWIDTH"] = {0: 80}
        self.assertEqual(self.option("screenwidth=abc"), "The screen width is a whole number from 20 to 250, not 'abc'.")
        self.assertEqual(self.option("screenheight=1e30"),
                         "The screen height is a whole number from 10 to 200, not '1e30'.")
        self.assertEqual(self.session.protocol_flags["SCREENWIDTH"], {0: 80})

    def test_the_account_has_it(self):
        from commands.default_cmdsets import AccountCmdSet
        from storyteller_dice.commands.options import CmdOption

        self.assertTrue(any(isinstance(cmd, CmdOption) for cmd in AccountCmdSet().commands))


class TestWebclientOptions(EvenniaCommandTest):
    def test_what_the_web_client_keeps_is_bounded(self):
        from unittest.mock import patch

        from storyteller_dice.typeclasses import client_options as inputfuncs

        session = MagicMock(account=self.account, sessid=1)
        inputfuncs.webclient_options(session, HotButtons=["+roll 3"] * 10, cmdid=4)
        self.assertEqual(list(self.account.db._saved_webclient_options["HotButtons"]), ["+roll 3"] * 10)
        with patch("evennia.utils.logger.log_warn") as warn:
            inputfuncs.webclient_options(session, layout="x" * 30_000)
        self.assertNotIn("layout", self.account.db._saved_webclient_options)
        warn.assert_called_once()
        self.assertIn("were not kept", warn.call_args.args[0])

    def test_before_login_it_is_ignored(self):
        from storyteller_dice.typeclasses import client_options as inputfuncs

        inputfuncs.webclient_options(MagicMock(account=None), gagprompt=False)  # no traceback


# ------------------------------------------------------------------ the text encoding
# `option encoding=rot13` was taken (Python knows the codec), and the next line dropped the
# connection in the Portal; saved, it dropped every later login.


@pytest.mark.parametrize("name, used", [
    ("utf-8", "utf-8"), ("UTF8", "utf-8"), (" latin-1 ", "iso8859-1"), ("cp437", "cp437"),
    ("ascii", "ascii"), ("koi8-r", "koi8-r"), ("big5", "big5"), ("shift_jis", "shift_jis"),
    ("rot13", None), ("rot_13", None), ("base64", None), ("zlib", None), ("hex", None),
    ("utf-16", None), ("utf-7", None), ("punycode", None), ("idna", None), ("cp037", None),
    ("undefined", None), ("unicode_escape", None), ("no-such-codec", None), ("", None),
    ("x" * 65, None), (None, None), (8, None), ("utf-8\x00", None),
])
def test_text_encoding(name, used):
    from storyteller_dice.typeclasses.inputfilter import text_encoding

    assert text_encoding(name) == used


def test_flags_ignore_an_encoding_that_is_not_text_however_it_is_set():
    from evennia.server.session import Session

    session = _session()
    flags = session.protocol_flags
    flags["ENCODING"] = "utf-8"
    flags["ENCODING"] = "rot13"  # the login screen's `encoding` command
    flags.update(ENCODING="base64")
    session.update_flags(ENCODING="zlib")  # the `option` command's road
    session.load_sync_data({"protocol_flags": {"ENCODING": "hex"}})
    assert flags["ENCODING"] == "utf-8"
    session.account = MagicMock()
    session.account.attributes.get.return_value = {"ENCODING": "rot13", "ANSI": False}
    Session.at_sync(session)  # saved options at a reload
    assert (session.protocol_flags["ENCODING"], session.protocol_flags["ANSI"]) == ("utf-8", False)
    flags["ENCODING"] = "Latin-1"
    assert flags["ENCODING"] == "iso8859-1"


class TestEncodingOption(EvenniaCommandTest):
    def option(self, args, cmdstring="option"):
        from unittest.mock import patch

        from storyteller_dice.commands.options import CmdOption

        with patch.object(type(self.session.sessionhandler), "session_portal_sync"):  # no Portal here
            return self.call(CmdOption(), args, caller=self.account, cmdstring=cmdstring)

    def test_rot13_is_refused_in_one_line_and_not_saved(self):
        self.session.protocol_flags["ENCODING"] = "utf-8"
        self.assertEqual(self.option("/save encoding=rot13"),
                         "'rot13' is not a text encoding this game can use; try utf-8 (or latin-1, cp437, ascii).")
        self.assertEqual(self.session.protocol_flags["ENCODING"], "utf-8")
        self.assertNotIn("ENCODING", self.account.attributes.get("_saved_protocol_flags", {}))
        # markup in it is shown as typed (the test strips colour: an unescaped |r would vanish)
        self.assertEqual(self.option("encoding=|rutf-16"),
                         "'|rutf-16' is not a text encoding this game can use; try utf-8 (or latin-1, cp437, ascii).")

    def test_a_text_encoding_is_set_by_its_codec_name(self):
        self.session.protocol_flags["ENCODING"] = "utf-8"
        out = self.option("encoding=Latin-1")
        self.assertEqual(out.split("\n")[0], "Option ENCODING was changed from 'utf-8' to 'iso8859-1'.")
        self.assertEqual(self.session.protocol_flags["ENCODING"], "iso8859-1")


class TestSavedEncodingAtLogin(EvenniaCommandTest):
    from typeclasses.accounts import Account as account_typeclass  # the game's: our mixin in it

    def login(self):
        from unittest.mock import patch

        from evennia.accounts.accounts import DefaultAccount

        seen = []
        session = MagicMock(protocol_flags={"ENCODING": "utf-8"})
        with patch.object(DefaultAccount, "at_post_login",
                          lambda account, session=None, **kw: seen.append(
                              dict(account.attributes.get("_saved_protocol_flags")))):
            self.account.at_post_login(session=session)
        return seen, session

    def test_a_saved_rot13_is_forgotten_with_a_line(self):
        self.account.attributes.add("_saved_protocol_flags", {"ENCODING": "rot13", "ANSI": False})
        seen, session = self.login()
        self.assertEqual(seen, [{"ANSI": False}])  # what Evennia then applies
        self.assertEqual(self.account.attributes.get("_saved_protocol_flags"), {"ANSI": False})
        session.msg.assert_called_once_with(
            "Your saved encoding 'rot13' is not a text encoding this game can use, so it was"
            " ignored and forgotten; the encoding stays utf-8.")

    def test_a_saved_text_encoding_is_left_to_evennia(self):
        self.account.attributes.add("_saved_protocol_flags", {"ENCODING": "latin-1"})
        seen, session = self.login()
        self.assertEqual(seen, [{"ENCODING": "latin-1"}])
        session.msg.assert_not_called()
