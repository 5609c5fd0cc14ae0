"""
The pager's prompt fits the reader's screen (`commands.pager`): Evennia's own where it fits,
the same words without the bars where that fits, else wrapped; `help` and `+rolls` page
through it. tests/e2e/test_narrow_screens.py reads it as a 41- and an 80-column client gets it.
"""

import pytest
from evennia.utils import ansi
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands import pager
from storyteller_dice.commands.help_layout import columns


def plain(markup):
    return ansi.strip_ansi(markup).replace("||", "|")


@pytest.mark.parametrize("pageno,pagemax,width,expected", [
    (1, 3, 80, "(Page [1/3] next | previous | top | end | quit)"),
    (1, 3, 47, "(Page [1/3] next | previous | top | end | quit)"),
    (1, 3, 46, "(Page [1/3] next previous top end quit)"),
    (12, 34, 41, "(Page [12/34] next previous top end quit)"),
    (1, 3, 41, "(Page [1/3] next previous top end quit)"),
    (123, 456, 41, "(Page [123/456] next previous top end\n  quit)"),
    (1, 3, 20, "(Page [1/3] next\n  previous top end\n  quit)"),
])
def test_the_prompt_takes_the_first_form_that_fits(pageno, pagemax, width, expected):
    line = pager.prompt(pageno, pagemax, width)
    assert plain(line) == expected
    assert max(columns(part) for part in plain(line).split("\n")) <= width


class PagerAtTheSessionsWidth(EvenniaCommandTest):
    def pages(self, width, text):
        self.session.protocol_flags["SCREENWIDTH"] = {0: width}
        self.session.protocol_flags["SCREENHEIGHT"] = {0: 10}
        sent = []
        self.char1.msg = lambda text=None, **kwargs: sent.append(text[0] if isinstance(text, tuple) else text)
        try:
            more = pager.Pager(self.char1, text, session=self.session, exit_on_lastpage=False)
            more.page_next()
        finally:
            del self.char1.msg
            self.char1.cmdset.remove("more_commands")
        return [plain(page) for page in sent]

    def test_each_page_ends_in_a_prompt_that_fits(self):
        text = "\n".join(f"line {number}" for number in range(1, 13))
        first, second = self.pages(41, text)
        assert first.split("\n") == [f"line {number}" for number in range(1, 7)] + [
            "(Page [1/2] next previous top end quit)"]
        assert second.split("\n")[-1] == "(Page [2/2] next previous top end quit)"
        first, _ = self.pages(80, text)
        assert first.split("\n")[-1] == "(Page [1/2] next | previous | top | end | quit)"

    def test_a_short_text_has_no_prompt(self):
        sent = []
        self.char1.msg = lambda text=None, **kwargs: sent.append(text[0] if isinstance(text, tuple) else text)
        try:
            pager.msg(self.char1, "one line", session=self.session)
        finally:
            del self.char1.msg
        assert [plain(page) for page in sent] == ["one line"]
