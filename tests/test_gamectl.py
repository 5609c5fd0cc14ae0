"""
scripts/gamectl.py: the start/wait decisions (with made-up observations), the start loop (with
a scripted fake game: no server is started), the AMP status probe (against a fake Portal on a
local socket) and the process/pid-file checks. Pure and fast: no database, no Evennia.
"""

import importlib.util
import os
import pickle
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "scripts" / "gamectl.py"


def _load():
    name = "storyteller_gamectl"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _PATH)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


gamectl = _load()
Observed = gamectl.Observed

NOTHING = Observed()
LOADING_PORTAL = Observed(portal_process=True)
PORTAL_ONLY = Observed(portal_process=True, portal_answers=True)
SERVER_LOADING = Observed(portal_process=True, portal_answers=True, server_process=True)
CONNECTED_NO_BANNER = Observed(portal_process=True, portal_answers=True, server_process=True,
                               server_connected=True)
UP = Observed(portal_process=True, portal_answers=True, server_process=True,
              server_connected=True, banner=True)
FIRST_START_RESTARTING = Observed(portal_process=True, portal_answers=True, server_process=True,
                                  server_connected=True, banner=True, setup_pending=True)


# -- classify: "already running" only when both answer ---------------------------------------


@pytest.mark.parametrize(
    "obs, expected",
    [
        (UP, "running"),
        # Both answer even though our process scan saw nothing (e.g. another user's pid dir):
        # still running, so nothing is started over it.
        (Observed(portal_answers=True, server_connected=True, banner=True), "running"),
        (NOTHING, "stopped"),
        # A Server left without its Portal: the Portal must be started.
        (Observed(server_process=True), "stopped"),
        (PORTAL_ONLY, "portal-only"),
        (LOADING_PORTAL, "starting"),
        (SERVER_LOADING, "starting"),
        (CONNECTED_NO_BANNER, "starting"),
        (FIRST_START_RESTARTING, "starting"),
        # The Portal process is there but the Server is connected without answering telnet.
        (Observed(portal_process=True, portal_answers=True, server_connected=True), "starting"),
    ],
)
def test_classify(obs, expected):
    assert gamectl.classify(obs) == expected


@pytest.mark.parametrize("obs", [NOTHING, LOADING_PORTAL, PORTAL_ONLY, SERVER_LOADING,
                                 CONNECTED_NO_BANNER, FIRST_START_RESTARTING])
def test_never_running_unless_both_answer(obs):
    assert gamectl.classify(obs) != "running"


# -- next_action -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "obs, launcher_running, launched, missing_for, expected",
    [
        (UP, False, True, 0, "ready"),
        (UP, True, True, 0, "ready"),
        (NOTHING, False, False, 0, "launch"),
        (NOTHING, True, True, 0, "wait"),  # the launcher has not spawned the Portal yet
        (NOTHING, False, True, 0, "portal-died"),
        # The launcher gave up after its 10 s but the Portal is still loading: wait for it.
        (LOADING_PORTAL, False, True, 0, "wait"),
        # Portal up alone: start the Server only after the grace (the Portal may be
        # restarting it itself), and never while our launcher still runs.
        (PORTAL_ONLY, False, True, 4.9, "wait"),
        (PORTAL_ONLY, False, True, 5.0, "start-server"),
        (PORTAL_ONLY, True, True, 60.0, "wait"),
        (SERVER_LOADING, False, True, 60.0, "wait"),
        (CONNECTED_NO_BANNER, False, True, 60.0, "wait"),
        (FIRST_START_RESTARTING, False, True, 60.0, "wait"),
    ],
)
def test_next_action(obs, launcher_running, launched, missing_for, expected):
    assert gamectl.next_action(obs, launcher_running, launched, missing_for, grace=5.0) == expected


# -- the start loop, with a scripted game ----------------------------------------------------


class FakeLauncher:
    def __init__(self, runs_for):
        self.left = runs_for

    def poll(self):
        self.left -= 1
        return None if self.left > 0 else 0

    def terminate(self):
        self.left = 0

    def wait(self, timeout=None):
        return 0


