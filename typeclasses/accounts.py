"""
Accounts: what a game's own Account class mixes in
(`class Account(DiceAccountMixin, DefaultAccount)`): +nospoof tagging of pages, and the
account name rule (typeclasses/names.py) for the telnet `create` and the website.
"""

from storyteller_dice.rules.display import without_control

from .names import name_problem, shown_name
from .nospoof import tag_message


class DiceAccountMixin:
    """An account whose player may tag other players' pages with their author (+nospoof)."""

    def msg(self, text=None, from_obj=None, session=None, **kwargs):
        """Another player's page gets its author's tag when this player has +nospoof on."""
        super().msg(text=tag_message(self, text, from_obj), from_obj=from_obj, session=session, **kwargs)

    # ------------------------------------------------------------ the name

    @classmethod
    def validate_username(cls, username):
        """
        Evennia's checks (Django's ASCII letters, 3 to 30 characters, not taken), then the name
        rule (typeclasses/names.py): the telnet `create` command and the website's registration
        both come here. One line says what is wrong.
        """
        valid, errors = super().validate_username(username)
        problem = name_problem(username, "account")
        if problem:
            return False, [problem]
        return valid, errors

    def get_display_name(self, looker=None, **kwargs):
        """Evennia's cyan account name (channels, `who`), the name shown as text."""
        return f"|c{shown_name(self)}|n"

    def __str__(self):
        # What Evennia's log lines print ("Authentication Success: ..."): one line, always.
        return without_control(super().__str__())


