"""
Starting, probing and stopping the game: the logic behind scripts/start.sh and scripts/stop.sh,
shared with the end-to-end harness (tests/e2e/harness.py loads this file by path).

    python scripts/gamectl.py superuser-status       (cwd game/) -> exists | missing | nodb
    python scripts/gamectl.py ports-free BASE        exit 1 (and list them) if BASE..BASE+6 are busy
    python scripts/gamectl.py password               a random password
    python scripts/gamectl.py state BASE RUN_DIR     running | portal-only | starting | stopped
    python scripts/gamectl.py start BASE RUN_DIR LOG_DIR TIMEOUT [LAUNCHER ...]
        start the game (or only its Server, or nothing) and wait until it answers
    python scripts/gamectl.py pids RUN_DIR           this game's live Portal/Server processes

RUN_DIR holds portal.pid and server.pid (game/server, or $GAME_RUN_DIR); LOG_DIR holds
server.log; LAUNCHER is the command that runs Evennia's launcher (default: `evennia`), run from
the current directory.

Why not just `evennia start`: the launcher waits 10 s for the Portal to answer, then gives up
without ever telling the Portal to start the Server. On a loaded 2-core machine (or a 1-vCPU
VPS) the Portal took 11-23 s, so the Portal came up alone and the next `evennia start`, seeing
a Portal, said the game was running. Here the launcher only launches; the waiting is ours,
with a deadline that suits a slow machine, and the state is read from what answers:

- the Portal answers when its AMP port (base + 6) replies to a status request (the launcher's
  own `MsgStatus`), which also says whether a Server is connected to it;
- the Server answers when the Portal says it is connected *and* a telnet connection gets the
  connection screen (which the Server sends), after the first start's one restart;
- a process "exists" when a live process was started with this game's `--pidfile=` (found in
  /proc, so a Portal still loading, before its pid file is written, counts, and a pid file
  left by a dead process, or whose pid now belongs to another program, does not).
"""

from __future__ import annotations

import io
import os
import pickle
import re
import secrets
import signal
import socket
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, replace

PORT_OFFSETS = range(7)  # telnet, web, websocket, ssl, ssh, internal web, AMP
AMP_OFFSET = 6
IAC = 255

DEFAULT_TIMEOUT = 180.0  # START_TIMEOUT overrides it
# How long the Portal must be up with no Server process (and no launcher of ours running)
# before we start the Server: the Portal restarts the Server itself after the first start's
# initial setup (and on reload), and must not be raced into running two.
DEFAULT_SERVER_GRACE = 5.0  # START_SERVER_GRACE overrides it
MAX_SERVER_STARTS = 2


# ---------------------------------------------------------------------------------------------
# Small commands
# ---------------------------------------------------------------------------------------------