class ScriptedGame(gamectl.Game):
    """observe() returns the observations in turn (the last one forever); launches are
    recorded; a launch can switch to another script (what the game does next)."""

    def __init__(self, script, on_launch=(), launcher_runs_for=2):
        super().__init__(5100, "/nonexistent-run-dir", "/nonexistent-log-dir")
        self.script = list(script)
        self.on_launch = list(on_launch)
        self.launches = 0
        self.launcher_runs_for = launcher_runs_for

    def observe(self, server_log_offset=0, banner=True):
        return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def _spawn_launcher(self, *args):
        assert args == ("start",)
        self.launches += 1
        if self.on_launch:
            self.script = list(self.on_launch.pop(0))
        return FakeLauncher(self.launcher_runs_for)


@pytest.fixture
def no_sleep(monkeypatch):
    clock = [1000.0]

    # A fake clock: the loop's 0.5 s looks cost nothing.
    def sleep(seconds):
        clock[0] += seconds

    monkeypatch.setattr(gamectl.time, "sleep", sleep)
    monkeypatch.setattr(gamectl.time, "monotonic", lambda: clock[0])
    return clock


@pytest.mark.usefixtures("no_sleep")
def test_already_running_starts_nothing():
    game = ScriptedGame([UP])
    assert game.start(timeout=10) == "already running"
    assert game.launches == 0


@pytest.mark.usefixtures("no_sleep")
def test_fresh_start_waits_past_the_launchers_ten_seconds():
    # The launcher gives up (exits) while the Portal loads for 40 s; the Portal then comes up
    # alone: after the grace the Server is started, and the game is ready.
    loading = [LOADING_PORTAL] * 80  # 40 s at 0.5 s a look
    game = ScriptedGame(
        [NOTHING],
        on_launch=[loading + [PORTAL_ONLY], [SERVER_LOADING] * 10 + [UP]],
    )
    said = []
    assert game.start(timeout=180, grace=5, say=said.append) == "started"
    assert game.launches == 2
    assert said == ["The Portal is up without the Server: starting the Server ..."]


@pytest.mark.usefixtures("no_sleep")
def test_fresh_start_when_the_launcher_does_it_all():
    game = ScriptedGame([NOTHING], on_launch=[[LOADING_PORTAL] * 4 + [SERVER_LOADING] * 4 + [UP]])
    assert game.start(timeout=180) == "started"
    assert game.launches == 1


@pytest.mark.usefixtures("no_sleep")
def test_portal_only_at_entry_starts_the_server_at_once():
    game = ScriptedGame([PORTAL_ONLY], on_launch=[[SERVER_LOADING] * 3 + [UP]])
    said = []
    assert game.start(timeout=180, say=said.append) == "server started"
    assert game.launches == 1
    assert said == ["The Portal is up without the Server: starting the Server ..."]


@pytest.mark.usefixtures("no_sleep")
def test_first_start_restart_is_not_raced():
    # During the first start's restart the Portal is briefly alone (old Server gone, new one
    # not yet spawned): shorter than the grace, so no second Server is started.
    script = [LOADING_PORTAL] * 4 + [SERVER_LOADING, FIRST_START_RESTARTING,
                                     Observed(portal_process=True, portal_answers=True,
                                              setup_pending=True)] + [SERVER_LOADING] * 3 + [UP]
    game = ScriptedGame([NOTHING], on_launch=[script], launcher_runs_for=1)
    assert game.start(timeout=180, grace=5) == "started"
    assert game.launches == 1


@pytest.mark.usefixtures("no_sleep")
def test_a_start_under_way_is_waited_for_not_doubled():
    game = ScriptedGame([LOADING_PORTAL] * 10 + [SERVER_LOADING] * 5 + [UP])
    assert game.start(timeout=180) == "started"
    assert game.launches == 0


@pytest.mark.usefixtures("no_sleep")
def test_portal_that_dies_is_reported():
    game = ScriptedGame([NOTHING], on_launch=[[LOADING_PORTAL] * 3 + [NOTHING]])
    with pytest.raises(gamectl.StartError, match="Portal process is not running"):
        game.start(timeout=180)


