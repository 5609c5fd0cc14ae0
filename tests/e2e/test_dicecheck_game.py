"""
End to end: a game started with DICE_SYSTEM=dicecheck, played over telnet by two players
(the session's dicecheck server, tests/e2e/systems.py).
"""

import re

import pytest

from .systems import CODE, system_server

from . import hostile_checks

pytestmark = pytest.mark.e2e


game_server = system_server("dicecheck")


def test_dicecheck_over_telnet(new_player):
    alice = new_player()
    bob = new_player()

    alice.command("+stat str=4", "Your Strength is now 4 (was 1).")
    alice.command("+sheet", "STR 7+")
    bob.read_available()

    # Strength 4: its dice hit at 7+.
    alice.send("+roll STR:3")
    body = re.compile(r"  Dice: ((?:\d+ ){3}\d+)  =>  (\d) hits?: (success|failure|big botch)")
    seen = bob.read_until(CODE, timeout=15)
    assert f"[Roll] {alice.name} rolls Strength 4 = 4d(7+), vs TN 3" in seen
    found = body.search(seen)
    faces = [int(face) for face in found.group(1).split()]
    from storyteller_dice.rules import dicecheck

    result = dicecheck.evaluate(faces, 7, 3)
    assert int(found.group(2)) == result.hits == sum(face >= 7 for face in faces)

    # A static check: hits, Effect and Degree of Success (or the botch margin).
    alice.send("+roll 11d(6+):4")
    seen = bob.read_until(CODE, timeout=15)
    assert f"[Roll] {alice.name} rolls 11d(6+), vs TN 4" in seen
    found = re.search(r"Dice: ((?:\d+ ){10}\d+)  =>  (\d+) hits?: (success|failure|big botch)", seen)
    faces = [int(face) for face in found.group(1).split()]
    result = dicecheck.evaluate(faces, 6, 4)
    assert int(found.group(2)) == result.hits
    flat = " ".join(seen.split())
    if result.success:
        assert f"(Effect {result.effect}, Degree of Success {result.dos})" in flat
    else:
        assert f"(botch margin {result.botch_margin})" in flat

    # Against the other player's Evasion: their sheet gives the TN once they answer.
    bob.command("+stat evasion=2", "Your Evasion is now 2 (was 0).")
    alice.read_available()
    alice.command(f"+roll STR:EVA {bob.name}", "your check is rolled when they answer it")
    bob.read_until(f"Let it roll with +roll/answer {alice.name}", timeout=15)
    bob.send(f"+roll/answer {alice.name}")
    seen = bob.read_until(CODE, timeout=15)
    assert f"[Roll] {alice.name} rolls Strength 4 = 4d(7+), vs {bob.name}'s Evasion 2" in " ".join(seen.split())

    out = alice.command("+odds 12d(6+):3", "Hits:")
    out += alice.read_available()
    assert "[Odds] 12d(6+), vs TN 3" in out
    assert "success    98.1%" in out
    assert "Traceback" not in out + seen


def test_no_player_wounds_or_reads_another_without_their_answer(new_player):
    """A hostile player's private damage check: the victim is asked, nothing changes, both are told."""
    alice = new_player()
    bob = new_player()
    bob.command("+stat wounds=1", "Your Wounds is now 1 (was 0).")
    alice.read_available()
    asked = alice.command(f"+roll/private/damage 50d(1+):HAR {bob.name}",
                          "your check is rolled when they answer it")
    assert f"{bob.name}'s sheet is their player's" in asked
    told = bob.read_until(f"+roll/decline {alice.name}.", timeout=15)
    # Its first line is wrapped at the screen's width: compared word for word, the second line apart.
    assert (f"{alice.name} asks to roll against your sheet: +roll/private/damage 50d(1+):HAR {bob.name} "
            f"Let it roll with +roll/answer {alice.name}, or +roll/decline {alice.name}.") in " ".join(told.split())
    assert f"\n  Let it roll with +roll/answer {alice.name}, or +roll/decline {alice.name}." in told
    bob.command("+sheet", "1/10")
    # A second check while the first waits is refused, never put in its place.
    refused = alice.command(f"+roll Swords:EVA {bob.name}", "Usage:")
    assert f"You already challenged {bob.name}; wait for the answer or withdraw it with" in refused
    bob.command(f"+roll/decline {alice.name}", f"You decline {alice.name}'s damage check against your Hardness")
    alice.read_until(f"{bob.name} declines your check: +roll/private/damage 50d(1+):HAR {bob.name}", timeout=15)
    for typed in (f"+odds Swords:EVA {bob.name}", f"+odds Athletics:Athletics {bob.name}"):
        out = alice.command(typed, "Usage:")
        assert f"{bob.name}'s sheet is their player's: give the TN as a number" in out
        assert "[Odds]" not in out
    bob.command("+sheet", "1/10")
    assert "Traceback" not in alice.read_available() + bob.read_available()


# The hostile-player checks every system runs (tests/e2e/hostile_checks.py), on this server.
class TestHostile(hostile_checks.HostileChecks):
    ROLL = '+roll 3d(6+):2'
