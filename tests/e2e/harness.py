"""
End-to-end test harness: a real Evennia server on spare ports, and a telnet client.

`GameServer` runs the game from `game/` (the real settings, typeclasses and commands) with

- `GAME_PORT_BASE`: a free port base (telnet = base, web = base + 1, ..., AMP = base + 6),
- `TEST_DB_PATH`: a throwaway SQLite database in a temporary directory, or, inside
  scripts/with_postgres.sh, `PGDATABASE`: a PostgreSQL database of its own (see below),
- `GAME_RUN_DIR`: that temporary directory, for the log files, static files and (through a
  small wrapper around Evennia's launcher, see `_LAUNCHER`) the pid files,

so it never touches the development server's database, logs or pid files and can run beside
it.

On PostgreSQL every GameServer creates its own database (`e2e_<pid>_<random>`, with the role
scripts/with_postgres.sh made, which may create databases) and drops it in `stop()`. They used
to share with_postgres.sh's `evennia` database: the session's V5 server and a module's own
server (tests/e2e/systems.py) ran at the same time on one database, and the second server's
`evennia migrate` found it already set up (Account #1 made by the first) and failed (Evennia's
launcher then hands `migrate` to Django, see scripts/launcher.py). Each server also needs its
own accounts, superuser password and game objects, as each SQLite server has.

`TelnetClient` is a blocking-socket client (telnetlib is gone in Python 3.13) that refuses all
telnet option negotiation and strips ANSI colour codes.

Only the standard library is used here; the tests' conftest builds the `game_server` fixture
from `GameServer`.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]
GAME_DIR = REPO_DIR / "game"

# Evennia's launcher always writes its pid files to <game dir>/server/*.pid, which would clash
# with a development server started from the same game dir. scripts/launcher.py runs the
# launcher with the pid files moved to $GAME_RUN_DIR (run here with `python -c`).
_LAUNCHER = (REPO_DIR / "scripts" / "launcher.py").read_text()


def _load_gamectl():
    """scripts/gamectl.py (start, wait and probe logic shared with scripts/start.sh); scripts/
    is not a package, so it is loaded by path."""
    import importlib.util

    name = "storyteller_gamectl"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO_DIR / "scripts" / "gamectl.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look the module up while the class is made
    spec.loader.exec_module(module)
    return module


gamectl = _load_gamectl()

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]")

# The browser tests' Chromium: Debian's (never `playwright install`), headless.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
MXP = 91


def on_throwaway_postgres() -> bool:
    """True inside scripts/with_postgres.sh: the e2e server then runs on that PostgreSQL."""
    return os.environ.get("E2E_ON_POSTGRES") == "1" and os.environ.get("GAME_DB", "").lower() in (
        "postgres", "postgresql")


# Run with the game's Python (which has psycopg when GAME_DB=postgres), so this module stays
# standard library only. argv: create|drop|list, database name (list: the names' prefix). It
# connects to the database in the caller's PGDATABASE (with_postgres.sh's `evennia`), with the
# game settings' defaults.
_PG_ADMIN = """
import os, sys
import psycopg
from psycopg import sql

action, name = sys.argv[1:3]
env = os.environ.get
params = dict(dbname=env("PGDATABASE", "evennia"), user=env("PGUSER", "evennia"),
              password=env("PGPASSWORD", "evennia"), host=env("PGHOST", "localhost"),
              port=env("PGPORT", "5432"))
with psycopg.connect(autocommit=True, connect_timeout=10, **params) as conn:
    if action == "create":
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    elif action == "drop":
        # FORCE (PostgreSQL 13+): a Server process that outlived stop() must not keep it.
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
        conn.execute(drop.format(sql.Identifier(name)))
    elif action == "list":
        rows = conn.execute("SELECT datname FROM pg_database WHERE left(datname, %s) = %s ORDER BY 1",
                            (len(name), name))
        print(" ".join(row[0] for row in rows))
