"""The reward server against the in-process API, in one run on one machine.

``python -m radscope.engine.bench reward-server --metrics radsem,crepe [--data ReXRank_IUXray_test.json]``
scores the same batches of 256 pairs with ``radscope.engine.rewards.RewardScorer`` in this process and
through ``POST /score`` of a server started as ``python -m radscope.engine.reward_server`` in a child
process (the same work plus HTTP and JSON), batch by batch in turn so that other load on the
machine slows both alike, and gives pairs/s of each and their ratio; then the latency of
one-pair requests (p50 / p99, sequential, in turn) and the throughput of 16 clients sending one
pair each at once (gathered into batches by the server). Each side is its own process for the
texts it scores (the reader caches by text, per process), so both read the same texts fresh;
both get one warm-up batch first. Pairs as ``radscope.engine.bench.scale`` builds them.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from radscope.layout import repository_root

ROOT = repository_root()


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as reply:
        return json.loads(reply.read())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(metrics: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "radscope.engine.reward_server", "--metrics", metrics,
                             "--port", str(port)], cwd=ROOT, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the reward server exited with status {proc.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("the reward server did not start within 120 s")


def _percentiles(ms: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(ms, n=100, method="inclusive")
    return {"p50_ms": round(statistics.median(ms), 2), "p99_ms": round(cuts[98], 2), "n": len(ms)}


def cmd_reward_server(args: argparse.Namespace) -> int:
    from radscope.engine.bench.cli import machine_info
    from radscope.engine.bench.scale import load_reports, synthetic_pairs
    from radscope.engine.rewards import RewardScorer

    reports, source = load_reports(args.data)
    pairs = synthetic_pairs(reports, args.batch * (args.batches + 1) + args.latency_n + args.clients * 4)
    batches = [pairs[i * args.batch:(i + 1) * args.batch] for i in range(args.batches + 1)]
    singles = pairs[len(batches) * args.batch:]
    report: dict[str, Any] = {"benchmark": "reward-server", "machine": machine_info(), "data": source,
                              "metrics": args.metrics, "batch": args.batch, "batches": args.batches}

    rewarder = RewardScorer(args.metrics)
    port = _free_port()
    url = f"http://127.0.0.1:{port}/score"
    server = _start_server(args.metrics, port)
    sides = {"in_process": lambda b: rewarder.rewards([r for r, _ in b], [c for _, c in b]),
             "server": lambda b: _post(url, {"references": [r for r, _ in b], "candidates": [c for _, c in b]})}
    try:
        # Batch by batch in turn, so that a busy machine slows both sides alike.
        seconds = {side: 0.0 for side in sides}
        latency: dict[str, list[float]] = {side: [] for side in sides}
        for score in sides.values():
            score(batches[0])  # warm-up: models loaded, worker started, first texts read
        for batch in batches[1:]:
            for side, score in sides.items():
                start = time.perf_counter()
                score(batch)
                seconds[side] += time.perf_counter() - start
        for ref, cand in singles[:args.latency_n]:
            for side, score in sides.items():
                start = time.perf_counter()
                score([(ref, cand)])
                latency[side].append(1000 * (time.perf_counter() - start))
        rest = singles[args.latency_n:]
        with ThreadPoolExecutor(args.clients) as pool:
            start = time.perf_counter()
            list(pool.map(lambda p: _post(url, {"references": [p[0]], "candidates": [p[1]]}), rest))
            concurrent = len(rest) / (time.perf_counter() - start)
        health = json.loads(urllib.request.urlopen(url.replace("/score", "/health"), timeout=10).read())
    finally:
        server.terminate()
        server.wait(30)
        rewarder.close()
    n = args.batch * args.batches
    in_process, served = n / seconds["in_process"], n / seconds["server"]
    one, latency_server = latency["in_process"], latency["server"]
    report.update({
        "in_process_pairs_per_s": round(in_process, 1), "server_pairs_per_s": round(served, 1),
        "server_vs_in_process": round(served / in_process, 3),
        "one_pair_in_process": _percentiles(one), "one_pair_server": _percentiles(latency_server),
        "concurrent_clients": args.clients, "concurrent_one_pair_pairs_per_s": round(concurrent, 1),
        "server_batches": health["batches"]})
    print(f"batch {args.batch}: in-process {report['in_process_pairs_per_s']} pairs/s, server "
          f"{report['server_pairs_per_s']} pairs/s (ratio {report['server_vs_in_process']})")
    print(f"one pair: in-process p50 {report['one_pair_in_process']['p50_ms']} ms / p99 "
          f"{report['one_pair_in_process']['p99_ms']} ms; server p50 {report['one_pair_server']['p50_ms']} "
          f"ms / p99 {report['one_pair_server']['p99_ms']} ms")
    print(f"{args.clients} clients, one pair each: {report['concurrent_one_pair_pairs_per_s']} pairs/s")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reward-server", help="reward server vs in-process API: pairs/s at batch 256, "
                       "one-pair latency p50 / p99")
    p.add_argument("--data", help="ReXRank_IUXray_test.json (default: the example pairs)")
    p.add_argument("--metrics", default="radsem,crepe")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--batches", type=int, default=4, help="timed batches (after one warm-up)")
    p.add_argument("--latency-n", type=int, default=200, help="one-pair requests timed")
    p.add_argument("--clients", type=int, default=16, help="concurrent one-pair clients")
    p.add_argument("--out", default="bench-results/reward_server.json")
    p.set_defaults(func=cmd_reward_server)
