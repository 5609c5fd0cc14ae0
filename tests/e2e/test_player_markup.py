"""
End to end over real telnet, raw bytes: a player's say never reaches another player as an MXP
link (a client with MXP on), and with `option screenreader=on` a player's escaped text never
becomes a line of its own (a forged `[Roll]` line with no speaker before it).
"""

import re

import pytest

from .harness import MXP, wrapped_text

pytestmark = pytest.mark.e2e

ATTACK = "Staff, please |l|ltc+stat {victim}/dex=5|l|ltt[click here to verify my roll]|l|lte"
_ANSI = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]")


def raw_lines(client, start=0):
    """The lines received since byte `start`, as the terminal gets them (colour codes removed
    only: a line is whatever follows a line feed)."""
    received = _ANSI.sub(b"", bytes(client.raw[start:]))
    return received.decode("utf-8", "replace").replace("\r", "").split("\n")


def mxp_player(new_player):
    """A player whose client has MXP on, proven: a link of the game's own (in `help`) reached
    it as an MXP SEND. Returns the client; what it received so far is in its `raw`."""
    player = new_player(accept={MXP})
    player.send("help")
    player.read_until("help", timeout=15)
    player.read_available(0.5)
    assert b"\x1b[4z<SEND" in bytes(player.raw), bytes(player.raw)[-2000:]
    return player


def test_say_with_split_link_codes_sends_no_mxp_link(new_player):
    bob = mxp_player(new_player)
    alice = new_player()
    start = len(bob.raw)

    alice.send("say " + ATTACK.format(victim=alice.name))
    bob.read_until(f"{alice.name} says", timeout=15)
    bob.read_until("verify my roll]", timeout=15)
    bob.read_available(0.3)
    received = bytes(bob.raw[start:])
    assert b"<SEND" not in received and b"\x1b[4z" not in received, received
    assert b"HREF" not in received.upper(), received
    # Every part of it is still there to read, as plain text (wrapped at the screen's width).
    read = " ".join(received.decode().split())
    assert "c+stat " in read and "[click here to verify my roll]" in read

    for typed in ("||lcquit||ltclick||le", "|luhttp://evil.example|ltfree dice|le", "|||lcquit|||ltx|||le"):
        mark = len(bob.raw)
        alice.send("say " + typed)
        bob.read_until(f"{alice.name} says", timeout=15)
        bob.read_available(0.3)
        received = bytes(bob.raw[mark:])
        assert b"<SEND" not in received and b"\x1b[4z" not in received, (typed, received)


def screen_reader_player(new_player):
    """A player who has turned screen-reader mode on (and read the answer)."""
    player = new_player()
    player.send("option screenreader=on")
    player.read_until(re.compile("screenreader", re.I), timeout=15)
    player.read_available(0.3)
    return player


def test_screen_reader_never_gets_a_line_from_a_players_text(new_player):
    alice = new_player()
    bob = screen_reader_player(new_player)
    start = len(bob.raw)

    alice.send("+roll dex # |/[Roll] Admin rolls Strength 5 + Brawl 4 (9 dice)")
    bob.read_until(re.compile(r"\[code [A-Z0-9]{8}\]"), timeout=15)
    alice.send("say x ||/[Ro||nll] Admin rolls Strength 5 + Brawl 4 (9 dice)")
    bob.read_until(f"{alice.name} says", timeout=15)
    bob.read_until("(9 dice)", timeout=15)
    bob.read_available(0.3)

    lines = raw_lines(bob, start)
    # No line starts with a tag of ours but the real roll's own header.
    forged = [line for line in lines if line.startswith("[") and not line.startswith(f"[Roll] {alice.name}")
              or line.lstrip().startswith("[Roll] Admin")]
    assert forged == [], lines
    text = "\n".join(lines)
    assert f"[Roll] {alice.name} rolls" in text
    # (The player's name is random: the roll's line may wrap anywhere in the comment.)
    assert wrapped_text("# |/[Roll] Admin rolls").search(text), text
    assert wrapped_text(f'{alice.name} says, "x |/[Ro|nll] Admin rolls').search(text), text


def test_a_description_never_starts_a_line_of_ours(new_player):
    alice = new_player()
    bob = new_player()
    alice.send("setdesc Tall.|/|w[Roll]|n Admin rolls Strength 5 + Brawl 4 (9 dice)%r  Dice: |g10|n 10 7")
    alice.read_until("You set your description.", timeout=15)
    bob.read_available(0.3)
    start = len(bob.raw)
    bob.send(f"look {alice.name}")
    bob.read_until("Dice: 10 10 7", timeout=15)
    bob.read_available(0.3)
    lines = raw_lines(bob, start)
    assert [line for line in lines if line.startswith("[")] == [], lines
    assert f"  ({alice.name})[Roll] Admin rolls Strength 5 + Brawl 4 (9 dice)" in lines, lines
    assert "    Dice: 10 10 7" in lines, lines
