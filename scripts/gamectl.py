"""
Small helpers for scripts/start.sh (run with the project's .venv Python).

    python scripts/gamectl.py superuser-status       (cwd game/) -> exists | missing | nodb
    python scripts/gamectl.py ports-free BASE        exit 1 (and list them) if BASE..BASE+6 are busy
    python scripts/gamectl.py password               a random password
    python scripts/gamectl.py wait-ready PORT TIMEOUT PORTAL_PIDFILE [SERVER_LOG OFFSET]
        wait until the game answers on its telnet port with text (the connection screen, which
        the Server sends through the Portal) and, when SERVER_LOG is given and its lines after
        byte OFFSET show a first start, until the Server has restarted after its initial setup;
        exit 1 if the Portal dies or TIMEOUT passes.
"""

import os
import re
import secrets
import socket
import sys
import time

PORT_OFFSETS = range(7)  # telnet, web, websocket, ssl, ssh, internal web, AMP
IAC = 255


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


def pid_alive(pidfile):
    try:
        with open(pidfile) as fil:
            pid = int(fil.read().strip())
        os.kill(pid, 0)
        return True
    except (OSError, ValueError):
        return False


def telnet_text(port, wait=3.0):
    """Connect, answer nothing, return the printable text received within `wait` seconds."""
    data = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
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


def initial_setup_pending(server_log, offset):
    """True while the log shows a first start whose restart has not happened yet."""
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


def wait_ready(port, timeout, portal_pidfile, server_log=None, offset=0):
    deadline = time.monotonic() + timeout
    grace = time.monotonic() + 10  # the Portal writes its pid file shortly after launch
    while time.monotonic() < deadline:
        if not initial_setup_pending(server_log, offset):
            text = telnet_text(port)
            if text and re.search(r"[A-Za-z]{3}", text):
                return 0
        if time.monotonic() > grace and not pid_alive(portal_pidfile):
            print("the Portal process is not running", file=sys.stderr)
            return 1
        time.sleep(0.5)
    print(f"no answer on telnet port {port} after {timeout} s", file=sys.stderr)
    return 1


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
    if cmd == "wait-ready":
        server_log = args[3] if len(args) > 3 else None
        offset = int(args[4]) if len(args) > 4 else 0
        return wait_ready(int(args[0]), float(args[1]), args[2], server_log, offset)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
