"""
End to end: on logging in, a player is told what is pending for them and what they missed,
on the server as started cold (no reload before this test: test_reload.py runs later). The
notice comes from commands.pending through Evennia's SIGNAL_OBJECT_POST_PUPPET, which the
server's start hook connects; the Character typeclass itself never calls into the commands.
"""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.database]


def test_pending_challenge_and_kept_notice_on_login(game_server, new_player):
    alice, bob = new_player(), new_player()
    name, password = bob.name, bob.password
    alice.command(f"+contest 3 vs {name}", f"{name} answers with +contest/answer")

    def bob_leaves():
        bob.close()
        alice.read_until(f"{name} has left the game", timeout=15)

    def bob_logs_in():
        client = game_server.client()
        client.wait_for_connection_screen()
        client.login(name, password)
        return client

    bob_leaves()
    bob = bob_logs_in()
    try:
        seen = bob.read_until("+contest/decline within", timeout=15)
        assert f"[Contest] {alice.name}'s challenge to you is still open" in " ".join(seen.split())

        # Withdrawn while Bob was away: the notice is kept for him and shown on his next login.
        bob_leaves()
        alice.command("+contest/cancel", f"withdraws the challenge to {name}")
        bob = bob_logs_in()
        seen = bob.read_until(f"withdraws the challenge to {name}.", timeout=15)
        assert f"[Contest] {alice.name} withdraws the challenge to {name}." in " ".join(seen.split())
        assert "is still open" not in seen
    finally:
        bob.close()
