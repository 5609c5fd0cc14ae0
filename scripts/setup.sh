#!/usr/bin/env bash
# Prepare the project: a virtualenv in .venv with the project installed (`-e .[test,browser]`), and
# the git-ignored parts of the game dir that a fresh clone lacks (secret_settings.py, logs/).
#
#   scripts/setup.sh            run it (the other scripts do this for you)
#   source scripts/setup.sh     the same, and .venv/bin is then first on PATH
#
# Idempotent: re-installs (and byte-compiles) only when pyproject.toml (or the extras)
# changed; silent when there is nothing to do.
#
# Environment (all optional):
#   PYTHON=/path/to/python3   the interpreter for a new .venv (3.12 or newer)
#   SETUP_NO_UV=1             install with pip only (by default uv is fetched into .venv,
#                             which is several times faster; pip is the fallback)
#   GAME_DB=postgres          also install the `postgres` extra (psycopg)
#   SETUP_MUTATION=1          also install the `mutation` extra (mutmut; no test needs it)

_st_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_st_venv="$_st_repo/.venv"
_st_stamp="$_st_venv/.storyteller-setup.stamp"
_st_compiled="$_st_venv/.storyteller-compiled.stamp"

_st_say() { echo "setup: $*" >&2; }

# A Python is good enough if it runs and is 3.12 or newer, with venv support.
_st_python_ok() {
    [ -n "$1" ] || return 1
    "$1" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 12) else 1)' \
        >/dev/null 2>&1
}

_st_find_python() {
    local cand root
    if [ -n "${PYTHON:-}" ]; then
        if _st_python_ok "$PYTHON"; then
            echo "$PYTHON"
            return 0
        fi
        _st_say "PYTHON=$PYTHON does not run as Python 3.12 or newer (with the venv module)."
        return 2
    fi
    for cand in python3.14 python3.13 python3.12 python3; do
        # pyenv shims are on PATH but refuse to run unless selected: check by running.
        if command -v "$cand" >/dev/null 2>&1 && _st_python_ok "$cand"; then
            command -v "$cand"
            return 0
        fi
    done
    root="$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")"
    for cand in $(ls -d "$root"/versions/3.1[2-9]* 2>/dev/null | sort -rV); do
        if _st_python_ok "$cand/bin/python3"; then
            echo "$cand/bin/python3"
            return 0
        fi
    done
    return 1
}

_st_extras() {
    local extras="test,browser"
    case "${GAME_DB:-sqlite}" in
        postgres | postgresql | POSTGRES | PostgreSQL) extras="$extras,postgres" ;;
    esac
    [ -n "${SETUP_MUTATION:-}" ] && extras="$extras,mutation"
    echo "$extras"
}

_st_stamp_value() {
    local extras
    extras="$(_st_extras)"
    # pyproject.toml holds the metadata and the layout: changing it re-installs.
    echo "$(cat "$_st_repo/pyproject.toml" | sha256sum | cut -d' ' -f1) extras=$extras"
}

_st_install() {
    local extras="$1" py="$_st_venv/bin/python" log
    log="$(mktemp)"
    if [ -z "${SETUP_NO_UV:-}" ] && { [ -x "$_st_venv/bin/uv" ] ||
        "$py" -m pip install -q --disable-pip-version-check uv >"$log" 2>&1; }; then
        if UV_PYTHON_DOWNLOADS=never "$_st_venv/bin/uv" pip install -q --python "$py" \
            -e "$_st_repo[$extras]" >"$log" 2>&1; then
            rm -f "$log"
            return 0
        fi
        _st_say "uv could not install; trying pip. uv said:"
        tail -n 15 "$log" >&2
    fi
    if "$py" -m pip install -q --disable-pip-version-check -e "$_st_repo[$extras]" >"$log" 2>&1; then
        rm -f "$log"
        return 0
    fi
    _st_say "pip install -e '.[$extras]' failed:"
    grep -v "is ignored: it is neither a file nor a directory" "$log" | tail -n 30 >&2
    rm -f "$log"
    return 1
}

