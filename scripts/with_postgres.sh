#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL server, with the game set to use it.
#
#   scripts/with_postgres.sh scripts/test.sh -m "not e2e"     the test suite on PostgreSQL
#
# Starts a private cluster (trust authentication, loopback only, a free port) in a temporary
# directory, creates a role `evennia` that may create databases (the test runner makes its own
# test database) and a database `evennia` (for a real server, as in the end-to-end tests),
# runs the command with GAME_DB=postgres and the PG* variables set, then stops
# the cluster and removes it. Installs Debian's postgresql when it is missing and we are root.
set -euo pipefail

say() { echo "with_postgres: $*" >&2; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

bin="$(pg_bin)"
if [ -z "$bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing Debian's postgresql ..."
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        bin="$(pg_bin)"
    fi
    [ -n "$bin" ] || { say "PostgreSQL is not installed (apt-get install postgresql)."; exit 1; }
fi

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

data="$(mktemp -d)"
[ "$(id -u)" = 0 ] && chown postgres "$data"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

cleanup() {
    as_owner "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$data"
}
trap cleanup EXIT

as_owner "$bin/initdb" -D "$data" -A trust -U postgres >"$data.initdb.log" 2>&1 ||
    { cat "$data.initdb.log" >&2; exit 1; }
rm -f "$data.initdb.log"
as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
    -o "-p $port -k $data -c listen_addresses=127.0.0.1" start >/dev/null
"$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE evennia LOGIN PASSWORD 'evennia' CREATEDB" \
    -c "CREATE DATABASE evennia OWNER evennia" >/dev/null
say "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

# E2E_ON_POSTGRES: this server is throwaway, so the end-to-end game server may use it too.
export E2E_ON_POSTGRES=1 GAME_DB=postgres PGHOST=127.0.0.1 PGPORT="$port" PGUSER=evennia PGPASSWORD=evennia PGDATABASE=evennia
"$@"
