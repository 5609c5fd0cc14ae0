"""
Fixtures for end-to-end tests (mark them `@pytest.mark.e2e`; scripts/test.sh runs them).

- `game_server` (session): one real Evennia server (the default game, V5) for the whole test
  session, on free ports with a throwaway database; see harness.GameServer for its attributes.
  A module may replace it with `game_server = systems.system_server("v20")` (the session's
  server of that system) or, when it stops, restarts or reconfigures its game, a private one
  (systems.running_server). Servers are shared, so tests make their own accounts and rooms
  under fresh names (as `new_player` does) and never count on an empty database.
- `e2e_servers` (session): the session's servers, one per configuration (systems.SharedServers).
- `e2e_browser` (session): `e2e_browser.get()` is the session's headless Chromium (started at
  the first browser test, closed after the last of a row of them); tests/e2e/test_web.py's
  `browser` and `page` fixtures use it.
- `superuser_client`: a TelnetClient logged in as the superuser (Account #1).
- `new_player`: a factory, `new_player(name=None, password=None, accept=frozenset()) ->
  TelnetClient`, that creates a fresh account over telnet and returns a client logged in with
  it (agreeing to the telnet options in `accept`, e.g. `{harness.MXP}`).
All clients are closed after the test.
"""

import itertools
import os
import secrets

import pytest

from .harness import CHROMIUM, CHROMIUM_ARGS, TelnetClient
from .systems import SharedServers

_player_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def e2e_servers(tmp_path_factory, pytestconfig):
    servers = SharedServers(tmp_path_factory, pytestconfig)
    try:
        yield servers
    finally:
        servers.stop_all()


@pytest.fixture(scope="session")
def game_server(e2e_servers):
    return e2e_servers.get()


class SharedBrowser:
    """One Chromium for the session (starting it costs seconds): launched at the first `get()`,
    again if it has gone away, closed by `close()`."""

    def __init__(self):
        self._playwright = None
        self._browser = None

    def get(self):
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        if not os.path.exists(CHROMIUM):
            pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium chromium-driver (scripts/test.sh "
                        "does it when run as root)")
        sync_api = pytest.importorskip("playwright.sync_api",
                                       reason="install the test extras: pip install -e .[test]")
        if self._playwright is None:
            self._playwright = sync_api.sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                         args=CHROMIUM_ARGS)
        return self._browser

    def close(self):
        browser, playwright, self._browser, self._playwright = self._browser, self._playwright, None, None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


@pytest.fixture(scope="session")
def e2e_browser(pytestconfig):
    shared = pytestconfig.stash[_BROWSER] = SharedBrowser()
    try:
        yield shared
    finally:
        shared.close()


_BROWSER = pytest.StashKey[SharedBrowser]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """
    Close the session's Chromium after the last test in a row that uses it (tests/conftest.py
    puts the browser tests together): while Playwright runs, its event loop runs in this
    thread, and Django then refuses the database to the tests that follow in this process.
    """
    try:
        return (yield)
    finally:
        shared = item.config.stash.get(_BROWSER, None)
        if shared is not None and (nextitem is None or "e2e_browser" not in nextitem.fixturenames):
            shared.close()


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


@pytest.fixture
def shots(tmp_path):
    """shots(page, name): a full-page screenshot, kept under $E2E_SCREENSHOT_DIR (or the test's
    own folder) for a person to look at."""
    folder = os.environ.get("E2E_SCREENSHOT_DIR") or str(tmp_path / "screens")
    os.makedirs(folder, exist_ok=True)

    def shoot(page, name):
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)

    return shoot
