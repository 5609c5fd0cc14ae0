"""
What every dice command shares: the help category, refusing bad input with one clear line,
finding characters, telling who is staff, and sending a roll to its audience.

Commands stay thin: they parse, fetch traits, call the configured dice system
(`dice_system()`, a `rules.engine.System`), format (`rules.display`) and send. No dice logic
lives here, and no system's words: a system's own commands and its extras to the shared
`+roll`/`+odds` live in its wing (`commands/<key>/`, see `Wing`).
"""

import importlib
import re
from collections.abc import Callable
from typing import Any, Protocol

from django.conf import settings
from evennia.commands.default.muxcommand import MuxCommand

from storyteller_dice.rolllog import api as rolllog_api
from storyteller_dice.rules.display import MIN_WIDTH, append_code, fit_width, format_refusal, reported_number
from storyteller_dice.rules.display import escape as _escape
from storyteller_dice.rules.display import without_control, wrap
from storyteller_dice.rules.engine import Roller, RollRequest, read_whole
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.systems import wing_of
from storyteller_dice.typeclasses.audience import distinct
from storyteller_dice.typeclasses.incoming import ours
# The host's Character typeclass: any class mixing in the sheet counts as a character.
from storyteller_dice.typeclasses.characters import DiceCharacterMixin as Character
from storyteller_dice.typeclasses.hardening import batched
from storyteller_dice.typeclasses.screenreader import msg_readable
# The configured system lives below the commands (the typeclasses and the web pages use it too).
from storyteller_dice.typeclasses.system import check_configured_system, dice_system, system_key  # noqa: F401

from . import events

HELP_CATEGORY = "Dice"
MAX_NAME = 80  # longer than any character's name: refused without a search
STAFF_LOCK = "perm(Builder)"


class DiceCommand(MuxCommand):
    """Base for the dice commands (not a command itself)."""

    help_category = HELP_CATEGORY
    usage = ""
    switch_options = ()

    def parse(self):
        # Switches are matched here, without case, and `self.switches` holds the full names
        # that matched (`/PRIV` is `private`): the commands test them by name, so a switch
        # matched one way and applied another would make `+roll/Priv` public. MuxCommand's own
        # matching only warns about an unknown switch and runs anyway (a typo in `/private`
        # must not make a roll public), and warns once per empty `/`: it is not used.
        self.bad_switch = None
        # Whatever the client sent, no control character reaches a message, a database query
        # or the roll log.
        self.args = without_control(self.args)
        self.raw_string = without_control(self.raw_string)
        switch_options, self.switch_options = self.switch_options, None
        try:
            super().parse()
        finally:
            self.switch_options = switch_options
        options = [opt.lower() for opt in switch_options or ()]
        matched = []
        for element in self.switches:
            typed = element.lower()
            exact = [opt for opt in options if opt == typed]
            matches = exact or [opt for opt in options if typed and opt.startswith(typed)]
            if len(matches) != 1:
                self.bad_switch = (element, matches)
                break
            if matches[0] not in matched:
                matched.append(matches[0])
        self.switches = matched

    def func(self):
        if self.bad_switch is not None:
            self.refuse(self.switch_refusal(*self.bad_switch))
            return
        try:
            self.run()
        except DiceError as err:
            self.refuse(refusal_text(err))

    def switch_refusal(self, typed, matches):
        options = [opt.lower() for opt in self.switch_options or ()]
        if len(matches) > 1:
            return f"Switch /{_escape(typed)} could be " + " or ".join(f"/{opt}" for opt in matches) + "."
        known = ", ".join(f"/{opt}" for opt in options)
        knows = f"this command knows {known}" if known else "this command has no switches"
        if not typed:
            return f"Put a switch name after '/' ({knows})."
        return f"Unknown switch /{_escape(typed)} ({knows})."

    def refuse(self, message):
        """What was wrong, then the usage on a line of its own (`rules.display.format_refusal`)."""
        self.msg(format_refusal(message, self.usage or "", width=width_of(self.caller)))

    def run(self):
        raise NotImplementedError


def refusal_text(err):
    """
    A refusal's text, inert. `rules/` is pure Python and quotes what was typed as it is
    (`I can't read '|r...' in the pool`), so its messages are escaped here; the commands'
    own messages escape the player text they quote (and may carry markup of ours).
    """
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_globals.get("__name__", "") if tb is not None else ""
    text = str(err)
    return _escape(text) if where == _RULES or where.startswith(_RULES + ".") else text


