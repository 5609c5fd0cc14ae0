"""
`option`: Evennia's, with a screen size held to its bounds before it is set, so the line the
player reads names the size the game uses (20-250 columns, 10-200 lines;
`typeclasses.inputfilter.SIZE_BOUNDS`). The session's flags bound it anyway
(`typeclasses.serversession.BoundedFlags`); without this the player read "changed to
3000000" for a width of 250.

An `ENCODING` that is not a text encoding (`typeclasses.inputfilter.text_encoding`: rot13,
base64, UTF-16, ...) is refused with one line, before anything is set or saved: Evennia took
any codec Python knows, and rot13 dropped the connection at the next line (with `/save`, at
every later login). A good one is set by its codec's name (`UTF8` is set as `utf-8`).
"""

from evennia import default_cmds

from storyteller_dice.rules.display import escape
from storyteller_dice.typeclasses.inputfilter import SIZE_BOUNDS, bounded_size, text_encoding

NAMES = {"SCREENWIDTH": "screen width", "SCREENHEIGHT": "screen height"}
ENCODING_REFUSED = (
    "'{name}' is not a text encoding this game can use; try utf-8 (or latin-1, cp437, ascii)."
)


class CmdOption(default_cmds.CmdOption):
    __doc__ = default_cmds.CmdOption.__doc__

    def func(self):
        name = (self.lhs or "").strip().upper()
        if self.rhs and name in SIZE_BOUNDS:
            sizes = bounded_size(name, self.rhs.strip())
            if sizes is None:
                low, high = SIZE_BOUNDS[name]
                self.msg(f"The {NAMES[name]} is a whole number from {low} to {high}, not '{self.rhs.strip()}'.")
                return
            self.rhs = str(sizes[0])
        if self.rhs and name == "ENCODING":
            encoding = text_encoding(self.rhs.strip())
            if encoding is None:
                self.msg(ENCODING_REFUSED.format(name=escape(self.rhs.strip(), limit=40)))
                return
            self.rhs = encoding
        super().func()
