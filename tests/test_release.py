"""
The release archives: `python -m build` makes the sdist and, from it, the wheel, and
`twine check --strict` passes both. Built from a copy of the repository's tracked files in a
temporary directory, so the checkout gets no build/ or egg-info and the sdist is shown to carry
everything its own build needs. Slow (a build environment is installed), hence e2e.
"""

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import storyteller_dice

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():  # (a tracked file deleted in the working tree is not copied)
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    out = source.parent / "dist"
    done = subprocess.run([sys.executable, "-m", "build", "-o", str(out), str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_twine_check_strict_passes(dist):
    files = sorted(str(path) for path in dist.iterdir())
    assert [Path(name).name for name in files] == [
        f"storyteller_dice-{storyteller_dice.__version__}-py3-none-any.whl",
        f"storyteller_dice-{storyteller_dice.__version__}.tar.gz"]
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_is_the_package_with_its_templates_and_static_files(dist):
    wheel = next(dist.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {name.split("/")[0] for name in names}
    assert tops == {"storyteller_dice", f"storyteller_dice-{storyteller_dice.__version__}.dist-info"}
    for name in ("storyteller_dice/rules/v5/__init__.py", "storyteller_dice/commands/whalefall/__init__.py",
                 "storyteller_dice/rolllog/migrations/0001_initial.py",
                 "storyteller_dice/rolllog/templatetags/dice_words.py",
                 "storyteller_dice/rolllog/templates/rolllog/roll_list.html",
                 "storyteller_dice/rolllog/static/rolllog/rolllog.css",
                 "storyteller_dice/rolllog/static/storyteller_dice/dice_panel.js",
                 "storyteller_dice/rolllog/panel_templates/webclient/base.html",
                 "storyteller_dice/rolllog/panel_templates/404.html",
                 "storyteller_dice/rolllog/panel_templates/website/registration/register.html",
                 f"storyteller_dice-{storyteller_dice.__version__}.dist-info/licenses/LICENSE"):
        assert name in names


def test_the_sdist_has_the_docs_and_not_the_tests(dist):
    sdist = next(dist.glob("*.tar.gz"))
    with tarfile.open(sdist) as archive:
        tops = {name.split("/")[1] for name in archive.getnames() if name.count("/") >= 1}
    assert {"docs", "rules", "commands", "typeclasses", "rolllog", "storyteller_dice", "LICENSE",
            "CHANGELOG.md", "README.md", "pyproject.toml"} <= tops
    assert not tops & {"tests", "game", "bench", "scripts", ".ci"}


def test_the_wheel_carries_every_template_and_static_file_of_the_roll_log(dist):
    """Package data is listed by pattern in pyproject.toml: a template added in a new folder
    must not be left out of the release."""
    wheel = next(dist.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", "rolllog"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    data = [name for name in tracked if not name.endswith(".py") and (ROOT / name).is_file()]
    assert data and [name for name in data if f"storyteller_dice/{name}" not in names] == []
