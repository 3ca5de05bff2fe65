"""The reward server under hostile and careless clients, over real sockets, with the limits the
CLI serves with (shortened where a test would otherwise wait): every malformed request is a 4xx
naming the problem, a body stops at its cap whatever its framing, slow or idle connections are
closed, a full queue says 503, a client that leaves costs nothing more, /health answers while a
degenerate query is read, and bad flags are one-line errors."""
from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from radscope.engine.rewards.batcher import Batcher
from radscope.engine.rewards.http_limits import Limits
from radscope.engine.rewards.server import build_app
from radscope.engine.rewards.scorer import RewardScorer
from tests.engine.rewards.server_harness import (
    closed_within,
    connect,
    established,
    free_port,
    get,
    post,
    read_reply,
    serving,
)

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "t0ken"
AUTH = f"Authorization: Bearer {TOKEN}\r\n".encode()
SHORT = Limits(max_body_bytes=1024 * 1024, header_s=1.0, body_s=1.0)
PAIR = {"references": ["Small left pleural effusion."], "candidates": ["No pleural effusion."]}


@pytest.fixture(scope="module")
def rewarder():
    scorer = RewardScorer("bleu")
    yield scorer
    scorer.close()


@pytest.fixture(scope="module")
def url(rewarder):
    with serving(build_app(rewarder, token=TOKEN, limits=SHORT)) as base:
        yield base


def status_of(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0


class Gated:
    """A real ``RewardScorer`` whose calls wait until the test opens the gate, so that a test can
    hold a scoring call open; it records the size of each call."""

    def __init__(self, rewarder: RewardScorer) -> None:
        self.rewarder, self.weights, self.scorer = rewarder, rewarder.weights, rewarder.scorer
        self.gate, self.entered = threading.Event(), threading.Event()
        self.calls: list[int] = []

    def rewards(self, references, candidates):
        self.calls.append(len(references))
        self.entered.set()
        assert self.gate.wait(60)
        return self.rewarder.rewards(references, candidates)


DEEP = b"[" * 100_000
BAD_BODIES = [
    (DEEP, "nested too deeply"),
    (b'{"references": ' + DEEP, "nested too deeply"),
    (b'{"query": [' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"]}", "nested too deeply"),
    (b'{"references": [' + b"7" * 5000 + b'], "candidates": ["a"]}', "not JSON"),
    (b'{"references": ["a"], "candidates": ["b"], "n": 1' + b"0" * 5000 + b"}", "not JSON"),
    (b'{"references": ["a"], "candidates": ["b"], "n": 1e999999}', ""),  # inf is a float: ignored key
    (b"\xff\xfe\x00", "not JSON"),
    (b'{"references": "abc", "candidates": "abc"}', "must be a list of strings"),
    (b'{"references": [null], "candidates": ["a"]}', "references[0] is NoneType"),
]


@pytest.mark.parametrize(("raw", "message"), BAD_BODIES, ids=range(len(BAD_BODIES)))
@pytest.mark.parametrize("path", ["/score", "/get_reward"])
def test_malformed_bodies_get_a_4xx_naming_the_problem(url, path, raw, message):
    if path == "/get_reward":  # OpenRLHF's names for the same lists
        raw = raw.replace(b'"references"', b'"query"').replace(b'"candidates"', b'"prompts"')
        message = message.replace("references", "query")
    status, reply = post(url + path, raw=raw, token=TOKEN)
    if not message:  # a well-formed body whose extra key is ignored
        assert status in (200, 400)
        return
    assert 400 <= status < 500 and message in reply["error"], (status, reply)
    assert "Traceback" not in reply["error"] and "RecursionError" not in reply["error"]


def test_more_pairs_than_a_request_may_hold_is_413(url):
    many = ["No effusion."] * 16_385
    status, reply = post(url + "/score", {"references": many, "candidates": many}, TOKEN)
    assert status == 413 and "at most 16384 per request" in reply["error"]
    status, reply = post(url + "/get_reward", {"query": many, "prompts": many, "labels": many}, TOKEN)
    assert status == 413


def test_a_declared_length_over_the_cap_is_413_before_any_body(url):
    with connect(url) as sock:
        sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n" + AUTH + b"Content-Length: 10485760\r\n\r\n")
        reply = read_reply(sock)
    assert status_of(reply) == 413 and b"over 1,048,576 bytes" in reply


def test_a_chunked_body_is_cut_at_the_cap(url):
    """No Content-Length: the server stops at the cap (413) without waiting for the body's end,
    which never comes here."""
    with connect(url) as sock:
        sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n" + AUTH + b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (64 * 1024, b" " * 64 * 1024)
        sent = 0
        try:
            for _ in range(24):  # 1.5 MiB, past the 1 MiB cap; no terminating 0-chunk
                sock.sendall(chunk)
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading and closed: what is being tested
        reply = read_reply(sock)
    assert status_of(reply) in (413, 0) and sent <= 24
    if reply:
        assert b"over 1,048,576 bytes" in reply
    assert get(url + "/health")[0] == 200


def test_headers_must_arrive_in_time(url):
    idle, slow = connect(url), connect(url)
    slow.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n")  # and then nothing more
    start = time.monotonic()
    assert closed_within(idle, 5) and closed_within(slow, 5)
    assert time.monotonic() - start < 5
    idle.close()
    slow.close()


def test_a_body_must_arrive_in_time(url):
    with connect(url) as sock:
        sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n" + AUTH + b"Content-Length: 100\r\n\r\n{\"refer")
        sock.settimeout(5)
        reply = read_reply(sock)
    assert status_of(reply) == 408 and b"did not arrive within 1 s" in reply


def test_idle_sockets_neither_block_good_requests_nor_stay_open(url):
    port = int(url.rsplit(":", 1)[1])
    sockets = [connect(url) for _ in range(200)]
    try:
        assert post(url + "/score", PAIR, TOKEN, timeout=10)[0] == 200
        deadline = time.monotonic() + 6
        while established(port) > 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert established(port) == 0  # the server closed every one of them
    finally:
        for sock in sockets:
            sock.close()


def test_a_full_queue_answers_503_and_the_queued_work_is_still_answered(rewarder):
    gated = Gated(rewarder)
    batcher = Batcher(gated, max_pending_pairs=8, calls=1)  # type: ignore[arg-type]
    with serving(build_app(gated, token=TOKEN, limits=SHORT, batcher=batcher)) as base:  # type: ignore[arg-type]
        pairs = {"references": PAIR["references"] * 4, "candidates": PAIR["candidates"] * 4}
        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(post, base + "/score", pairs, TOKEN)  # held in the scoring call
            assert gated.entered.wait(10)
            queued = pool.submit(post, base + "/score", {k: v * 2 for k, v in pairs.items()}, TOKEN)
            deadline = time.monotonic() + 10
            while batcher.pending_pairs < 8 and time.monotonic() < deadline:
                time.sleep(0.02)
            status, reply = post(base + "/score", PAIR, TOKEN)
            assert status == 503 and "8 pairs are waiting" in reply["error"]
            gated.gate.set()
            assert first.result()[0] == 200 and queued.result()[0] == 200
        assert post(base + "/score", PAIR, TOKEN)[0] == 200  # room again


def test_the_work_of_a_client_that_left_is_dropped(rewarder):
    gated = Gated(rewarder)
    batcher = Batcher(gated, max_batch_pairs=16, calls=1)  # type: ignore[arg-type]
    with serving(build_app(gated, token=TOKEN, limits=SHORT, batcher=batcher)) as base:  # type: ignore[arg-type]
        with ThreadPoolExecutor(1) as pool:
            held = pool.submit(post, base + "/score", PAIR, TOKEN)
            assert gated.entered.wait(10)
            body = json.dumps({"references": PAIR["references"] * 100, "candidates": PAIR["candidates"] * 100})
            with connect(base) as sock:  # 100 pairs queued behind the held call; then the client leaves
                sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n" + AUTH
                             + b"Content-Length: %d\r\n\r\n%s" % (len(body), body.encode()))
                deadline = time.monotonic() + 10
                while batcher.pending_pairs < 100 and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert batcher.pending_pairs == 100
            deadline = time.monotonic() + 10
            while batcher.pending_pairs and time.monotonic() < deadline:
                time.sleep(0.02)
            assert batcher.pending_pairs == 0 and batcher.dropped_pairs == 100
            gated.gate.set()
            assert held.result()[0] == 200
        assert post(base + "/score", PAIR, TOKEN)[0] == 200
        assert gated.calls == [1, 1]  # the held call and the last one: nothing of the 100 pairs


