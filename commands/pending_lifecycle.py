"""
What happens to pending dice state (`commands.pending`) as players come and the server starts:

- When a character connects (is puppeted: Evennia's SIGNAL_OBJECT_POST_PUPPET, connected by
  `connect_puppet_hook` at every server start), and after a reload every connected
  character, they are told what is still pending for them: a challenge made or received
  (with the minutes left), the teamwork roll they lead or help, and how long +willpower may
  still reroll their last roll (`pending_lines`: the contests', the extended rolls' and the
  wing's own), after the notices kept for them while they were away.
- At every start the challenges that ran out while the server was down expire, the others
  get their timers back, and a wing that keeps its own restores it (`at_server_start`,
  `commands.wing_features.StartRestorer`).

Kept apart from the state, so that the flows keeping their state there (contests, extended
rolls, the wings) import the state and are imported here, never the other way round.
"""

import evennia
from evennia.server.signals import SIGNAL_OBJECT_POST_PUPPET
from evennia.utils import logger
from evennia.utils.utils import delay

from storyteller_dice.typeclasses.characters import DiceCharacterMixin

from . import contest, extended
from .dice_base import dice_wing
from .pending import deliver_notices
from .wing_features import StartRestorer

PUPPET_HOOK = "dice_pending_on_puppet"


def pending_lines(character):
    """What is still pending for `character`, one line each (expired things are expired now)."""
    return (contest.pending_lines(character) + extended.pending_lines(character)
            + list(dice_wing().pending_lines(character)))


def at_connect(character):
    """A character was puppeted: expire what ran out, show kept notices, then what is pending."""
    lines = pending_lines(character)  # expiring first queues its notices, shown just below
    deliver_notices(character)
    if lines:
        character.msg("\n".join(lines))


def _on_puppet(sender, **kwargs):
    """Evennia's SIGNAL_OBJECT_POST_PUPPET: `sender` was just puppeted (after its at_post_puppet)."""
    if not isinstance(sender, DiceCharacterMixin):
        return
    try:
        at_connect(sender)
    except Exception:  # noqa: BLE001 - a notice must never stop anyone from playing
        logger.log_trace(f"pending notices for {sender}")


def connect_puppet_hook():
    """
    Have every puppeting of a Character run `at_connect`. Called by the server's start hooks
    (server/conf/at_server_startstop.py, every start and reload): the typeclass cannot call
    up into the commands, so the commands listen to Evennia's signal instead. Connecting
    again is harmless (one receiver per `dispatch_uid`).
    """
    SIGNAL_OBJECT_POST_PUPPET.connect(_on_puppet, dispatch_uid=PUPPET_HOOK)


def disconnect_puppet_hook():
    SIGNAL_OBJECT_POST_PUPPET.disconnect(dispatch_uid=PUPPET_HOOK)


def tell_connected():
    """After a reload: tell every connected character what is still pending for them."""
    seen = set()
    for session in list(evennia.SESSION_HANDLER.values()):
        character = getattr(session, "puppet", None)
        if character is None or character.id in seen:
            continue
        seen.add(character.id)
        try:
            lines = pending_lines(character)
            deliver_notices(character)
            if lines:
                character.msg("\n".join(["The game was restarted; still pending for you:"] + lines))
        except Exception:  # noqa: BLE001 - one broken character must not stop the others
            logger.log_trace(f"pending state of {character}")


def at_server_start():
    """
    Every start: expire the challenges whose time ran out while the server was down (both
    sides told, or their notices kept), set the timers of the others again, and, once the Portal
    has handed back the connected sessions, tell their characters what is pending.
    """
    try:
        contest.restore_challenges()
        wing = dice_wing()
        if isinstance(wing, StartRestorer):
            wing.at_server_start()
    except Exception:  # noqa: BLE001 - the server must start whatever is stored
        logger.log_trace("restoring pending challenges")
    # The sessions are synced from the Portal right after the start hooks run.
    delay(1, tell_connected)

