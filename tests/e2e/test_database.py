"""End to end: the real server runs on the database the environment chose."""

import pytest

from .harness import on_throwaway_postgres

pytestmark = [pytest.mark.e2e, pytest.mark.database]


def test_server_database_backend(superuser_client):
    superuser_client.send("py from django.db import connection; print('BACKEND=' + connection.vendor)")
    out = superuser_client.read_until("BACKEND=", timeout=15) + superuser_client.read_available(1.0)
    wanted = "postgresql" if on_throwaway_postgres() else "sqlite"
    assert f"BACKEND={wanted}" in out, out
