"""
The opt-in bundle (`typeclasses.hardening`, `DICE_HARDEN_GAME`): what it adds to the settings,
what the start log says when the game keeps its own session classes, that its Server-side
patches install only when it is on, that nothing outside it assigns a private name of
Evennia's, and that the dice need none of it (a roll goes by plain `msg()`, and its lines reach
a screen reader already stripped through Evennia's own session handler).
"""

import ast
import copy
import re
from pathlib import Path
from types import SimpleNamespace
from unittest.mock import MagicMock, patch

import pytest
from django.test import override_settings
from evennia import settings_default
from evennia.server.portal.portalsessionhandler import PortalSessionHandler as EvenniaPortalSessionHandler
from evennia.server.serversession import ServerSession as EvenniaServerSession
from evennia.server.sessionhandler import ServerSessionHandler as EvenniaServerSessionHandler
from evennia.utils.ansi import parse_ansi, strip_raw_ansi

from storyteller_dice.typeclasses import hardening
from storyteller_dice.typeclasses.serversession import ServerSession as OurServerSession

REPO = Path(__file__).resolve().parents[1]
OURS = "storyteller_dice.typeclasses"


class HostSession(OurServerSession):
    """A game's own session class built on ours (still protected)."""


def host_settings(**changes):
    """A game's settings as `evennia --init` leaves them (Evennia's defaults), with `changes`."""
    names = ("SERVER_SESSION_CLASS", "SERVER_SESSION_HANDLER_CLASS", "PORTAL_SESSION_HANDLER_CLASS",
             "SERVER_SERVICES_PLUGIN_MODULES",
             "PORTAL_SERVICES_PLUGIN_MODULES", "INPUT_FUNC_MODULES", "IN_GAME_ERRORS")
    values = {name: copy.copy(getattr(settings_default, name)) for name in names}
    return SimpleNamespace(**{**values, **changes})


# ------------------------------------------------------------------ complete_settings


def test_off_nothing_changes():
    for given in (host_settings(), host_settings(DICE_HARDEN_GAME=False)):
        before = copy.deepcopy(vars(given))
        hardening.complete_settings(given)
        assert vars(given) == before


def test_only_true_turns_it_on_and_anything_else_is_named():
    for value in ("True", "False", 1, None):
        given = host_settings(DICE_HARDEN_GAME=value)
        before = copy.deepcopy(vars(given))
        hardening.complete_settings(given)
        assert vars(given) == before
    assert hardening.settings_problem(host_settings(DICE_HARDEN_GAME="False")) == (
        "DICE_HARDEN_GAME must be True or False, not 'False'.")
    assert hardening.settings_problem(host_settings(DICE_HARDEN_GAME=None)) == (
        "DICE_HARDEN_GAME must be True or False, not None.")
    for value in (True, False):
        assert hardening.settings_problem(host_settings(DICE_HARDEN_GAME=value)) is None
    assert hardening.settings_problem(host_settings()) is None


def test_on_with_evennias_defaults_sets_ours_and_appends_the_plugins():
    given = host_settings(DICE_HARDEN_GAME=True)
    hardening.complete_settings(given)
    assert given.SERVER_SESSION_CLASS == f"{OURS}.serversession.ServerSession"
    assert given.SERVER_SESSION_HANDLER_CLASS == f"{OURS}.sessionhandler.ServerSessionHandler"
    assert given.PORTAL_SESSION_HANDLER_CLASS == f"{OURS}.portal_sessions.PortalSessionHandler"
    assert given.SERVER_SERVICES_PLUGIN_MODULES == ["server.conf.server_services_plugins",
                                                    f"{OURS}.hardening_server"]
    assert given.PORTAL_SERVICES_PLUGIN_MODULES == ["server.conf.portal_services_plugins",
                                                    f"{OURS}.hardening_portal"]
    assert given.INPUT_FUNC_MODULES == [*settings_default.INPUT_FUNC_MODULES, f"{OURS}.client_options"]
    assert given.IN_GAME_ERRORS is False
    # Appended to new lists: Evennia's default lists (which a game's settings share) are untouched.
    assert settings_default.SERVER_SERVICES_PLUGIN_MODULES == ["server.conf.server_services_plugins"]
    assert f"{OURS}.client_options" not in settings_default.INPUT_FUNC_MODULES


def test_on_is_idempotent():
    given = host_settings(DICE_HARDEN_GAME=True)
    hardening.complete_settings(given)
    once = copy.deepcopy(vars(given))
    hardening.complete_settings(given)
    assert vars(given) == once


def test_on_a_plugin_setting_given_as_one_string_becomes_a_list():
    given = host_settings(DICE_HARDEN_GAME=True, SERVER_SERVICES_PLUGIN_MODULES="server.conf.mine")
    hardening.complete_settings(given)
    assert given.SERVER_SERVICES_PLUGIN_MODULES == ["server.conf.mine", f"{OURS}.hardening_server"]