def superuser_status():
    game_dir = os.getcwd()
    sys.path.insert(0, game_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "server.conf.settings"
    import django

    django.setup()
    from django.db import connection
    from django.db.utils import DatabaseError

    try:
        if "accounts_accountdb" not in connection.introspection.table_names():
            return "nodb"
        from evennia.accounts.models import AccountDB

        return "exists" if AccountDB.objects.filter(id=1).exists() else "missing"
    except DatabaseError as err:
        print(f"database error: {err}", file=sys.stderr)
        return "nodb"


def port_busy(port):
    for host in ("0.0.0.0", "127.0.0.1"):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            # Twisted listens with SO_REUSEADDR: connections in TIME_WAIT don't block it.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((host, port))
            except OSError:
                return True
    return False


# ---------------------------------------------------------------------------------------------
# Probes
# ---------------------------------------------------------------------------------------------


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fil:
            return [arg.decode("utf-8", "replace") for arg in fil.read().split(b"\0") if arg]
    except OSError:
        return None


def _read_pid(pidfile):
    try:
        with open(pidfile) as fil:
            return int(fil.read().strip())
    except (OSError, ValueError):
        return None


def _alive(pid):
    if not pid or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def processes_for(pidfile):
    """
    Live processes of this Portal/Server: started with `--pidfile=<pidfile>` (twistd's
    argument, set by the launcher), plus the pid in the file if it is alive and a twistd.
    """
    want = os.path.realpath(pidfile)
    found = set()
    if os.path.isdir("/proc"):
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            args = _cmdline(entry)
            if args and any(
                arg.startswith("--pidfile=") and os.path.realpath(arg[10:]) == want for arg in args
            ):
                found.add(int(entry))
    pid = _read_pid(pidfile)
    if pid and _alive(pid):
        args = _cmdline(pid)
        # Without /proc (not Linux) trust a live pid; with it, only a twistd's.
        if args is None and not os.path.isdir("/proc") or args and any("twistd" in a for a in args):
            found.add(pid)
    found.discard(os.getpid())
    return sorted(found)


def clean_stale_pidfile(pidfile):
    """Remove `pidfile` if no live process of ours has it (twistd refuses to start over a
    pid file whose pid is alive, even when the pid now belongs to another program)."""
    if os.path.exists(pidfile) and not processes_for(pidfile):
        try:
            os.remove(pidfile)
            return True
        except OSError:
            pass
    return False


def _amp_box(**items):
    out = bytearray()
    for key, value in items.items():
        key = key.encode()
        out += struct.pack("!H", len(key)) + key + struct.pack("!H", len(value)) + value
    return bytes(out + b"\0\0")


def _recv_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def _read_amp_box(sock):
    box = {}
    while True:
        (klen,) = struct.unpack("!H", _recv_exact(sock, 2))
        if klen == 0:
            return box
        key = _recv_exact(sock, klen)
        (vlen,) = struct.unpack("!H", _recv_exact(sock, 2))
        box[key] = _recv_exact(sock, vlen)


class _PlainUnpickler(pickle.Unpickler):
    """The status is a tuple of bools, ints, strings and dicts: refuse anything that needs a
    global (whatever listens on the port is not trusted to run code in this process)."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refused global {module}.{name}")


def amp_status(port, host="127.0.0.1", timeout=5.0):
    """
    Ask the Portal for its status over AMP, as Evennia's launcher does.

    Returns (portal_running, server_connected), or None if nothing answers properly.
    """
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(_amp_box(_ask=b"1", _command=b"MsgStatus", status=b""))
            box = _read_amp_box(sock)
        if box.get(b"_answer") != b"1" or b"status" not in box:
            return None
        status = _PlainUnpickler(io.BytesIO(box[b"status"])).load()
        return bool(status[0]), bool(status[1])
    except (OSError, ValueError, struct.error, pickle.UnpicklingError, EOFError, IndexError,
            TypeError, KeyError):
        return None


def telnet_text(port, wait=5.0, host="127.0.0.1"):
    """Connect, answer nothing, return the printable text received within `wait` seconds
    (early, once it has a word in it)."""
    data = b""
    try:
        with socket.create_connection((host, port), timeout=2) as sock:
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                sock.settimeout(max(0.05, deadline - time.monotonic()))
                try:
                    chunk = sock.recv(4096)
                except socket.timeout:
                    break
                if not chunk:
                    break
                data += chunk
                text = strip_telnet(data)
                if re.search(r"[A-Za-z]{3}", text):
                    return text
    except OSError:
        return None
    return strip_telnet(data)


def strip_telnet(data):
    out = bytearray()
    i = 0
    while i < len(data):
        byte = data[i]
        if byte == IAC and i + 1 < len(data):
            cmd = data[i + 1]
            if cmd == 250:  # SB ... IAC SE
                end = data.find(bytes([IAC, 240]), i + 2)
                i = len(data) if end < 0 else end + 2
            elif cmd in (251, 252, 253, 254):
                i += 3
            else:
                i += 2
            continue
        out.append(byte)
        i += 1
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.decode("utf-8", "replace"))


def initial_setup_pending(server_log, offset=0):
    """True while the log (after byte `offset`) shows a first start whose restart is not done."""
    if not server_log:
        return False
    try:
        with open(server_log, "rb") as fil:
            if os.path.getsize(server_log) >= offset:
                fil.seek(offset)
            text = fil.read().decode("utf-8", "replace")
    except OSError:
        return False
    pos = text.rfind("Restarting Server once")
    return pos >= 0 and "successfully restarted" not in text[pos:]


# ---------------------------------------------------------------------------------------------
# Decisions (pure: tests/test_gamectl.py drives them with made-up observations)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Observed:
    portal_process: bool = False  # a live Portal process of this game
    portal_answers: bool = False  # the Portal answered a status request on the AMP port
    server_process: bool = False  # a live Server process of this game
    server_connected: bool = False  # the Portal says a Server is connected
    banner: bool = False  # a telnet connection got the connection screen
    setup_pending: bool = False  # first start: the Server's one restart has not happened


def classify(obs):
    """
    running      the Portal and the Server both answer: leave it alone
    stopped      no Portal process and nothing answers: start everything (stale pid files
                 are removed first)
    portal-only  the Portal answers, no Server process and none connected: start the Server
    starting     anything else (a Portal still loading, a Server starting or restarting):
                 wait for it, start nothing new yet
    """
    if obs.portal_answers and obs.server_connected and obs.banner and not obs.setup_pending:
        return "running"
    if not obs.portal_process and not obs.portal_answers:
        return "stopped"
    if obs.portal_answers and not obs.server_connected and not obs.server_process:
        return "portal-only"
    return "starting"


def next_action(obs, launcher_running, portal_launched, server_missing_for,
                grace=DEFAULT_SERVER_GRACE):
    """
    What the start loop does next: "ready", "wait", "launch" (the Portal, via the launcher),
    "start-server" (via the launcher, which then finds the Portal up), or "portal-died".

    `server_missing_for`: for how many seconds in a row the state has been "portal-only" with
    no launcher of ours running.
    """
    state = classify(obs)
    if state == "running":
        return "ready"
    if launcher_running:
        return "wait"  # it is about to launch the Portal, or to tell it to start the Server
    if state == "stopped":
        return "portal-died" if portal_launched else "launch"
    if state == "portal-only" and server_missing_for >= grace:
        return "start-server"
    return "wait"


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------


class Game:
    """
    One game's Portal and Server: its ports, pid files and server log, and the command that
    runs Evennia's launcher for it (`launcher`, run in `cwd` with `env`, output to
    `launcher_log`).
    """

    def __init__(self, port_base, run_dir, log_dir, launcher=("evennia",), cwd=None, env=None,
                 launcher_log=None, host="127.0.0.1"):
        self.port_base = int(port_base)
        self.telnet_port = self.port_base
        self.amp_port = self.port_base + AMP_OFFSET
        self.portal_pidfile = os.path.join(run_dir, "portal.pid")
        self.server_pidfile = os.path.join(run_dir, "server.pid")
        self.server_log = os.path.join(log_dir, "server.log")
        self.launcher = list(launcher)
        self.cwd = cwd
        self.env = env
        self.launcher_log = launcher_log or os.path.join(log_dir, "start.out")
        self.host = host

    def observe(self, server_log_offset=0, banner=True):
        status = amp_status(self.amp_port, self.host)
        portal_answers, server_connected = status if status else (False, False)
        obs = Observed(
            portal_process=bool(processes_for(self.portal_pidfile)),
            portal_answers=portal_answers,
            server_process=bool(processes_for(self.server_pidfile)),
            server_connected=server_connected,
            setup_pending=initial_setup_pending(self.server_log, server_log_offset),
        )
        if banner and obs.server_connected and not obs.setup_pending:
            text = telnet_text(self.telnet_port, host=self.host)
            obs = replace(obs, banner=bool(text and re.search(r"[A-Za-z]{3}", text)))
        return obs

    def state(self):
        return classify(self.observe())

    def pids(self):
        return sorted(set(processes_for(self.portal_pidfile) + processes_for(self.server_pidfile)))

    def _spawn_launcher(self, *args):
        os.makedirs(os.path.dirname(self.launcher_log), exist_ok=True)
        with open(self.launcher_log, "ab") as out:
            out.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(args)}\n".encode())
            out.flush()
            return subprocess.Popen(
                [*self.launcher, *args], cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT,
            )

    def start(self, timeout=DEFAULT_TIMEOUT, grace=DEFAULT_SERVER_GRACE, say=print):
        """
        Bring the game up (whatever part of it is missing) and wait until both answer.

        Returns "already running", "started" or "server started"; raises StartError (with
        what was seen) when the deadline passes or the Portal dies.
        """
        deadline = time.monotonic() + timeout
        offset = os.path.getsize(self.server_log) if os.path.exists(self.server_log) else 0
        obs = self.observe(offset)
        state = classify(obs)
        if state == "running":
            return "already running"
        run = _Launch()
        if state == "stopped":
            for pidfile in (self.portal_pidfile, self.server_pidfile):
                if clean_stale_pidfile(pidfile):
                    say(f"removed a stale pid file: {pidfile}")
        elif state == "portal-only":
            # Nothing of ours is starting a Server: no grace needed.
            self._start_server(run, say)
        else:
            say("The game is starting already (a Portal or Server still loading): waiting ...")
        try:
            self._wait_until_up(run, obs, offset, deadline, timeout, grace, say)
        finally:
            run.stop_launcher()
        return "server started" if state == "portal-only" else "started"

    def _start_server(self, run, say):
        say("The Portal is up without the Server: starting the Server ...")
        run.server_starts += 1
        clean_stale_pidfile(self.server_pidfile)
        run.launcher = self._spawn_launcher("start")
        run.missing_since = None

    def _wait_until_up(self, run, obs, offset, deadline, timeout, grace, say):
        """Take `next_action`'s steps until both answer; StartError when that cannot happen."""
        while True:
            now = time.monotonic()
            launcher_running = run.launcher_running()
            missing_for = run.server_missing_for(obs, now, launcher_running)
            action = next_action(obs, launcher_running, run.portal_launched, missing_for, grace)
            if action == "ready":
                return
            if action == "launch":
                run.launcher = self._spawn_launcher("start")
                run.portal_launched = True
            elif action == "start-server":
                if run.server_starts >= MAX_SERVER_STARTS:
                    raise StartError(f"the Server did not start ({run.server_starts} tries)", obs)
                self._start_server(run, say)
            elif action == "portal-died":
                raise StartError("the Portal process is not running", obs)
            if time.monotonic() > deadline:
                raise StartError(f"no answer within {timeout:g} s", obs)
            time.sleep(0.5)
            obs = self.observe(offset)

    def kill(self, sig=signal.SIGTERM):
        for pid in self.pids():
            try:
                os.kill(pid, sig)
            except OSError:
                pass


