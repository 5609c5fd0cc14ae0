"""
The account's name as text in Evennia's connect lines, part of the opt-in bundle
(`typeclasses.hardening`, `DICE_HARDEN_GAME`).

Evennia's "<name> connected" / "<name> disconnected" lines to the staff channels are built
with the raw key (`"|G{key} connected|n"`), so a name made before the name rule
(typeclasses/names.py) or around it, holding markup such as `|/`, was parsed as markup on
every staff screen. `install()` wraps Evennia's private `DefaultAccount._send_to_connect_channel`
so the key in such a line is swapped for the name as text (`names.shown_name`) before it goes
out; every other message passes as it is.
"""

from storyteller_dice.typeclasses.names import shown_name

# Evennia's lines start "|G<key> connected|n" and "|R<key> disconnected ...|n".
_COLOURS = ("|G", "|R")


def shown_line(account, message):
    """`message` with `account`'s raw key at its start (after Evennia's colour) shown as text."""
    raw, shown = account.key, shown_name(account)
    if raw == shown or not isinstance(message, str):
        return message
    for colour in _COLOURS:
        if message.startswith(colour + raw):
            return colour + shown + message[len(colour + raw):]
    return message


def install():
    """Wrap Evennia's connect-line sender (idempotent)."""
    from evennia.accounts.accounts import DefaultAccount

    original = DefaultAccount._send_to_connect_channel
    if getattr(original, "__wrapped__", None) is not None:
        return

    def _send_to_connect_channel(self, message):
        return original(self, shown_line(self, message))

    _send_to_connect_channel.__wrapped__ = original
    DefaultAccount._send_to_connect_channel = _send_to_connect_channel
