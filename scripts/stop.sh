#!/usr/bin/env bash
# Stop the game server started by scripts/start.sh (Portal and Server).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
cd game

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1" 2>/dev/null)" 2>/dev/null; }

if ! pid_alive server/portal.pid && ! pid_alive server/server.pid; then
    echo "The game is not running."
    exit 0
fi
pids="$(cat server/portal.pid server/server.pid 2>/dev/null || true)"
evennia stop
# Wait until the processes are gone (their pid files go a little before they do).
for _ in $(seq 1 60); do
    alive=""
    for pid in $pids; do
        kill -0 "$pid" 2>/dev/null && alive="$alive $pid"
    done
    [ -z "$alive" ] && exit 0
    sleep 0.5
done
echo "stop: the Portal/Server did not stop within 30 s; try: (cd game && ../.venv/bin/evennia kill)" >&2
exit 1
