"""
The web client's dice panel, server side (the browser side is the package's static file
`rolllog/static/storyteller_dice/dice_panel.js`; docs/web.md: "The dice panel").

A web client session becomes a panel session when the plugin says so (the inputfunc
`dice_panel` with `hello`, kept as the protocol flag `DICE_PANEL`); only then does it get the panel's OOB messages. Evennia's own web
client without the plugin would print every OOB message it has no plugin for as "Error or
Unhandled event", and a telnet session never asked for any: neither gets one. Everything goes
out as the OOB command `dice_panel` with one keyword naming what it is (`sheet`, `odds`,
`roll`, `rolls`, `actions`, `cleared`), plus `char_vitals`, the same gauges GMCP clients get.

The sheet (with its Specialties, approval, Impaired, the system's roll buttons and what the
player may still set from the panel, `edit`) goes again after every write of it: this module
listens to `typeclasses.events.SHEET_CHANGED`, whoever made the change, and sends it to that
character's panel sessions only.

What needs the commands (the odds as `+odds` computes them, a system wing's actions such as
V5's Willpower reroll) is answered by a handler the commands register at server start
(`commands.panel`), since a typeclass never imports from `commands/`.
"""

import re

from evennia.utils import logger
from evennia.utils.utils import make_iter

from .events import SHEET_CHANGED

# The web client's websocket as the Server names it: "websocket" in Evennia 6.1 (the Portal's
# protocol says "webclient/websocket", the name earlier versions synced).
WEB_PROTOCOLS = ("websocket", "webclient/websocket")
# A protocol flag, not the session's memory: the Portal keeps the flags of its sessions and
# gives them back to the Server after `evennia reload`, so the panel goes on being fed.
FLAG = "DICE_PANEL"
_HANDLER = []  # the commands' handler: callable(session, character, kwargs)
# The commands' current keys: callable() -> {our key: the key it answers to now, or None}.
_KEYS = []
DEFAULT_KEYS = {"+roll": "+roll"}
# The system's own roll buttons: callable(character) -> [{"label", "command", "target"?}].
_TOOLS = []
# What the panel's Edit sheet may set: callable(character) -> {"command", "traits", "specialty"}
# or None (`commands.panel.editing`).
_EDITING = []
# The target part of a system's `+roll` usage, in its own syntax: " vs <difficulty>",
# " vs (<face>,<count>)", ":<TN>".
_TARGET = re.compile(r"(?P<joiner>\s+\[?vs\s+|:)(?P<hint>\(?<[^>]+>(?:,<[^>]+>\))?)")


def register_handler(handler):
    """The commands' answer to panel requests (one: registering again replaces it)."""
    _HANDLER[:] = [handler]


def register_keys(provider):
    """What tells the panel the keys of the commands it sends (`DICE_COMMAND_KEYS` may rename
    them): callable() -> {"+roll": "+droll"}; one, registering again replaces it."""
    _KEYS[:] = [provider]


def register_tools(provider):
    """What tells the panel the buttons of a system's own rolls (V5: Rouse, Remorse, Frenzy),
    sent with the sheet: callable(character) -> list; one, registering again replaces it."""
    _TOOLS[:] = [provider]


def register_editing(provider):
    """What tells the panel whether, and what, the player may set from it (`+stat`), sent with
    the sheet: callable(character) -> dict or None; one, registering again replaces it."""
    _EDITING[:] = [provider]


def current_editing(character):
    """What the panel may set for `character`, or None (nothing registered: nothing offered)."""
    if not _EDITING:
        return None
    try:
        return _EDITING[0](character)
    except Exception:  # noqa: BLE001 - the panel must never stop a sheet change or a login
        logger.log_trace("dice panel editing")
        return None


def current_tools(character):
    """The system's roll buttons for `character` ([] when none are registered)."""
    if not _TOOLS:
        return []
    try:
        return list(_TOOLS[0](character))
    except Exception:  # noqa: BLE001 - the panel must never stop a sheet change or a login
        logger.log_trace("dice panel tools")
        return []


