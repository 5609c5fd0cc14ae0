"""
Load bench: a busy scene on a real server. N telnet players in one room, `say` against
`+check` and `+roll` in the same run, and (with --scene) the other commands a scene uses.

Run from the repository root:

    .venv/bin/python bench/bench_scene.py --clients 10,50 [--rounds 20] [--scene] [--json]
    scripts/with_postgres.sh .venv/bin/python bench/bench_scene.py --clients 50

Each (system, client count) gets its own server, started as the end-to-end tests start theirs
(tests/e2e/harness.py: spare loopback ports, a throwaway SQLite database, or a PostgreSQL one
under scripts/with_postgres.sh), with bench_settings.py lifting Evennia's per-second limits on
new connections and commands. N players are created over telnet (their characters all start
in the same room) and set Dexterity 2 and Athletics 2 on their own sheets.

Two ways of loading the game:

- **Closed loop** (`say`, `+check`, `+roll`): every player sends its next command as soon as
  its own previous one has come back (its echo found by a token unique to the player and the
  round), for --rounds rounds, all players at once: the game's throughput under a scene that
  keeps it busy. Each command is reported with answered/s, p50 and p99 latency (send to the
  sender's own answer), the Server's CPU per command, and their ratios to `say`'s in the same
  run.
- **Waves** (--scene): the players pair up (challenger and answerer, leader and helper); in
  each round every pair's first player sends at once, all answers are awaited, then the next
  step (e.g. `+contest/answer`) goes out the same way. A wave's CPU belongs to one command, so
  every command of a contest or teamwork roll gets its own cost. Each is reported against a
  `+roll` wave sent by the same players in the same run (the limit: 2x).

Server CPU is the Server process's utime + stime (/proc/<pid>/stat) over a phase, divided by
the commands answered in it; the Portal's is in the JSON. A PostgreSQL backend's own CPU is
not included. Every wait is bounded (--timeout per command, --deadline per server): a command
never answered is counted as unanswered, never waited for forever. Only loopback addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "tests" not in sys.modules:
    # Run as a script: `tests.*` and `bench.*` from the repository, first, since django-sekizai
    # installs a top-level `tests` package of its own. Under pytest the repository's `tests` is
    # already imported, and the root must not go first there: its `typeclasses/` folder would
    # then shadow the demo game's for every test that imports Evennia's typeclasses later.
    sys.path.insert(0, str(ROOT))

from tests.e2e.harness import (  # noqa: E402
    DO, IAC, SB, SE, WILL, GameServer, TelnetClient, on_throwaway_postgres, strip_ansi, telnet_decode,
)

NAWS = 31

CODE = "[code "  # every roll's message ends with its record code
WARM_UP_PHASE = 999  # the untimed warm-up's tokens, apart from every measured phase's
SETTLE = 0.3  # seconds after a phase for the last messages to arrive (and their CPU to count)
STEP_SETTLE = 0.05  # the same between the steps of a wave
TRAITS = ("dex", "Dexterity"), ("athletics", "Athletics")

# ---------------------------------------------------------------------------------------------
# What is measured: each command's line and the markers that show its sender the answer
# ---------------------------------------------------------------------------------------------


def say_step(client, token):
    return f"say hello {token}", [token]


def check_step(client, token):
    return f"+check 5 vs 2 # {token}", [token, CODE]


def roll_step(client, token):
    return f"+roll dex+athletics+2 vs 2 # {token}", [token, CODE]


CLOSED_LOOP = {"say": ("say hello <t>", say_step),
               "check": ("+check 5 vs 2 # <t>", check_step),
               "roll": ("+roll dex+athletics+2 vs 2 # <t>", roll_step)}


@dataclass
class Step:
    """One wave step: `actor` ("a" or "b" of each pair) sends `line(pair, token)` and waits for
    `markers(pair, token)`; the other player of the pair (if `side`) waits for `side(...)`
    before the step ends, so that the next step starts from what they have seen."""

    label: str
    actor: str
    line: object
    markers: object
    side: object = None


ROLL_WAVE = [Step("+roll (wave)", "a", lambda p, t: roll_step(p.a, t)[0], lambda p, t: roll_step(p.a, t)[1])]

# The challenge and the teamwork roll's opening carry no record code: each ends with the
# command that answers it.
CHALLENGE_END = "minutes)"
TEAM_END = "teamwork/join"

SCENE = {
    "rouse": ("v5", [Step("+rouse", "a", lambda p, t: "+rouse",
                          lambda p, t: [f"[Rouse] {p.a.name} makes", CODE])]),
    "contest": ("v5", [
        Step("+contest <pool> vs <name>", "a", lambda p, t: f"+contest dex+athletics vs {p.b.name} # {t}",
             lambda p, t: [t, CHALLENGE_END], side=lambda p, t: [t, CHALLENGE_END]),
        Step("+contest/answer", "b", lambda p, t: "+contest/answer wits+athletics", lambda p, t: [t, CODE]),
    ]),
    "teamwork": ("v5", [
        Step("+teamwork <pool> vs 3", "a", lambda p, t: f"+teamwork dex+athletics vs 3 # {t}",
             lambda p, t: [t, TEAM_END], side=lambda p, t: [t, TEAM_END]),
        Step("+teamwork/join", "b", lambda p, t: f"+teamwork/join {p.a.name}=dex+athletics",
             lambda p, t: [f"{p.b.name} joins with"], side=lambda p, t: [f"{p.b.name} joins with"]),
        Step("+teamwork/roll", "a", lambda p, t: "+teamwork/roll", lambda p, t: [t, CODE]),
    ]),
    "multi": ("v20", [Step("+roll/multi <pool>, <pool>", "a",
                           lambda p, t: f"+roll/multi dex+athletics, dex+athletics # {t}",
                           lambda p, t: [t, f"{p.a.name} rolls action 2 of 2", CODE])]),
    "resist": ("seyruun", [Step("+resist <pool> vs 3", "a", lambda p, t: f"+resist dex+athletics vs 3 # {t}",
                                lambda p, t: [t, CODE])]),
}
# Rouse checks raise Hunger, which the other commands would then roll: they go last.
SCENE_ORDER = ("contest", "teamwork", "multi", "resist", "rouse")


def progress(text):
    """A line on stderr: a run takes minutes, and stdout may be the JSON."""
    print(f"bench_scene {time.strftime('%H:%M:%S')}: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The clients
# ---------------------------------------------------------------------------------------------


class SceneClient:
    """
    One logged-in player on an asyncio connection (the socket of a harness TelnetClient that
    created the account). A reader task decodes everything received (telnet options refused
    as the harness does, ANSI removed) and matches it against the markers of the one wait in
    progress: each marker must come after the previous one, so `[token, "[code "]` is the
    record code of the message that carries the token. Text before a marker it waits for is
    dropped as it comes, so the buffer stays small however much the room says.
    """

    def __init__(self, index, name, reader, writer):
        self.index, self.name = index, name
        self.reader, self.writer = reader, writer
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._raw = b""
        self._text = ""
        self._markers: list[str] = []
        self._done: asyncio.Future | None = None
        self._task = asyncio.create_task(self._pump())

    async def _pump(self):
        while True:
            try:
                data = await self.reader.read(65536)
            except (ConnectionError, OSError):
                data = b""
            if not data:
                break
            text, replies, self._raw = telnet_decode(self._raw + data)
            if replies:
                self.writer.write(replies)
            self._text += self._decoder.decode(text)
            self._advance()

    def _advance(self):
        if self._done is None or self._done.done():
            return
        if "\x1b" in self._text:  # a colour code cut at the end of a chunk waits for the rest
            cut = self._text.rfind("\x1b")
            tail = self._text[cut:]
            if len(tail) >= 16 or strip_ansi(tail) != tail:
                tail = ""
            self._text = strip_ansi(self._text[: len(self._text) - len(tail)]) + tail
        while self._markers:
            marker = self._markers[0]
            found = self._text.find(marker)
            if found < 0:
                self._text = self._text[-max(len(marker), 16):]  # a marker (or colour code) cut in two
                return
            self._text = self._text[found + len(marker):]
            self._markers.pop(0)
        self._done.set_result(time.perf_counter())

    def expect(self, markers):
        """Start waiting for `markers` (before sending, so the answer cannot come first)."""
        self._markers = list(markers)
        self._done = asyncio.get_running_loop().create_future()
        self._advance()

    async def result(self, timeout):
        """When the markers were all seen (perf_counter), or None if not within `timeout`."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._done), max(timeout, 0.01))
        except asyncio.TimeoutError:
            return None
        finally:
            self._markers = []

    def send(self, line):
        self.writer.write(line.encode("utf-8") + b"\r\n")
        return time.perf_counter()

    def clear(self):
        self._text = ""

    async def close(self):
        self._task.cancel()
        self.writer.close()