"""


def _pg_prefix() -> str:
    """How the names of this process's servers' PostgreSQL databases begin."""
    return f"e2e_{os.getpid()}_"


def postgres_admin(action: str, name: str = "", python: str = sys.executable) -> str:
    """Create or drop a database on the PostgreSQL the environment names, or (`list`) the
    names of this process's e2e databases there (`name`: another prefix than theirs); returns
    what it printed. This process's only: the other test worker's servers come and go at the
    same time."""
    if action == "list" and not name:
        name = _pg_prefix()
    result = subprocess.run(
        [python, "-c", _PG_ADMIN, action, name], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=60,
    )
    if result.returncode != 0:
        raise RuntimeError(f"PostgreSQL {action} {name} failed:\n{result.stderr[-2000:]}")
    return result.stdout


def telnet_decode(data: bytes, accept: frozenset = frozenset()) -> tuple[bytes, bytes, bytes]:
    """
    Split bytes received from the server into (text, replies, rest): the text without telnet
    commands, the replies that agree to the options in `accept` and refuse every other option
    offered or asked for (DONT/WONT), and an incomplete command at the end, to put before the
    next chunk. Sub-negotiations are dropped.
    Also used by bench/bench_scene.py's clients, which receive megabytes: plain text (no IAC
    byte at all, almost every chunk) skips the byte loop.
    """
    if IAC not in data:
        return data, b"", b""
    text = bytearray()
    replies = bytearray()
    i = 0
    while i < len(data):
        byte = data[i]
        if byte != IAC:
            text.append(byte)
            i += 1
            continue
        if i + 1 >= len(data):
            return bytes(text), bytes(replies), data[i:]
        cmd = data[i + 1]
        if cmd == IAC:  # escaped 255
            text.append(IAC)
            i += 2
        elif cmd in (DO, DONT, WILL, WONT):
            if i + 2 >= len(data):
                return bytes(text), bytes(replies), data[i:]
            opt = data[i + 2]
            if cmd == DO:
                replies += bytes([IAC, WILL if opt in accept else WONT, opt])
            elif cmd == WILL:
                replies += bytes([IAC, DO if opt in accept else DONT, opt])
            i += 3
        elif cmd == SB:
            end = data.find(bytes([IAC, SE]), i + 2)
            if end < 0:
                return bytes(text), bytes(replies), data[i:]
            i = end + 2
        else:  # GA, NOP, EOR, ...
            i += 2
    return bytes(text), bytes(replies), b""


def strip_ansi(text: str) -> str:
    """`text` without ANSI colour and cursor codes."""
    return _ANSI.sub("", text)


# ---------------------------------------------------------------------------------------------
# Ports
# ---------------------------------------------------------------------------------------------


def port_free(port: int) -> bool:
    """True if nothing listens on `port` (checked the way Twisted binds: SO_REUSEADDR)."""
    for host in ("0.0.0.0", "127.0.0.1"):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((host, port))
            except OSError:
                return False
    return True


def _ephemeral_start(default: int = 32768) -> int:
    """Where the system's ephemeral ports (those it gives outgoing connections) begin."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return default


def _worker_share(low: int, high: int) -> tuple[int, int]:
    """
    This pytest-xdist worker's own part of low..high (all of it outside xdist): two workers'
    servers start at the same time, and each could find the same ports free before either
    listens on them.
    """
    worker = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if worker is None or count < 2:
        return low, high
    share = (high - low) // count
    start = low + int(worker.group(1)) % count * share
    return start, start + share


def find_free_port_base(span: int = 7, low: int = 20000, high: int | None = None, tries: int = 200) -> int:
    """
    A port base such that base .. base + span - 1 are all free, below the ephemeral range: a
    port free when looked at but in that range can be taken by any outgoing connection (the
    other test worker's to PostgreSQL) before the server listens on it.
    """
    high = min(60000, _ephemeral_start()) if high is None else high
    low, high = _worker_share(low, high)
    rng = random.Random()
    for _ in range(tries):
        base = rng.randrange(low, high - span)
        if all(port_free(base + off) for off in range(span)):
            return base
    raise RuntimeError(f"no {span} consecutive free ports found in {low}..{high}")


