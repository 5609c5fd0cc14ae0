"""
End to end over real telnet: a character name already in the database (put there directly, as
the website or an old database could) that holds raw terminal escapes and Evennia markup reaches
another player as inert text in Evennia's stock lines: "has left the game", "has entered the
game", "is leaving ...", "arrives to ...", and `look`'s `Characters:` line. And the name rule
refuses such names when they are typed.
"""

import re
import secrets

import pytest

pytestmark = pytest.mark.e2e

ERASE = "\\x1b[1A\\x1b[2K"  # cursor up, erase line: as Python source, for the `py` command
STORED = f"Q{ERASE}{ERASE}\\x1b[G|/|w[Roll]|n Admin rolls 9 dice"
SHOWN = "Q [1A [2K [1A [2K [G|/|w[Roll]|n Admin rolls 9 dice"  # what escape() leaves
BAD_BYTES = [b"\x1b[1A", b"\x1b[2K", b"\x1b[G"]


def record_raw(client):
    """Keep every byte `client` receives, before the harness strips ANSI codes."""
    raw = bytearray()
    feed = client._feed

    def _feed(data):
        raw.extend(data)
        feed(data)

    client._feed = _feed
    return raw


def no_forged_line(text):
    for line in text.splitlines():
        assert not re.match(r"\s*\[(Roll|Private roll)\]", line), line


def test_a_stored_hostile_name_is_text_in_stock_lines(new_player, superuser_client, game_server):
    alice = new_player()
    bob = new_player()
    superuser_client.command(
        f"py from evennia import search_object; c = search_object('{alice.name}')[0]; "
        f"c.db_key = '{STORED}'; c.save(); print('RENAMED=%d' % c.id)",
        re.compile(r"RENAMED=\d+"),
        timeout=15,
    )
    token = secrets.token_hex(3)
    superuser_client.command("@tel #2", re.compile(r"Limbo|[Tt]eleport"), timeout=15)
    superuser_client.command(
        f"@dig Hall{token} = hall{token}, back{token}", re.compile(r"Created room Hall"), timeout=15
    )
    superuser_client.read_available(0.5)
    bob.read_available(0.5)
    raw = record_raw(bob)

    alice.send("quit")
    seen = bob.read_until(f"{SHOWN} has left the game", timeout=15)
    alice.close()
    again = game_server.client()
    try:
        again.wait_for_connection_screen()
        again.login(alice.name, alice.password)
        seen += bob.read_until(f"{SHOWN} has entered the game", timeout=15)
        again.send(f"hall{token}")
        seen += bob.read_until(f"{SHOWN} is leaving", timeout=15)
        again.send(f"back{token}")
        seen += bob.read_until(f"{SHOWN} arrives to", timeout=15)
        bob.send("look")
        seen += bob.read_until(re.compile(r"Characters:[^\n]*" + re.escape(SHOWN)), timeout=15)
        seen += bob.read_available(0.5)
    finally:
        again.close()
    for bad in BAD_BYTES:
        assert bad not in raw, bad
    no_forged_line(seen)
    assert "Traceback" not in seen


def test_typed_hostile_names_are_refused(superuser_client):
    alice = superuser_client  # a player has no free character slot; staff have
    out = alice.command("charcreate Bob(#4)] Bob", "A name cannot hold", timeout=15)
    out += alice.read_available(0.5)
    assert "A name cannot hold '(' (U+0028): use letters, digits, single spaces and ' - . _ only." in out
    out = alice.command("charcreate |/|w[Roll]|n admin rolls", "A name cannot hold", timeout=15)
    out += alice.read_available(0.5)
    assert "A name cannot hold '|' (U+007C): the game would read it as markup." in out
    no_forged_line(out)
