"""Issue 46: descriptor exhaustion. The real ``radscope serve-reward`` runs with ``ulimit -n 300``
while 320 idle sockets send half a header; the server never runs out of descriptors (past its
connection cap the oldest idle socket is closed), a good request is scored within a second all
the while, and its log stays a few lines. Traffic only to 127.0.0.1, bounded in count and time."""
from __future__ import annotations

import json
import logging
import os
import resource
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from radscope.engine.descriptors import RefusalLog, connection_cap, quiet_accept_failures
from tests.engine.rewards.server_harness import free_port

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 300
IDLE = 320
PAIR = json.dumps({"references": ["Small left pleural effusion."],
                   "candidates": ["No pleural effusion."]}).encode()


def _lower_descriptor_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def _score(port: int, timeout: float) -> int:
    """One good POST /score on a new connection: the reply's status (0: none within timeout)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(b"POST /score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: " + str(len(PAIR)).encode() + b"\r\nConnection: close\r\n\r\n" + PAIR)
            head = sock.recv(64)
    except OSError:
        return 0
    return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0


@pytest.fixture()
def server(tmp_path):
    port = free_port()
    log_path = tmp_path / "server.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen([sys.executable, "-m", "radscope", "serve-reward", "--metrics", "bleu",
                                 "--port", str(port)], cwd=ROOT, env=env, stdout=log_file,
                                stderr=subprocess.STDOUT, preexec_fn=_lower_descriptor_limit)
    try:
        deadline = time.monotonic() + 120
        while _score(port, 2.0) != 200:
            assert proc.poll() is None, log_path.read_text(errors="replace")
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.5)
        yield port, log_path
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def connection_cap_of_server() -> int:
    """The cap the server computes under ``LIMIT`` (``connection_cap``'s own arithmetic)."""
    from radscope.engine.descriptors import ACCEPT_BURST, RESERVED

    return max(8, LIMIT - ACCEPT_BURST - RESERVED)


def _wait_for_refusals(sockets: list[socket.socket], wanted: int, seconds: float = 20.0) -> int:
    """How many of ``sockets`` the server closed (or answered 503), waiting up to ``seconds``."""
    refused: set[int] = set()
    deadline = time.monotonic() + seconds
    while len(refused) < wanted and time.monotonic() < deadline:
        readable, _, _ = select.select([s for i, s in enumerate(sockets) if i not in refused], [], [], 0.5)
        for sock in readable:
            refused.add(sockets.index(sock))
    return len(refused)


@pytest.mark.slow
def test_idle_sockets_past_the_descriptor_limit_cost_neither_service_nor_disk(server):
    port, log_path = server
    before = log_path.stat().st_size
    idle: list[socket.socket] = []
    try:
        for _ in range(IDLE):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"POST /score HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a header
            idle.append(sock)
        # Past its cap the server closed the oldest idle sockets, so that it never ran out...
        closed = _wait_for_refusals(idle, IDLE - connection_cap_of_server())
        assert closed >= IDLE - connection_cap_of_server()
        # ... and a good request is scored at once while the rest stay open.
        for _ in range(5):
            started = time.monotonic()
            assert _score(port, 1.0) == 200
            assert time.monotonic() - started < 1.0
            time.sleep(1.0)
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.5)
    started = time.monotonic()
    assert _score(port, 1.0) == 200 and time.monotonic() - started < 1.0
    grown = log_path.stat().st_size - before
    assert grown < 4096, log_path.read_text(errors="replace")[-2000:]


def test_the_connection_cap_leaves_room_below_the_descriptor_limit():
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert connection_cap() < soft and connection_cap(most=10) == 10


def test_refusals_are_one_counted_line_per_interval(caplog):
    now = [0.0]
    refusals = RefusalLog("refused", interval=10.0, logger=logging.getLogger("t"), clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="t"):
        for _ in range(1500):  # 15 s of refusals, 100 a second
            refusals.add()
            now[0] += 0.01
    assert len(caplog.records) == 2 and refusals.total == 1500
    assert caplog.records[0].getMessage().startswith("refused: 1 refused")
    assert "in the last 10 s" in caplog.records[1].getMessage()


def test_asyncio_accept_failures_are_counted_not_logged(caplog):
    refusals = quiet_accept_failures()
    assert quiet_accept_failures() is refusals  # one filter, however often installed
    before = refusals.total
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        logging.getLogger("asyncio").error("socket.accept() out of system resource\nsocket: <x>",
                                           exc_info=OSError(24, "Too many open files"))
        logging.getLogger("asyncio").error("something else")
    assert refusals.total == before + 1
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == ["something else"]


def test_the_public_app_serves_with_the_capped_protocol():
    """Gradio builds its own uvicorn ``Config``; in public mode every Config the process loads
    serves with the capped protocol (checked in a process of its own: the switch is global)."""
    code = ("import uvicorn\n"
            "from radscope.engine.rewards.http_limits import cap_uvicorn_connections\n"
            "cap = cap_uvicorn_connections()\n"
            "config = uvicorn.Config(app=lambda scope, receive, send: None)\n"
            "config.load()\n"
            "print(config.http_protocol_class.__name__, cap)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    assert out[0] == "DeadlineH11Protocol" and 8 <= int(out[1]) < resource.getrlimit(resource.RLIMIT_NOFILE)[0]
