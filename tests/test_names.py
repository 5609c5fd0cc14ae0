"""
The name rule (typeclasses/names.py) on every way a name is made or changed, names shown as
text in Evennia's stock lines, and the report of stored names at server start.
"""

from unittest.mock import patch

import pytest
from evennia.utils import create
from evennia.utils.test_resources import EvenniaCommandTest

from typeclasses.accounts import Account
from typeclasses.characters import Character
from typeclasses.exits import Exit
from storyteller_dice.typeclasses.names import ACCOUNT_RULE, name_problem, shown_name
from typeclasses.objects import Object
from typeclasses.rooms import Room

FORGED = "Q\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[G[Roll] Admin rolls 9 dice"

HOSTILE = [
    FORGED,
    "|/|w[Roll]|n admin rolls Strength 5 + Brawl 4 (9 dice)|/  Dice: |g10|n",
    "Bob|rred",
    "Bob{you}",
    "Bob{",
    "Bob}",
    "$pad(Bob,80)",
    "Bob$You()",
    "Bob;puppet:false()",
    "Bob(",
    "Bob)",
    "Bob:x",
    "Bob\x07",
    "Bob\x85x",
    "Bob\x9b2J",
    "Bob\u202eevil",
    "Bob\u2066x",
    "Bo\u200bb",
    "Bob\u2028[Roll]",
    "Bob\r\n[Roll] x",
    "Bob\tx",
    "\uff3bRoll\uff3d Bob",  # full-width brackets
    "\uff22ob",  # full-width letter
    "Bob(#4)] Bob",
    "[Roll] Bob",
    "#12",
    " Bob",
    "Bob ",
    "Bob  Lee",
    "",
    "   ",
    "'Bob",
    "9Lives",
    "B" * 31,
    "Bob\ud800",
    "Bob&Alice",
    "Bob!",
    "Bob,Alice",
    "Bob<script>",
    "Z\u0335\u0336\u0337algo",  # accents piled on one letter
    "Bob\u20dd",  # an enclosing mark
]

GOOD = ["Bob", "Zoe\u0308", "Nguye\u0302\u0303n", "Anna-Lena", "O'Brien", "J.R. Smith", "Mary Jane", "Zoë", "Ñandú", "Kagome_2", "A" * 30, "Q"]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_character_names_are_refused(name):
    problem = name_problem(name, "character")
    assert problem, name
    # One line, itself inert: no control character, no markup of its own but escapes.
    assert "\n" not in problem and "\x1b" not in problem and "\r" not in problem
    assert problem.startswith("A name")


@pytest.mark.parametrize("name", GOOD)
def test_ordinary_names_pass(name):
    assert name_problem(name, "character") is None


@pytest.mark.parametrize("name,said", [
    ("Bob|rred", "A name cannot hold '||' (U+007C): the game would read it as markup."),
    ("Bob\x1b[2J", "A name cannot hold U+001B (a control character): it is not printable text."),
    ("Bob\u202eevil", "A name cannot hold U+202E RIGHT-TO-LEFT OVERRIDE: it is not printable text."),
    ("Bo\u200bb", "A name cannot hold U+200B ZERO WIDTH SPACE: it is not printable text."),
    ("Bob(#4)] Bob", "A name cannot hold '(' (U+0028): use letters, digits, single spaces and ' - . _ only."),
    ("Bob;x", "A name cannot hold ';' (U+003B): use letters, digits, single spaces and ' - . _ only."),
    ("\uff3bRoll\uff3d", "A name cannot hold '\uff3b' (U+FF3B): use the plain form of each letter."),
    ("B" * 31, "A name can be at most 30 characters long (this one has 31)."),
    ("9Lives", "A name must start with a letter."),
])
def test_the_refusal_says_what_is_wrong(name, said):
    assert name_problem(name, "character") == said


