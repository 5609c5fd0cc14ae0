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
    Run end-to-end tests last (quick feedback first; their server starts only then). In a
    parallel run (pytest-xdist, `--dist loadgroup`: scripts/test.sh) they are one group, so one
    worker runs them one server at a time while the other takes the quick tests: two real
    servers at once on a 2-core machine would make their timings the test of the machine.
    """
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
    if not on_postgres():
        only_there = pytest.mark.skip(reason="PostgreSQL only: run under scripts/with_postgres.sh")
        for item in items:
            if item.get_closest_marker("postgres") is not None:
                item.add_marker(only_there)
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group("e2e"))


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
