"""The reward server's soak: minutes of good, hostile and abandoned requests at once on 127.0.0.1.

``python -m bench reward-soak --minutes 10 [--metrics radsem]`` starts
``python -m radscope.engine.rewards.server`` in a child process with a token and, for the whole
time, runs in threads:

- good clients (``--good``, 4): one-sample ``/get_reward`` requests and ``/score`` batches of 1 to
  32 pairs, each of which must be answered 200 with one reward per sample;
- hostile clients (6 at once, each waiting 0.2 s between requests): 100,000-deep nesting, a 5,000-digit number, bytes that are not JSON, a wrong
  token, 16,385 pairs, a Content-Length over the cap, a chunked body that never ends (every
  ``--big-every`` seconds one that passes the 64 MiB cap), a body that stops half way;
- slow and idle connections (``--slow``, 40 held at a time): partial headers, then silence;
- abandoned requests (one a second): 200 pairs sent, then the connection closed without reading
  the reply (counted under -1: nothing is read).

Every 5 s it samples the server's resident memory, open file descriptors and established
connections, and ``/health``'s queue. It reports the good requests sent and answered, what each
hostile kind got back, and memory / descriptors / connections over the run (first and last
minute after a one-minute warm-up, and the largest), then whether they stayed flat.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from bench.speed.reward_server import PROMPT, TOKEN, _free_port, _start_server, process_tree

REFS = ["Small left pleural effusion. Mild cardiomegaly.", "No acute cardiopulmonary process.",
        "Right lower lobe opacity concerning for pneumonia.", "Stable mild cardiomegaly. No pneumothorax."]
CANDS = ["No pleural effusion. Heart size is normal.", "Lungs are clear. No acute process.",
         "Right basilar pneumonia.", "Mild cardiomegaly, unchanged. No pneumothorax."]


def _good_request(base: str, path: str, body: bytes) -> tuple[int, Any, bool]:
    """A trainer's request: sent again once after the server's ``Retry-After`` when it answers
    503 (every connection of its cap busy, as under descriptor exhaustion); whether it was."""
    status, reply = _request(base, path, body)
    if status != 503:
        return status, reply, False
    time.sleep(1.0)
    status, reply = _request(base, path, body)
    return status, reply, True


def _request(base: str, path: str, body: bytes, token: str | None = TOKEN,
             timeout: float = 120) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, None
    except OSError:
        return 0, None  # connection closed or reset by the server


def _raw(base: str, head: bytes, body: bytes = b"", then_read: bool = True, timeout: float = 30) -> int:
    """Send ``head`` + ``body`` on a fresh socket; the status the server answers (0: closed)."""
    host, port = base.removeprefix("http://").split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as sock:
            sock.sendall(head + body)
            if not then_read:
                return -1
            data = sock.recv(64)
            return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        return 0


def _chunked(base: str, total: int) -> int:
    """A chunked upload of ``total`` bytes with no end; the server's answer."""
    host, port = base.removeprefix("http://").split(":")
    chunk = b"%x\r\n%s\r\n" % (256 * 1024, b" " * 256 * 1024)
    try:  # waits past the server's 60 s body deadline: its 408 is the answer
        with socket.create_connection((host, int(port)), timeout=90) as sock:
            sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode()
                         + b"\r\nTransfer-Encoding: chunked\r\n\r\n")
            try:
                for _ in range(total // (256 * 1024)):
                    sock.sendall(chunk)
            except OSError:
                pass
            data = sock.recv(64)
            return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        return 0


def _hostile(base: str, kind: str) -> int:
    auth = b"Authorization: Bearer " + TOKEN.encode() + b"\r\n"
    post = b"POST /score HTTP/1.1\r\nHost: x\r\n" + auth
    bodies = {
        "deep_nesting": b"[" * 100_000,
        "huge_number": b'{"references": [' + b"7" * 5000 + b'], "candidates": ["a"]}',
        "not_json": b"\xff\xfe{{{",
        "too_many_pairs": json.dumps({"references": ["a"] * 16_385, "candidates": ["b"] * 16_385}).encode(),
    }
    if kind in bodies:
        return _request(base, "/score", bodies[kind])[0]
    if kind == "wrong_token":
        return _request(base, "/score", b'{"references": ["a"], "candidates": ["b"]}', token="nope")[0]
    if kind == "declared_too_large":
        return _raw(base, post + b"Content-Length: 999999999999\r\n\r\n")
    if kind == "half_body":
        return _raw(base, post + b"Content-Length: 1000\r\n\r\n", b'{"references": [', timeout=120)
    if kind == "chunked_no_end":
        return _chunked(base, 2 * 1024 * 1024)
    raise ValueError(kind)


HOSTILE = ["deep_nesting", "huge_number", "not_json", "too_many_pairs", "wrong_token", "declared_too_large",
           "half_body", "chunked_no_end"]


def _proc(pid: int) -> tuple[int, int]:
    """Resident memory (KiB) and open descriptors of a process and its descendants (the server's
    HTTP process and its scoring process, ``reward_process``)."""
    rss = fds = 0
    for member in process_tree(pid):
        rss += next(int(line.split()[1]) for line in Path(f"/proc/{member}/status").read_text().splitlines()
                    if line.startswith("VmRSS:"))
        fds += len(os.listdir(f"/proc/{member}/fd"))
    return rss, fds


def _established(port: int) -> int:
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "01" and int(fields[1].split(":")[1], 16) == port:
            count += 1
    return count


def soak(metrics: str, seconds: float, good: int = 4, hostiles: int = 6, slow: int = 40, big_every: float = 60.0,
         big_bytes: int = 70 * 1024 * 1024, sample_s: float = 5.0, descriptor_limit: int | None = None,
         exhaust_every: float | None = None) -> dict[str, Any]:
    """Run the soak; the figures (see the module docstring). With ``descriptor_limit`` the
    server runs under that ``ulimit -n``; with ``exhaust_every`` too, every that many seconds a
    client opens 20 more half-header sockets than the limit and holds them until the next round."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_file = tempfile.NamedTemporaryFile(prefix="reward-soak-", suffix=".log", delete=False)  # noqa: SIM115
    server = _start_server(metrics, port, log=log_file, descriptor_limit=descriptor_limit)
    stop = threading.Event()
    lock = threading.Lock()
    goods: Counter[str] = Counter()
    hostile: dict[str, Counter[int]] = {kind: Counter() for kind in [*HOSTILE, "abandoned", "big",
                                                                     "exhausting_sockets"]}
    slow_held: list[float] = []

    def good_client(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            i = rng.randrange(10**9)
            if rng.random() < 0.5:
                body = {"query": [PROMPT + f"{CANDS[i % 4]} Case {i}.<|im_end|>"], "prompts": [PROMPT],
                        "labels": [REFS[i % 4]]}
                status, reply, retried = _good_request(base, "/get_reward", json.dumps(body).encode())
                ok = status == 200 and reply is not None and len(reply["rewards"]) == 1
            else:
                n = rng.randint(1, 32)
                body = {"references": [REFS[(i + k) % 4] for k in range(n)],
                        "candidates": [f"{CANDS[(i + k) % 4]} Case {i}-{k}." for k in range(n)]}
                status, reply, retried = _good_request(base, "/score", json.dumps(body).encode())
                ok = status == 200 and reply is not None and len(reply["rewards"]) == n
            with lock:
                goods["sent"] += 1
                goods["answered" if ok else f"failed_{status}"] += 1
                goods["retried_after_503"] += retried

    def hostile_client(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            kind = rng.choice(HOSTILE)
            status = _hostile(base, kind)
            with lock:
                hostile[kind][status] += 1
            stop.wait(0.2)

    def abandoning_client() -> None:
        body = json.dumps({"references": REFS * 50, "candidates": CANDS * 50}).encode()
        head = (b"POST /score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode()
                + b"\r\nContent-Length: %d\r\n\r\n" % len(body))
        while not stop.is_set():
            _raw(base, head, body, then_read=False)
            with lock:
                hostile["abandoned"][-1] += 1
            stop.wait(1.0)

    def slow_client() -> None:
        host, _ = base.removeprefix("http://").split(":")
        while not stop.is_set():
            try:
                with socket.create_connection((host, port), timeout=120) as sock:
                    sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n")  # and then silence
                    start = time.monotonic()
                    while sock.recv(1024):
                        pass
                    with lock:
                        slow_held.append(time.monotonic() - start)
            except OSError:
                pass

    def big_client() -> None:
        while not stop.wait(big_every):
            status = _chunked(base, big_bytes)
            with lock:
                hostile["big"][status] += 1

    def exhausting_client() -> None:
        assert descriptor_limit is not None and exhaust_every is not None
        held: list[socket.socket] = []
        while not stop.is_set():
            for sock in held:
                sock.close()
            held = []
            for _ in range(descriptor_limit + 20):
                try:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                    sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n")  # half a header
                    held.append(sock)
                except OSError:
                    break
            with lock:
                hostile["exhausting_sockets"][len(held)] += 1
            stop.wait(exhaust_every)
        for sock in held:
            sock.close()

    threads = [threading.Thread(target=good_client, args=(s,), daemon=True) for s in range(good)]
    threads += [threading.Thread(target=hostile_client, args=(100 + s,), daemon=True) for s in range(hostiles)]
    threads += [threading.Thread(target=abandoning_client, daemon=True),
                threading.Thread(target=big_client, daemon=True)]
    threads += [threading.Thread(target=slow_client, daemon=True) for _ in range(slow)]
    if descriptor_limit is not None and exhaust_every is not None:
        threads.append(threading.Thread(target=exhausting_client, daemon=True))
    samples: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        for thread in threads:
            thread.start()
        while time.monotonic() - started < seconds:
            time.sleep(sample_s)
            rss, fds = _proc(server.pid)
            request = urllib.request.Request(base + "/health", headers={"Authorization": f"Bearer {TOKEN}"})
            with urllib.request.urlopen(request, timeout=30) as reply:
                health = json.loads(reply.read())
            samples.append({"t": round(time.monotonic() - started, 1), "rss_mib": round(rss / 1024, 1),
                            "fds": fds, "connections": _established(port),
                            "pending_pairs": health["pending_pairs"], "dropped_pairs": health["dropped_pairs"]})
        stop.set()
        for thread in threads:
            thread.join(150)
        time.sleep(12)  # the header deadline (10 s) closes what the last slow clients left
        rss, fds = _proc(server.pid)
        after = {"rss_mib": round(rss / 1024, 1), "fds": fds, "connections": _established(port)}
    finally:
        stop.set()
        server.terminate()
        server.wait(30)
        log_file.close()
    log_bytes = Path(log_file.name).stat().st_size
    return {**_summary(seconds, goods, hostile, slow_held, samples, after), "log_bytes": log_bytes,
            "log": log_file.name, "descriptor_limit": descriptor_limit, "exhaust_every_s": exhaust_every}


def _summary(seconds: float, goods: Counter[str], hostile: dict[str, Counter[int]], slow_held: list[float],
             samples: list[dict[str, Any]], after: dict[str, Any]) -> dict[str, Any]:
    warm = [s for s in samples if s["t"] > 60] or samples
    first = [s for s in warm if s["t"] <= warm[0]["t"] + 60]
    last = [s for s in warm if s["t"] >= warm[-1]["t"] - 60]

    def median(rows: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(r[key] for r in rows))

    figures = {key: {"first_minute": median(first, key), "last_minute": median(last, key),
                     "max": max(s[key] for s in samples)} for key in ("rss_mib", "fds", "connections")}
    flat = (figures["rss_mib"]["last_minute"] <= figures["rss_mib"]["first_minute"] * 1.10 + 16
            and figures["fds"]["last_minute"] <= figures["fds"]["first_minute"] + 20)
    return {"benchmark": "reward-soak", "seconds": seconds, "good": dict(goods),
            "every_good_answered": goods["sent"] > 0 and goods["answered"] == goods["sent"],
            "hostile": {kind: {str(k): v for k, v in c.items()} for kind, c in hostile.items()},
            "slow_connections_closed": len(slow_held),
            "slow_held_s": {"median": round(statistics.median(slow_held), 2), "max": round(max(slow_held), 2)}
            if slow_held else {},
            "figures": figures, "after_stop": after, "flat": flat, "samples": samples}


def cmd_reward_soak(args: argparse.Namespace) -> int:
    from bench.common import machine_info

    report = {"machine": machine_info(), "metrics": args.metrics,
              **soak(args.metrics, args.minutes * 60, good=args.good, slow=args.slow, big_every=args.big_every,
                     descriptor_limit=args.descriptor_limit, exhaust_every=args.exhaust_every)}
    good, figures = report["good"], report["figures"]
    print(f"{args.minutes:g} min: {good.get('sent', 0)} good requests, {good.get('answered', 0)} answered "
          f"({'all' if report['every_good_answered'] else 'NOT all'})")
    for kind, outcome in report["hostile"].items():
        print(f"  {kind}: {outcome}")
    print(f"  slow connections closed by the server: {report['slow_connections_closed']} "
          f"(held {report['slow_held_s']})")
    for key, values in figures.items():
        print(f"  {key}: first minute {values['first_minute']}, last minute {values['last_minute']}, max {values['max']}")
    print(f"  after the load stopped: {report['after_stop']}; flat: {report['flat']}")
    print(f"  the server's log: {report['log_bytes']:,} bytes ({report['log']})")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"report written to {args.out}")
    return 0 if report["every_good_answered"] and report["flat"] else 1


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reward-soak", help="the reward server under minutes of good, hostile and abandoned "
                       "requests: every good one answered, memory and sockets flat")
    p.add_argument("--metrics", default="radsem")
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--good", type=int, default=4, help="good clients at once")
    p.add_argument("--slow", type=int, default=40, help="slow connections held at once")
    p.add_argument("--big-every", type=float, default=60.0, help="seconds between chunked uploads past 64 MiB")
    p.add_argument("--descriptor-limit", type=int, default=None,
                   help="run the server under this 'ulimit -n' (e.g. 300)")
    p.add_argument("--exhaust-every", type=float, default=None,
                   help="with --descriptor-limit: every this many seconds, open 20 more half-header "
                   "sockets than the limit and hold them (descriptor exhaustion)")
    p.add_argument("--out", default="bench-results/reward_soak.json")
    p.set_defaults(func=cmd_reward_soak)
