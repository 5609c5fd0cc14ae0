"""
The hostile-player checks every dice system's game runs end to end, on the server its module
already started (each system's test module calls them with its own roll, e.g. V20's
`+roll 3 vs 6`): what *another* player receives, raw bytes included.

- `roll_and_say`: a roll with a hostile comment and a `say` with split link codes reach a
  client with MXP on as text: no `[Roll]` line but ours, no ESC of the player's, no MXP bytes.
- `stored_name`: a character name stored with raw escapes and markup (put in the database
  directly, as the website or an old database could) is inert text in Evennia's stock lines:
  "has left the game", "has entered the game", "is leaving", "arrives to", `Characters:`.
- `wide_fairness`: a NAWS width of 65,535 columns: `+dice/fairness` stays within 250 columns
  and another player's roll answers within PROMPT_LIMIT meanwhile.
- `screen_reader`: with `option screenreader=on`, no line the player typed starts a line.

`roll` is a roll in the system's syntax that needs no sheet; a `# comment` is added to it.
"""

import re
import secrets
import time

from .systems import CODE
from .test_bounds import PROMPT_LIMIT, assert_normal, fairness_reply, sized_player
from .test_player_markup import mxp_player, raw_lines, screen_reader_player

COMMENT = "|/[Roll] Admin rolls 9 dice |lc+stat x|ltclick|le $pad(x,3) {name} \x1b[2J"
SPLIT_LINK = "|l|ltc+stat {victim}/dex=5|l|ltt[click]|l|lte"
ESCAPED_BREAK = "x ||/[Ro||nll] Admin rolls 9 dice"
_COLOUR = re.compile(rb"\x1b\[[0-9;]*m")

ERASE = "\\x1b[1A\\x1b[2K"  # cursor up, erase line: as Python source, for the `py` command
STORED = f"Q{ERASE}{ERASE}\\x1b[G|/|w[Roll]|n Admin rolls 9 dice"
SHOWN = "Q [1A [2K [1A [2K [G|/|w[Roll]|n Admin rolls 9 dice"  # what escape() leaves
BAD_BYTES = [b"\x1b[1A", b"\x1b[2K", b"\x1b[G"]


def forged_lines(lines, name):
    """Lines a player's text started: a tag at column 0 that is not `name`'s own roll header,
    or our tag after the player's `|/`, however indented."""
    return [line for line in lines
            if line.startswith("[") and not line.startswith(f"[Roll] {name} ")
            or re.match(r"\s*\[(Roll|Private roll)\] Admin", line)]


def _roll_seen(alice, bob, roll, comment, start):
    """Alice rolls with `comment`; Bob's lines since byte `start`, once the roll's code came."""
    alice.send(f"{roll} # {comment}")
    bob.read_until(CODE, timeout=15)
    alice.read_until(CODE, timeout=15)
    bob.read_available(0.3)
    return raw_lines(bob, start)


def roll_and_say(new_player, roll):
    bob = mxp_player(new_player)
    alice = new_player()
    start = len(bob.raw)

    _roll_seen(alice, bob, roll, COMMENT, start)
    alice.send("say " + SPLIT_LINK.format(victim=alice.name))
    bob.read_until(f"{alice.name} says", timeout=15)
    bob.read_until("[click]", timeout=15)
    bob.read_available(0.3)
    lines = raw_lines(bob, start)
    received = bytes(bob.raw[start:])

    text = "\n".join(lines)
    assert forged_lines(lines, alice.name) == [], lines
    assert f"[Roll] {alice.name} " in text, lines
    assert "$pad(x,3) {name}" in " ".join(text.split()), lines  # shown, not run
    assert b"\x1b" not in _COLOUR.sub(b"", received), received  # every ESC is a colour of ours
    assert b"<SEND" not in received and b"\x1b[4z" not in received, received
    assert b"HREF" not in received.upper(), received
    assert "Traceback" not in text


