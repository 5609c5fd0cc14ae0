#!/usr/bin/env bash
# Run the tests (sets the project up first).
#
#   scripts/test.sh                  everything: unit tests, then end-to-end tests (which start
#                                    a real server on spare ports with a throwaway database),
#                                    in two processes (TEST_WORKERS=N to change; 0: one)
#   scripts/test.sh -m "not e2e"     the quick run (the same as plain `.venv/bin/pytest`)
#   scripts/test.sh -m e2e           only the end-to-end tests
#   scripts/test.sh tests/test_x.py -k name -x ...   any pytest arguments
#
# pyproject.toml's pytest options exclude e2e tests (`-m 'not e2e'`) for quick runs; this
# script selects all tests instead, and a `-m` given here overrides that (the last -m wins).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

# ---- Browser tests ---------------------------------------------------------------------------
# tests/e2e/test_web.py drives Debian's Chromium (/usr/bin/chromium) headless through
# Playwright (never `playwright install`: no browser download). Install it when missing and
# we are root; otherwise say so (those tests then fail with a clear message).
ensure_chromium() {
    [ -x /usr/bin/chromium ] && return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "test: /usr/bin/chromium is missing (apt-get install chromium chromium-driver as root);" \
            "the browser tests will fail." >&2
        return 0
    fi
    echo "test: installing Debian's chromium and chromium-driver for the browser tests ..." >&2
    local log
    log="$(mktemp)"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        chromium chromium-driver; } >"$log" 2>&1; then
        echo "test: could not install chromium:" >&2
        tail -n 20 "$log" >&2
    fi
    rm -f "$log"
}
ensure_chromium
# ---------------------------------------------------------------------------------------------

# Everything (no arguments): in TEST_WORKERS processes (default 2; 0 runs in this process),
# the end-to-end tests in two groups that each stay in one process with its own servers
# (tests/conftest.py), handed out first; with arguments, as given.
if [ "$#" -eq 0 ]; then
    set -- -n "${TEST_WORKERS:-2}" --dist loadgroup
fi
exec "$REPO_DIR/.venv/bin/python" -m pytest -m "e2e or not e2e" "$@"