@pytest.mark.usefixtures("no_sleep")
def test_server_that_never_comes_is_tried_twice_then_reported():
    game = ScriptedGame([PORTAL_ONLY], on_launch=[[PORTAL_ONLY]] * 5, launcher_runs_for=1)
    with pytest.raises(gamectl.StartError, match="Server did not start"):
        game.start(timeout=180, grace=2)
    assert game.launches == gamectl.MAX_SERVER_STARTS


@pytest.mark.usefixtures("no_sleep")
def test_deadline():
    game = ScriptedGame([LOADING_PORTAL])
    with pytest.raises(gamectl.StartError, match="no answer within 30 s") as err:
        game.start(timeout=30)
    assert "Portal process yes, Portal answers no" in str(err.value)


# -- the AMP status probe, against a fake Portal ---------------------------------------------


def _box(**items):
    return gamectl._amp_box(**items)


def _fake_portal(reply):
    """A one-connection AMP server answering the first box with `reply(box_bytes)`."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    received = []

    def serve():
        conn, _ = srv.accept()
        with conn:
            conn.settimeout(5)
            received.append(gamectl._read_amp_box(conn))
            conn.sendall(reply(received[-1]))
        srv.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return srv.getsockname()[1], received, thread


def test_amp_status_reads_the_portals_answer():
    status = pickle.dumps((True, False, 123, None, {"info": "x"}, {}), pickle.HIGHEST_PROTOCOL)
    port, received, thread = _fake_portal(lambda box: _box(_answer=box[b"_ask"], status=status))
    assert gamectl.amp_status(port) == (True, False)
    thread.join(5)
    assert received[0][b"_command"] == b"MsgStatus"


def test_amp_status_refuses_pickled_code():
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    status = pickle.dumps(Evil())
    port, _, thread = _fake_portal(lambda box: _box(_answer=box[b"_ask"], status=status))
    assert gamectl.amp_status(port) is None
    thread.join(5)


def test_amp_status_of_garbage_or_nothing():
    port, _, thread = _fake_portal(lambda box: b"HTTP/1.0 400 Bad Request\r\n\r\n")
    assert gamectl.amp_status(port, timeout=2) is None
    thread.join(5)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    assert gamectl.amp_status(free, timeout=1) is None


# -- processes and pid files -----------------------------------------------------------------


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")
def test_process_found_by_its_pidfile_argument_before_the_file_exists(tmp_path):
    pidfile = tmp_path / "portal.pid"
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)",
                             f"--pidfile={pidfile}"])
    try:
        # Until the child has exec'd, /proc shows the parent's command line.
        deadline = time.monotonic() + 10
        while not gamectl.processes_for(str(pidfile)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gamectl.processes_for(str(pidfile)) == [proc.pid]
        assert not gamectl.clean_stale_pidfile(str(pidfile))
    finally:
        proc.kill()
        proc.wait()
    assert gamectl.processes_for(str(pidfile)) == []


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")
def test_stale_pidfiles_are_ignored_and_cleaned(tmp_path):
    pidfile = tmp_path / "server.pid"
    # A dead pid.
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    pidfile.write_text(str(proc.pid))
    assert gamectl.processes_for(str(pidfile)) == []
    assert gamectl.clean_stale_pidfile(str(pidfile))
    assert not pidfile.exists()
    # A live pid that is not ours (reused by another program): twistd would refuse to start.
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        pidfile.write_text(str(other.pid))
        assert gamectl.processes_for(str(pidfile)) == []
        assert gamectl.clean_stale_pidfile(str(pidfile))
    finally:
        other.kill()
        other.wait()


def test_initial_setup_pending(tmp_path):
    log = tmp_path / "server.log"
    log.write_text("old run\nInitial setup complete. Restarting Server once.\n")
    assert gamectl.initial_setup_pending(str(log))
    start = log.stat().st_size
    assert not gamectl.initial_setup_pending(str(log), start)  # only new lines count
    with log.open("a") as fil:
        fil.write("Evennia Server successfully restarted in 'reset' mode.\n")
    assert not gamectl.initial_setup_pending(str(log))
    assert not gamectl.initial_setup_pending(str(tmp_path / "missing.log"))