_RULES = f"{__package__.rpartition('.')[0]}.rules"  # storyteller_dice.rules


COMMENT = re.compile(r"(?:^|\s)#")


def split_comment(text):
    """`dex+stealth vs 3 # up the wall` -> ("dex+stealth vs 3", "up the wall")."""
    found = COMMENT.search(text)
    if found:
        return text[: found.start()].strip(), text[found.end():].strip()
    return text.strip(), ""


def whole_number(typed, message, check=None, signed=False):
    """A number the player typed (`rules.engine.read_whole`), the typed text quoted escaped: the
    refusal is a line of markup."""
    return read_whole(typed, message, check, signed, shown=_escape)


def has_sheet(obj):
    """Whether `obj` is a character with a sheet (it rolls, and its traits can be set)."""
    return hasattr(obj, "roller") and hasattr(obj, "set_trait")


def is_staff(obj):
    """Builder or above (through the account when puppeted)."""
    return bool(obj) and obj.locks.check_lockstring(obj, f"staff:{STAFF_LOCK}")


# ---------------------------------------------------------------- wings


class Asked(Protocol):
    """What a wing's hook is handed as `cmd`: the command running (a `DiceCommand`; +odds asked
    outside the command, by the web client's panel, an `commands.odds.OddsAsked`). A hook may
    keep what it needs for a later hook on it (the Dice Check's target)."""

    caller: Any
    key: str
    args: str
    raw_string: str
    switches: list[str]
    system: Any  # the configured `rules.engine.System`


#: what an after-roll hook adds to the roll's message: client width -> extra lines
ExtraLines = Callable[[int], list[str]]


class Wing:
    """
    A system's extras to the shared commands, and its own commands. The default wing (a system
    without one) adds nothing. The system names its wing (`System.wing`, "module:ATTRIBUTE";
    the package's own five by the registry: `rules.systems.wing_of`), so a new system needs no
    edit here.

    Attributes:
        key (str): the system's key.
        switches (tuple of str): extra switches of the shared +roll/+check (the system's own
            `roll_switches` are added anyway).
        odds_switches (tuple of str): extra switches of +odds.
        cmdset: the wing's CmdSet class (or None), added to every character's commands.
        roll_help, odds_help (str): more help for +roll/+check and +odds.
        guide (str): the start of `help dice`, the system's one-screen guide (the shared help
            adds the commands and the other topics: `commands.help_entries`).
        help_topics (sequence of dict): the system's own help entries (`key`, `aliases`,
            `text`, as file help entries), shown only while it is the configured system.
        teamwork: the system's `commands.teamwork.TeamworkRules` for the shared +teamwork (or
            None: no teamwork).

    The hooks below are the ones more than one system uses, each with a default that adds
    nothing. A hook only one system needs is that system's wing's alone, and the shared code
    asks whether the wing offers it (`commands.wing_features`: V5's `keep`, V20's
    `prepare_roll`, ...).
    """

    switches: tuple[str, ...] = ()
    teamwork: Any = None  # commands.teamwork.TeamworkRules or None
    odds_switches: tuple[str, ...] = ()
    cmdset: Any = None  # an evennia CmdSet class or None
    roll_help: str = ""
    odds_help: str = ""
    guide: str = ""
    help_topics: tuple[dict, ...] = ()

    def __init__(self, key: str = "") -> None:
        self.key = key

    def handle_roll(self, cmd: Asked) -> bool:
        """Run a +roll/+check that is the wing's own (e.g. by a switch); True when it did."""
        return False

    # The wing's `+odds/contest` (cmd -> None), or None: no contest odds.
    contest_odds: Callable[[Asked], None] | None = None

    def handle_odds(self, cmd: Asked) -> bool:
        """Run a +odds that is the wing's own; True when it did (`+odds/contest` by default)."""
        if self.contest_odds is None or "contest" not in cmd.switches:
            return False
        self.contest_odds(cmd)
        return True

    def prepare_request(self, cmd: Asked, request: RollRequest, roller: Roller) -> RollRequest:
        """
        The request +roll, +check and +odds go on with, right after the system parsed it: e.g.
        with a target character's sheet read in (a check against their defence). Returns the
        request (unchanged by default); may refuse (DiceError).
        """
        return request

    def before_roll(self, cmd: Asked, request: RollRequest, roller: Roller) -> None:
        """Refuse (DiceError) before any die is rolled: e.g. a resource the roll spends is gone."""

    def after_roll(self, cmd: Asked, request: RollRequest, result: Any,
                   rng: Any) -> tuple[Any, Any | None, ExtraLines]:
        """
        Change the roll right after it is made (an at-once reroll).

        Returns:
            (result now, result before or None, callable width -> list of extra lines)
        """
        return result, None, lambda width: []

    def rolled(self, cmd: Asked, request: RollRequest, result: Any, record: dict, receivers: "Announced") -> None:
        """After the roll was stored and shown (pay for it, tell someone more, ...)."""

    def extended_rolled(self, cmd: Asked, request: RollRequest, result: Any, record: dict,
                        receivers: "Announced") -> None:
        """As `rolled`, for a roll of an extended roll (pay what it spends)."""

    def pending_lines(self, character: Any) -> list[str]:
        """What is still pending for the character (shown on connecting), one line each."""
        return []


