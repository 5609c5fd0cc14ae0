"""
End to end: a game started with DICE_SYSTEM=whalefall, played over telnet by two players
(the session's whalefall server, tests/e2e/systems.py).
"""

import re

import pytest

from .systems import CODE, system_server

from . import hostile_checks

pytestmark = pytest.mark.e2e


game_server = system_server("whalefall")


def test_whalefall_over_telnet(new_player):
    alice = new_player()
    bob = new_player()

    alice.command("+stat athletics=3", "Your Athletics is now 3 (was 0).")
    alice.command("+sheet", "Athletics")
    bob.read_available()

    # Another die size: four d8s, each face 1-8, judged by the rules for the faces shown.
    alice.send("+check 4d8 vs (5,2)")
    body = re.compile(r"  Dice \(d8\): (\d+) (\d+) (\d+) (\d+)  =>  (\d) dic?e? at 5\+: "
                      r"(success|failure \(partial\)|failure)")
    seen = bob.read_until(CODE, timeout=15)
    assert f"[Roll] {alice.name} checks 4d8, vs (5,2)" in seen
    found = body.search(seen)
    faces = [int(found.group(i)) for i in range(1, 5)]
    assert all(1 <= face <= 8 for face in faces)
    from storyteller_dice.rules import whalefall

    result = whalefall.evaluate(faces, 5, 2, sides=8)
    assert int(found.group(5)) == result.meeting
    assert found.group(6) == ("success" if result.success else "failure (partial)" if result.partial else "failure")

    # A pool smaller than the count fails at once, without rolling.
    alice.send("+check 1 vs (5,2)")
    seen = bob.read_until(CODE, timeout=15)
    assert f"[Roll] {alice.name} checks 1d10, vs (5,2)" in seen
    assert "automatic failure (fails without rolling: 1 die, fewer than the 2 needed)" in " ".join(seen.split())

    # A skill roll from the sheet, and the exact odds.
    alice.send("+roll athletics vs (5,2)")
    assert f"[Roll] {alice.name} rolls Athletics 3 (3d10), vs (5,2)" in bob.read_until(CODE, timeout=15)
    out = alice.command("+odds athletics vs (5,2)", "Dice at 5+:")
    out += alice.read_available()
    assert "[Odds] Athletics 3 (3d10), vs (5,2)" in out
    assert "success               64.8%" in out
    assert "Traceback" not in out + seen


# The hostile-player checks every system runs (tests/e2e/hostile_checks.py), on this server.
class TestHostile(hostile_checks.HostileChecks):
    ROLL = '+check 4 vs (5,2)'
