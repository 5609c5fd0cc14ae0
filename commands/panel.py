"""
The web client's dice panel: the answers that need the commands (`typeclasses.panel` holds
the rest and says which sessions are panel sessions).

- `hello`: the sheet, its gauges, the room's recent rolls and the system's actions.
- `odds`: the exact odds of a pool for the character, computed by the function `+odds` calls
  (`commands.odds.odds_of`) and shown with its own figures (`rules.display.odds_cells`), so the
  preview and `+odds` never disagree.
- `actions`: what the system's wing offers now (V5: the Willpower reroll in its window), and a
  contest waiting on the character (every system's: Answer, with the panel's pool, and Decline
  a challenge to them; Withdraw theirs), sent again whenever a challenge is made, answered,
  declined, withdrawn or expires (`typeclasses.events.PENDING_CHANGED`).
- `announced(receivers)`: after a roll is shown, each receiver's panel gets it: it listens to
  `commands.events.ROLL_SHOWN`, which `dice_base.announce` sends (the panel reads the stored
  entry, never the roll's text), with its `card`: each side's dice groups, every die's face and
  marks, the score and the outcome, as stored (`card_of`), which the web client draws under the
  roll's line (the line stays the record, and what a screen reader reads).

- `tools(character)`: the buttons for a system's own rolls its wing declares (`panel_tools`,
  optional; V5: Rouse, Remorse while a test is due, Frenzy), each under its key in this game
  and only where the character may use the command (its lock), sent with the sheet.
- `editing(character)`: what the panel's **Edit sheet** may set, sent with the sheet: the key
  our `+stat` answers to in this game, the traits of the sheet's columns a player sets, and the
  system's word and keyword for a Specialty with the traits that take one; None once the sheet
  is approved, or where `+stat` is left out or locked to the character. Setting is never done
  here either: each control sends the `+stat` line a player types, so the same rules, ranges
  and refusals apply, in the output as on telnet.

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
from storyteller_dice.typeclasses.events import PENDING_CHANGED

from . import catalogue, contest, events
from .dice_base import dice_wing
from .odds import odds_of
from .sheet import CmdStat
from .wing_features import PanelActions, PanelTools

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
        wing = dice_wing()
        offered = wing.panel_actions(character) if isinstance(wing, PanelActions) else []
        panel.send(sessions, actions=in_this_game(offered) + contest_actions(character))


def contest_actions(character):
    """
    A challenge waiting on the character: to them, Answer (the panel adds its pool, `"pool":
    true`) and Decline; from them, Withdraw; each with its seconds left. Read only: a challenge
    out of time is left for the command (or its timer) to expire. The commands carry the key the
    challenge was made with, the key of that command in this game.
    """
    found = []
    challenge = waiting(character, contest.INCOMING)
    if challenge is not None:
        key, left, name = challenge.key, int(challenge.seconds_left), challenge.challenger.key
        found += [{"label": f"Answer {name}'s challenge", "command": f"{key}/answer", "pool": True,
                   "seconds": left},
                  {"label": f"Decline {name}'s challenge", "command": f"{key}/decline", "seconds": left}]
    challenge = waiting(character, contest.OUTGOING)
    if challenge is not None:
        found.append({"label": f"Withdraw the challenge to {challenge.defender.key}",
                      "command": f"{challenge.key}/cancel", "seconds": int(challenge.seconds_left)})
    return found


def waiting(character, key):
    challenge = contest.load_challenge(character, key)
    if challenge is None or challenge.expired or not contest.is_pending(challenge):
        return None
    return challenge


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


def tools(character):
    """The wing's buttons for its own rolls (`panel_tools`) the character may use here: each
    command under its key in this game, and passing that command's lock for the character."""
    wing = dice_wing()
    if not isinstance(wing, PanelTools):
        return []
    return [tool for tool in in_this_game(wing.panel_tools(character)) if may_use(character, tool["command"])]


def may_use(character, line):
    """Whether `character` passes the lock of the command of ours that `line` starts with."""
    word = line.split(" ", 1)[0].split("/", 1)[0].lower()
    for cls in catalogue.our_commands():
        if catalogue.current_key(cls.key) == word:
            return bool(cls().access(character, "cmd"))
    return False


def editing(character):
    """
    {"command": "+stat", "traits": [trait, ...], "specialty": {"keyword", "word", "traits"} or
    None} for a sheet its player may still set from the panel, else None. A trait is offered
    where `+stat` would take it from the player (not `Sheet.staff_only`); the range is left to
    `+stat`, which refuses a value out of it.
    """
    if character.approved:
        return None
    key = catalogue.current_key(CmdStat.key)
    if key is None or not may_use(character, key):
        return None
    sheet = character.sheet
    traits = [trait for trait in column_traits(character) if trait not in sheet.staff_only]
    return {"command": key, "traits": traits, "specialty": specialty_offer(character, traits)}


def column_traits(character):
    """The sheet's traits shown as columns (Attributes, Skills...), by the names +stat takes."""
    found = []
    for part in character.sheet_layout():
        for _group, shown in part.rows if part.kind == "columns" else ():
            for label, _value in shown:
                try:
                    found.append(character.sheet.match(str(label)))
                except DiceError:  # a label that is no trait's name: nothing to set
                    continue
    return found


def specialty_offer(character, traits):
    """The system's Specialty words and which of `traits` take one (None: the system has none)."""
    sheet = character.sheet
    table = character.roller().traits
    taking = getattr(table, "specialty_traits", None) or frozenset()
    offered = [trait for trait in traits if trait in taking]
    if not offered:
        return None
    return {"keyword": sheet.specialty_keywords[0], "word": sheet.specialty_words[0], "traits": offered}


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
    panel.register_tools(tools)
    panel.register_editing(editing)
    listen()


def listen():
    """List every roll shown on the panels (again: harmless, one receiver per `dispatch_uid`)."""
    events.ROLL_SHOWN.connect(_roll_shown, dispatch_uid=ROLL_LISTENER, weak=False)
    PENDING_CHANGED.connect(_pending_changed, dispatch_uid=PENDING_LISTENER, weak=False)


def _roll_shown(sender, receivers=None, **kwargs):
    announced(receivers)


def _pending_changed(sender, obj=None, key=None, **kwargs):
    """A challenge made, answered, declined, withdrawn or expired: both sides' panels are told
    what they may do now (nothing is read for a character with no panel session)."""
    if key not in (contest.INCOMING, contest.OUTGOING) or obj is None or not hasattr(obj, "sessions"):
        return
    send_actions(obj)
    # a challenge is kept on the challenger first: once it is on both, the challenger may withdraw it
    made = waiting(obj, contest.INCOMING) if key == contest.INCOMING else None
    if made is not None:
        send_actions(made.challenger)


ROLL_LISTENER = "storyteller_dice_panel_rolls"
PENDING_LISTENER = "storyteller_dice_panel_contests"
# Listening from the import on, as the call in `announce` did before the event: a panel is
# told of every roll shown once this module is loaded (the start hooks load it).
listen()
