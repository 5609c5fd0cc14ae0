#!/usr/bin/env bash
# Stop the game server started by scripts/start.sh (Portal and Server).
#
# Also stops a Portal or Server that is still loading or no longer answers (found by its
# command line, see scripts/gamectl.py), which `evennia stop` cannot reach: first politely
# (`evennia stop`), then SIGTERM, then SIGKILL. GAME_RUN_DIR: as for scripts/start.sh.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
cd game

PY="$REPO_DIR/.venv/bin/python"
CTL="$REPO_DIR/scripts/gamectl.py"
if [ -n "${GAME_RUN_DIR:-}" ]; then
    RUN_DIR="$(cd "$GAME_RUN_DIR" && pwd)"
else
    RUN_DIR="$REPO_DIR/game/server"
fi

pids="$("$PY" "$CTL" pids "$RUN_DIR")"
if [ -z "$pids" ]; then
    rm -f "$RUN_DIR/portal.pid" "$RUN_DIR/server.pid"  # stale, if any
    echo "The game is not running."
    exit 0
fi
"$PY" "$REPO_DIR/scripts/launcher.py" stop </dev/null || true

alive() {
    local pid left=""
    for pid in $pids; do
        kill -0 "$pid" 2>/dev/null && left="$left $pid"
    done
    echo "$left"
}
# Wait until the processes are gone (their pid files go a little before they do).
for sig in "" TERM KILL; do
    if [ -n "$sig" ]; then
        left="$(alive)"
        [ -n "$left" ] || break
        echo "stop: sending SIG$sig to$left" >&2
        # shellcheck disable=SC2086
        kill -s "$sig" $left 2>/dev/null || true
    fi
    for _ in $(seq 1 $([ -z "$sig" ] && echo 60 || echo 20)); do
        [ -z "$(alive)" ] && break 2
        sleep 0.5
    done
done
if [ -n "$(alive)" ]; then
    echo "stop: processes$(alive) did not stop." >&2
    exit 1
fi
rm -f "$RUN_DIR/portal.pid" "$RUN_DIR/server.pid"
echo "Stopped."