def test_health_answers_while_a_degenerate_query_is_read(url):
    """A query ending in a megabyte of whitespace (hours for the old trailing-token pattern): read
    in linear time and off the event loop."""
    body = {"query": ["P" + " " * 1_000_000 + "x"], "prompts": ["P"], "labels": ["No effusion."]}
    with ThreadPoolExecutor(1) as pool:
        start = time.monotonic()
        reply = pool.submit(post, url + "/get_reward", body, TOKEN)
        waits = []
        while not reply.done() and time.monotonic() - start < 60:
            t = time.monotonic()
            assert get(url + "/health", timeout=5)[0] == 200
            waits.append(time.monotonic() - t)
            time.sleep(0.05)
        status, answer = reply.result(timeout=60)
    assert status == 200 and len(answer["rewards"]) == 1
    assert time.monotonic() - start < 30 and max(waits, default=0) < 2


def test_a_non_finite_not_scored_value_is_refused(rewarder):
    for value in (math.nan, math.inf):
        with pytest.raises(ValueError, match="finite"):
            build_app(rewarder, not_scored=value)


def serve_reward(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "radscope", "serve-reward", "--metrics", "bleu", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


@pytest.mark.parametrize(("args", "message"), [
    (["--port", "70000"], "not a port number"),
    (["--port", "-1"], "not a port number"),
    (["--not-scored", "nan"], "not a finite number"),
    (["--not-scored", "inf"], "not a finite number"),
    (["--workers", "0"], "at least 1"),
    (["--workers", "-3"], "at least 1"),
    (["--host", "0.0.0.0"], "no token"),
    (["--metrics", "bleu:nan"], "positive numbers"),
    (["--token-file", "/nonexistent/token"], "No such file"),
])
def test_bad_flags_are_one_line_errors(args, message):
    done = serve_reward(*args, env={"RADSCOPE_REWARD_TOKEN": ""})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and message in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_a_one_line_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", free_port()))
        taken.listen()
        done = serve_reward("--port", str(taken.getsockname()[1]))
    errors = [line for line in done.stderr.splitlines() if "rror" in line]
    assert done.returncode != 0 and len(errors) == 1 and "address already in use" in errors[0], done.stderr
    assert "Traceback" not in done.stderr
