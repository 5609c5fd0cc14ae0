"""
Shared pytest set-up.

Tests that use the database (pytest-django's `db` fixture or `django_db` mark, or Django
`TestCase` classes such as Evennia's `EvenniaCommandTest`) get the test database and, once
per session, `evennia._init()`, which reads that database. Tests that use neither (e.g. plain
functions testing `rules/`) never create the database and stay fast.
"""

import os

import pytest


def on_postgres():
    """True inside scripts/with_postgres.sh: the tests' database and the e2e servers' are
    PostgreSQL there."""
    return os.environ.get("E2E_ON_POSTGRES") == "1" and os.environ.get("GAME_DB", "").lower() in (
        "postgres", "postgresql")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, then Evennia's own initialisation (once per session)."""
    with django_db_blocker.unblock():
        import evennia

        evennia._init()


def pytest_collection_modifyitems(config, items):
    """
    Run end-to-end tests last (quick feedback first; their servers start only then). In a
    parallel run (pytest-xdist, `--dist loadgroup`: scripts/test.sh) they are two groups
    (`e2e_group`), each run by one worker with its own servers, so that both cores work on them
    while they last; xdist hands out the big groups first and the quick tests after.
    """
    # The browser tests together, last: one Chromium for them all (tests/e2e/conftest.py).
    items.sort(key=lambda item: (item.get_closest_marker("e2e") is not None,
                                 item.get_closest_marker("browser") is not None))
    if not on_postgres():
        only_there = pytest.mark.skip(reason="PostgreSQL only: run under scripts/with_postgres.sh")
        for item in items:
            if item.get_closest_marker("postgres") is not None:
                item.add_marker(only_there)
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group(e2e_group(item)))
    if getattr(config.option, "loadgroup", False):  # an xdist worker of `--dist loadgroup`
        for item in items:
            name_group(item)


def name_group(item):
    """
    Put the item's xdist group at the end of its node id (`...::test@group`), which is how the
    xdist controller tells groups apart. pytest-xdist (3.8) does it by setting the item's
    `_nodeid`, which pytest 9.2 no longer reads (it keeps the id as a structured `_id`): there
    every test went to either worker and each worker started its own servers.
    """
    groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                     for mark in item.iter_markers("xdist_group")})
    if not groups or "@" in item.nodeid.rpartition("]")[2]:  # none, or xdist has named it
        return
    named = f"{item.nodeid}@{'_'.join(groups)}"
    ident = getattr(item, "_id", None)
    if ident is not None and hasattr(type(ident), "parse"):
        item._id = type(ident).parse(named)
    else:
        item._nodeid = named


def e2e_server(item):
    """
    The game an end-to-end test plays on: the key of the dice system of the session's shared
    server it uses (tests/e2e/systems.py; "v5" for the default game), "private" for a server of
    its module's own, or None when it uses no `game_server` (it starts what it needs itself).
    """
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "system_game" in callspec.params:  # one test, each system's server
        return callspec.params["system_game"]
    if "game_server" not in getattr(item, "fixturenames", ()):
        return None
    fixture = getattr(item.module, "game_server", None)
    system = getattr(fixture, "dice_system", None)
    if system is not None:
        return system
    if fixture is not None:  # the module's own `game_server`
        return "private"
    return "v5"


def e2e_group(item):
    """
    The xdist group of an end-to-end test. Each group's worker starts the servers its tests
    use, so the tests of one system stay in one group (each system's server starts once) and
    only the default game (V5), which most tests play, runs in both. One group has the browser
    tests (one Chromium) and the other systems' games; the other the default game's telnet
    tests, the modules' private servers and what builds and installs the package (its own
    servers). The two take about as long (some 7 to 9 minutes each on a 2-core machine).
    """
    server = e2e_server(item)
    if item.get_closest_marker("browser") is not None or server not in ("v5", "private", None):
        return "e2e-browser-systems"
    return "e2e-telnet"


@pytest.fixture(scope="module")
def code_point_columns():
    """
    `rules.display` measuring one column a code point, its own default (as Evennia measures),
    for the module: importing `typeclasses.columns` (any test of the game does) sets wcwidth's
    terminal measure for the whole process, and tests of the pure rules must not depend on
    whether one ran before them.
    """
    from storyteller_dice.rules import display

    before = display.measure_columns(None)
    yield
    display.measure_columns(before)
