"""
Evennia's pager (`evennia.utils.evmore.EvMore`) with its prompt fitted to the reader's screen.

**Why.** EvMore ends every page with one prompt line,
`(Page [1/2] next | previous | top | end | quit)`: 47 columns, more with more pages. On a
41-column screen it ran past the edge: the terminal (or the opt-in bundle's session, which
wraps every line) broke it as `... top | end |` / `quit)`. Evennia has no setting for it (the
line is a module constant), so `Pager` is an `EvMore` whose page ends in a prompt of its own,
in the first of these forms that fits the session's width (`typeclasses.columns.session_width`:
the client's NAWS width, Evennia's 78 when it told none):

1. Evennia's own, as it is;
2. the same words without the bars, `(Page [1/2] next previous top end quit)`: 39 columns up to
   9 pages, 41 up to 99;
3. that one wrapped at the width (a screen narrower than that, or pages in the hundreds).

**Ruling:** the prompt keeps Evennia's words and page count in every form (only the bars go,
then the line breaks), so what a player reads in the stock pager's help still holds; a form
is chosen per page, so a screen that fits page 9's prompt but not page 10's gets each in the
form that fits it.

The commands the prompt names are Evennia's pager commands, unchanged (`n`, `p`, `t`, `e`,
`q`, each word in full, and Enter for the next page). `help` pages through it
(`commands.help.CmdHelp.msg_help`), and so does `+rolls` (`commands.rolllog.send_paged`).
"""

from evennia.utils.evmore import EvMore

from .help_layout import session_width, shown_width, wrap_text

PROMPTS = (
    "|n(|wPage|n [{pageno}/{pagemax}] |wn|next|n || |wp|nrevious || |wt|nop || |we|nnd || |wq|nuit)",
    "|n(|wPage|n [{pageno}/{pagemax}] |wn|next |wp|nrevious |wt|nop |we|nnd |wq|nuit)",
)


def prompt(pageno, pagemax, width):
    """The pager's prompt for page `pageno` of `pagemax`, in the first form that fits `width`."""
    for form in PROMPTS:
        line = form.format(pageno=pageno, pagemax=pagemax)
        if shown_width(line) <= width:
            return line
    return wrap_text(PROMPTS[-1].format(pageno=pageno, pagemax=pagemax), width)


class Pager(EvMore):
    """EvMore, its prompt fitted to the session's width (see the module)."""

    def __init__(self, caller, inp, session=None, **kwargs):
        if session is None:
            sessions = caller.sessions.get()
            session = sessions[0] if sessions else None
        self.prompt_width = session_width(session)
        self.with_prompt = False
        super().__init__(caller, inp, session=session, **kwargs)

    def display(self, show_footer=True):
        # EvMore adds its own prompt when asked to: ours is added by page_formatter instead.
        self.with_prompt = show_footer
        try:
            super().display(show_footer=False)
        finally:
            self.with_prompt = False

    def page_formatter(self, page):
        text = super().page_formatter(page)
        if not self.with_prompt:
            return text
        # EvMore's own count of pages and place in them (it keeps no public one).
        return f"{text}\n{prompt(self._npos + 1, self._npages, self.prompt_width)}"


def msg(caller, text="", always_page=False, session=None, justify=False, justify_kwargs=None,
        exit_on_lastpage=True, **kwargs):
    """`evennia.utils.evmore.msg` (the same arguments and defaults), through `Pager`."""
    Pager(caller, text, always_page=always_page, session=session, justify=justify,
          justify_kwargs=justify_kwargs, exit_on_lastpage=exit_on_lastpage, **kwargs)
