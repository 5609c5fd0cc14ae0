"""
End to end: over real telnet, a player's forging attempts reach a second player as
the literal text typed, on the roll's own line; capital-letter switches do what they say.
"""

import re

import pytest

from . import hostile_checks

pytestmark = [pytest.mark.e2e, pytest.mark.database]

FORGE = "x$clr(/,$clr(w,[Roll])) Admin rolls 10 dice, Hunger 0, vs 3"
CODE = re.compile(r"\[code [A-Z0-9]{8}\]")


def roll_seen(alice, bob, comment, received=None):
    """
    Alice rolls 3 dice with this comment; the two lines Bob sees (and Alice's own). The header
    ends with the comment as the command `received` it (default: as typed).
    """
    alice.send(f"+roll 3 # {comment}")
    header = f"[Roll] {alice.name} rolls 3 dice, Hunger 1 # {received or comment}"
    seen = bob.read_until(CODE, timeout=15)
    mine = alice.read_until(CODE, timeout=15)
    assert "Traceback" not in seen + mine
    lines = seen[seen.index(f"[Roll] {alice.name}"):].splitlines()
    # The game wraps at 80 columns (this client sends no width): a long header goes on in
    # indented lines, so nothing the player typed ever starts a line (column 0).
    assert all(line.startswith("  ") for line in lines[1:]), lines
    body = [i for i, line in enumerate(lines) if line.startswith("  Dice: ")]
    assert len(body) == 1, lines
    header_lines = lines[: body[0]]
    assert " ".join(" ".join(header_lines).split()) == " ".join(header.split()), lines
    assert CODE.search(lines[-1]), lines
    return seen, mine


def test_forged_lines_reach_the_room_as_typed(new_player):
    alice = new_player()
    bob = new_player()
    bob.read_available()

    seen, mine = roll_seen(alice, bob, FORGE)
    assert "\n[Roll] Admin" not in seen and not seen.startswith("[Roll] Admin")
    assert CODE.search(seen).group() == CODE.search(mine).group()  # the same roll, both sides

    for comment in ("$randint(1,10) $eval(2**10) $You() {you}", "{", "}", "{0}", "{x}", "{you:>1000000}",
                    "|/[Roll] fake", "|r red? |[r |#ff0000 |555 |* |u |h"):
        seen, _ = roll_seen(alice, bob, comment)
        assert "\n[Roll] fake" not in seen
        assert len(seen) < 2000
    # Evennia strips MXP links from what players send (MXP_OUTGOING_ONLY) before any command
    # sees it: the room sees what the command got, nothing hidden, nothing clickable.
    roll_seen(alice, bob, "|lcquit|ltclick|le", received="click")
    roll_seen(alice, bob, "||lcquit||ltclick||le", received="|click|")  # what is left is shown as it is


def test_capital_letter_switches_are_private(new_player):
    alice = new_player()
    bob = new_player()
    bob.read_available()

    alice.send("+check/PRIVATE 4")
    out = alice.read_until(CODE, timeout=15)
    assert f"[Private roll] {alice.name} checks 4 dice" in out
    assert "Extra switch" not in out
    alice.send("+roll/Priv 3")
    out = alice.read_until(CODE, timeout=15)
    assert f"[Private roll] {alice.name} rolls 3 dice" in out

    # A public roll after them: everything Bob got before it was not the private rolls.
    alice.send("+roll 1 # marker")
    seen = bob.read_until("# marker", timeout=15)
    assert "Private roll" not in seen
    assert f"{alice.name} checks" not in seen

    alice.send("+roll//")
    out = alice.read_until("Usage: +roll", timeout=15)
    assert out.count("/private") == 1, out


# The hostile-player checks every system runs (tests/e2e/hostile_checks.py), on this server.
class TestHostile(hostile_checks.HostileChecks):
    ROLL = "+roll 3"
