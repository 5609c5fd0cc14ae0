"""
The load bench's own pieces (bench/bench_scene.py), without a server: how a client finds its
own answer among everything the room says, and the figures it reports.
"""

import asyncio

from bench import bench_scene
from bench.bench_scene import SceneClient, percentile, with_ratios


class _Writer:
    def __init__(self):
        self.sent = b""

    def write(self, data):
        self.sent += data

    def close(self):
        pass


async def _seen(chunks, markers):
    """Feed `chunks` to a client waiting for `markers`; True if the wait ended."""
    reader = asyncio.StreamReader()
    writer = _Writer()
    client = SceneClient(0, "Bench000", reader, writer)
    client.expect(markers)
    for chunk in chunks:
        reader.feed_data(chunk)
        await asyncio.sleep(0)
    done = await client.result(0.2) is not None
    await client.close()
    return done, writer.sent


def test_the_code_must_follow_the_own_token():
    # Another player's code before this player's token does not count; a marker split across
    # chunks, a colour code split across chunks and a telnet option offer are all handled.
    chunks = [b"[Roll] Bench001 rolls # q2c1r0z\r\n  Dice: 5 => [code AAAA]\r\n",
              b"\xff\xfb\x01[Roll] Bench000 rolls # q2c0r0z\r\n  Dice: 7 =>  \x1b[1",
              b"m[co", b"de BBBB]"]
    done, sent = asyncio.run(_seen(chunks, ["q2c0r0z", "[code "]))
    assert done
    assert sent == b"\xff\xfe\x01"  # WILL ECHO refused: DONT ECHO


def test_no_answer_is_not_seen():
    chunks = [b"[Roll] Bench001 rolls # q2c1r0z [code AAAA]\r\n", b"You say, \"hello q2c10r0z\"\r\n"]
    assert asyncio.run(_seen(chunks, ["q2c1r0z"]))[0] is True
    assert asyncio.run(_seen(chunks, ["q2c0r0z", "[code "]))[0] is False
    # A token is never the start of another's: c1r0 is not found in c10r0.
    assert asyncio.run(_seen(chunks[1:], ["q2c1r0z"]))[0] is False


def test_percentiles_and_ratios():
    assert percentile([], 50) is None
    assert percentile([10, 20, 30, 40], 50) == 20
    assert percentile(list(range(1, 101)), 99) == 99
    assert percentile([5], 99) == 5
    rows = [{"command": "say", "answered_per_s": 100.0, "p50_ms": 400.0, "p99_ms": 600.0, "server_cpu_ms": 2.0},
            {"command": "+roll", "answered_per_s": 40.0, "p50_ms": 1200.0, "p99_ms": 1500.0, "server_cpu_ms": None}]
    with_ratios(rows, "say")
    assert rows[1]["ratio"] == {"answered_per_s": 0.4, "p50_ms": 3.0, "p99_ms": 2.5, "server_cpu_ms": None}
    assert rows[0]["ratio"]["p99_ms"] == 1.0


def test_the_scene_commands_belong_to_their_systems():
    args = bench_scene.parse_args(["--scene"])
    assert args.system == ["v5", "v20", "seyruun"]
    assert bench_scene.scene_phases("v20", args.scene) == ["multi"]
    assert bench_scene.scene_phases("v5", args.scene) == ["contest", "teamwork", "rouse"]
    assert bench_scene.parse_args([]).system == ["v5"]


class _NoCpu:
    def read(self):
        return {"server": 0.0, "portal": 0.0}


def test_a_game_that_stops_answering_is_not_waited_for_every_round():
    async def run():
        clients = [SceneClient(i, f"Bench{i:03d}", asyncio.StreamReader(), _Writer()) for i in range(2)]
        limits = bench_scene.Limits(per_command=0.05, total=5)
        tally = await bench_scene.closed_loop(clients, "roll", 0, 20, limits, _NoCpu())
        for client in clients:
            await client.close()
        return tally.summary()

    summary = asyncio.run(run())
    assert (summary["sent"], summary["answered"], summary["unanswered"], summary["not_sent"]) == (2, 0, 2, 38)
    assert summary["p50_ms"] is None and summary["server_cpu_ms"] is None


def test_passes_of_one_command_are_reported_together():
    first = bench_scene.Tally("say", [0.1, 0.3], sent=2, seconds=1.0, cpu={"server": 0.01, "portal": 0.02})
    second = bench_scene.Tally("say", [0.2], sent=2, skipped=1, seconds=0.5, cpu={"server": 0.02, "portal": 0.0})
    row = first.merged(second).summary()
    assert (row["sent"], row["answered"], row["unanswered"], row["not_sent"]) == (4, 3, 1, 1)
    assert row["answered_per_s"] == 2.0 and row["seconds"] == 1.5
    assert round(row["server_cpu_ms"], 6) == 10.0 and row["p50_ms"] == 200.0
    assert first.latencies == [0.1, 0.3]  # the passes themselves are left as they were