def test_account_names_are_ascii_without_spaces():
    assert name_problem("Bob", "account") is None
    assert name_problem("bob.smith_2", "account") is None
    rule = ("An account name has 3 to 30 characters: letters A-Z, digits and ' - . _, "
            "starting with a letter, and no spaces.")
    assert name_problem("Zoë", "account") == f"An account name cannot hold 'ë' (U+00EB). {rule}"
    assert name_problem("Bo", "account") == f"An account name needs at least 3 characters. {rule}"
    assert name_problem("Mary Jane", "account") == f"An account name cannot hold a space. {rule}"
    assert name_problem("bob@home", "account") == f"An account name cannot hold '@' (U+0040). {rule}"
    for name in HOSTILE:
        assert name_problem(name, "account"), name


def test_other_objects_keep_punctuation_but_not_markup_or_controls():
    assert name_problem("Elysium (Upper Gallery), Prince's Court: #2", "object") is None
    assert name_problem("x" * 80, "object") is None
    assert name_problem("x" * 81, "object")
    for name in ("Hall|/[Roll]", "Hall{x}", "Hall\x1b[2J", "Hall\u202e", "Hall\u200b", "Hall\r\nx"):
        assert name_problem(name, "object"), name


@pytest.mark.parametrize("name", HOSTILE)
def test_a_shown_name_is_inert_text(name):
    from evennia.utils.ansi import parse_ansi, strip_ansi

    shown = shown_name(name)
    assert parse_ansi(shown, strip_ansi=True) == strip_ansi(shown)  # no colour of its own
    rendered = parse_ansi(shown, strip_ansi=True)
    assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u2066\u2028" for c in rendered), repr(rendered)


class NameTest(EvenniaCommandTest):
    account_typeclass = Account
    character_typeclass = Character
    object_typeclass = Object
    exit_typeclass = Exit
    room_typeclass = Room


class TestStockLinesShowNamesAsText(NameTest):
    """A name already stored (as the website or an old database left it) in Evennia's lines."""

    def setUp(self):
        super().setUp()
        self.char2.db_key = FORGED
        self.char2.save()

    def received(self, who):
        return "\n".join(str(call.args[0] if call.args else call.kwargs.get("text")) for call in who.msg.call_args_list)

    def test_look_arrive_leave_and_join(self):
        from evennia.utils.ansi import parse_ansi

        self.char1.msg = lambda *a, **k: self.told.append(k.get("text", a[0] if a else None))
        self.told = [self.room1.get_display_characters(self.char1)]  # "Characters: ..."
        self.char2.announce_move_to(self.room2)  # "... arrives to Room from Room2."
        self.char2.announce_move_from(self.room2)  # "... is leaving Room, heading for Room2."
        self.char2.at_post_unpuppet(session=None)  # "... has left the game."
        texts = [t[0] if isinstance(t, tuple) else t for t in self.told]
        assert len(texts) == 4, texts
        for text in texts:
            shown = parse_ansi(text, strip_ansi=True)
            assert "\x1b" not in shown, repr(shown)
            assert "Q [1A [2K [1A [2K [G[Roll] Admin rolls 9 dice" in shown, repr(shown)
        assert texts[0].startswith("|wCharacters:|n ")
        assert texts[1].startswith("Q [1A")
        assert "has left the game" in texts[3]

    def test_puppeting_greets_and_announces_the_name_as_text(self):
        mine, theirs = [], []
        self.char2.msg = lambda text=None, **kw: mine.append(text)
        self.char1.msg = lambda text=None, **kw: theirs.append(text)
        self.char2.at_post_puppet()
        assert mine[0] == "\nYou become |cQ [1A [2K [1A [2K [G[Roll] Admin rolls 9 dice|n.\n"
        assert theirs == ["Q [1A [2K [1A [2K [G[Roll] Admin rolls 9 dice has entered the game."]

    def test_markup_in_a_name_is_shown_as_typed(self):
        from evennia.utils.ansi import parse_ansi

        self.char2.db_key = "|/|w[Roll]|n admin"
        shown = parse_ansi(self.char2.get_display_name(self.char1), strip_ansi=True)
        assert shown == "|/|w[Roll]|n admin"
        self.account2.username = "Eve"
        assert self.account2.get_display_name(self.char1) == "|cEve|n"

    def test_str_of_a_stored_name_is_one_line_for_the_log(self):
        self.char2.db_key = "Bob\r\nINFO: fake"
        assert "\r" not in str(self.char2) and "\n" not in str(self.char2)
        assert "\n" not in repr(self.char2)
        self.account2.username = "Eve\rINFO: fake"
        assert "\r" not in str(self.account2)

    def test_nospoof_tag_shows_the_name_as_text(self):
        from storyteller_dice.typeclasses.nospoof import author_tag

        tag = author_tag(self.char2)
        assert "\x1b" not in tag
        assert tag == f"[Q [1A [2K [1A [2K [G[Roll] Admin rolls 9 dice(#{self.char2.id})] "


