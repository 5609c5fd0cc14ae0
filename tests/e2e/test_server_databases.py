"""
End to end: every e2e server has a database of its own. On PostgreSQL (scripts/with_postgres.sh)
that is a database made for it (harness.GameServer.pg_database), not the shared PGDATABASE, and
a start that fails drops the database it made; on SQLite it is the file in its run_dir.
"""

import os

import pytest

from .harness import GameServer, on_throwaway_postgres, postgres_admin

pytestmark = [pytest.mark.e2e, pytest.mark.database]


def test_the_server_uses_its_own_database(game_server, superuser_client):
    superuser_client.send("py from django.db import connection; "
                          "print('DBNAME=' + str(connection.settings_dict['NAME']) + '=')")
    out = superuser_client.read_until("DBNAME=", timeout=15) + superuser_client.read_available(1.0)
    if on_throwaway_postgres():
        assert game_server.pg_database.startswith(f"e2e_{os.getpid()}_")
        assert game_server.pg_database != os.environ["PGDATABASE"]
        assert f"DBNAME={game_server.pg_database}=" in out, out
        assert game_server.pg_database in postgres_admin("list").split()
    else:
        assert game_server.pg_database is None
        assert f"DBNAME={game_server.db_path}=" in out, out


@pytest.mark.postgres
def test_a_failed_start_drops_its_database(tmp_path):
    before = postgres_admin("list").split()
    server = GameServer(run_dir=tmp_path, settings_file="no_such_settings.py")
    try:
        with pytest.raises(RuntimeError, match="evennia migrate failed") as failed:
            server.start(timeout=60)
        assert "There was an error importing Evennia's config file" in str(failed.value)
        assert server.pg_database is None
    finally:
        server.stop()
    assert postgres_admin("list").split() == before
