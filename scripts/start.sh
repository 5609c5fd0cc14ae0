#!/usr/bin/env bash
# Start the game server (and set everything up first).
#
#   scripts/start.sh
#
# First start: creates .venv, the database, and the superuser (Account #1):
#   - from EVENNIA_SUPERUSER_USERNAME / EVENNIA_SUPERUSER_PASSWORD if both are set, otherwise
#   - user `admin` with a random password, printed once and kept in game/server/superuser.txt
#     (mode 600, git-ignored).
# Ports: GAME_PORT_BASE (default 4000) = telnet; +1 web; +2 websocket; ... +6 internal AMP.
# Waits until the Portal and the Server both answer (START_TIMEOUT seconds, default 180: a
# loaded or 1-vCPU machine can take a minute; Evennia's own launcher gives the Portal 10 s).
# If only the Portal is up (an earlier start gave up), starts the Server. If both answer, says
# the game is already running and leaves it alone (scripts/stop.sh stops it).
# GAME_RUN_DIR (optional): keep this game's pid files and logs there instead of game/server/
# (a second, throwaway game beside the real one; use it with GAME_PORT_BASE and TEST_DB_PATH).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

GAME="$REPO_DIR/game"
PY="$REPO_DIR/.venv/bin/python"
CTL="$REPO_DIR/scripts/gamectl.py"
BASE="${GAME_PORT_BASE:-4000}"
TELNET_PORT="$BASE"
WEB_PORT=$((BASE + 1))
HOST_SHOWN="${GAME_HOST:-localhost}"
if [ -n "${GAME_RUN_DIR:-}" ]; then
    mkdir -p "$GAME_RUN_DIR/logs"
    RUN_DIR="$(cd "$GAME_RUN_DIR" && pwd)"
    LOGS="$RUN_DIR/logs"
else
    RUN_DIR="$GAME/server"
    LOGS="$GAME/server/logs"
fi
SUPERUSER_FILE="$GAME/server/superuser.txt"
READY_TIMEOUT="${START_TIMEOUT:-180}"
# Evennia's launcher, with the pid files in $GAME_RUN_DIR when that is set.
evennia() { "$PY" "$REPO_DIR/scripts/launcher.py" "$@"; }

connect_help() {
    cat <<EOF
Connect:
  telnet $HOST_SHOWN $TELNET_PORT
  web:       http://$HOST_SHOWN:$WEB_PORT/
  webclient: http://$HOST_SHOWN:$WEB_PORT/webclient/
Stop with scripts/stop.sh; logs are in ${LOGS#"$REPO_DIR"/}/.
EOF
}

cd "$GAME"

state="$("$PY" "$CTL" state "$BASE" "$RUN_DIR")"
if [ "$state" = running ]; then
    echo "The game is already running (Portal and Server answer; pids $("$PY" "$CTL" pids "$RUN_DIR")). Not restarted."
    echo "Reload code with: (cd game && PATH=$REPO_DIR/.venv/bin:\$PATH evennia reload)"
    connect_help
    exit 0
fi

if [ "$state" = stopped ] && ! busy="$("$PY" "$CTL" ports-free "$BASE")"; then
    echo "start: port(s) $busy are in use by another program (ports $BASE..$((BASE + 6)) are needed)." >&2
    echo "       Stop it, or choose other ports:  GAME_PORT_BASE=5000 scripts/start.sh" >&2
    exit 1
fi

# Superuser: Evennia's launcher creates Account #1 on the first `migrate`/`start` that finds
# none; with no TTY it can only take it from the environment, so decide the credentials first.
# (A start already under way, state "starting", has done this itself.)
status=exists
[ "$state" = starting ] || status="$("$PY" "$CTL" superuser-status)"
new_password=""
if [ "$status" != "exists" ]; then
    if [ -n "${EVENNIA_SUPERUSER_USERNAME:-}" ] && [ -n "${EVENNIA_SUPERUSER_PASSWORD:-}" ]; then
        su_source="environment"
    elif [ -f "$SUPERUSER_FILE" ]; then
        # An earlier first start got this far but the account was not made (or the database
        # was deleted): use the same credentials again.
        EVENNIA_SUPERUSER_USERNAME="$(sed -n 's/^username: *//p' "$SUPERUSER_FILE")"
        EVENNIA_SUPERUSER_PASSWORD="$(sed -n 's/^password: *//p' "$SUPERUSER_FILE")"
        su_source="file"
    else
        EVENNIA_SUPERUSER_USERNAME="admin"
        EVENNIA_SUPERUSER_PASSWORD="$("$PY" "$CTL" password)"
        new_password="$EVENNIA_SUPERUSER_PASSWORD"
        su_source="random"
        (
            umask 077
            printf 'username: %s\npassword: %s\n' "$EVENNIA_SUPERUSER_USERNAME" \
                "$EVENNIA_SUPERUSER_PASSWORD" >"$SUPERUSER_FILE"
        )
        chmod 600 "$SUPERUSER_FILE"
    fi
    export EVENNIA_SUPERUSER_USERNAME EVENNIA_SUPERUSER_PASSWORD
fi

if [ "$state" = stopped ]; then
    echo "Migrating the database ..."
    if ! evennia migrate >"$LOGS/migrate.out" 2>&1; then
        echo "start: 'evennia migrate' failed:" >&2
        tail -n 40 "$LOGS/migrate.out" >&2
        exit 1
    fi
fi

server_log="$LOGS/server.log"
portal_log="$LOGS/portal.log"
server_log_start=$(stat -c %s "$server_log" 2>/dev/null || echo 0)
portal_log_start=$(stat -c %s "$portal_log" 2>/dev/null || echo 0)

[ "$state" = stopped ] && echo "Starting Evennia (telnet port $TELNET_PORT, web port $WEB_PORT) ..."
t0=$SECONDS
# gamectl runs the launcher (its output goes to start.out) and does the waiting itself;
# it tells what it does on stderr and prints its result on stdout.
if ! result="$("$PY" "$CTL" start "$BASE" "$RUN_DIR" "$LOGS" "$READY_TIMEOUT" \
    "$PY" "$REPO_DIR/scripts/launcher.py")"; then
    echo "Launcher output:" >&2
    tail -n 20 "$LOGS/start.out" >&2
    echo "--- portal.log (new lines) ---" >&2
    tail -c +$((portal_log_start + 1)) "$portal_log" 2>/dev/null | tail -n 30 >&2 || true
    echo "--- server.log (new lines) ---" >&2
    tail -c +$((server_log_start + 1)) "$server_log" 2>/dev/null | tail -n 40 >&2 || true
    echo "If the logs say nothing, the Portal failed before logging; see its error with:" >&2
    echo "  (cd game && PATH=$REPO_DIR/.venv/bin:\$PATH evennia ipstart)" >&2
    echo "Clean up what may still run with scripts/stop.sh." >&2
    exit 1
fi
if [ "${result%% *}" = already ]; then
    # Came up between our first look and now (another start was under way).
    echo "The game is already running. Not restarted."
    connect_help
    exit 0
fi
echo "The game is up after $((SECONDS - t0)) s."

case "${su_source:-}" in
    random)
        echo
        echo "Created the superuser account:  admin  /  $new_password"
        echo "(shown once; kept in game/server/superuser.txt, readable only by you)"
        ;;
    file) echo "Created the superuser account $EVENNIA_SUPERUSER_USERNAME (password in game/server/superuser.txt)." ;;
    environment) echo "Created the superuser account $EVENNIA_SUPERUSER_USERNAME (password from EVENNIA_SUPERUSER_PASSWORD)." ;;
esac
echo
connect_help
