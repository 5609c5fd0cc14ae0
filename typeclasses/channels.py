"""
Channels: what a game's own Channel class mixes in
(`class Channel(DiceChannelMixin, DefaultChannel)`): channel messages follow the speech rules.
"""

from .speech_text import speech_text


class DiceChannelMixin:
    """A channel whose players' messages cannot forge a roll or system line."""

    def at_pre_msg(self, message, **kwargs):
        """A player's channel message follows the speech rules (typeclasses/speech_text.py): no
        line break, and a system tag of ours inside it marked as the sender's."""
        message = super().at_pre_msg(message, **kwargs)
        senders = kwargs.get("senders") or []
        if message and senders and isinstance(message, str):
            message = speech_text(message, getattr(senders[0], "key", senders[0])) or None
        return message

