"""
End to end, over telnet: every roll gets a verification code that others can check, and a
private roll's code tells an outsider exactly what a code that does not exist tells them.
"""

import re
import secrets

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]

CODE = re.compile(r"\[code ([A-Z0-9]{8})\]")
NO_SUCH_ROLL = "There is no such roll."


def roll_code(client, line):
    client.send(line)
    text = client.read_until(CODE, timeout=15)
    return CODE.search(text).group(1), text


def answer(client, line):
    """Everything the game answers to one command (until it has been quiet for a moment)."""
    client.read_available(0.2)
    client.send(line)
    text = client.read_until(re.compile(r"\S"), timeout=10)
    return (text + client.read_available(0.5)).strip()


def missing_code(taken):
    from storyteller_dice.rolllog.codes import ALPHABET

    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(8))
        if code not in taken:
            return code


def test_public_roll_verified_private_roll_hidden_like_a_missing_code(new_player):
    alice = new_player()
    bob = new_player()

    # A public roll, verified by another account (in lower case).
    public, text = roll_code(alice, "+roll dex+athletics+2 vs 2 # over the wall")
    assert text.rstrip().endswith(f"[code {public}]")
    seen = bob.read_until(f"[code {public}]", timeout=15)
    assert f"[Roll] {alice.name} rolls" in seen
    verified = answer(bob, f"+roll/verify {public.lower()}")
    assert verified.startswith(f"[Verify] Roll {public} (roll, public)")
    assert f"By: {alice.name}" in verified
    assert "Typed: +roll dex+athletics+2 vs 2 # over the wall" in verified
    assert f"[code {public}]" in verified

    # A private roll: bob is told nothing, and its code is as good as none to him.
    private, text = roll_code(alice, "+roll/private wits+awareness")
    assert f"(private: shown to {alice.name}, staff)" in text
    assert private not in bob.read_available(0.5)
    hidden = answer(bob, f"+roll/verify {private}")
    nowhere = answer(bob, f"+roll/verify {missing_code({public, private})}")
    assert hidden == NO_SUCH_ROLL
    assert hidden.encode() == nowhere.encode()
    # The roller can still verify it.
    assert answer(alice, f"+roll/verify {private}").startswith(f"[Verify] Roll {private} (roll, private)")


def test_private_roll_shared_by_name_and_staff_see_all(new_player, superuser_client):
    alice = new_player()
    bob = new_player()
    carol = new_player()

    code, text = roll_code(alice, f"+roll/private 3=  {bob.name}")
    assert f"(private: shown to {alice.name}, {bob.name}, staff)" in text
    assert f"[code {code}]" in bob.read_until(f"[code {code}]", timeout=15)
    assert answer(bob, f"+roll/verify {code}").startswith(f"[Verify] Roll {code} (roll, private)")
    assert answer(carol, f"+roll/verify {code}") == NO_SUCH_ROLL

    # Staff anywhere can verify it and find it on the log.
    admin = superuser_client
    assert answer(admin, f"+roll/verify {code}").startswith(f"[Verify] Roll {code} (roll, private)")
    log = answer(admin, f"+rolls {alice.name}")
    assert code in log and "(private)" in log
    # Players see their own rolls only.
    mine = answer(bob, "+rolls/mine")
    assert code not in mine