class TestCharacterCreation(NameTest):
    def test_charcreate_refuses_hostile_names(self):
        from evennia.commands.default.account import CmdCharCreate

        self.account.permissions.add("Developer")
        # The stock command sends its list of errors, one here (the test sees the list).
        for name, said in (
            ("|/|w[Roll]|n admin", "A name cannot hold '|' (U+007C): the game would read it as markup."),
            ("Bob(#4)] Bob", "A name cannot hold '(' (U+0028): use letters, digits, single spaces and ' - . _ only."),
            ("$pad(x,9)", "A name must start with a letter."),
            ("Bob{you}", "A name cannot hold '{' (U+007B): the game would read it as markup."),
        ):
            self.call(CmdCharCreate(), name, repr([said]).replace("||", "|").replace("{{", "{"), caller=self.account)
        assert not Character.objects.filter(db_key__contains="Bob").exists()

    def test_create_with_control_or_bidi_characters_is_refused(self):
        for name in (FORGED, "Bob\x85", "Bob\u202e", "Bo\u200bb", "Bob;x", "Bob)"):
            character, errors = Character.create(name, self.account)
            assert character is None, name
            assert len(errors) == 1 and errors[0].startswith("A name"), errors

    def test_a_good_name_is_made_and_latinised(self):
        self.account.permissions.add("Developer")
        character, errors = Character.create("Zoë", self.account)
        assert not errors and character.key == "Zoe"

    def test_default_lock_string_names_the_character_by_number(self):
        character, errors = Character.create("Lockie", self.account)
        assert not errors
        assert f"id({character.id})" in str(character.locks)
        assert "id(Lockie)" not in str(character.locks)


class TestRename(NameTest):
    def test_rename_refuses_hostile_names(self):
        from storyteller_dice.commands.building import CmdName

        for newname, said in (
            ("Bob(#4)] Bob", "A name cannot hold '(' (U+0028): use letters, digits, single spaces and ' - . _ only."),
            ("|w[Roll]|n x", "A name cannot hold '|' (U+007C): the game would read it as markup."),
            ("Char", "A character named 'Char' already exists."),
        ):
            self.call(CmdName(), f"Char2 = {newname}", said)
            assert self.char2.key == "Char2"
        self.call(CmdName(), "Char2 = Bobby", "Object's name changed to 'Bobby'.")
        assert self.char2.key == "Bobby"

    def test_rename_of_an_account_follows_the_account_rule(self):
        from storyteller_dice.commands.building import CmdName

        self.call(CmdName(), "*TestAccount2 = Eve|rx", "A name cannot hold '|' (U+007C): the game would read it as markup.")
        assert self.account2.username == "TestAccount2"
        self.call(CmdName(), "*TestAccount2 = testaccount", "The account name 'testaccount' is already taken.")
        self.call(CmdName(), "*TestAccount2 = Evelyn", "Account's name changed to 'Evelyn'.")
        self.account2.refresh_from_db()
        assert self.account2.username == "Evelyn"

    def test_rooms_keep_punctuation_but_not_markup(self):
        from storyteller_dice.commands.building import CmdName

        self.call(CmdName(), "here = Elysium (Upper) Court", "Object's name changed to 'Elysium (Upper) Court'.")
        self.call(CmdName(), "here = Hall|/[Roll] fake", "A name cannot hold '|' (U+007C): the game would read it as markup.")
        assert self.room1.key == "Elysium (Upper) Court"

    def test_name_in_the_character_cmdset_is_ours(self):
        from storyteller_dice.commands import building
        from commands.default_cmdsets import CharacterCmdSet

        cmdset = CharacterCmdSet()
        cmdset.at_cmdset_creation()
        for key, ours in (("@name", building.CmdName), ("@create", building.CmdCreate),
                          ("@dig", building.CmdDig), ("@open", building.CmdOpen)):
            found = [cmd for cmd in cmdset.commands if cmd.key == key]
            assert len(found) == 1 and type(found[0]) is ours, key