class SizedTelnetClient(TelnetClient):
    """The harness's client, but it answers the server's DO NAWS with a window `width` columns
    wide (every other option is still refused), so the room holds screens of several widths."""

    def __init__(self, host, port, width, timeout):
        self.width = width
        super().__init__(host, port, timeout=timeout)

    def _feed(self, data):
        ask = bytes([IAC, DO, NAWS])
        if ask in data:
            data = data.replace(ask, b"", 1)
            size = self.width.to_bytes(2, "big") + (50).to_bytes(2, "big")  # widths < 255: no IAC byte
            self.sock.sendall(bytes([IAC, WILL, NAWS, IAC, SB, NAWS]) + size + bytes([IAC, SE]))
        super()._feed(data)


def _log_in(server, index, password, widths):
    """Create a player over telnet (harness client) and set its sheet; returns its socket."""
    name = f"Bench{index:03d}"
    if widths:
        client = SizedTelnetClient(server.host, server.telnet_port, widths[index % len(widths)], timeout=120)
    else:
        client = server.client(timeout=120)
    client.wait_for_connection_screen()
    client.create_and_connect(name, password)
    for key, trait in TRAITS:
        client.command(f"+stat {key}=2", f"Your {trait} is now 2")
    return name, client.sock


async def connect_all(server, count, widths):
    """`count` players logged in, in one room, as SceneClients."""
    password = secrets.token_urlsafe(10)
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=min(count, 20)) as pool:
        made = await asyncio.gather(*(loop.run_in_executor(pool, _log_in, server, i, password, widths)
                                      for i in range(count)))
    clients = []
    for index, (name, sock) in enumerate(made):
        sock.setblocking(False)
        reader, writer = await asyncio.open_connection(sock=sock)
        clients.append(SceneClient(index, name, reader, writer))
    return clients


# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (0.0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError, TypeError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    def __init__(self, server):
        self.pids = {"server": server.server_pid, "portal": server.portal_pid}

    def read(self):
        return {name: cpu_seconds(pid) for name, pid in self.pids.items()}


@dataclass
class Tally:
    """What one command got in a run: latencies (s), sent, time spent and CPU used."""

    label: str
    latencies: list = field(default_factory=list)
    sent: int = 0
    skipped: int = 0  # not sent: an earlier command of the same player (or wave) went unanswered
    seconds: float = 0.0
    cpu: dict = field(default_factory=lambda: {"server": 0.0, "portal": 0.0})

    def add_cpu(self, before, after):
        for name in self.cpu:
            self.cpu[name] += after[name] - before[name]

    def merged(self, other):
        """This tally and another of the same command (a later pass), as one."""
        return Tally(self.label, self.latencies + other.latencies, self.sent + other.sent,
                     self.skipped + other.skipped, self.seconds + other.seconds,
                     {name: self.cpu[name] + other.cpu[name] for name in self.cpu})

    def summary(self):
        answered = len(self.latencies)
        ms = sorted(value * 1000 for value in self.latencies)
        per = (lambda total: total * 1000 / answered) if answered else (lambda total: None)
        return {
            "command": self.label, "sent": self.sent, "answered": answered,
            "unanswered": self.sent - answered, "not_sent": self.skipped,
            "answered_per_s": answered / self.seconds if self.seconds else None,
            "p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99),
            "server_cpu_ms": per(self.cpu["server"]), "portal_cpu_ms": per(self.cpu["portal"]),
            "seconds": self.seconds,
        }