@dataclass
class _Launch:
    """What one `Game.start` has done so far: the launcher it runs, the Server starts it tried."""

    launcher: subprocess.Popen | None = None
    portal_launched: bool = False
    server_starts: int = 0
    missing_since: float | None = None

    def launcher_running(self):
        return self.launcher is not None and self.launcher.poll() is None

    def server_missing_for(self, obs, now, launcher_running):
        """Seconds the Portal has been up alone with no launcher of ours bringing a Server."""
        if classify(obs) == "portal-only" and not launcher_running:
            self.missing_since = now if self.missing_since is None else self.missing_since
        else:
            self.missing_since = None
        return now - self.missing_since if self.missing_since is not None else 0.0

    def stop_launcher(self):
        # The launcher has done its part once both answer (or we give up): don't leave it
        # waiting for a status reply.
        if self.launcher_running():
            self.launcher.terminate()
            try:
                self.launcher.wait(10)
            except subprocess.TimeoutExpired:
                self.launcher.kill()
                self.launcher.wait()

class StartError(RuntimeError):
    def __init__(self, reason, obs):
        super().__init__(f"{reason} (last seen: {describe(obs)})")
        self.reason = reason
        self.observed = obs


def describe(obs):
    def yn(flag):
        return "yes" if flag else "no"

    return (f"Portal process {yn(obs.portal_process)}, Portal answers {yn(obs.portal_answers)}, "
            f"Server process {yn(obs.server_process)}, Server connected {yn(obs.server_connected)}, "
            f"connection screen {yn(obs.banner)}"
            + (", first start's restart pending" if obs.setup_pending else ""))


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def env_float(name, default):
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    cmd, args = argv[0], argv[1:]
    if cmd == "superuser-status":
        print(superuser_status())
        return 0
    if cmd == "ports-free":
        base = int(args[0])
        busy = [base + off for off in PORT_OFFSETS if port_busy(base + off)]
        if busy:
            print(" ".join(map(str, busy)))
            return 1
        return 0
    if cmd == "password":
        print(secrets.token_urlsafe(12))
        return 0
    if cmd == "state":
        print(Game(args[0], args[1], args[1]).state())
        return 0
    if cmd == "pids":
        print(" ".join(map(str, Game(0, args[0], args[0]).pids())))
        return 0
    if cmd == "start":
        base, run_dir, log_dir, timeout = args[:4]
        game = Game(base, run_dir, log_dir, launcher=args[4:] or ["evennia"])
        t0 = time.monotonic()
        try:
            result = game.start(float(timeout), env_float("START_SERVER_GRACE", DEFAULT_SERVER_GRACE),
                                say=lambda text: print(text, file=sys.stderr, flush=True))
        except StartError as err:
            print(f"start: the game did not come up: {err}", file=sys.stderr)
            return 1
        print(f"{result} {time.monotonic() - t0:.1f}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
