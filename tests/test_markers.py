"""
The `database` marker picks the tests CI runs a second time on PostgreSQL (.ci/run): each such
module says so with `pytestmark`. Checked here from the files: the record's and pending
state's tests are marked, the pure rules tests are not, and the marker is declared.

The `rules` marker is the pure rules tests, the folder tests/rules/ (its conftest.py marks them
and refuses a module that imports more): mutation testing selects them by that folder and
marker, never by file names.
"""

import re
import tomllib
from pathlib import Path

from tests.rules.conftest import impure_imports

TESTS = Path(__file__).resolve().parent
MARKED = re.compile(r"^pytestmark = .*\bpytest\.mark\.database\b", re.M)


def marked():
    return sorted(str(path.relative_to(TESTS)) for path in TESTS.rglob("test_*.py")
                  if MARKED.search(path.read_text()))


def test_the_marker_is_declared():
    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(line.startswith("database: ") for line in config["markers"])


def test_the_records_tests_are_marked():
    names = marked()
    for pattern in ("test_rolllog*.py", "test_pending_*.py", "test_database.py", "e2e/test_record.py",
                    "e2e/test_database.py", "e2e/test_server_databases.py"):
        for path in TESTS.glob(pattern):
            assert str(path.relative_to(TESTS)) in names, path


def test_the_pure_tests_are_not_marked():
    names = marked()
    assert [name for name in names if name.startswith(("rules/", "test_rules_", "e2e/test_web"))
            or name.endswith(("_odds.py", "_web.py"))] == []


def test_the_rules_marker_is_declared():
    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(line.startswith("rules: ") for line in config["markers"])


def test_mutation_testing_runs_the_rules_folder_by_its_marker():
    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert config["pytest_add_cli_args_test_selection"] == ["tests/rules/"]
    args = config["pytest_add_cli_args"]
    assert args[args.index("-m") + 1] == "rules"
    # No file-name globs: a pure test is one by where it is, not by what it is called.
    assert not [arg for arg in args if "python_files" in arg or arg.startswith("--ignore")]


def test_the_rules_tests_are_pure():
    assert sorted(path.name for path in (TESTS / "rules").glob("test_*.py"))  # a reader that found none
    for path in sorted((TESTS / "rules").glob("*.py")):
        assert impure_imports(path) == [], path


def test_purity_is_read_through_the_helpers(tmp_path):
    # An import of the game, directly or through a helper of tests/, is found; the rules, the
    # standard library and the pure libraries are not.
    sample = tmp_path / "test_sample.py"
    sample.write_text("import random\nimport icepool\nfrom storyteller_dice.rules import v5\n"
                      "from tests import import_graph\nfrom tests.test_engine_contract import sent\n"
                      "def later():\n    from storyteller_dice.commands import rolls\n")
    found = impure_imports(sample)
    assert f"{sample}:7: storyteller_dice.commands.rolls" in found
    assert [line for line in found if line.startswith("tests/test_engine_contract.py:")]
    assert not [line for line in found if "random" in line or "icepool" in line or ".rules." in line
                or "import_graph" in line]


def test_every_rules_test_is_marked(request):
    rules = [item for item in request.session.items if (TESTS / "rules") in item.path.parents]
    assert all(item.get_closest_marker("rules") is not None for item in rules)
