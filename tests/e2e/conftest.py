"""
Fixtures for end-to-end tests (mark them `@pytest.mark.e2e`; scripts/test.sh runs them).

- `game_server` (session): one real Evennia server for the whole test session, on free ports
  with a throwaway database; see harness.GameServer for its attributes.
- `superuser_client`: a TelnetClient logged in as the superuser (Account #1).
- `new_player`: a factory, `new_player(name=None, password=None, accept=frozenset()) ->
  TelnetClient`, that creates a fresh account over telnet and returns a client logged in with
  it (agreeing to the telnet options in `accept`, e.g. `{harness.MXP}`).
All clients are closed after the test.
"""

import itertools
import secrets

import pytest

from .harness import TelnetClient
from .systems import running_server

_player_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def game_server(tmp_path_factory, pytestconfig):
    yield from running_server(tmp_path_factory.mktemp("e2e-game"), pytestconfig)


@pytest.fixture
def superuser_client(game_server):
    client = game_server.client()
    try:
        client.wait_for_connection_screen()
        client.login(game_server.superuser, game_server.superuser_password)
        client.read_available()
        yield client
    finally:
        client.close()


@pytest.fixture
def new_player(game_server):
    clients: list[TelnetClient] = []

    def make(name: str | None = None, password: str | None = None, accept=frozenset()) -> TelnetClient:
        name = name or f"player{next(_player_numbers)}x{secrets.token_hex(2)}"
        password = password or secrets.token_urlsafe(10)
        client = game_server.client(accept=accept)
        clients.append(client)
        client.wait_for_connection_screen()
        client.create_and_connect(name, password)
        client.read_available()
        client.name, client.password = name, password
        return client

    yield make
    for client in clients:
        client.close()
