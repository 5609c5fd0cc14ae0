"""
Commands at the login screen.

`create`: Evennia 6.1's `CmdUnconnectedCreate` asks "You want to create an account 'name' with
password 'secret'. Is this what you intended? [Y]/N?", printing the password back onto the
screen (and into any log or screen capture of the session). Ours asks the same question
without the password. Its help states the account name rule (`names.ACCOUNT_RULE`), where
Evennia's told players to quote a name with spaces, which no account name may hold.

`encoding`: Evennia's, refusing in one line an encoding that is not a text encoding
(`typeclasses.inputfilter.text_encoding`), as `option encoding=` does (commands/options.py):
Evennia took rot13, which dropped the connection at the next line.

What this cannot change: the `create <name> <password>` line itself shows on the player's
screen because the *client* echoes what is typed (telnet local echo; the web client's input
line). The server never sends the typed line back.
"""

import re
import textwrap

from evennia.commands.default.unloggedin import CmdUnconnectedCreate as _StockCreate
from evennia.commands.default.unloggedin import CmdUnconnectedEncoding as _StockEncoding

from storyteller_dice.commands.options import ENCODING_REFUSED
from storyteller_dice.rules.display import escape
from storyteller_dice.typeclasses.inputfilter import text_encoding
from storyteller_dice.typeclasses.names import ACCOUNT_RULE

# The stock prompt's password clause. Matched rather than re-typed so the rest of the stock
# command (name normalisation, the Y/N answer, Account.create and its errors) stays Evennia's.
_PASSWORD_CLAUSE = re.compile(r" with password '.*?'(?=\.\s*\n)", re.DOTALL)


def hide_password(prompt):
    """The stock confirmation prompt without its "with password '...'" clause."""
    return _PASSWORD_CLAUSE.sub("", prompt)


def _create_help():
    """`create`'s help, stating the account name rule as the connect screen and the website do."""
    rule = "\n".join("    " + line for line in textwrap.wrap(
        f"This creates a new account. {ACCOUNT_RULE} A password with spaces goes in double quotes.", 66))
    return ("\n    create a new account\n\n    Usage (at login screen):\n"
            "      create <accountname> <password>\n      create <accountname> \"pass word\"\n\n"
            f"{rule}\n    ")


class CmdUnconnectedCreate(_StockCreate):
    __doc__ = _create_help()

    def func(self):
        # The stock func is a generator whose one `yield` is the [Y]/N prompt (Evennia shows a
        # yielded string and sends the answer back in). Run it as is, rewriting only what it
        # asks; copying the whole func to change one string would fork Evennia's checks.
        steps = super().func()
        if steps is None:  # a stock version without a prompt: nothing to hide
            return
        try:
            asked = next(steps)
            while True:
                answer = yield (hide_password(asked) if isinstance(asked, str) else asked)
                asked = steps.send(answer)
        except StopIteration:
            return


class CmdUnconnectedEncoding(_StockEncoding):
    __doc__ = _StockEncoding.__doc__

    def func(self):
        wanted = (self.args or "").strip()
        if wanted and "clear" not in self.switches:
            encoding = text_encoding(wanted)
            if encoding is None:
                self.msg(ENCODING_REFUSED.format(name=escape(wanted, limit=40)))
                return
            self.args = encoding
        super().func()
