"""Helpers for the reward server's tests: a real uvicorn server in a thread (under the settings
``radscope serve-reward`` runs with), JSON requests over real sockets, and raw sockets for what
a well-behaved client would never send."""
from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from radscope.engine.rewards.http_limits import server_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` (``build_app``'s) served on 127.0.0.1 as the CLI serves it; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(server_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def post(url: str, body: Any = None, token: str | None = None, raw: bytes | None = None,
         headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, dict[str, Any]]:
    sent = {"Content-Type": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=sent, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(url: str, token: str | None = None, timeout: float = 10) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout) as reply:
        return reply.status, json.loads(reply.read())


def connect(url: str, timeout: float = 10) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=timeout)


def read_reply(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (or the socket's timeout)."""
    data = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closed ``sock`` within ``seconds`` (whatever it sent first)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def established(port: int) -> int:
    """Open TCP connections to a local port, server side (from /proc/net/tcp, Linux)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if state == "01" and int(local.split(":")[1], 16) == port:
            count += 1
    return count