def percentile(sorted_values, pct):
    """Nearest-rank percentile (None for no values)."""
    if not sorted_values:
        return None
    rank = max(1, -(-len(sorted_values) * pct // 100))
    return sorted_values[int(rank) - 1]


def token(phase, index, round_no):
    # The letters on both sides keep one token from being the start of another (c1r1 / c11r1).
    return f"q{phase}c{index}r{round_no}z"


async def exchange(client, line, markers, timeout):
    client.expect(markers)
    sent = client.send(line)
    seen = await client.result(timeout)
    return None if seen is None else seen - sent


async def closed_loop(clients, name, phase, rounds, limits, meter):
    """Every client sends its next command as soon as its previous one came back."""
    label, step = CLOSED_LOOP[name]
    tally = Tally(label)

    async def player(client):
        for round_no in range(rounds):
            remaining = limits.remaining()
            line, markers = step(client, token(phase, client.index, round_no))
            latency = None
            if remaining > 0:
                tally.sent += 1
                latency = await exchange(client, line, markers, min(limits.per_command, remaining))
            if latency is None:  # a game that stopped answering is not waited for 20 times over
                tally.skipped += rounds - round_no - (remaining > 0)
                return
            tally.latencies.append(latency)

    before, started = meter.read(), time.perf_counter()
    await asyncio.gather(*(player(client) for client in clients))
    tally.seconds = time.perf_counter() - started
    await settle(clients, SETTLE)
    tally.add_cpu(before, meter.read())
    return tally


async def settle(clients, seconds):
    await asyncio.sleep(seconds)
    for client in clients:
        client.clear()


@dataclass
class Pair:
    a: SceneClient
    b: SceneClient


async def run_step(pairs, step, tok, limits, meter, tally):
    """One wave: every pair's actor sends at once; wait for all the answers (bounded)."""
    timeout = min(limits.per_command, limits.remaining())
    if timeout <= 0:
        return
    sides = []
    for pair in pairs:
        other = pair.b if step.actor == "a" else pair.a
        if step.side is not None:
            other.expect(step.side(pair, tok(pair)))
            sides.append(other)
    before, started = meter.read(), time.perf_counter()

    async def act(pair):
        actor = pair.a if step.actor == "a" else pair.b
        tally.sent += 1
        return await exchange(actor, step.line(pair, tok(pair)), step.markers(pair, tok(pair)), timeout)

    latencies = await asyncio.gather(*(act(pair) for pair in pairs))
    await asyncio.gather(*(side.result(max(0.01, started + timeout - time.perf_counter())) for side in sides))
    tally.seconds += time.perf_counter() - started
    await asyncio.sleep(STEP_SETTLE)
    tally.add_cpu(before, meter.read())
    tally.latencies.extend(value for value in latencies if value is not None)


async def waves(clients, steps, phase, rounds, limits, meter):
    """`rounds` rounds of the steps, each a wave of every pair (an odd player out watches)."""
    pairs = [Pair(clients[i], clients[i + 1]) for i in range(0, len(clients) - 1, 2)]
    tallies = [Tally(step.label) for step in steps]
    for round_no in range(rounds):
        def tok(pair, round_no=round_no):
            return token(phase, pair.a.index, round_no)
        for step, tally in zip(steps, tallies):
            await run_step(pairs, step, tok, limits, meter, tally)
        if any(tally.sent > len(tally.latencies) for tally in tallies) or limits.remaining() <= 0:
            for tally in tallies:  # the rest of the rounds would wait out every timeout again
                tally.skipped += len(pairs) * (rounds - round_no - 1)
            break
    await settle(clients, SETTLE)
    return tallies


class Limits:
    """The per-command timeout and the deadline of one server's whole run."""

    def __init__(self, per_command, total):
        self.per_command = per_command
        self.deadline = time.monotonic() + total

    def remaining(self):
        return self.deadline - time.monotonic()


# ---------------------------------------------------------------------------------------------
# One server: start, log in, measure, stop
# ---------------------------------------------------------------------------------------------


def scene_phases(system, names):
    return [name for name in SCENE_ORDER if name in names and SCENE[name][0] == system]


async def measure(server, args, count, system):
    """All phases on a running server; returns (closed-loop tallies, wave tallies)."""
    limits = Limits(args.timeout, args.deadline)
    progress(f"{system}: {count} players logging in")
    clients = await connect_all(server, count, args.widths)
    meter = CpuMeter(server)
    try:
        await settle(clients, 1.0)  # the "has entered the game" lines of everyone's login
        if args.warm_up:
            # One untimed roll each: a character's first roll creates its kept state (the
            # +willpower window's Attribute, an insert of its own), which every later one updates.
            await closed_loop(clients, "roll", WARM_UP_PHASE, 1, limits, meter)
        loop_tallies = {}
        each_pass = []  # [[tally of each command] for each pass]: the passes one by one too
        phase = 0
        for _ in range(args.passes):  # in turn, so a change of the machine's load hits each alike
            each_pass.append([])
            for name in args.commands:
                tally = await closed_loop(clients, name, phase, args.rounds, limits, meter)
                phase += 1
                progress(f"{system}: {tally.label}: {tally.seconds:.1f} s")
                each_pass[-1].append(tally)
                loop_tallies[name] = loop_tallies[name].merged(tally) if name in loop_tallies else tally
        loop_tallies = list(loop_tallies.values())
        wave_tallies = []
        scene = scene_phases(system, args.scene)
        if scene:
            wave_tallies += await waves(clients, ROLL_WAVE, phase, args.rounds, limits, meter)
            for offset, name in enumerate(scene, start=1):
                wave_tallies += await waves(clients, SCENE[name][1], phase + offset, args.rounds, limits, meter)
                progress(f"{system}: {name} waves done")
        return loop_tallies, wave_tallies, each_pass
    finally:
        for client in clients:
            await client.close()


# Lines of the game's logs that say why commands went unanswered.
LOG_ALARMS = ("Traceback", "disconnected from the portal", "should not receive http", "AMP Error")


LOGS = ("server.log", "portal.log")


def log_sizes(server):
    """Where the logs end now: the first start's own restart logs a disconnection too."""
    return {name: (server.log_dir / name).stat().st_size if (server.log_dir / name).exists() else 0
            for name in LOGS}


def log_alarms(server, since, limit=10):
    """The first `limit` alarming lines the Server and Portal logged after `since` (log_sizes)."""
    found = []
    for name in LOGS:
        path = server.log_dir / name
        text = path.read_bytes()[since[name]:].decode(errors="replace") if path.exists() else ""
        found += [f"{name}: {line[:300]}" for line in text.splitlines() if any(a in line for a in LOG_ALARMS)]
    return found[:limit]


def stop_server(server, system):
    """Stop the server; a throwaway database that would not drop (PostgreSQL refused to end
    one of its own processes still on it) is reported, and the figures measured still stand."""
    try:
        server.stop()
    except RuntimeError as error:
        progress(f"{system}: stopping the server: {str(error).splitlines()[-1]}")


def run_one(args, count, system):
    """Start a server for `system`, measure `count` players on it, stop it."""
    run_dir = Path(tempfile.mkdtemp(prefix=f"bench-scene-{system}-{count}-"))
    server = GameServer(run_dir=run_dir, settings_file=args.settings,
                        extra_env={"DICE_SYSTEM": system})
    measured = False
    try:
        progress(f"{system}: starting a server for {count} players in {run_dir}")
        server.start()
        since = log_sizes(server)
        loop_tallies, wave_tallies, each_pass = asyncio.run(measure(server, args, count, system))
        alarms = log_alarms(server, since)
        measured = not alarms
    finally:
        stop_server(server, system)
        writer = writer_line(server)
        if measured:
            shutil.rmtree(run_dir, ignore_errors=True)  # a success leaves nothing behind
        else:
            progress(f"{system}: the server's logs are kept in {run_dir / 'logs'}")
    return {
        "system": system, "clients": count, "rounds": args.rounds, "passes": args.passes, "widths": args.widths or [80],
        "database": "PostgreSQL" if on_throwaway_postgres() else "SQLite",
        "closed_loop": with_ratios([t.summary() for t in loop_tallies], CLOSED_LOOP["say"][0]),
        "closed_loop_passes": ([with_ratios([t.summary() for t in tallies], CLOSED_LOOP["say"][0])
                                for tallies in each_pass] if len(each_pass) > 1 else []),
        "waves": with_ratios([t.summary() for t in wave_tallies], ROLL_WAVE[0].label),
        "writer": writer,
        "log_alarms": alarms,
    }


def writer_line(server):
    """What the Server logged at its stop of the roll writer's group commits (or None)."""
    path = server.log_dir / "server.log"
    text = path.read_text(errors="replace") if path.exists() else ""
    found = [line for line in text.splitlines() if "storyteller_dice: the writer stored" in line]
    return found[-1].split("storyteller_dice: ", 1)[1] if found else None


RATIO_KEYS = ("answered_per_s", "p50_ms", "p99_ms", "server_cpu_ms")


def with_ratios(rows, baseline_label):
    """Each row gets `ratio` (its figure / the baseline's, None when either is missing)."""
    base = next((row for row in rows if row["command"] == baseline_label), None)
    for row in rows:
        row["baseline"] = baseline_label if base else None
        row["ratio"] = {key: (row[key] / base[key] if base and row[key] and base[key] else None)
                        for key in RATIO_KEYS}
    return rows


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------


def _num(value, spec, unit=""):
    return "-" if value is None else format(value, spec) + unit


def format_table(result):
    """The run as Markdown tables (closed loop, then waves), with the ratios."""
    widths = "/".join(str(n) for n in result.get("widths", [80]))
    passes = result.get("passes", 1)
    rounds = f"{result['rounds']} rounds" + (f" x {passes} passes" if passes > 1 else "")
    head = (f"### {result['system']}, {result['clients']} clients, {rounds}, "
            f"{result['database']}, {widths} columns, commit {result.get('commit', '?')}")
    lines = [head]
    tables = [("closed loop, ratios to `say`", result["closed_loop"])]
    tables += [(f"closed loop, pass {number} alone", rows)
               for number, rows in enumerate(result.get("closed_loop_passes") or [], start=1)]
    tables.append(("waves, ratios to a `+roll` wave", result["waves"]))
    for title, rows in tables:
        if not rows:
            continue
        lines += ["", f"{title}:", "",
                  "| command | answered/s | p50 | p99 | Server CPU/cmd | x thr | x p50 | x p99 | x CPU | unanswered |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for row in rows:
            ratio = row["ratio"]
            lines.append(
                f"| `{row['command']}` | {_num(row['answered_per_s'], '.1f')} | {_num(row['p50_ms'], ',.0f', ' ms')} "
                f"| {_num(row['p99_ms'], ',.0f', ' ms')} | {_num(row['server_cpu_ms'], '.1f', ' ms')} "
                f"| {_num(ratio['answered_per_s'], '.2f')} | {_num(ratio['p50_ms'], '.2f')} "
                f"| {_num(ratio['p99_ms'], '.2f')} | {_num(ratio['server_cpu_ms'], '.2f')} "
                f"| {row['unanswered']} of {row['sent']}{not_sent(row)} |")
    if result.get("writer"):
        lines.append(f"\nThe Server at its stop: {result['writer']}")
    for alarm in result.get("log_alarms", []):
        lines.append(f"\nIn the game's logs: {alarm}")
    return "\n".join(lines)


def not_sent(row):
    return f" ({row['not_sent']} not sent)" if row.get("not_sent") else ""


def commit():
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"
    return (out or "?") + ("+dirty" if dirty else "")


def names(text, allowed, what):
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in allowed]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown {what}: {', '.join(unknown)} (known: {', '.join(allowed)})")
    return chosen


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="10,50", help="player counts, one server each (default 10,50)")
    parser.add_argument("--rounds", type=int, default=20, help="commands per player per command (default 20)")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="measure each character's first roll too (by default every player rolls once, "
                             "untimed, before the phases: the first roll creates its +willpower window)")
    parser.add_argument("--passes", type=int, default=1,
                        help="run the closed-loop commands this many times in turn (say, check, roll, say, ...), "
                             "--rounds each time, and report each command's passes together (default 1)")
    parser.add_argument("--commands", default="say,check,roll",
                        type=lambda text: names(text, CLOSED_LOOP, "command"),
                        help="closed-loop commands: say,check,roll (default all; say is the baseline)")
    parser.add_argument("--scene", nargs="?", const=",".join(SCENE_ORDER), default="",
                        type=lambda text: names(text, SCENE, "scene command"),
                        help="also the scene commands, as waves (default all of the system's: "
                             + ", ".join(f"{name} ({SCENE[name][0]})" for name in SCENE_ORDER) + ")")
    parser.add_argument("--system", default=None,
                        help="dice systems, one server each (default v5, plus v20 and seyruun with --scene)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a command may take (default 60)")
    parser.add_argument("--deadline", type=float, default=1200.0,
                        help="seconds for all of one server's phases (default 1200)")
    parser.add_argument("--widths", default="",
                        help="screen widths the clients report (NAWS), in turn, e.g. 80,100,120 "
                             "(default: none reported, so every screen is the game's 80 columns)")
    parser.add_argument("--settings", default="bench_settings.py",
                        help="the game's settings file in game/server/conf/ (default bench_settings.py; "
                             "e2e_settings.py keeps Evennia's limits on connections and commands per second)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of tables")
    args = parser.parse_args(argv)
    args.clients = [int(n) for n in args.clients.split(",") if n.strip()]
    args.widths = [int(n) for n in args.widths.split(",") if n.strip()]
    if any(not 20 <= n <= 250 for n in args.widths):
        parser.error("--widths: 20 to 250 columns")
    if any(n < 2 for n in args.clients):
        parser.error("--clients: at least 2 players (the waves need pairs)")
    if args.system is None:
        args.system = ["v5"]
        for name in args.scene:
            if SCENE[name][0] not in args.system:
                args.system.append(SCENE[name][0])
    else:
        args.system = [name.strip() for name in args.system.split(",") if name.strip()]
    return args


def main(argv=None):
    args = parse_args(argv)
    measured = commit()  # before the runs: the code the servers start from
    results = []
    for system in args.system:
        for count in args.clients:
            result = run_one(args, count, system)
            result["commit"] = measured
            results.append(result)
            if not args.json:
                print(format_table(result) + "\n", flush=True)
    if args.json:
        print(json.dumps({"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                          "runs": results}, indent=2))
    unanswered = sum(row["unanswered"] + row["not_sent"] for result in results
                     for row in result["closed_loop"] + result["waves"])
    return 1 if unanswered or any(result["log_alarms"] for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
