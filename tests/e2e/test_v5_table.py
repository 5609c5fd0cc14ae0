"""
End-to-end: the V5 table over real telnet connections.

- Two players contest: one challenges, the other answers, both see both rolls and the result.
- Staff make Rouse checks for a player until one fails; the player's +sheet then shows a
  higher Hunger (a Rouse check is a real die here, so it is repeated until one fails:
  five checks at a time, each failing half the time).
"""

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]

CONTEST_RESULT = re.compile(r"=>\s+(?:\S+\s+wins\s+by\s+\d+\s+\(\d+\s+to\s+\d+\)|Tie\s+at\s+\d+\s+success(?:es)?:\s+\S+\s+wins)")


def flat(text):
    """The text with the game's line wrapping undone (every white-space run one space)."""
    return " ".join(text.split())
SHEET_HUNGER = re.compile(r"Hunger (\d) +Humanity")


def sheet_hunger(client):
    client.send("+sheet")
    text = client.read_until(SHEET_HUNGER)
    return int(SHEET_HUNGER.findall(text)[-1])


def test_two_players_contest(new_player):
    alice = new_player()
    bob = new_player()

    alice.send(f"+contest str+athletics vs {bob.name} # arm wrestling")
    challenge = bob.read_until("+contest/decline")
    assert f"[Contest] {alice.name} challenges {bob.name}: Strength 1 + Athletics 0 = 1 (1 die)" in flat(challenge)
    alice.read_until("+contest/decline")

    bob.send("+contest/answer wits+resolve")
    seen = {}
    for client in (alice, bob):
        text = client.read_until(CONTEST_RESULT)
        seen[client.name] = text[text.rindex("[Contest]"):]
    for text in seen.values():
        assert f"[Contest] {alice.name} vs {bob.name} # arm wrestling" in flat(text)
        assert f"{alice.name}: Strength 1 + Athletics 0 = 1 (1 die), Hunger 1" in flat(text)
        assert f"{bob.name}: Wits 1 + Resolve 1 = 2 (2 dice), Hunger 1" in flat(text)
    # Both saw the same dice and the same result.
    assert seen[alice.name] == seen[bob.name]

    # The challenge is gone once answered.
    bob.send("+contest/answer wits")
    assert "No one has challenged you." in bob.read_until("Usage:")


def test_staff_rouse_check_raises_a_players_hunger(superuser_client, new_player):
    admin = superuser_client
    player = new_player()
    before = sheet_hunger(player)
    assert before == 1  # a new character's Hunger

    after = before
    for _ in range(12):
        admin.send(f"+rouse {player.name}=5")
        text = admin.read_until(re.compile(r"Hunger \d -> (\d)"))
        assert f"make 5 Rouse checks (Hunger {after})" in text
        told = player.read_until(re.compile(r"Hunger \d -> \d"))
        assert "[Rouse]" in told
        after = int(re.findall(r"Hunger \d -> (\d)", text)[-1])
        if after > before:
            break
    assert after > before, "twelve rounds of five Rouse checks never failed once"
    assert sheet_hunger(player) == after

    # The player cannot lower it again.
    player.send(f"+hunger {player.name}=0")
    assert "Only staff set Hunger" in player.read_until("Usage:")
    assert sheet_hunger(player) == after
