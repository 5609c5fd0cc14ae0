"""
Servers for end-to-end tests, and what the modules that play another dice system share.

- `SharedServers`: the session's servers, one per configuration (the environment given to the
  game, e.g. {"DICE_SYSTEM": "v20"}), started when a test first asks for it and stopped when
  the session ends. conftest's `e2e_servers` fixture is the session's one; its `game_server`
  is `e2e_servers.get()` (the default game, V5). Every module that plays the same
  configuration plays on the same server, so a test never relies on a fresh database: it makes
  its own accounts, characters and rooms under names no other test uses.
- `system_server(key)`: a `game_server` fixture for the game with DICE_SYSTEM=key, replacing
  the default one in the module that says `game_server = system_server("v20")`: the session's
  shared server of that system.
- `running_server(run_dir, pytestconfig, extra_env)`: the body of a fixture for a PRIVATE
  server (started and stopped with the fixture): for a module that stops, kills or restarts
  its game, or changes its settings (tests/e2e/test_group_commit.py,
  tests/e2e/test_without_bundle.py); its tests run on no other server.
- `CODE`: the record code that ends every roll message, to read up to.
"""

import os
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from .harness import GameServer

CODE = re.compile(r"\[code [A-Z0-9]+\]")


def _db_cache_dir(pytestconfig):
    """Where a migrated database is kept for the next run (E2E_DB_CACHE=0: nowhere)."""
    # (`getattr`: with `-p no:cacheprovider` there is no cache attribute at all.)
    cache = getattr(pytestconfig, "cache", None)
    if os.environ.get("E2E_DB_CACHE", "1") != "0" and cache is not None:
        return cache.mkdir("e2e-db")
    return None


def running_server(run_dir, pytestconfig, extra_env=None):
    """A private server: started, yielded, stopped."""
    server = GameServer(run_dir=run_dir, db_cache_dir=_db_cache_dir(pytestconfig),
                        extra_env=dict(extra_env or {}))
    try:
        server.start()
        yield server
    finally:
        server.stop()


class SharedServers:
    """
    The session's servers, one per configuration, each started once (at its first `get`) and
    all stopped by `stop_all()`. A server that did not come up is not tried again: every later
    `get` of it raises the same error (a start can take minutes to fail).
    """

    def __init__(self, tmp_path_factory, pytestconfig):
        self._tmp_path_factory = tmp_path_factory
        self._pytestconfig = pytestconfig
        self._servers: dict[tuple, GameServer] = {}
        self._failed: dict[tuple, BaseException] = {}

    @staticmethod
    def _key(extra_env) -> tuple:
        return tuple(sorted((str(name), str(value)) for name, value in (extra_env or {}).items()))

    def get(self, extra_env=None) -> GameServer:
        """The running server for the game with `extra_env` set (none: the default game)."""
        key = self._key(extra_env)
        if key in self._failed:
            raise RuntimeError(f"the shared server {dict(key)} did not come up earlier in this session") \
                from self._failed[key]
        if key not in self._servers:
            label = "-".join(value for _, value in key) or "game"
            server = GameServer(run_dir=self._tmp_path_factory.mktemp(f"e2e-{label}"),
                                db_cache_dir=_db_cache_dir(self._pytestconfig), extra_env=dict(key))
            try:
                server.start()
            except BaseException as err:
                self._failed[key] = err
                server.stop()
                raise
            self._servers[key] = server
        return self._servers[key]

    def stop_all(self) -> None:
        """Stop every server, all at once (each `evennia stop` mostly waits)."""
        servers, self._servers = list(self._servers.values()), {}
        if not servers:
            return
        with ThreadPoolExecutor(max_workers=len(servers)) as pool:
            for future in [pool.submit(server.stop) for server in servers]:
                future.result()


def system_server(key):
    """A `game_server` fixture: the session's shared server of the game with DICE_SYSTEM=key."""

    @pytest.fixture(scope="module", name="game_server")
    def game_server(e2e_servers):
        """The game with DICE_SYSTEM set, shared by every module of that system."""
        return e2e_servers.get({"DICE_SYSTEM": key})

    # Read by tests/conftest.py, which puts the tests of one system in one xdist group.
    game_server.dice_system = key
    return game_server