class TestAccountCreation(NameTest):
    def test_account_create_refuses_hostile_names(self):
        for name in ("Bob\x07", "Bob(#4)]", "Bob|r", "Zoë", "Bob\u202e"):
            account, errors = Account.create(username=name, password="Sekrit99pw!x")
            assert account is None, name
            assert len(errors) == 1 and errors[0].startswith(("A name", "An account name")), errors


class TestWebsite(NameTest):
    def test_registration_with_hostile_names_gives_a_form_error(self):
        for name in ("Bob\x07x", "Bob\x85x", "Bob\u202ex", "Bob(#4)]", FORGED, "Bob|rx", "Bob@home", "Bob+x"):
            response = self.client.post(
                "/auth/register",
                {"username": name, "email": "", "password1": "Sekrit99pw!x", "password2": "Sekrit99pw!x"},
            )
            assert response.status_code == 200, (name, response.status_code)
            assert b"errorlist" in response.content or b"alert-danger" in response.content, name
        # Django's own check lets these two through; the name rule gives the form its line,
        # ending with the rule the form states under the field.
        rule = ("An account name has 3 to 30 characters: letters A-Z, digits and &#x27; - . _, "
                "starting with a letter, and no spaces.").encode()
        assert b"An account name cannot hold &#x27;+&#x27; (U+002B). " + rule in response.content
        assert b'id="account-name-rule">' + rule + b"</small>" in response.content
        assert b"@/./+/-/_" not in response.content
        assert not Account.objects.filter(username__startswith="Bob").exists()
        # Django's check refuses a space first: the form says the same rule, not Django's.
        response = self.client.post(
            "/auth/register",
            {"username": "Zoe Smith", "email": "", "password1": "Sekrit99pw!x", "password2": "Sekrit99pw!x"},
        )
        assert b'<div class="alert alert-danger" role="alert">' + rule + b"</div>" in response.content
        assert b"@/./+/-/_" not in response.content
        assert not Account.objects.filter(username__startswith="Zoe").exists()

    def test_character_creation_with_hostile_names_gives_a_form_error(self):
        self.account.permissions.add("Developer")  # room for more than one character
        self.client.force_login(self.account)
        for name in ("Bob\x07x", "Bob\x85x", "Bob\u202ex", "Bo\u200bb", "Bob;x", "Bob(", FORGED, "|/|w[Roll]|n x"):
            response = self.client.post("/characters/create/", {"db_key": name, "desc": "x"})
            assert response.status_code == 200, (repr(name), response.status_code)
            assert b"could not be created" in response.content, name
        assert not Character.objects.filter(db_key__startswith="Bo").exists()
        response = self.client.post("/characters/create/", {"db_key": "Webby", "desc": "x"})
        assert response.status_code == 302
        assert Character.objects.filter(db_key="Webby").exists()


