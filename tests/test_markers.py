"""
The `database` marker picks the tests CI runs a second time on PostgreSQL (.ci/run): each such
module says so with `pytestmark`. Checked here from the files: the record's and pending
state's tests are marked, the pure rules tests are not, and the marker is declared.
"""

import re
import tomllib
from pathlib import Path

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
    assert [name for name in names if name.startswith(("test_rules_", "e2e/test_web"))
            or name.endswith(("_odds.py", "_web.py"))] == []
