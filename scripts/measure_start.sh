#!/usr/bin/env bash
# Measure scripts/start.sh on one loaded core, on a throwaway game (own ports, database, pid
# files and logs in a temporary directory; the real game is not touched). Everything started
# here is stopped at the end, also on failure or Ctrl-C.
#
#   scripts/measure_start.sh            pinned to core 0 with a busy loop on the same core
#   scripts/measure_start.sh --unloaded no pinning, no busy loop
#
# Environment: MEASURE_PORT_BASE (default 5100), START_TIMEOUT (as for start.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO_DIR="$(pwd)"
PY="$REPO_DIR/.venv/bin/python"
export PATH="$REPO_DIR/.venv/bin:$PATH"  # the launcher runs `twistd` by name
loaded=1
[ "${1:-}" = "--unloaded" ] && loaded=0

run_dir="$(mktemp -d /tmp/storyteller-measure.XXXXXX)"
export GAME_RUN_DIR="$run_dir" GAME_PORT_BASE="${MEASURE_PORT_BASE:-5100}"
export TEST_DB_PATH="$run_dir/game.db3"
export EVENNIA_SUPERUSER_USERNAME=admin EVENNIA_SUPERUSER_PASSWORD="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(12))')"

busy_pid=""
cleanup() {
    [ -n "$busy_pid" ] && kill "$busy_pid" 2>/dev/null || true
    scripts/stop.sh >/dev/null 2>&1 || true
    rm -rf "$run_dir"
}
trap cleanup EXIT

pin=()
if [ "$loaded" = 1 ]; then
    pin=(taskset -c 0)
    taskset -c 0 python3 -c 'while True: pass' &
    busy_pid=$!
fi

step() {  # step LABEL COMMAND...: run, print its wall time and its last telling line
    local label="$1" t0 out rc
    shift
    t0=$(date +%s.%N)
    set +e
    out="$("$@" 2>&1)"
    rc=$?
    set -e
    printf '%-48s %6.1f s  rc=%d  %s\n' "$label" "$(echo "$(date +%s.%N) - $t0" | bc)" "$rc" \
        "$(echo "$out" | grep -E 'already running|is up after|Portal is up|timed out|did not|Evennia running' | head -n 2 | tr '\n' ' ')"
}
state() { "$PY" scripts/gamectl.py state "$GAME_PORT_BASE" "$run_dir"; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; loaded=$loaded (${pin[*]:-no pinning})"
scripts/setup.sh
step "1. first start (new database)" "${pin[@]}" scripts/start.sh
echo "   state: $(state)"
step "2. start.sh again while running" "${pin[@]}" scripts/start.sh
step "3. stop" scripts/stop.sh
step "4. later start (database exists)" "${pin[@]}" scripts/start.sh
echo "   state: $(state)"
kill -9 "$(cat "$run_dir/server.pid")"
sleep 1
echo "   Server killed; state: $(state)"
step "5. start.sh with only the Portal up" "${pin[@]}" scripts/start.sh
echo "   state: $(state)"
step "6. stop" scripts/stop.sh
# The original failure: Evennia's launcher on its own (10 s for the Portal).
(cd game && step "7. plain 'evennia start' (the launcher alone)" "${pin[@]}" "$PY" "$REPO_DIR/scripts/launcher.py" start)
sleep 2
echo "   state after the launcher returned: $(state)"
step "8. start.sh after that" "${pin[@]}" scripts/start.sh
echo "   state: $(state)"
step "9. stop" scripts/stop.sh
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