# Wing objects registered by key: kept for systems written before `System.wing` named the
# wing; a new system names its wing instead (`dice_wing`).
WINGS = {}


def register_wing(wing):
    WINGS[wing.key] = wing
    return wing


def unregister_wing(key):
    WINGS.pop(key, None)


def dice_wing(system=None):
    """The configured system's `Wing`: the one its system names (`rules.systems.wing_of`), or
    the default one, which adds nothing."""
    system = system or dice_system()
    if system.key in WINGS:
        return WINGS[system.key]
    path = wing_of(system)
    if not path:
        return Wing(system.key)
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute or "WING")


def find_character(caller, name, room_only=False):
    """
    The one character called `name` (in the caller's room, or anywhere).

    Raises:
        DiceError: none, or more than one.
    """
    host_character = settings.BASE_CHARACTER_TYPECLASS
    name = " ".join(name.split())
    if not name:
        raise DiceError("Name a character.")
    if len(name) > MAX_NAME:
        raise DiceError(f"There is no character called '{_escape(name, 40)}'.")
    if room_only and caller.location:
        # The room's characters are in memory: matching their names there costs no query
        # (a search is a few ms each; a private roll may name ten). Aliases and Evennia's
        # other search forms still work through the search below when nothing matched.
        here = [obj for obj in caller.location.contents if isinstance(obj, Character)]
        lowered = name.lower()
        candidates = ([obj for obj in here if obj.key.lower() == lowered]
                      or [obj for obj in here if obj.key.lower().startswith(lowered)])
        if not candidates:
            candidates = caller.search(name, quiet=True, typeclass=host_character)
    elif room_only:
        candidates = caller.search(name, quiet=True, typeclass=host_character)
    else:
        candidates = caller.search(name, global_search=True, quiet=True, typeclass=host_character)
    candidates = [obj for obj in candidates if isinstance(obj, Character)]
    exact = [obj for obj in candidates if obj.key.lower() == name.lower()]
    if len(exact) == 1 or len(candidates) == 1:
        return exact[0] if exact else candidates[0]
    where = " here" if room_only else ""
    if not candidates:
        raise DiceError(f"There is no character called '{_escape(name)}'{where}.")
    listed = ", ".join(sorted(_escape(obj.key) for obj in candidates))
    raise DiceError(f"'{_escape(name)}' could be several characters: {listed}.")



def named_or_self(caller, name, refusal):
    """The caller, or the character `name` finds: someone else only for staff (else `refusal`)."""
    if not name.strip():
        return caller
    target = find_character(caller, name)
    if target != caller and not is_staff(caller):
        raise DiceError(refusal)
    return target


def tell_subject(caller, subject, text, receivers):
    """
    The character a roll was made for (staff rolling for them), when `announce` did not reach
    them (elsewhere, or a private roll): the same message at their own width, code and all.
    `text` is the message or a callable width -> message; `receivers` who were told (what
    `announce` returned, or `send`'s list: no code).
    """
    if subject == caller or subject in receivers:
        return
    code = getattr(receivers, "code", None)
    render = text if callable(text) else (lambda width: text)
    send([subject], render if code is None else (lambda width: append_code(render(width), code, width=width)),
         from_obj=caller)

def connected(obj):
    """Whether someone plays `obj` now (it has a session): only they can be shown anything."""
    try:
        return bool(obj.sessions.count())
    except AttributeError:
        return False


