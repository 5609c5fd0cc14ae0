"""
End to end: a game started with DICE_SYSTEM=v20, played over telnet (the session's V20
server, tests/e2e/systems.py): staff deal damage, the sheet shows it, the next roll takes the wound
penalty off and says so, and another player sees the roll.
"""

import re
import secrets

import pytest

from .systems import system_server

from . import hostile_checks

pytestmark = pytest.mark.e2e


game_server = system_server("v20")


def test_v20_wounds_over_telnet(new_player, superuser_client):
    anna = new_player(name=f"Anna{secrets.token_hex(2)}")
    bob = new_player()
    staff = superuser_client

    anna.command("+stat dex=3", "Your Dexterity is now 3 (was 1).")
    anna.command("+stat brawl=2", "Your Brawl is now 2 (was 0).")
    staff.command(f"+damage {anna.name}=3 lethal",
                  f"{anna.name} takes 3 lethal levels of damage. Now Injured: -1 die [XXX....].")
    anna.read_until("deals you 3 lethal levels of damage", timeout=15)
    out = anna.command("+sheet", "Health")
    out += anna.read_available(0.5)
    assert "[XXX....] Injured: -1 die (Aggravated 0, Lethal 3, Bashing 0)" in out
    bob.read_available()

    anna.send("+roll dex+brawl vs 6")
    header = f"[Roll] {anna.name} rolls Dexterity 3 + Brawl 2 - 1 Injured = 4 dice, difficulty 6"
    seen = bob.read_until("[code ", timeout=15)
    assert header in seen
    flat = re.sub(r"\n\s+", " ", seen[seen.index(header):])
    found = re.search(r"Dice: (\d+) (\d+) (\d+) (\d+)  =>  (\d+) success(?:es)?: ([a-z ]+?)(?: \(|\s*\[)", flat)
    assert found, flat
    faces = [int(found.group(i)) for i in range(1, 5)]
    from storyteller_dice.rules import v20

    result = v20.evaluate(faces, 6)
    assert int(found.group(5)) == result.successes
    assert found.group(6) == result.label
    assert "Injured: -1 die" in flat
    assert header in anna.read_until("[code ", timeout=15)

    anna.send("+check 3 vs 7")
    assert f"[Roll] {anna.name} checks 3 - 1 Injured = 2 dice, difficulty 7" in bob.read_until("[code ", timeout=15)
    out = anna.command("+odds dex+brawl vs 6", "expected net successes")
    out += anna.read_available(0.5)
    assert "[Odds]" in out and "botch" in out
    anna.send("+roll/auto 2 vs 6")
    out = anna.read_until("Usage:", timeout=15)
    assert "Automatic success needs a pool of at least the difficulty" in out
    assert "Traceback" not in out + seen


def test_v20_private_multi_reaches_the_named_only(new_player):
    # /private with /multi, a split and names: the named player receives the roll, raw, over
    # telnet; a player in the same room who was not named receives nothing of it.
    anna = new_player(name=f"Anna{secrets.token_hex(2)}")
    bob = new_player()
    cid = new_player()
    anna.command("+stat dex=3", "Your Dexterity is now 3 (was 1).")
    bob.read_available()
    cid.read_available()
    anna.send(f"+roll/multi/private dex, dex = 2 1 = {bob.name}")
    header = f"[Private roll] {anna.name} rolls action 1 of 2: Dexterity 3 = 2 dice, difficulty 6"
    mine = anna.read_until("[code ", timeout=15)
    seen = bob.read_until("[code ", timeout=15)
    for out in (mine, seen):
        flat = re.sub(r"\n\s+", " ", out)
        assert header in flat, flat
        assert f"[Private roll] {anna.name} rolls action 2 of 2: Dexterity 3 = 1 die, difficulty 6" in flat
        assert "split: 2 of 3 dice" in flat and "split: 1 of 3 dice" in flat
        assert f"(private: shown to {anna.name}, {bob.name}," in flat
    assert anna.name not in cid.read_available(1.0)
    assert "Traceback" not in mine + seen


def test_v20_private_challenge_survives_a_reload_and_reaches_the_two_only(new_player, superuser_client):
    # A player challenges another (the shared contest flow): the challenge waits through a
    # reload, the challenged player answers with their own pool, and a third player in the room
    # receives nothing of it, raw over telnet.
    anna, bruno, cid = new_player(name=f"Anna{secrets.token_hex(2)}"), new_player(), new_player()
    for client in (anna, bruno, cid, superuser_client):
        client.read_available()
    anna.command(f"+contest/private 3 = {bruno.name} # arm wrestling",
                 f"{bruno.name} answers with +contest/answer <pool> [vs <diff>]")
    told = bruno.read_until("minutes).", timeout=15)
    assert f"[Private contest] {anna.name} challenges {bruno.name}: 3 # arm wrestling" in told

    superuser_client.send("@reload")
    superuser_client.read_until("Server restarted", timeout=120)
    pending = bruno.read_until("+contest/decline within", timeout=30)
    # Wrapped at the screen's width: compared word for word.
    assert f"{anna.name}'s challenge to you is still open: answer with +contest/answer" in " ".join(pending.split())

    answer = bruno.command("+contest/answer 2 vs 7", "[code ")
    seen = anna.read_until("[code ", timeout=15)
    for out in (answer, seen):
        flat = re.sub(r"\n\s+", " ", out)
        assert f"[Private contest] {anna.name} vs {bruno.name} # arm wrestling" in flat, flat
        assert f"{bruno.name}: 2 dice, difficulty 7" in flat, flat
    assert anna.name not in cid.read_available(1.0)
    assert "Traceback" not in answer + seen


# The hostile-player checks every system runs (tests/e2e/hostile_checks.py), on this server.
class TestHostile(hostile_checks.HostileChecks):
    ROLL = '+roll 3 vs 6'
