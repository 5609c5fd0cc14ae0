"""
End to end: a game started with DICE_SYSTEM=seyruun, played over telnet (one server for this
module, started once): `+check 0 vs 1` rolls a chance die, `+roll/willpower 4 vs 2` rolls 7
dice and spends 1 Willpower, another player sees the roll, `+sheet`, `+stat wound=moderate`
and `+odds` answer.
"""

import re
import secrets

import pytest

from .systems import system_server

pytestmark = pytest.mark.e2e


game_server = system_server("seyruun")


def test_seyruun_over_telnet(new_player):
    from rules import seyruun

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
