"""
Servers for end-to-end tests, and what the modules that play another dice system share.

- `running_server(run_dir, pytestconfig, extra_env)`: the body of a `game_server` fixture: a
  GameServer started (with the migrated-database cache unless E2E_DB_CACHE=0), yielded and
  stopped. conftest's session server uses it too.
- `system_server(key)`: a module-scoped `game_server` fixture for a game started with
  DICE_SYSTEM=key, replacing the session one for that module. In the test module:
  `game_server = system_server("v20")`.
- `CODE`: the record code that ends every roll message, to read up to.
"""

import os
import re

import pytest

from .harness import GameServer

CODE = re.compile(r"\[code [A-Z0-9]+\]")


def running_server(run_dir, pytestconfig, extra_env=None):
    # A migrated database is kept in .pytest_cache for the next run (E2E_DB_CACHE=0: never).
    cache_dir = None
    # (`getattr`: with `-p no:cacheprovider` there is no cache attribute at all.)
    cache = getattr(pytestconfig, "cache", None)
    if os.environ.get("E2E_DB_CACHE", "1") != "0" and cache is not None:
        cache_dir = cache.mkdir("e2e-db")
    server = GameServer(run_dir=run_dir, db_cache_dir=cache_dir, extra_env=dict(extra_env or {}))
    try:
        server.start()
        yield server
    finally:
        server.stop()


def system_server(key):
    """A module-scoped `game_server` fixture: one server for the module, DICE_SYSTEM=key."""

    @pytest.fixture(scope="module", name="game_server")
    def game_server(tmp_path_factory, pytestconfig):
        """The game with DICE_SYSTEM set, on its own ports and throwaway database."""
        yield from running_server(tmp_path_factory.mktemp(f"e2e-{key}"), pytestconfig, {"DICE_SYSTEM": key})

    return game_server