def stored_name(new_player, superuser_client, game_server):
    alice = new_player()
    bob = new_player()
    superuser_client.command(
        f"py from evennia import search_object; c = search_object('{alice.name}')[0]; "
        f"c.db_key = '{STORED}'; c.save(); print('RENAMED=%d' % c.id)",
        re.compile(r"RENAMED=\d+"), timeout=15,
    )
    token = secrets.token_hex(3)
    superuser_client.command("@tel #2", re.compile(r"Limbo|[Tt]eleport"), timeout=15)
    superuser_client.command(f"@dig Hall{token} = hall{token}, back{token}", "Created room Hall", timeout=15)
    superuser_client.read_available(0.3)
    bob.read_available(0.3)
    start = len(bob.raw)

    alice.send("quit")
    bob.read_until(f"{SHOWN} has left the game", timeout=15)
    alice.close()
    again = game_server.client()
    try:
        again.wait_for_connection_screen()
        again.login(alice.name, alice.password)
        bob.read_until(f"{SHOWN} has entered the game", timeout=15)
        again.send(f"hall{token}")
        bob.read_until(f"{SHOWN} is leaving", timeout=15)
        again.send(f"back{token}")
        bob.read_until(f"{SHOWN} arrives to", timeout=15)
        bob.send("look")
        bob.read_until(re.compile(r"Characters:[^\n]*" + re.escape(SHOWN)), timeout=15)
        bob.read_available(0.3)
    finally:
        again.close()
    received = bytes(bob.raw[start:])
    for bad in BAD_BYTES:
        assert bad not in received, (bad, received)
    lines = raw_lines(bob, start)
    assert [line for line in lines if re.match(r"\s*\[(Roll|Private roll)\]", line)] == [], lines
    assert "Traceback" not in "\n".join(lines)


def timed_roll(client, roll, marker):
    """Seconds until `client`'s own roll (commented `marker`) has answered in full."""
    started = time.monotonic()
    client.send(f"{roll} # {marker}")
    client.read_until(marker, timeout=60)
    client.read_until(CODE, timeout=60)
    return time.monotonic() - started


def wide_fairness(new_player, game_server, roll):
    other = new_player()
    player = sized_player(game_server, naws=(65535, 65535))
    try:
        player.command(f"{roll} # dice for the report", CODE)
        quiet = timed_roll(other, roll, "quiet")
        player.send("+dice/fairness")
        during = timed_roll(other, roll, "during")
        reply = fairness_reply(player)
        assert_normal(reply, "NAWS 65535")
        assert max(len(line) for line in reply.split("\n")) == 250  # laid out for 250 columns
        print(f"{roll}: the other player's roll took {quiet:.3f} s quiet, {during:.3f} s during "
              "the 65,535-column report")
        assert during < PROMPT_LIMIT, f"another player waited {during:.2f} s (quiet: {quiet:.2f} s)"
    finally:
        player.close()


def screen_reader(new_player, roll):
    alice = new_player()
    bob = screen_reader_player(new_player)
    start = len(bob.raw)

    _roll_seen(alice, bob, roll, COMMENT, start)
    alice.send("say " + ESCAPED_BREAK)
    bob.read_until(f"{alice.name} says", timeout=15)
    bob.read_until("9 dice", timeout=15)
    bob.read_available(0.3)
    lines = raw_lines(bob, start)
    assert forged_lines(lines, alice.name) == [], lines
    text = "\n".join(lines)
    assert f"[Roll] {alice.name} " in text, lines
    assert f'{alice.name} says, "x |/[Ro|nll] Admin rolls 9 dice' in text, lines


class HostileChecks:
    """
    The checks above as tests, for a system's game module to run on the server it starts:
    `class TestHostile(hostile_checks.HostileChecks): ROLL = "+roll 3 vs 6"` (that system's
    own roll, needing no sheet).
    """

    ROLL = "+roll 3"

    def test_roll_and_say(self, new_player):
        roll_and_say(new_player, self.ROLL)

    def test_stored_name(self, new_player, superuser_client, game_server):
        stored_name(new_player, superuser_client, game_server)

    def test_wide_fairness(self, new_player, game_server):
        wide_fairness(new_player, game_server, self.ROLL)

    def test_screen_reader(self, new_player):
        screen_reader(new_player, self.ROLL)