def split_connected(characters):
    """
    (those of `characters` played now, the others), each in order.

    **Ruling:** a character named in a private roll whose player is not connected is not
    shown it: nobody would read it there, the record lists only those it reached, so they
    could not verify it later either. The roll's line names exactly those it was shown to,
    and the roller alone is told who was not (`tell_not_shown`).
    """
    here = [obj for obj in characters if connected(obj)]
    return here, [obj for obj in characters if not connected(obj)]


def tell_not_shown(caller, characters):
    """`Not shown to Telly and Bob (not connected).`, to the roller alone after a private roll
    (nothing when everyone named was shown it)."""
    if not characters:
        return
    names = [_escape(obj.key) for obj in characters]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    caller.msg("\n".join(wrap(f"Not shown to {listed} (not connected).", width_of(caller))))


def staff_in_room(caller):
    location = caller.location
    if not location:
        return []
    return [obj for obj in location.contents if obj.has_account and is_staff(obj)]


class PerWidth:
    """
    A text drawn for each receiver's screen, at most once per width: a roll seen by 50
    players at two client widths is drawn twice, not 50 times (drawing is most of what a
    roll costs the server, and the text depends on nothing else of the receiver's: the
    `+nospoof` tag and the client's colours are added per receiver after it, by `msg()` and
    the Portal).

    Args:
        draw (callable): width -> text.
        known (dict): {width: text} already drawn (what `announce` stored at 80 columns).
    """

    def __init__(self, draw, known=None):
        self.draw = draw
        self.drawn = dict(known or {})

    def __call__(self, width):
        if width not in self.drawn:
            self.drawn[width] = self.draw(width)
        return self.drawn[width]


def send(receivers, text, from_obj=None):
    """
    The one way out for every message of ours that carries player text (see
    `rules.display`): each receiver gets exactly `text`, by its own `msg()`, marked as a line
    of ours (`typeclasses.incoming.ours`) so that the receiver's `msg()` passes it unchanged.

    Not `msg_contents`: it runs the `$func()` parser and `str.format_map` on the text for
    each receiver, so `$randint(1,10)` in a comment would differ per viewer, `{you}` would
    be filled in, and `{` would raise after the roll was stored. Nothing here can fail on what
    the text says, so a roll stored before it is sent is a roll that was seen.

    Args:
        receivers (iterable): objects to tell (ones without a session just get nothing).
        text (str or callable): the finished message, player text already escaped; or a
            callable width -> text, drawn at each receiver's client width (once per width:
            `PerWidth`).
        from_obj: the sender, passed on to `msg()` (its `at_msg_send` hook).

    Returns:
        list: the receivers, once each, in order.
    """
    told = distinct(receivers)
    if callable(text) and not isinstance(text, PerWidth):
        text = PerWidth(text)
    # Each receiver's `msg()` and its hooks run as before; a session that reads aloud gets the
    # text already stripped (`msg_readable`: the Portal parses it once). Every message is marked
    # as a line of ours (`ours`): the receiver's `msg()` treats what another object sends as
    # player text (typeclasses/incoming.py), and a roll line's line breaks and tags are ours on
    # purpose. With the opt-in bundle, what they send is held, and the sessions sent the same go
    # to the Portal as one message (a full room at one width: one); without it `batched()` does
    # nothing.
    with batched():
        for obj in told:
            msg_readable(obj, _marked(text(width_of(obj)) if callable(text) else text), from_obj=from_obj)
    return told


def _marked(text):
    """A message of ours marked so (`typeclasses.incoming.ours`); anything but text as it is."""
    return ours(text) if isinstance(text, str) else text


DEFAULT_WIDTH = 80


def width_of(obj):
    """
    The client width of whoever plays `obj` (Evennia learns it from NAWS or the client's
    options): the lowest of its sessions, 80 when unknown. A width is the client's to claim,
    so below 20 (or not a number) it counts as unknown and above 250 it is 250
    (`rules.display.fit_width`).
    """
    widths = []
    try:
        sessions = obj.sessions.all()
    except AttributeError:
        sessions = getattr(obj, "sessions", None) or []
        sessions = sessions if isinstance(sessions, (list, tuple)) else []
    for session in sessions:
        flags = getattr(session, "protocol_flags", None) or {}
        value = flags.get("SCREENWIDTH", {0: DEFAULT_WIDTH})
        if isinstance(value, dict):
            value = value.get(0, DEFAULT_WIDTH)
        value = reported_number(value)
        if value is not None and value >= MIN_WIDTH:
            widths.append(fit_width(value))
    return min(widths) if widths else DEFAULT_WIDTH


