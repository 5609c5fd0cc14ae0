"""
End to end over real telnet: the global input filter and speech that cannot forge a line.

One client sends raw ESC sequences, C1 and bidi characters, and `|/` followed by a roll tag;
a second client, in the same room or (for page) in another, must receive none of it: no
screen-clearing or cursor bytes, no bidi override, no line that starts with `[Roll]`.
"""

import re

import pytest

pytestmark = pytest.mark.e2e

HOSTILE = "\x1b[2J\x1b[1;1H\x1b[K"  # clear screen, cursor home, erase line
BAD_BYTES = [b"\x1b[2J", b"\x1b[1;1H", b"\x1b[K", "\u202e".encode(), "\x9b".encode(), "\u2066".encode()]


def record_raw(client):
    """Keep every byte `client` receives, before the harness strips ANSI codes."""
    raw = bytearray()
    feed = client._feed

    def _feed(data):
        raw.extend(data)
        feed(data)

    client._feed = _feed
    return raw


def no_bad_bytes(raw):
    for bad in BAD_BYTES:
        assert bad not in raw, bad


def no_forged_line(text):
    for line in text.splitlines():
        assert not re.match(r"\s*\[(Roll|Private roll|Contest|Teamwork|Rouse|Verify)\]", line), line


def test_say_pose_whisper_reach_the_room_clean(new_player):
    alice = new_player()
    bob = new_player()
    bob.read_available()
    raw = record_raw(bob)

    alice.send(f"say {HOSTILE}crit\u202eical\x9b2J\u2066!\u2069")
    seen = bob.read_until(f'{alice.name} says, "critical!"', timeout=15)

    alice.send("say hi|/[Roll] Admin rolls 10 dice, Hunger 0, vs 3")
    seen += bob.read_until(f'{alice.name} says, "hi ({alice.name})[Roll] Admin rolls 10 dice', timeout=15)

    alice.send(f":{HOSTILE}grins.|/[Contest] Admin wins")
    seen += bob.read_until(f"{alice.name} grins. ({alice.name})[Contest] Admin wins", timeout=15)

    alice.send(f"emote {HOSTILE}waves\u202e.")
    seen += bob.read_until(f"{alice.name} waves.", timeout=15)

    alice.send(f"whisper {bob.name} = {HOSTILE}psst|/[Roll] fake")
    seen += bob.read_until(f'{alice.name} whispers: "psst ({alice.name})[Roll] fake"', timeout=15)

    alice.send("pose { $eval(2**10) {you}")
    seen += bob.read_until(f"{alice.name} {{ $eval(2**10) {{you}}", timeout=15)

    seen += bob.read_available(0.5)
    no_bad_bytes(raw)
    no_forged_line(seen)
    assert "Traceback" not in seen


def test_page_to_another_room_cannot_clear_screens(new_player, superuser_client):
    alice = new_player()
    carol = new_player()
    out = superuser_client.command("@dig Elsewhere", re.compile(r"Created room Elsewhere\(#\d+\)"))
    room = re.search(r"Elsewhere\((#\d+)\)", out).group(1)
    superuser_client.command(f"@tel {carol.name} = {room}", re.compile(r"[Tt]eleported"))
    carol.read_available(0.5)
    raw = record_raw(carol)

    alice.send(f"page {carol.name} = {HOSTILE}\x1bcboo\x9b2J|/[Roll] Admin rolls 10 dice")
    seen = carol.read_until(
        f"Account {alice.name} pages: boo ({alice.name})[Roll] Admin rolls 10 dice", timeout=15
    )
    seen += carol.read_available(0.5)
    no_bad_bytes(raw)
    assert b"\x1bc" not in raw
    no_forged_line(seen)


def test_nospoof_tags_speech_with_its_author(new_player):
    alice = new_player()
    bob = new_player()
    bob.command("+nospoof on", "+nospoof is on")
    alice.send("say hello")
    seen = bob.read_until(re.compile(rf'\[{alice.name}\(#\d+\)\] {alice.name} says, "hello"'), timeout=15)
    assert "Traceback" not in seen


def test_filter_runs_before_login(game_server):
    """`create` and `connect` with escape and bidi characters in them: filtered, then used."""
    import secrets

    name = f"esc{secrets.token_hex(3)}"
    password = secrets.token_urlsafe(10)
    client = game_server.client()
    try:
        raw = record_raw(client)
        client.wait_for_connection_screen()
        client.create_and_connect(f"\x1b[2J{name}\u202e", password)
        client.send(f"\x1b[2Jlook\u202e")
        seen = client.read_available(1.0)
        assert "Command" not in seen or "not found" not in seen, seen
        client.send("say I am here")
        client.read_until('You say, "I am here"', timeout=15)
        assert b"\x1b[2J" not in raw
    finally:
        client.close()