storyteller_setup() {
    local py want extras t0
    t0=$SECONDS

    # 1. The virtualenv.
    if [ ! -x "$_st_venv/bin/python" ] || ! _st_python_ok "$_st_venv/bin/python"; then
        py="$(_st_find_python)" || {
            [ $? -eq 2 ] && return 1
            cat >&2 <<'EOF'
setup: no Python 3.12 or newer found (Evennia 6.1 needs it).
       Looked at: $PYTHON, python3.14/3.13/3.12/python3 on PATH, $(pyenv root)/versions/3.1[2-9]*.
       Install one (e.g. `pyenv install 3.13`, or your OS's python3.12 + python3.12-venv)
       or point PYTHON at it:  PYTHON=/path/to/python3.13 scripts/setup.sh
EOF
            return 1
        }
        rm -rf "$_st_venv"
        _st_say "creating .venv with $py ($("$py" -c 'import platform; print(platform.python_version())'))"
        "$py" -m venv "$_st_venv" || { _st_say "could not create .venv"; return 1; }
    fi

    # 2. The project and its dependencies (again whenever pyproject.toml changes).
    want="$(_st_stamp_value)"
    if [ ! -f "$_st_stamp" ] || [ "$(cat "$_st_stamp")" != "$want" ] ||
        [ ! -x "$_st_venv/bin/evennia" ]; then
        extras="$(_st_extras)"
        _st_say "installing the project and its dependencies (-e .[$extras]) into .venv ..."
        _st_install "$extras" || return 1
        echo "$want" >"$_st_stamp"
        _st_say "installed in $((SECONDS - t0)) s"
    fi

    # 2b. Byte-compile the environment and the project, once per install. uv installs no .pyc
    #     files, so the first start compiled ~5,000 modules of Django, Twisted and Evennia
    #     while the Portal and the Server were loading, which is what made a first start on a
    #     loaded or 1-vCPU machine slow. Later edits to the project are recompiled by Python
    #     as usual on import. Errors (a package's deliberately broken test files) don't matter.
    if [ ! -f "$_st_compiled" ] || [ "$(cat "$_st_compiled")" != "$want" ]; then
        _st_say "byte-compiling .venv and the project (once per install) ..."
        t0=$SECONDS
        "$_st_venv/bin/python" -m compileall -qq -j 0 \
            "$("$_st_venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" \
            >/dev/null 2>&1 || true
        "$_st_venv/bin/python" -m compileall -qq -j 0 \
            -x '(^|/)(\.venv|\.git|node_modules|mutants|\.mutation|\.pytest_cache)(/|$)' "$_st_repo" \
            >/dev/null 2>&1 || true
        echo "$want" >"$_st_compiled"
        _st_say "byte-compiled in $((SECONDS - t0)) s"
    fi

    # 3. What a fresh clone of the game dir lacks (both are git-ignored).
    mkdir -p "$_st_repo/game/server/logs"
    if [ ! -f "$_st_repo/game/server/conf/secret_settings.py" ]; then
        _st_say "creating game/server/conf/secret_settings.py (evennia --initmissing)"
        (cd "$_st_repo/game" && PATH="$_st_venv/bin:$PATH" "$_st_venv/bin/evennia" --initmissing \
            >/dev/null) || { _st_say "evennia --initmissing failed"; return 1; }
    fi

    # 4. The web client's libraries (jQuery, Golden Layout, ...), served by the game itself so
    #    it works offline; fetched from the npm registry, git-ignored. Not fatal: telnet works
    #    without them.
    bash "$_st_repo/scripts/fetch_web_vendor.sh" ||
        _st_say "WARNING: the web client's libraries are missing (see above); the web client will not work."
    return 0
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    # Sourced: set up, then put .venv/bin first on PATH (Evennia's launcher runs `twistd`
    # by name, so it must find the venv's one).
    storyteller_setup || return 1
    export VIRTUAL_ENV="$_st_venv"
    case ":$PATH:" in
        *":$_st_venv/bin:"*) ;;
        *) export PATH="$_st_venv/bin:$PATH" ;;
    esac
    export REPO_DIR="$_st_repo"
else
    storyteller_setup || exit 1
fi
