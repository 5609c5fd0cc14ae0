"""
End to end: a game started with DICE_SYSTEM=seyruun, played over telnet (the session's Seyruun
server, tests/e2e/systems.py): `+check 0 vs 1` rolls a chance die, `+roll/willpower 4 vs 2` rolls 7
dice and spends 1 Willpower, another player sees the roll, `+sheet`, `+stat wound=moderate`
and `+odds` answer.
"""

import re
import secrets

import pytest

from .systems import system_server

from . import hostile_checks

pytestmark = pytest.mark.e2e


game_server = system_server("seyruun")


def test_seyruun_over_telnet(new_player):
    from storyteller_dice.rules import seyruun

    anna = new_player(name=f"Anna{secrets.token_hex(2)}")
    bob = new_player()
    bob.read_available()

    anna.send("+check 0 vs 1")
    header = f"[Roll] {anna.name} checks 0: a chance die, vs 1"
    seen = bob.read_until("[code ", timeout=15)
    assert header in seen
    flat = re.sub(r"\s+", " ", seen[seen.index(header):])
    found = re.search(r"Chance die: (\d+) => (\d) success(?:es)?: ([a-z ]+?) \(", flat)
    assert found, flat
    result = seyruun.evaluate_chance(int(found.group(1)))
    assert int(found.group(2)) == result.successes
    anna.read_until("[code ", timeout=15)

    anna.send("+roll/willpower 4 vs 2")
    header = f"[Roll] {anna.name} rolls 4 + Willpower 3 = 7 dice, vs 2"
    seen = bob.read_until("[code ", timeout=15)
    assert header in seen
    flat = re.sub(r"\s+", " ", seen[seen.index(header):])
    found = re.search(r"Dice: ((?:\d+ ){6}\d+) => (\d+) success", flat)
    assert found, flat
    faces = [int(f) for f in found.group(1).split()]
    assert int(found.group(2)) == seyruun.evaluate(faces, 2).successes
    anna.read_until("[code ", timeout=15)

    anna.command("+stat wound=moderate", "Your Wound is now 2 (was 0).")
    out = anna.command("+sheet", "Willpower")
    out += anna.read_available(0.5)
    assert "1/2 left (Composure + Resolve)" in out
    assert "Moderate: -2 dice on every pool" in out
    out = anna.command("+odds 5 vs 2", "expected successes")
    out += anna.read_available(0.5)
    assert "[Odds]" in out and "botch" in out
    assert "Traceback" not in out + seen


def test_a_team_roll_reads_a_helpers_pool_only_after_they_join(new_player):
    """A hostile leader names another player: refused, nothing of theirs shown; after the join it rolls."""
    alice = new_player()
    bob = new_player()
    bob.command("+stat int=4", "Your Intelligence is now 4")
    alice.read_available()
    out = alice.command(f"+teamwork int vs 1={bob.name}", "Usage:")
    assert f"{bob.name} has not joined your team roll: they join with +teamwork/join {alice.name}." in \
        " ".join(out.split())
    assert "pools:" not in out and "[Roll]" not in bob.read_available()
    bob.command(f"+teamwork/join {alice.name}", f"You join {alice.name}'s next team roll")
    alice.read_until(f"{bob.name} joins your next team roll", timeout=15)
    alice.send(f"+teamwork int vs 1={bob.name}")
    seen = bob.read_until("[code ", timeout=15)
    assert f"Team: {bob.name}'s pool rolls, helped by {alice.name}" in " ".join(seen.split())
    assert "Traceback" not in seen + alice.read_available()


# The hostile-player checks every system runs (tests/e2e/hostile_checks.py), on this server.
class TestHostile(hostile_checks.HostileChecks):
    ROLL = '+roll 3 vs 2'
