"""End-to-end smoke test: a real server, real telnet connections."""

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]


def test_players_hear_each_other(new_player):
    alice = new_player()
    bob = new_player()

    alice.send("say Hello from the other side")
    assert 'You say, "Hello from the other side"' in alice.read_until('"Hello from the other side"')
    heard = bob.read_until(re.compile(r'says, "Hello from the other side"'))
    assert f"{alice.name} says" in heard


def test_superuser_can_build_and_teleport(superuser_client, new_player):
    admin = superuser_client
    player = new_player()

    admin.send("@dig Testing Grounds")
    out = admin.read_until(re.compile(r"Created room Testing Grounds\(#(\d+)\)"))
    room_id = re.search(r"Testing Grounds\(#(\d+)\)", out).group(1)

    admin.send(f"@tel #{room_id}")
    admin.read_until("Testing Grounds")

    admin.send(f"@tel {player.name} = #{room_id}")
    player.read_until("Testing Grounds")
    admin.send("look")
    assert player.name in admin.read_until(re.compile(rf"\b{player.name}\b"))