class TestStoredNamesReport(NameTest):
    def test_bad_stored_names_are_logged_and_shown_to_staff(self):
        from evennia.server.models import ServerConfig

        from storyteller_dice.typeclasses.names import report_bad_names, staff_notice

        self.char2.db_key = FORGED
        self.char2.save()
        with patch("evennia.utils.logger.log_warn") as warn:
            found = report_bad_names()
        assert [(what, dbid) for what, dbid, _, _ in found] == [("object", self.char2.id)]
        line = warn.call_args.args[0]
        assert "\x1b" not in line and "\\x1b" in line and "\n" not in line
        assert line.startswith(f"Bad name: object #{self.char2.id} 'Q\\x1b[1A")
        self.account.permissions.add("Admin")
        notice = staff_notice(self.account)
        assert notice.startswith("|w[Staff]|n 1 stored name(s) break the name rule")
        assert "\x1b" not in notice
        assert staff_notice(self.account2) is None  # a player is not told
        self.char2.db_key = "Fixed"
        self.char2.save()
        assert staff_notice(self.account) is None  # renamed since the start: no longer listed
        assert report_bad_names() == []
        assert staff_notice(self.account) is None
        assert ServerConfig.objects.conf("bad_names") == []


class TestStartAndLogin(NameTest):
    def test_server_start_reports_stored_names(self):
        from storyteller_dice.commands import hooks

        with patch("storyteller_dice.commands.pending_lifecycle.connect_puppet_hook"), patch("storyteller_dice.commands.pending_lifecycle.at_server_start"), \
                patch("storyteller_dice.typeclasses.names.report_bad_names") as report:
            hooks.at_server_start()
        report.assert_called_once_with()

    def test_a_failing_report_never_stops_the_start(self):
        from storyteller_dice.commands import hooks

        with patch("storyteller_dice.commands.pending_lifecycle.connect_puppet_hook"), patch("storyteller_dice.commands.pending_lifecycle.at_server_start"), \
                patch("storyteller_dice.typeclasses.names.report_bad_names", side_effect=RuntimeError("db gone")), \
                patch("evennia.utils.logger.log_trace") as trace:
            hooks.at_server_start()
        trace.assert_called_once_with("the stored-name report")

    def test_staff_are_told_at_login(self):
        from evennia.server.signals import SIGNAL_ACCOUNT_POST_LOGIN

        from storyteller_dice.commands import hooks
        from storyteller_dice.typeclasses.names import report_bad_names

        self.char2.db_key = "Eve|/[Roll] x"
        self.char2.save()
        with patch("evennia.utils.logger.log_warn"):
            report_bad_names()
        self.account.permissions.add("Admin")
        told = []
        SIGNAL_ACCOUNT_POST_LOGIN.connect(hooks._on_login, dispatch_uid=hooks.LOGIN_NOTICE)
        with patch.object(Account, "msg", lambda acct, text=None, **kw: told.append(text)):
            SIGNAL_ACCOUNT_POST_LOGIN.send(sender=self.account, session=self.session)  # as Evennia's login does
            SIGNAL_ACCOUNT_POST_LOGIN.send(sender=self.account2, session=None)
        assert told == [
            f"|w[Staff]|n 1 stored name(s) break the name rule (see the server log): object "
            f"#{self.char2.id} Eve||/[Roll] x. Rename them with @name."
        ]

    def test_a_superuser_is_told_the_shared_command_keys_at_login(self):
        from storyteller_dice.commands import hooks

        line = "+rouse: the game's command answers (ours is left out); rename ours with DICE_COMMAND_KEYS."
        self.account.is_superuser = True
        self.account2.is_superuser = False
        with patch("storyteller_dice.commands.catalogue.collision_lines", return_value=[line]):
            assert hooks.staff_notice_lines(self.account) == [line]
            assert hooks.staff_notice_lines(self.account2) == []

    def test_connect_channel_lines_show_the_name_as_text(self):
        # The bundle's (DICE_HARDEN_GAME): typeclasses.connect_channel wraps Evennia's sender.
        from storyteller_dice.typeclasses.connect_channel import shown_line

        self.account2.username = "Eve|/[Roll]"
        assert shown_line(self.account2, f"|G{self.account2.key} connected|n") == "|GEve||/[Roll] connected|n"
        self.account2.username = "|"
        assert shown_line(self.account2, "|R| disconnected (quit)|n") == "|R|| disconnected (quit)|n"


