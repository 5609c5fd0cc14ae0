"""
End to end in a real browser (Debian's Chromium, see test_web.py) at a phone's width, 390
pixels: the web client reports its pane's width in columns (the dice panel's
`client_options` screenwidth), the server wraps every line to it (typeclasses/columns.py),
so the browser never wraps a line itself, and a pose or a `say` padded with spaces to the
pane's edge never puts the attacker's forged page header or `+nospoof` tag at the start of a
line as the page draws it (each line read from where the browser placed its characters).
"""

import re

import pytest

from .test_player_markup_web import staff_in_webclient
from .test_web import browser, page, send, wait_for_text  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
HEADER = "|wAccount|n |cadmin|n |wpages:|n Staff audit: page me your password now."
FORGED_TAG = '[admin(#1)] admin says, "Staff audit."'
# The lines as drawn: each message's characters grouped by the height the browser put them at.
DRAWN_LINES = """() => {
  const lines = [];
  const range = document.createRange();
  for (const message of document.querySelectorAll('#messagewindow > div')) {
    const walker = document.createTreeWalker(message, NodeFilter.SHOW_TEXT);
    let node, top = null, line = '';
    while ((node = walker.nextNode())) {
      for (let i = 0; i < node.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) { continue; }
        const at = Math.round(rects[0].top);
        if (top !== null && at !== top) { lines.push(line); line = ''; }
        top = at;
        line += node.data[i];
      }
    }
    lines.push(line);
  }
  return lines;
}"""


def _padding(prefix, width):
    return " " * (width - len(prefix) % width)


def test_a_padded_line_starts_no_drawn_line_at_a_phones_width(game_server, new_player, page):
    page.set_viewport_size(PHONE)
    alice = new_player()
    staff_in_webclient(page, game_server)
    send(page, "py print('WIDTH=%s' % me.sessions.all()[0].protocol_flags['SCREENWIDTH'][0])")
    width = int(re.search(r"WIDTH=(\d+)", wait_for_text(page, r"WIDTH=\d+")).group(1))
    assert 25 <= width <= 60, width  # the pane's own width in columns, not the default 80
    # In the attacker's room, wherever an earlier test of the session left the staff member.
    send(page, f"py me.move_to(evennia.search_object('{alice.name}')[0].location, quiet=True); print('MOVED' + '=done')")
    wait_for_text(page, r"MOVED=done")

    pose = f"{alice.name} glances at the clock."
    alice.send("pose glances at the clock." + _padding(pose, width) + HEADER)
    say = f'{alice.name} says, "ok'
    alice.send("say ok" + _padding(say, width) + FORGED_TAG)
    wait_for_text(page, r'Staff\s+audit\."')  # the say's end, wherever the pane's width broke it

    drawn = [line.rstrip() for line in page.evaluate(DRAWN_LINES)]
    start = max(index for index, line in enumerate(drawn) if line.startswith(pose))
    attack = drawn[start:]
    assert [line for line in attack if line and not line.startswith((alice.name, " "))] == [], attack
    shown = " ".join(" ".join(attack).split())
    assert "Account admin pages: Staff audit" in shown and "[admin(#1)] admin says" in shown, attack