def migrations_fingerprint() -> str | None:
    """
    A hash of every installed app's migration files, or None if Django is not set up in this
    process (under pytest, pytest-django has set it up with the test settings, whose apps are
    the game's). A database migrated with the same migrations can be reused.
    """
    try:
        from django.apps import apps
    except ImportError:
        return None
    if not apps.ready:
        return None
    digest = hashlib.sha256()
    for config in sorted(apps.get_app_configs(), key=lambda cfg: cfg.label):
        folder = Path(config.path) / "migrations"
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
            digest.update(f"{config.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def copy_sqlite(source, target) -> None:
    """
    A consistent copy of an SQLite database, through SQLite's backup API: the game keeps its
    database in write-ahead-log mode (game/server/conf/settings.py), where the newest pages may
    still be in the -wal file beside it, so copying the .db3 file alone could miss them.
    """
    Path(target).unlink(missing_ok=True)
    # mode=rw: a source that has gone meanwhile is an error, never a new empty database.
    source_uri = Path(source).resolve().as_uri() + "?mode=rw"
    with sqlite3.connect(source_uri, uri=True) as src, sqlite3.connect(str(target)) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


# ---------------------------------------------------------------------------------------------
# Telnet client
# ---------------------------------------------------------------------------------------------


def wrapped_text(text: str) -> re.Pattern:
    """A pattern for `text` as the game may wrap it: white space runs match any white space."""
    words = text.split()
    if not words:
        return re.compile(re.escape(text))
    lead = r"\s*" if text[:1].isspace() else ""
    return re.compile(lead + r"\s+".join(re.escape(word) for word in words))


class TelnetClient:
    """
    A line-oriented telnet client for tests.

        with TelnetClient(host, port) as client:
            client.read_until("Enter")            # connection screen
            client.send("connect admin secret")
            text = client.read_until(re.compile(r"You become \\w+"), timeout=10)

    Every option the server offers or asks for is refused (DONT/WONT), so the server falls back
    to plain text. Received text has ANSI codes removed and "\\r\\n" turned into "\\n";
    `transcript` keeps everything received, which helps when an assertion fails.
    """

    def __init__(self, host: str, port: int, timeout: float = 10.0, connect: bool = True,
                 accept: frozenset = frozenset()):
        self.host = host
        self.port = port
        self.timeout = timeout
        # Telnet options this client agrees to (e.g. {MXP}); every other one is refused.
        self.accept = frozenset(accept)
        # Every byte of text received, before decoding and before ANSI codes are removed.
        self.raw = bytearray()
        self.sock: socket.socket | None = None
        self._raw = b""  # bytes not yet decoded (a split IAC sequence or UTF-8 character)
        self._buffer = ""  # decoded text not yet returned by read_until
        self.transcript = ""
        if connect:
            self.connect()

    # -- connection -------------------------------------------------------------------------

    def connect(self) -> "TelnetClient":
        self.sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        return self

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock = None

    def __enter__(self) -> "TelnetClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- sending ----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Send one line of input (a command), adding the line ending."""
        data = line.encode("utf-8").replace(bytes([IAC]), bytes([IAC, IAC]))
        self.sock.sendall(data + b"\r\n")

    # -- receiving --------------------------------------------------------------------------

    def _feed(self, data: bytes) -> None:
        """Handle telnet commands in `data` (refusing options); add the text to the buffer."""
        text, replies, self._raw = telnet_decode(self._raw + data, self.accept)
        if replies and self.sock is not None:
            self.sock.sendall(bytes(replies))
        self.raw += text
        # Keep an incomplete UTF-8 character for the next chunk.
        raw_text = text
        for cut in range(1, 4):
            if len(raw_text) >= cut and (raw_text[-cut] & 0xC0) == 0xC0:
                try:
                    raw_text[-cut:].decode("utf-8")
                except UnicodeDecodeError:
                    self._raw = raw_text[-cut:] + self._raw
                    raw_text = raw_text[:-cut]
                break
        decoded = raw_text.decode("utf-8", "replace").replace("\r\n", "\n").replace("\n\r", "\n")
        decoded = strip_ansi(decoded).replace("\r", "")
        self._buffer += decoded
        self.transcript += decoded

    def _recv(self, timeout: float) -> bool:
        """Receive what arrives within `timeout`; False when the server closed the connection."""
        self.sock.settimeout(max(timeout, 0.01))
        try:
            data = self.sock.recv(65536)
        except (socket.timeout, TimeoutError):
            return True
        if not data:
            return False
        self._feed(data)
        return True

    def read_until(self, expected: str | re.Pattern, timeout: float | None = None) -> str:
        """
        Read until `expected` (a plain string, or a compiled regex) has been received.

        A plain string matches across the game's line wrapping: the server wraps every line at
        the client's width (80 here: this client sends no NAWS) with an indent, so any run of
        white space in `expected` matches any run of white space received (line breaks and
        the indent included). Assert on the exact layout with a regex, or on the returned text.

        Returns all text up to and including the match (the rest stays buffered for the next
        read). Raises `TimeoutError` (with the text received so far) if it does not arrive.
        """
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        pattern = expected if isinstance(expected, re.Pattern) else wrapped_text(expected)
        while True:
            match = pattern.search(self._buffer)
            end = match.end() if match else -1
            if end >= 0:
                text, self._buffer = self._buffer[:end], self._buffer[end:]
                return text
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.sock is None:
                raise TimeoutError(
                    f"did not receive {expected!r} within {timeout} s; got:\n{self._buffer}"
                )
            if not self._recv(min(remaining, 0.5)):
                self.close()

    def read_available(self, wait: float = 0.3) -> str:
        """Everything that arrives until the line has been quiet for `wait` seconds."""
        while self.sock is not None:
            before = len(self._buffer)
            if not self._recv(wait):
                self.close()
                break
            if len(self._buffer) == before:
                break
        text, self._buffer = self._buffer, ""
        return text

    def command(self, line: str, expected: str | re.Pattern, timeout: float | None = None) -> str:
        """`send(line)`, then `read_until(expected)`."""
        self.send(line)
        return self.read_until(expected, timeout)

    # -- account helpers --------------------------------------------------------------------

    def wait_for_connection_screen(self, timeout: float | None = None) -> str:
        """The unlogged-in screen (it tells how to `connect` and `create`)."""
        text = self.read_until(re.compile(r"\bcreate\b", re.I), timeout)
        return text + self.read_available(0.2)

    def login(self, name: str, password: str, timeout: float | None = None) -> str:
        """`connect name password` and wait until the account has a character in the game."""
        self.send(f"connect {name} {password}")
        return self.read_until(re.compile(r"You become \S+|Logged in as|Your character", re.I), timeout)

    def create_and_connect(self, name: str, password: str, timeout: float | None = None) -> str:
        """Create a new account (answering the [Y]/N question) and log in with it."""
        self.send(f"create {name} {password}")
        text = self.read_until(re.compile(r"\[Y\]/N|was created|already exists|invalid|not", re.I), timeout)
        if re.search(r"\[Y\]/N", text, re.I):
            self.send("y")
            text += self.read_until(re.compile(r"was created|Welcome|error|invalid", re.I), timeout)
        if not re.search(r"was created|Welcome", text, re.I):
            raise AssertionError(f"could not create account {name!r}:\n{text}")
        return text + self.login(name, password, timeout)


# ---------------------------------------------------------------------------------------------
# Server
# ---------------------------------------------------------------------------------------------


@dataclass
class GameServer:
    """
    A running game server for end-to-end tests (see `start()` / `stop()`).

    Attributes for tests: `host`, `telnet_port`, `web_port`, `websocket_port`, `superuser`,
    `superuser_password`, `run_dir` (logs under run_dir/logs), and `client()`.
    """

    run_dir: Path
    port_base: int = 0
    host: str = "127.0.0.1"
    superuser: str = "e2eadmin"
    superuser_password: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    python: str = sys.executable
    # A module in game/server/conf/: the game's settings with test-friendly throttles.
    settings_file: str = "e2e_settings.py"
    # Where to keep a freshly migrated database for the next run (migrating takes ~12 s);
    # it is reused only while the migrations are unchanged (see migrations_fingerprint).
    db_cache_dir: Path | None = None
    started: bool = False
    start_seconds: float | None = None  # how long start() waited for the game to answer
    # Put before the launcher's command (e.g. ("taskset", "-c", "0")): the Portal and the
    # Server inherit it.
    launcher_prefix: tuple = ()
    # More environment for the game (e.g. {"DICE_SYSTEM": "whalefall"}), set last.
    extra_env: dict = field(default_factory=dict)
    # On PostgreSQL: this server's own database, made by start() and dropped by stop().
    pg_database: str | None = None

    @property
    def telnet_port(self) -> int:
        return self.port_base

    @property
    def web_port(self) -> int:
        return self.port_base + 1

    @property
    def websocket_port(self) -> int:
        return self.port_base + 2

    @property
    def web_url(self) -> str:
        return f"http://{self.host}:{self.web_port}"

    @property
    def log_dir(self) -> Path:
        return self.run_dir / "logs"

    def client(self, timeout: float = 10.0, accept: frozenset = frozenset()) -> TelnetClient:
        return TelnetClient(self.host, self.telnet_port, timeout=timeout, accept=accept)

    # -- process control --------------------------------------------------------------------

    def env(self) -> dict:
        env = dict(os.environ)
        # The server uses its own throwaway SQLite file, never a development PostgreSQL
        # database, unless scripts/with_postgres.sh made a throwaway PostgreSQL server.
        dropped = ["DJANGO_SETTINGS_MODULE", "PYTHONPATH", "PYTHONSTARTUP"]
        if not on_throwaway_postgres():
            dropped.append("GAME_DB")
        for key in dropped:
            env.pop(key, None)
        env.update(
            GAME_PORT_BASE=str(self.port_base),
            TEST_DB_PATH=str(self.run_dir / "e2e.db3"),
            GAME_RUN_DIR=str(self.run_dir),
            EVENNIA_SUPERUSER_USERNAME=self.superuser,
            EVENNIA_SUPERUSER_PASSWORD=self.superuser_password,
            # The launcher runs `twistd` by name: it must be this venv's.
            PATH=os.path.dirname(self.python) + os.pathsep + env.get("PATH", ""),
            PYTHONUNBUFFERED="1",
        )
        if self.pg_database:
            env["PGDATABASE"] = self.pg_database
        env.update({key: str(value) for key, value in self.extra_env.items()})
        return env

    def evennia(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        """Run the Evennia launcher (from game/, pid files moved) for this server."""
        return subprocess.run(
            [self.python, "-c", _LAUNCHER, "--settings", self.settings_file, *args],
            cwd=GAME_DIR,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )

    def _pid(self, name: str) -> int | None:
        try:
            return int((self.run_dir / f"{name}.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    @property
    def server_pid(self) -> int | None:
        """The Server process (the one that runs commands), from its pid file."""
        return self._pid("server")

    @property
    def portal_pid(self) -> int | None:
        return self._pid("portal")

    def _alive(self, pid: int | None) -> bool:
        if not pid:
            return False
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True

    def log_tail(self, lines: int = 40) -> str:
        out = []
        for name in ("portal.log", "server.log"):
            path = self.log_dir / name
            if path.exists():
                text = path.read_text(errors="replace").splitlines()[-lines:]
                out.append(f"--- {name} ---\n" + "\n".join(text))
        return "\n".join(out)

    def game(self):
        """This server as scripts/gamectl.py sees it (probes, start and wait)."""
        return gamectl.Game(
            self.port_base, str(self.run_dir), str(self.log_dir),
            launcher=[*self.launcher_prefix, self.python, "-c", _LAUNCHER,
                      "--settings", self.settings_file],
            cwd=str(GAME_DIR), env=self.env(), launcher_log=str(self.log_dir / "start.out"),
            host=self.host,
        )

    def start(self, timeout: float | None = None) -> "GameServer":
        """
        Start the Portal and the Server and wait until both answer and the superuser can log
        in. The wait is gamectl's, not the launcher's 10 s, so a loaded machine still comes
        up; `timeout` defaults to START_TIMEOUT or 180 s.
        """
        if timeout is None:
            timeout = gamectl.env_float("START_TIMEOUT", gamectl.DEFAULT_TIMEOUT)
        if not self.port_base:
            self.port_base = find_free_port_base()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        if not shutil.which("twistd", path=os.path.dirname(self.python)):
            raise RuntimeError(f"no twistd next to {self.python}: run the tests from the venv")

        try:
            self._prepare_database()
        except BaseException:
            self._drop_database()
            raise
        self.started = True  # from here on, stop() must clean up
        deadline = time.monotonic() + timeout
        t0 = time.monotonic()
        try:
            self.game().start(timeout, say=lambda text: None)
        except gamectl.StartError as err:
            launcher_out = self.log_dir / "start.out"
            out = launcher_out.read_text(errors="replace")[-4000:] if launcher_out.exists() else ""
            raise RuntimeError(f"the game did not come up: {err}\n{out}\n{self.log_tail()}") from None
        self.start_seconds = time.monotonic() - t0
        self._wait_fully_up(deadline)
        return self

    @property
    def db_path(self) -> Path:
        return self.run_dir / "e2e.db3"

    def _prepare_database(self) -> None:
        """`evennia migrate` into a new database, or copy an already migrated one."""
        if on_throwaway_postgres():
            name = f"{_pg_prefix()}{secrets.token_hex(4)}"
            postgres_admin("create", name, self.python)
            self.pg_database = name  # from here on, stop() drops it
        cached = None
        if self.db_cache_dir is not None and not on_throwaway_postgres():  # copying is for SQLite
            fingerprint = migrations_fingerprint()
            if fingerprint:
                cached = Path(self.db_cache_dir) / f"migrated-{fingerprint}.db3"
        if cached is not None and cached.exists():
            try:
                copy_sqlite(cached, self.db_path)
                return
            except sqlite3.Error:  # replaced by another test process's copy just then
                self.db_path.unlink(missing_ok=True)
        result = self.evennia("migrate")
        # Evennia's launcher exits 0 after its own errors (e.g. a settings module that does not
        # import), which it prints as "ERROR: ...".
        if result.returncode != 0 or re.search(r"^\s*ERROR:", result.stdout, re.M):
            raise RuntimeError(f"evennia migrate failed:\n{result.stdout[-4000:]}")
        if cached is not None:
            # Evennia's launcher migrates without making the superuser on a new database,
            # so this copy has the tables and nothing else.
            cached.parent.mkdir(parents=True, exist_ok=True)
            for old in cached.parent.glob("migrated-*.db3"):
                if old != cached:  # another test process may be copying this one
                    old.unlink(missing_ok=True)
            partial = cached.with_suffix(f".{os.getpid()}.tmp")
            copy_sqlite(self.db_path, partial)
            partial.replace(cached)

    def _wait_fully_up(self, deadline: float) -> None:
        """Wait for the Server's restart after the first start's initial setup, then log in."""
        server_log = self.log_dir / "server.log"
        while time.monotonic() < deadline:
            text = server_log.read_text(errors="replace") if server_log.exists() else ""
            first_start = "Restarting Server once" in text
            if "successfully restarted" in text or (
                not first_start and "successfully started" in text
            ):
                break
            if not self._alive(self._pid("portal")):
                raise RuntimeError(f"the Portal died during start-up\n{self.log_tail()}")
            time.sleep(0.2)
        else:
            raise RuntimeError(f"the Server did not finish its first start\n{self.log_tail()}")
        # A real login proves the Portal, the Server and the database all work.
        last_error = None
        while time.monotonic() < deadline:
            try:
                with self.client(timeout=5) as client:
                    client.wait_for_connection_screen()
                    client.login(self.superuser, self.superuser_password)
                    client.send("quit")
                return
            except (OSError, TimeoutError) as err:
                last_error = err
                time.sleep(0.5)
        raise RuntimeError(f"could not log in as the superuser: {last_error}\n{self.log_tail()}")

    def _drop_database(self) -> None:
        if self.pg_database:
            name, self.pg_database = self.pg_database, None
            postgres_admin("drop", name, self.python)

    def stop(self, timeout: float = 30) -> None:
        """`evennia stop`, make sure the Portal and Server processes are gone, then drop the
        PostgreSQL database (a SQLite one stays in run_dir, with the logs)."""
        if not self.started:
            self._drop_database()
            return
        self.started = False
        try:
            self._stop_processes(timeout)
        finally:
            self._drop_database()

    def _stop_processes(self, timeout: float) -> None:
        # The pid files, and any process of ours without one yet (a Portal still loading).
        pids = sorted({self._pid("server"), self._pid("portal"), *self.game().pids()} - {None})
        try:
            self.evennia("stop", timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + timeout
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                for pid in pids:
                    if self._alive(pid):
                        os.kill(pid, sig)
                deadline = time.monotonic() + 5
            while time.monotonic() < deadline and any(self._alive(pid) for pid in pids):
                time.sleep(0.2)
            if not any(self._alive(pid) for pid in pids):
                return
