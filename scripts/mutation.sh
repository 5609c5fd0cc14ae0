#!/usr/bin/env bash
# Mutation testing of rules/ with mutmut 3 (tests/mutation/README.md).
#
#   scripts/mutation.sh run [mutant names]    mutate the rules, run the pure tests
#   scripts/mutation.sh results | show <name> | browse | ...   any other mutmut command
#
# mutmut names a mutant by its file's path (rules/v5/dice.py -> rules.v5.dice) and counts a
# test's calls by the module name the code was imported under; the tests import the package's
# name, storyteller_dice.rules.v5.dice. So mutmut works in .mutation/ (git-ignored), a tree in
# which the path is the name: storyteller_dice/rules/ is a fresh copy of rules/, next to the
# package's __init__.py, tests/, bench/ and pyproject.toml ([tool.mutmut] with that one path).
# Results stay in .mutation/mutants/ between runs; mutmut re-tests what changed.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$repo/.mutation"
mutmut="$repo/.venv/bin/mutmut"
if [ ! -x "$mutmut" ]; then
    echo "mutation: mutmut is not installed; run: SETUP_MUTATION=1 scripts/setup.sh" >&2
    exit 1
fi
if [ "${1:-}" = run ]; then
    mkdir -p "$work/storyteller_dice"
    rm -rf "$work/storyteller_dice/rules" "$work/tests" "$work/bench"
    cp "$repo/storyteller_dice/__init__.py" "$work/storyteller_dice/"
    cp -r "$repo/rules" "$work/storyteller_dice/rules"
    cp -r "$repo/tests" "$repo/bench" "$work/"
    sed 's|^source_paths = \["rules/"\]|source_paths = ["storyteller_dice/rules/"]|;
         s|^also_copy = \["bench/"\]|also_copy = ["bench/", "storyteller_dice/__init__.py"]|' \
        "$repo/pyproject.toml" >"$work/pyproject.toml"
    grep -q '^source_paths = \["storyteller_dice/rules/"\]' "$work/pyproject.toml" || {
        echo "mutation: pyproject.toml's [tool.mutmut] source_paths is not [\"rules/\"]; update this script" >&2
        exit 1
    }
fi
cd "$work"
exec "$mutmut" "$@"