def room_audience(caller):
    """Everyone in the caller's room (the caller alone when it is nowhere)."""
    location = caller.location
    return list(location.contents) if location else [caller]


def tell_room(caller, text):
    """A message to the caller's room (or the caller alone, nowhere), through `send`."""
    return send(room_audience(caller), text, from_obj=caller)


class Announced(list):
    """
    What `announce` returns: the list of receivers (as before), plus `entry` (the stored
    `rolllog.models.RollEntry`, or None when nothing was recorded), `code` and `text` (what
    was sent, with the code).
    """

    entry = None
    code = None
    text = ""


def announce(caller, text, private=False, shared_with=(), record=None, keep=None):
    """
    Store a roll, then send it to its audience; return the receivers (see `Announced`).

    Public: everyone in the room. Private (or nowhere): the roller, the characters it is shared
    with who are connected (`split_connected`), and staff in the room; the roller is told whom
    it was not shown to.

    `text` is the message, or a callable width -> message: each receiver gets it at their
    client width, fitted per width once (`PerWidth`), with their own `+nospoof` tag added by
    their `msg()`; the log stores it at 80 columns, with the code.

    `record` (dict or None) describes the roll for the roll log, in the one shape every roll
    has (`rolllog.api` has the full list): `kind`, `command`, `comment`, `system`, `view` (the
    system's `RollView` of what was shown), `data` (`System.record`), and as the roll needs them
    `initial` (the view before a reroll), `sides`, `verdict`, `summary`, `subject` (the character
    rolled for, when staff roll for someone else), `parent` (the entry or code of the roll this
    one changes: a reroll, a contest answer) and `details`. It is stored before anyone is told,
    and the text gets the entry's verification code at the end of its last line
    (`[code ABCD2345]`).

    `keep` (callable receivers -> None, optional): state kept with a recorded roll (the
    receivers' `entry` and `code` already set), written in the roll's own transaction: one
    commit for the roll and what it keeps.
    """
    private = private or not caller.location
    receivers, not_shown = _audience(caller, private, shared_with)
    if record is None:
        out = text
        receivers.text = text(DEFAULT_WIDTH) if callable(text) else text
    else:
        out = _store(caller, receivers, text, record, private, shared_with, keep)
    send(receivers, out, from_obj=caller)
    events.roll_shown(receivers)  # the web client's dice panel lists it (commands.panel)
    if private:
        tell_not_shown(caller, not_shown)
    return receivers


def _audience(caller, private, shared_with):
    """(the receivers of a roll, the characters named in a private one who are not connected)."""
    if not private:
        return Announced(room_audience(caller)), []
    # Those named who are not played now are not shown it (`split_connected`); the record
    # still keeps whom it was shared with.
    shown, not_shown = split_connected([obj for obj in shared_with if obj is not None])
    return Announced(distinct([caller, *shown, *staff_in_room(caller)])), not_shown


def _store(caller, receivers, text, record, private, shared_with, keep):
    """
    Store the roll before anyone is told (with `keep` in the same commit), setting the
    receivers' `entry`, `code` and `text`; return what to send: the stored text, or for a text
    drawn per width each width's drawing with the code.
    """
    render = text if callable(text) else None

    def kept(entry):
        receivers.entry, receivers.code = entry, entry.code
        if keep is not None:
            keep(receivers)

    entry = rolllog_api.store_roll(caller, record, private=private, receivers=receivers, shared_with=shared_with,
                                   text=render(DEFAULT_WIDTH) if render else text, keep=kept)
    receivers.text = entry.text
    if render is None:
        return entry.text
    code = entry.code
    # The stored text is the roll drawn at 80 columns with its code: an 80-column screen gets
    # exactly it, drawn once.
    return PerWidth(lambda width: append_code(render(width), code, width=width), {DEFAULT_WIDTH: entry.text})


def record_action(actor, subject, kind, description, **kwargs):
    """
    Put a staff action that is not a roll (Hunger set, slaked, ...) on the roll log.

    Sends nothing; returns the stored entry (its `code` can be shown). Keyword arguments:
    `command`, `private` (default True: the actor, the subject and staff may see it),
    `receivers`, `room`, `parent`, `details`, `text` (see `rolllog.api.record_action`).
    """
    return rolllog_api.record_action(actor, subject, kind, description, **kwargs)


def system_and_wing():
    """(system, wing) of the game, or (None, None) when the configured system is broken."""
    try:
        system = dice_system()
    except DiceError:
        return None, None
    return system, dice_wing(system)
