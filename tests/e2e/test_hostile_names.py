"""
End to end over real telnet: a character name already in the database (put there directly, as
the website or an old database could) that holds raw terminal escapes and Evennia markup reaches
another player as inert text in Evennia's stock lines: "has left the game", "has entered the
game", "is leaving ...", "arrives to ...", and `look`'s `Characters:` line. And the name rule
refuses such names when they are typed. (The first check is one of the hostile checks every
system's game module runs, tests/e2e/hostile_checks.py; on this server, test_hostile.py.)
"""

import re

import pytest

pytestmark = pytest.mark.e2e


def no_forged_line(text):
    for line in text.splitlines():
        assert not re.match(r"\s*\[(Roll|Private roll)\]", line), line


def test_typed_hostile_names_are_refused(superuser_client):
    alice = superuser_client  # a player has no free character slot; staff have
    out = alice.command("charcreate Bob(#4)] Bob", "A name cannot hold", timeout=15)
    out += alice.read_available(0.5)
    # The line is wrapped at the screen's width: compared word for word.
    assert "A name cannot hold '(' (U+0028): use letters, digits, single spaces and ' - . _ only." in " ".join(
        out.split())
    out = alice.command("charcreate |/|w[Roll]|n admin rolls", "A name cannot hold", timeout=15)
    out += alice.read_available(0.5)
    assert "A name cannot hold '|' (U+007C): the game would read it as markup." in out
    no_forged_line(out)