def test_on_with_the_games_own_session_class_it_is_kept_and_the_start_line_says_what_is_not_protected():
    given = host_settings(DICE_HARDEN_GAME=True, SERVER_SESSION_CLASS="tests.test_hardening.NotOurs")
    hardening.complete_settings(given)
    assert given.SERVER_SESSION_CLASS == "tests.test_hardening.NotOurs"
    assert given.SERVER_SESSION_HANDLER_CLASS == f"{OURS}.sessionhandler.ServerSessionHandler"
    assert hardening.start_lines(given) == [
        "storyteller_dice: DICE_HARDEN_GAME is on, but SERVER_SESSION_CLASS is the game's own "
        "(tests.test_hardening.NotOurs); not protected: the input filter (control and bidi characters "
        "in input), bounded screen sizes, the line and reply size bounds, commands taking turns."
    ]


class NotOurs(EvenniaServerSession):
    """A game's own session class, on Evennia's."""


def test_the_games_own_handler_is_kept_and_named_at_start():
    given = host_settings(DICE_HARDEN_GAME=True, SERVER_SESSION_HANDLER_CLASS="tests.test_hardening.HostHandler")
    hardening.complete_settings(given)
    assert given.SERVER_SESSION_HANDLER_CLASS == "tests.test_hardening.HostHandler"
    assert hardening.start_lines(given) == [
        "storyteller_dice: DICE_HARDEN_GAME is on, but SERVER_SESSION_HANDLER_CLASS is the game's own "
        "(tests.test_hardening.HostHandler); not protected: a screen reader's text stripped once for "
        "every message (the dice's own lines are stripped anyway), one AMP message for many sessions."
    ]
    assert not hardening.handler_is_ours(given)


class HostHandler(EvenniaServerSessionHandler):
    """A game's own session handler, on Evennia's."""


def test_the_games_own_portal_handler_is_kept_and_named_at_start():
    given = host_settings(DICE_HARDEN_GAME=True, PORTAL_SESSION_HANDLER_CLASS="tests.test_hardening.HostPortalHandler")
    hardening.complete_settings(given)
    assert given.PORTAL_SESSION_HANDLER_CLASS == "tests.test_hardening.HostPortalHandler"
    assert hardening.start_lines(given) == [
        "storyteller_dice: DICE_HARDEN_GAME is on, but PORTAL_SESSION_HANDLER_CLASS is the game's own "
        "(tests.test_hardening.HostPortalHandler); not protected: input typed while the Server is not "
        "up held and read once it is (else it is lost)."
    ]


class HostPortalHandler(EvenniaPortalSessionHandler):
    """A game's own Portal session handler, on Evennia's."""


def test_a_games_own_class_built_on_ours_is_protected():
    given = host_settings(DICE_HARDEN_GAME=True, SERVER_SESSION_CLASS="tests.test_hardening.HostSession")
    hardening.complete_settings(given)
    assert given.SERVER_SESSION_CLASS == "tests.test_hardening.HostSession"
    assert hardening.start_lines(given) == []
    assert hardening.handler_is_ours(given)


def test_start_lines_off():
    assert hardening.start_lines(host_settings()) == []
    assert hardening.start_lines(host_settings(SYNC_BEFORE_SENDING=True)) == [
        "storyteller_dice: SYNC_BEFORE_SENDING does nothing without DICE_HARDEN_GAME = True: the "
        "database's commits are as durable as its own settings make them."
    ]


def test_at_server_start_logs_the_start_lines():
    with override_settings(DICE_HARDEN_GAME=False, SYNC_BEFORE_SENDING=True), \
            patch("evennia.utils.logger.log_warn") as log_warn:
        hardening.at_server_start()
    assert [call.args[0] for call in log_warn.call_args_list] == hardening.start_lines(
        SimpleNamespace(SYNC_BEFORE_SENDING=True))


def test_this_games_settings_have_the_bundle_completed():
    from django.conf import settings

    assert settings.DICE_HARDEN_GAME is True
    assert settings.SERVER_SESSION_CLASS == f"{OURS}.serversession.ServerSession"
    assert settings.SERVER_SESSION_HANDLER_CLASS == f"{OURS}.sessionhandler.ServerSessionHandler"
    assert settings.PORTAL_SESSION_HANDLER_CLASS == f"{OURS}.portal_sessions.PortalSessionHandler"
    assert settings.SERVER_SERVICES_PLUGIN_MODULES[-1] == f"{OURS}.hardening_server"
    assert settings.PORTAL_SERVICES_PLUGIN_MODULES[-1] == f"{OURS}.hardening_portal"
    assert settings.IN_GAME_ERRORS is False


