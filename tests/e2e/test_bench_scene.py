"""
End to end: the load bench (bench/bench_scene.py) still drives a real server. Three players,
two rounds: every closed-loop command and every V5 scene step is answered, and the report
carries the figures and ratios docs/performance.md's table (Figures) is made from.
"""

import json
import subprocess
import sys

import pytest

from bench import bench_scene

from .harness import REPO_DIR

pytestmark = pytest.mark.e2e

CLIENTS, ROUNDS = 3, 2


def test_the_scene_bench_answers_every_command():
    run = subprocess.run(
        [sys.executable, "bench/bench_scene.py", "--clients", str(CLIENTS), "--rounds", str(ROUNDS),
         "--system", "v5", "--scene", "--timeout", "30", "--deadline", "120", "--json"],
        cwd=REPO_DIR, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (result,) = json.loads(run.stdout)["runs"]
    assert result["log_alarms"] == []

    loop = {row["command"]: row for row in result["closed_loop"]}
    assert list(loop) == ["say hello <t>", "+check 5 vs 2 # <t>", "+roll dex+athletics+2 vs 2 # <t>"]
    for row in loop.values():
        assert (row["sent"], row["answered"], row["unanswered"], row["not_sent"]) == (CLIENTS * ROUNDS, CLIENTS * ROUNDS, 0, 0)
        assert row["p50_ms"] > 0 and row["p99_ms"] >= row["p50_ms"] and row["answered_per_s"] > 0
        assert row["server_cpu_ms"] is not None and row["baseline"] == "say hello <t>"
    assert loop["say hello <t>"]["ratio"]["p50_ms"] == 1.0

    waves = {row["command"]: row for row in result["waves"]}
    assert list(waves) == ["+roll (wave)", "+contest <pool> vs <name>", "+contest/answer",
                           "+teamwork <pool> vs 3", "+teamwork/join", "+teamwork/roll", "+rouse"]
    pairs = CLIENTS // 2
    for row in waves.values():
        assert (row["sent"], row["unanswered"], row["not_sent"]) == (pairs * ROUNDS, 0, 0), row
        assert row["baseline"] == "+roll (wave)"

    table = bench_scene.format_table(result)
    assert "| `+roll dex+athletics+2 vs 2 # <t>` |" in table
    assert "| `+contest/answer` |" in table
    assert "0 of 6 |" in table
