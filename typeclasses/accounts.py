"""
Accounts: what a game's own Account class mixes in
(`class Account(DiceAccountMixin, DefaultAccount)`): +nospoof tagging of pages, and the
account name rule (typeclasses/names.py) for the telnet `create` and the website, and a
saved text encoding that is not one ignored at login.

**Saved options at login.** Evennia's `at_post_login` applies the options an account saved
(`option/save`) to the new session. An encoding saved before it was checked, or through a
stock `option` command, may be rot13 or the like, which drops the connection at the next line
(`typeclasses.inputfilter.text_encoding`), so every login failed. Here such an encoding is
taken out of the saved options before Evennia applies them, and the player gets one line
saying so. **Ruling:** it is forgotten, not kept and skipped at each login: it can never be
used, and the line would otherwise come at every login. (With the opt-in bundle the session's
flags ignore it too, on every road: typeclasses/serversession.py.)
"""

from collections.abc import Mapping

from storyteller_dice.rules.display import escape, without_control
from storyteller_dice.typeclasses.inputfilter import text_encoding

from .names import name_problem, shown_name
from .incoming import send_mxp_inert
from .nospoof import tag_message

SAVED_ENCODING_IGNORED = (
    "Your saved encoding '{name}' is not a text encoding this game can use, so it was ignored"
    " and forgotten; the encoding stays {current}."
)


class DiceAccountMixin:
    """An account whose player may tag other players' pages with their author (+nospoof)."""

    def msg(self, text=None, from_obj=None, session=None, **kwargs):
        """Another player's page gets its author's tag when this player has +nospoof on; a
        session that parses MXP gets `<`, `>` and `&` escaped (typeclasses/incoming.py)."""
        send_mxp_inert(super().msg, self, tag_message(self, text, from_obj), session,
                       {"from_obj": from_obj, **kwargs})

    def at_post_login(self, session=None, **kwargs):
        """Evennia's, after a saved encoding that is not a text encoding is forgotten (above)."""
        saved = self.attributes.get("_saved_protocol_flags", None)
        # Attributes give back a _SaverDict, a Mapping but no dict.
        if isinstance(saved, Mapping) and "ENCODING" in saved and text_encoding(saved["ENCODING"]) is None:
            bad = saved["ENCODING"]
            kept = {key: value for key, value in saved.items() if key != "ENCODING"}
            self.attributes.add("_saved_protocol_flags", kept)
            if session:
                current = session.protocol_flags.get("ENCODING") or "utf-8"
                session.msg(SAVED_ENCODING_IGNORED.format(
                    name=escape(bad, limit=40), current=escape(current, limit=40)))
        super().at_post_login(session=session, **kwargs)

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