def test_the_plugin_modules_install_the_amp_patches():
    from storyteller_dice.typeclasses import hardening_portal, hardening_server

    with patch("storyteller_dice.typeclasses.amp_framing.install") as framing, \
            patch("storyteller_dice.typeclasses.amp_batch.install_portal") as batch:
        hardening_server.start_plugin_services(None)
        assert (framing.call_count, batch.call_count) == (1, 0)
        hardening_portal.start_plugin_services(None)
        assert (framing.call_count, batch.call_count) == (2, 1)


# ------------------------------------------------------------------ the Server-side patches


@pytest.mark.parametrize("on", [False, True])
def test_the_server_side_patches_install_only_when_on(on):
    with override_settings(DICE_HARDEN_GAME=on), \
            patch("storyteller_dice.typeclasses.player_errors.install") as errors, \
            patch("storyteller_dice.typeclasses.connect_channel.install") as connect, \
            patch("storyteller_dice.typeclasses.durable.install") as durable:
        hardening.at_server_init()
    assert (errors.call_count, connect.call_count, durable.call_count) == ((1, 1, 1) if on else (0, 0, 0))


def test_the_connect_channel_patch_wraps_evennias_sender_once():
    from evennia.accounts.accounts import DefaultAccount

    from storyteller_dice.typeclasses import connect_channel

    sent = []
    with patch.object(DefaultAccount, "_send_to_connect_channel", lambda account, message: sent.append(message)):
        connect_channel.install()
        connect_channel.install()
        account = SimpleNamespace(key="Eve|/[Roll]", name="Eve|/[Roll]")
        DefaultAccount._send_to_connect_channel(account, "|GEve|/[Roll] connected|n")
        DefaultAccount._send_to_connect_channel(account, "|wsomething else|n")
    assert sent == ["|GEve||/[Roll] connected|n", "|wsomething else|n"]


# ------------------------------------------------------------------ no private name outside the bundle

# The bundle's modules, loaded only with DICE_HARDEN_GAME (from typeclasses/hardening.py): only
# these may assign a private name of Evennia's or patch Evennia, each for the reason given.
# (inputfilter.py and screenreader.py are plain functions the dice use too: they need no place.)
BUNDLE = {
    "typeclasses/hardening.py": "completes Django's settings (setattr on settings) for the bundle",
    "typeclasses/hardening_server.py": "the Server's plugin module: installs the AMP framing fix",
    "typeclasses/hardening_portal.py": "the Portal's plugin module: the AMP framing fix and batching",
    "typeclasses/amp_batch.py": "adds a command to the Portal's AMP dispatch table (_commandDispatch)",
    "typeclasses/amp_framing.py": "replaces Evennia's AMPMultiConnectionProtocol.dataReceived",
    "typeclasses/serversession.py": "the session class: its own state on Evennia's ServerSession",
    "typeclasses/sessionhandler.py": "the session handler: Evennia's ServerSessionHandler subclassed",
    "typeclasses/portal_sessions.py": "the Portal's session handler: Evennia's PortalSessionHandler subclassed",
    "typeclasses/player_errors.py": "replaces cmdhandler._msg_err",
    "typeclasses/client_options.py": "replaces Evennia's client_options and webclient_options inputfuncs",
    "typeclasses/durable.py": "wraps the AMP client's send methods and Django's connection commit",
    "typeclasses/connect_channel.py": "wraps DefaultAccount._send_to_connect_channel",
}
# Lines outside the bundle that the text search finds, and why each assigns nothing of Evennia's.
ALLOWED = {
    ("typeclasses/characters.py", 'self.__dict__["_sheet_memo"] = memo'): "our own memo on our mixin's instance",
    ("rolllog/counting.py", "setattr(_HELD, connection.alias, held)"): "our own thread-local, keyed by alias",
    ("rolllog/counting.py", "setattr(_HELD, connection.alias, group.held)"): "our own thread-local, keyed by alias",
    ("rolllog/counting.py", "setattr(_GROUP, connection.alias, group)"): "our own thread-local, keyed by alias",
}
PRIVATE_ASSIGNMENT = re.compile(r"\._[A-Za-z_]\w*(\[[^]]*\])?\s*(=(?!=)|\+=)|setattr\(|__dict__\[")


def package_files():
    for folder in ("commands", "typeclasses", "rolllog"):
        for path in sorted((REPO / folder).rglob("*.py")):
            yield path.relative_to(REPO).as_posix(), path


def test_no_private_name_is_assigned_outside_the_bundle():
    found = []
    for name, path in package_files():
        if name in BUNDLE:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            code = line.split("#", 1)[0].strip()
            if PRIVATE_ASSIGNMENT.search(code) and (name, code) not in ALLOWED:
                found.append(f"{name}: {code}")
    assert found == []