class TestTelnetCreate(NameTest):
    def test_create_at_the_login_screen_refuses_a_hostile_name(self):
        from unittest.mock import Mock

        from storyteller_dice.commands.unloggedin import CmdUnconnectedCreate

        for name, said in (
            ("Bob(#4)]", "An account name cannot hold '(' (U+0028). " + ACCOUNT_RULE),
            ("Bob|r", "A name cannot hold '||' (U+007C): the game would read it as markup. " + ACCOUNT_RULE),
        ):
            session = Mock(address="127.0.0.1")
            cmd = CmdUnconnectedCreate()
            cmd.caller, cmd.args, cmd.cmdname = session, f'"{name}" Sekrit99pw!x', "create"
            steps = cmd.func()
            next(steps)
            with pytest.raises(StopIteration):
                steps.send("y")
            told = [call.args[0] for call in session.msg.call_args_list]
            assert told == [f"|R{said}|n"], told  # the stock command colours its errors red
        assert not Account.objects.filter(username__startswith="Bob").exists()


class TestBuilderCreation(NameTest):
    def test_create_dig_and_open_hold_new_names_to_the_rule(self):
        from storyteller_dice.commands.building import CmdCreate, CmdDig, CmdOpen

        markup = "A name cannot hold '|' (U+007C): the game would read it as markup."
        self.call(CmdCreate(), "Lamp|/[Roll] x", markup)
        self.call(CmdCreate(), "lamp;l|r", markup)  # an alias too
        self.call(CmdCreate(), "Bob(#4)] Bob:typeclasses.characters.Character",
                  "A name cannot hold '(' (U+0028): use letters, digits, single spaces and ' - . _ only.")
        self.call(CmdDig(), "Hall{x}", "A name cannot hold '{' (U+007B): the game would read it as markup.")
        self.call(CmdDig(), "Hall = in|/x, out", markup)
        self.call(CmdOpen(), "door|/[Roll] = Room2", markup)
        assert not Object.objects.filter(db_key__startswith="Lamp").exists()
        assert not Room.objects.filter(db_key__startswith="Hall").exists()
        self.call(CmdCreate(), "Lamp (brass)", "You create a new Object: Lamp (brass)")
        self.call(CmdDig(), "Hallway (north)", "Created room Hallway (north)")

    def test_the_help_names_the_rule(self):
        from storyteller_dice.commands.building import CmdCreate

        assert "help names" in CmdCreate.__doc__
        assert CmdCreate.__doc__.startswith(__import__("evennia").commands.default.building.CmdCreate.__doc__)


def test_the_fast_path_never_lets_through_what_the_full_rule_refuses():
    from hypothesis import given, settings as hsettings, strategies as st

    from storyteller_dice.typeclasses import names

    @hsettings(max_examples=400, deadline=None)
    @given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F), max_size=40),
           st.sampled_from(["character", "account", "object"]))
    def check(name, kind):
        if names._plainly_fine(name, kind):
            limit = names.NAME_MAX if kind in names.SPEAKER_KINDS else names.OBJECT_NAME_MAX
            assert len(name) > limit or (
                names._text_problem(name, limit) is None
                and (kind == "object" or names._speaker_problem(name, kind) is None)
            ), (name, kind)

    check()