def current_keys():
    """{our key: the key it answers to in this game, or None: left out} for the panel."""
    if not _KEYS:
        return dict(DEFAULT_KEYS)
    try:
        return dict(_KEYS[0]())
    except Exception:  # noqa: BLE001 - the panel must never stop a sheet change or a login
        logger.log_trace("dice panel command keys")
        return dict(DEFAULT_KEYS)


def is_panel_session(session):
    """Whether `session` is a web client session that runs the dice panel."""
    return (getattr(session, "protocol_key", "") in WEB_PROTOCOLS
            and bool((getattr(session, "protocol_flags", None) or {}).get(FLAG)))


def panel_sessions(character, session=None):
    """The character's sessions (or `session` alone) that run the panel."""
    found = make_iter(session) if session else character.sessions.all()
    return [each for each in found if is_panel_session(each)]


def send(sessions, **message):
    """One OOB message to each panel session: `dice_panel` with `message` as its keywords."""
    for each in sessions:
        each.data_out(dice_panel=((), message))


def target_syntax(system):
    """(joiner, hint) of the system's target after the pool: (" vs ", "<difficulty>")."""
    found = _TARGET.search(system.roll_usage)
    if not found:
        return "", ""
    joiner = found["joiner"]
    return (" vs " if "vs" in joiner else joiner), found["hint"]


def sheet_message(character):
    """The character's sheet as the panel shows it: plain data, every text a text."""
    system = character.dice_system()
    joiner, hint = target_syntax(system)
    sections = []
    specialties = character.specialties
    for part in character.sheet_layout():
        sections.append({"kind": part.kind, "title": str(part.title), "text": str(part.text),
                         "boxes": str(part.boxes),
                         "rows": [[str(group), [[str(label), value] for label, value in traits]]
                                  for group, traits in part.rows]})
    return {"system": system.key, "title": system.title, "name": character.key,
            "usage": system.roll_usage, "joiner": joiner, "hint": hint, "sections": sections,
            "specialties": [[str(trait), str(name)] for trait, names in specialties.items() for name in names],
            "approved": bool(character.approved), "impaired": impaired(character),
            "tools": current_tools(character), "keys": current_keys(), "edit": current_editing(character)}


def impaired(character):
    """Whether the system counts the character Impaired now (V5: a track full, or Stains past
    Humanity), as its rolls do (`Roller.state`); False where the system has no such state."""
    return bool(character.roller().state.get("impaired"))


def send_sheet(character, session=None):
    """The sheet and its gauges to the character's panel sessions (on puppet, after a change)."""
    sessions = panel_sessions(character, session)
    if not sessions:
        return
    try:
        send(sessions, sheet=sheet_message(character))
        vitals = character.sheet.vitals(character.sheet_values)
        for each in sessions if vitals else ():
            each.data_out(char_vitals=vitals)
    except Exception:  # noqa: BLE001 - the panel must never stop a sheet change or a login
        logger.log_trace(f"dice panel sheet for {character}")


def receive(session, kwargs):
    """
    A request from the panel (the inputfunc `dice_panel`). `hello` makes the session a panel
    session (web client sessions only); the rest goes to the commands' handler, which answers
    only a panel session with a puppet.
    """
    if getattr(session, "protocol_key", "") not in WEB_PROTOCOLS:
        return
    if kwargs.get("hello") and not is_panel_session(session):
        session.update_flags(**{FLAG: True})
    character = session.get_puppet() if hasattr(session, "get_puppet") else None
    if character is None or not hasattr(character, "sheet_values") or not _HANDLER:
        return
    try:
        _HANDLER[0](session, character, kwargs)
    except Exception:  # noqa: BLE001 - a panel request is no command: never a traceback to the player
        logger.log_trace(f"dice panel request from {character}")


def _sheet_changed(sender, character=None, **kwargs):
    """`SHEET_CHANGED`: the character's panels show the sheet as it is now (nothing is sent, and
    nothing computed, for a character with no panel session)."""
    if character is not None:
        send_sheet(character)


SHEET_CHANGED.connect(_sheet_changed, dispatch_uid="storyteller_dice_panel_sheet", weak=False)