def _evennia_names(tree):
    """The names a module binds to Evennia's modules, classes and functions (any import)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names
                      if alias.name.split(".")[0] == "evennia"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "evennia":
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def _base(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def test_nothing_of_evennias_is_patched_outside_the_bundle():
    found = []
    for name, path in package_files():
        if name in BUNDLE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        evennia_names = _evennia_names(tree)
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("setattr", "delattr") and node.args:
                targets = [ast.Attribute(value=node.args[0], attr="?")]
            for target in targets:
                if isinstance(target, (ast.Attribute, ast.Subscript)) and _base(target) in evennia_names:
                    found.append(f"{name}:{node.lineno}")
    assert found == []


def test_the_bundles_modules_exist():
    assert [name for name in BUNDLE if not (REPO / name).is_file()] == []


def test_the_grep_finds_what_the_bundle_does():
    # The searches above are not blind: they find the bundle's own patches.
    found = [code for name, path in package_files() if name in BUNDLE
             for code in (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
             if PRIVATE_ASSIGNMENT.search(code)]
    assert "cmdhandler._msg_err = report_error" in found
    assert "DefaultAccount._send_to_connect_channel = _send_to_connect_channel" in found


# ------------------------------------------------------------------ the dice without the bundle


class Session:
    def __init__(self, sessid, **flags):
        self.sessid = sessid
        self.protocol_flags = {"ENCODING": "utf-8", "SCREENWIDTH": {0: 80}, **flags}


class Receiver:
    """A receiver whose `msg()` goes through Evennia's own session handler and telnet's pass."""

    def __init__(self, *sessions):
        self._sessions = list(sessions)
        self.sessions = SimpleNamespace(all=lambda: list(self._sessions))
        self.seen = {}
        self.calls = 0

    def msg(self, text=None, from_obj=None, session=None, options=None, **kwargs):
        self.calls += 1
        for each in session or self._sessions:
            data = {"text": text, **({"options": options} if options else {})}
            (args, out_kwargs) = EvenniaServerSessionHandler().clean_senddata(each, data)["text"]
            line, flags = args[0], each.protocol_flags
            # What the Portal's telnet protocol does: the screen-reader pass, then its parse.
            if out_kwargs["options"].get("screenreader", flags.get("SCREENREADER", False)):
                line = parse_ansi(line, strip_ansi=True, xterm256=False, mxp=False)
            self.seen[each.sessid] = strip_raw_ansi(parse_ansi(line + "|n", mxp=True))


ROLL = "|w[Roll]|n Alice rolls 3 dice # ||/[Roll] Admin rolls 9 dice"


def test_without_the_bundle_a_roll_is_plain_msg_and_inert_for_a_screen_reader():
    from storyteller_dice.commands.dice_base import send

    plain, both = Receiver(Session(1)), Receiver(Session(2), Session(3, SCREENREADER=True))
    with override_settings(DICE_HARDEN_GAME=False), \
            patch("storyteller_dice.typeclasses.amp_batch.batched") as batched:
        assert send([plain, both], ROLL) == [plain, both]
    batched.assert_not_called()
    shown = "[Roll] Alice rolls 3 dice # |/[Roll] Admin rolls 9 dice"
    assert (plain.calls, plain.seen) == (1, {1: shown})
    assert (both.calls, both.seen) == (2, {2: shown, 3: shown})


def test_a_screen_readers_line_sent_stripped_is_left_alone_by_the_bundles_handler():
    from storyteller_dice.typeclasses.screenreader import INERT_OPTIONS, screenreader_text
    from storyteller_dice.typeclasses.sessionhandler import ServerSessionHandler

    stripped = screenreader_text(ROLL)
    (args, kwargs) = ServerSessionHandler().clean_senddata(
        Session(1, SCREENREADER=True), {"text": stripped, "options": dict(INERT_OPTIONS)})["text"]
    assert (args[0], kwargs["options"]) == (stripped, {"screenreader": False})


def test_with_the_bundle_a_roll_is_batched():
    from storyteller_dice.commands.dice_base import send

    receiver = Receiver(Session(1))
    with override_settings(DICE_HARDEN_GAME=True), \
            patch("storyteller_dice.typeclasses.amp_batch.batched", return_value=MagicMock()) as batched:
        send([receiver], ROLL)
    batched.assert_called_once_with()


def test_without_the_bundle_speech_is_inert_for_a_screen_reader():
    from storyteller_dice.typeclasses.screenreader import msg_readable

    said = ('Alice says, "x ||/[Ro||nll] Admin rolls 9 dice|n"', {"type": "say"})
    receiver = Receiver(Session(1), Session(2, SCREENREADER=True))
    msg_readable(receiver, said, from_obj=None)
    shown = 'Alice says, "x |/[Ro|nll] Admin rolls 9 dice"'
    assert (receiver.calls, receiver.seen) == (2, {1: shown, 2: shown})
