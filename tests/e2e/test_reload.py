"""
End to end: a challenge, a teamwork roll and the +willpower window survive `evennia reload`
(staff's in-game `@reload`; the Portal keeps the telnet connections, the Server restarts).

Before the reload: Alice challenges Bob, Carol opens a teamwork roll that Bob joins, Alice
rolls. After it: everyone still connected is told what is pending, Alice reconnects and is
told too, then Alice rerolls with Willpower, Bob answers the challenge and Carol rolls the
teamwork, each working from what the database kept.
"""

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]

RELOAD_TIMEOUT = 120  # a loaded 2-core machine takes a while to bring the Server back


def test_challenge_teamwork_and_willpower_survive_a_reload(game_server, superuser_client, new_player):
    alice, bob, carol = new_player(), new_player(), new_player()
    for client in (alice, bob, carol, superuser_client):
        client.read_available()

    alice.command(f"+contest 3 vs {bob.name}", f"{bob.name} answers with +contest/answer")
    carol.command("+teamwork 2 vs 1", f"Help with +teamwork/join {carol.name}=<pool>.")
    bob.command(f"+teamwork/join {carol.name}=2", f"joins with 2 (2 dice) in {carol.name}'s teamwork roll.")
    rolled = alice.command("+roll 5", re.compile(r"\[code [A-Z0-9]+\]"))
    faces = re.search(r"Dice: ([\d ]+?)  Hunger: ", rolled).group(1).split()

    superuser_client.send("@reload")
    superuser_client.read_until("Server restarted", timeout=RELOAD_TIMEOUT)
    # Still connected through the reload: told what is pending once the sessions are back.
    told = carol.read_until("Your teamwork roll is still open", timeout=30)
    assert "The game was restarted; still pending for you:" in told

    name, password = alice.name, alice.password
    alice.close()
    alice = game_server.client()
    try:
        alice.wait_for_connection_screen()
        alice.login(name, password)
        seen = alice.read_until("with +willpower for", timeout=15)
        assert f"Your challenge to {bob.name} is still open" in seen

        alice.command(f"+willpower {faces[0]}", f"[Roll] {name} spends Willpower to reroll")
        answer = bob.command("+contest/answer 3", re.compile(r"=> .* wins"))
        assert f"[Contest] {name} vs {bob.name}" in answer
        team = carol.command("+teamwork/roll", re.compile(r"=> Total \d+ success"))
        assert f"{bob.name} helps: 2 dice, Hunger 1" in team
    finally:
        alice.close()
