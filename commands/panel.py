"""
The web client's dice panel: the answers that need the commands (`typeclasses.panel` holds
the rest and says which sessions are panel sessions).

- `hello`: the sheet, its gauges, the room's recent rolls and the system's actions.
- `odds`: the exact odds of a pool for the character, computed by the function `+odds` calls
  (`commands.odds.odds_of`) and shown with its own figures (`rules.display.odds_cells`), so the
  preview and `+odds` never disagree.
- `actions`: what the system's wing offers now (V5: the Willpower reroll in its window).
- `announced(receivers)`: after a roll is shown, each receiver's panel gets it: it listens to
  `commands.events.ROLL_SHOWN`, which `dice_base.announce` sends (the panel reads the stored
  entry, never the roll's text), with its `card`: each side's dice groups, every die's face and
  marks, the score and the outcome, as stored (`card_of`), which the web client draws under the
  roll's line (the line stays the record, and what a screen reader reads).

Rolling itself is never done here: the panel's Roll button sends the `+roll ...` line a player
types, so a roll from the panel is the same roll, to the same audience. The line starts with the
key our +roll answers to in this game (`panel_keys`, in the sheet message: `DICE_COMMAND_KEYS`
may rename it, or leave it out, and then the panel sends no roll); a wing's actions are sent
with their commands' keys in this game too, and an action whose command is left out is not.
"""

from storyteller_dice.rolllog import api
from storyteller_dice.rules.engine import RollView
from storyteller_dice.rules.display import odds_cells, without_control
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import panel

from . import catalogue, events
from .dice_base import dice_wing
from .odds import odds_of

PANEL_KEYS = ("+roll",)  # the commands the panel's own buttons send
RECENT = 10  # rolls of the room a panel shows
MAX_POOL_TEXT = 200  # characters of a pool the panel may ask the odds of


def handle(session, character, kwargs):
    """Answer one panel request from a panel session (see the module docstring)."""
    if not panel.is_panel_session(session):
        return
    if kwargs.get("hello"):
        panel.send_sheet(character, session)
        panel.send([session], rolls=recent_rolls(character))
        send_actions(character, session)
    if "odds" in kwargs:
        panel.send([session], odds=odds_message(character, session, kwargs["odds"]))
    if kwargs.get("actions"):
        send_actions(character, session)


def odds_message(character, session, typed):
    """{"pool", "target", "chances": [{"label", "percent", "tone"}], "notes"} or {"error"}."""
    text = without_control(str(typed if isinstance(typed, (str, int)) else ""))[:MAX_POOL_TEXT]
    if not text.strip():
        return {"typed": text, "error": "Click traits or type a pool."}
    try:
        view = odds_of(character, text, session=session)
    except DiceError as err:
        return {"typed": text, "error": str(err)}
    chances = [{"label": c.label, "percent": cell, "tone": c.tone}
               for c, cell in zip(view.chances, odds_cells(view))]
    return {"typed": text, "pool": view.pool, "target": view.target, "chances": chances,
            "notes": list(view.notes)}


def send_actions(character, session=None):
    sessions = panel.panel_sessions(character, session)
    if sessions:
        panel.send(sessions, actions=in_this_game(dice_wing().panel_actions(character)))


def in_this_game(actions):
    """The wing's actions with each command under its key in this game (DICE_COMMAND_KEYS);
    an action whose command is left out is dropped."""
    found = []
    for action in actions:
        line = str(action.get("command", ""))
        word = line.split(" ", 1)[0].split("/", 1)[0]
        key = catalogue.current_key(word) if word else None
        if key is None:
            continue
        found.append({**action, "command": key + line[len(word):]})
    return found


def panel_keys():
    """{our key: the key it answers to in this game, or None} of the commands the panel sends."""
    return {key: catalogue.current_key(key) for key in PANEL_KEYS}


def roll_item(entry):
    """One roll as the panel lists it: plain data, the texts as stored."""
    return {"code": entry.code, "who": entry.character_name, "pool": entry.pool_text,
            "target": entry.target, "summary": entry.summary, "kind": entry.kind}


MAX_CARD_DICE = 100  # dice drawn per group of a card (a pool is bounded well below)


def card_of(entry):
    """
    The stored roll as the web client draws its card: one side per roller (a contest's or a
    teamwork's `sides`, else the roll's own `view`), each [{"label", "groups": [{"label",
    "dice": [[face, [marks]]]}], "score", "outcome": {"key", "label", "tone"}, "notes"}]. Only
    what the roll log stored: never the line's text, nothing a player typed but a side's label
    (a name), which the client puts in the page as text.
    """
    sides = [(side.get("label", ""), side.get("view")) for side in (entry.sides or [])
             if isinstance(side, dict) and side.get("view")]
    if not sides and entry.view:
        sides = [("", entry.view)]
    return [card_side(label, RollView.from_dict(view)) for label, view in sides]


def card_side(label, view):
    return {"label": str(label),
            "groups": [{"label": str(group.label),
                        "dice": [[die.face, sorted(die.marks)] for die in group.dice[:MAX_CARD_DICE]]}
                       for group in view.groups],
            "score": view.score_text,
            "outcome": {"key": view.outcome.key, "label": view.outcome.label, "tone": view.outcome.tone},
            "notes": [str(note) for note in view.notes]}


def recent_rolls(character):
    """The newest rolls made in the character's room that its player may see, oldest first."""
    if character.location is None:
        return []
    query = api.search(room=character.location).filter(action=False)
    seen = api.visible_filter(character)
    if seen is not None:
        query = query.filter(seen)
    return [roll_item(entry) for entry in reversed(list(query[:RECENT]))]


def announced(receivers):
    """A roll was just shown to `receivers` (an `Announced`): their panels list it (the
    receiver of `events.ROLL_SHOWN`)."""
    entry = getattr(receivers, "entry", None)
    if entry is None:
        return
    item = None
    for receiver in receivers:
        sessions = panel.panel_sessions(receiver) if hasattr(receiver, "sessions") else []
        if sessions:
            item = item or {**roll_item(entry), "card": card_of(entry)}
            panel.send(sessions, roll=item)


def install():
    """Make this module the panel's handler (the server start hook calls this)."""
    panel.register_handler(handle)
    panel.register_keys(panel_keys)
    listen()


def listen():
    """List every roll shown on the panels (again: harmless, one receiver per `dispatch_uid`)."""
    events.ROLL_SHOWN.connect(_roll_shown, dispatch_uid=ROLL_LISTENER, weak=False)


def _roll_shown(sender, receivers=None, **kwargs):
    announced(receivers)


ROLL_LISTENER = "storyteller_dice_panel_rolls"
# Listening from the import on, as the call in `announce` did before the event: a panel is
# told of every roll shown once this module is loaded (the start hooks load it).
listen()
