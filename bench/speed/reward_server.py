"""The reward server against the in-process API, in one run on one machine.

``python -m bench reward-server --metrics radsem,crepe [--data ReXRank_IUXray_test.json]``
scores the same pairs with ``radscope.engine.rewards.scorer.RewardScorer`` in this process and through a
server started as ``python -m radscope.engine.rewards.server`` in a child process, round by round
in turn so that other load on the machine slows both alike:

- batches of 256 pairs: in-process against ``POST /score`` (the same work plus HTTP and JSON);
- the way OpenRLHF (>= 0.10) calls: ``--clients`` (32) clients at once, in ``--client-processes``
  (4) processes as from several actors, each posting one sample per request to
  ``POST /get_reward`` on a new connection (as ``requests.post`` does), against
  the same pairs in-process in batches of 256; the server gathers the samples (micro-batching);
- one-pair latency (p50 / p99, sequential, in turn).

Each side is its own process for the texts it scores (the reader caches by text, per process),
so both read the same texts fresh; both get one warm-up batch first. Pairs as
``bench.speed.scale`` builds them.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

from radscope.layout import repository_root

ROOT = repository_root()


TOKEN = "bench-" + os.urandom(8).hex()  # the server's token, so that /health gives its counters
PROMPT = "<|im_start|>user\nWrite the findings and impression.<|im_end|>\n<|im_start|>assistant\n"


def _post(url: str, body: dict[str, Any], token: str = TOKEN) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=600) as reply:
        return json.loads(reply.read())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(metrics: str, port: int, log: IO[bytes] | None = None,
                  descriptor_limit: int | None = None) -> subprocess.Popen[bytes]:
    """The real reward server on ``port``: its log to ``log`` (else discarded), its descriptors
    limited to ``descriptor_limit`` (``ulimit -n``) when given."""
    def limit() -> None:
        if descriptor_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptor_limit, descriptor_limit))

    proc = subprocess.Popen([sys.executable, "-m", "radscope.engine.rewards.server", "--metrics", metrics,
                             "--port", str(port)], cwd=ROOT, stderr=log or subprocess.DEVNULL,
                            preexec_fn=limit,
                            env={**os.environ, "RADSCOPE_REWARD_TOKEN": TOKEN,  # the caller's path kept after ours
                                 "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))})
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


def process_tree(pid: int) -> list[int]:
    """A process and its living descendants, from /proc (Linux): the server's HTTP process and
    its scoring processes (``reward_process``)."""
    children = [int(c) for task in Path(f"/proc/{pid}/task").iterdir()
                for c in (task / "children").read_text().split()]
    return [pid, *(p for child in children for p in process_tree(child))]


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system, all threads) a process and its living descendants have used."""
    total = 0
    for member in process_tree(pid):
        fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _health(base: str) -> dict[str, Any]:
    request = urllib.request.Request(base + "/health", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return dict(json.loads(reply.read()))


def _one_sample(url: str, pair: tuple[str, str], token: str = TOKEN) -> float:
    """One OpenRLHF sample (prompt + response) posted alone; its reward."""
    reply = _post(url, {"query": [PROMPT + pair[1] + "<|im_end|>"], "prompts": [PROMPT], "labels": [pair[0]]},
                  token)
    return float(reply["rewards"][0])


def _client_process(url: str, token: str, pairs: list[tuple[str, str]], threads: int) -> tuple[list[float], float]:
    """One client process's share of a round: ``threads`` clients posting one sample each at a
    time; the rewards in order and the CPU seconds this process spent."""
    start = time.process_time()
    with ThreadPoolExecutor(threads) as pool:
        rewards = list(pool.map(lambda p: _one_sample(url, p, token), pairs))
    return rewards, time.process_time() - start


def cmd_reward_server(args: argparse.Namespace) -> int:
    from bench.common import machine_info
    from bench.speed.scale import load_reports, synthetic_pairs
    from radscope.engine.rewards.scorer import RewardScorer

    reports, source = load_reports(args.data)
    need = args.batch * (1 + args.batches + args.rounds) + args.latency_n
    pairs = synthetic_pairs(reports, need)
    cut = [pairs[i * args.batch:(i + 1) * args.batch] for i in range(1 + args.batches + args.rounds)]
    warm, batches, rounds = cut[0], cut[1:1 + args.batches], cut[1 + args.batches:]
    singles = pairs[len(cut) * args.batch:]
    report: dict[str, Any] = {"benchmark": "reward-server", "machine": machine_info(), "data": source,
                              "metrics": args.metrics, "batch": args.batch, "batches": args.batches,
                              "rounds": args.rounds, "clients": args.clients,
                              "client_processes": args.client_processes}

    rewarder = RewardScorer(args.metrics)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start_server(args.metrics, port)
    sides = {"in_process": lambda b: rewarder.rewards([r for r, _ in b], [c for _, c in b]),
             "server": lambda b: _post(base + "/score", {"references": [r for r, _ in b],
                                                         "candidates": [c for _, c in b]})}
    try:
        for score in sides.values():
            score(warm)  # warm-up: models loaded, worker started, first texts read
        seconds = _timed_batches(sides, batches)
        gathered, cpu, busy, differences = _one_sample_rounds(args, base, server.pid, rewarder,
                                                              warm, rounds)
        latency = _latencies(sides, singles[:args.latency_n])
        health = _health(base)
    finally:
        server.terminate()
        server.wait(30)
        rewarder.close()
    n, m = args.batch * args.batches, args.batch * args.rounds
    in_process, served = n / seconds["in_process"], n / seconds["server"]
    batch_rate, client_rate = m / gathered["in_process"], m / gathered["clients"]
    report.update({
        "in_process_pairs_per_s": round(in_process, 1), "server_pairs_per_s": round(served, 1),
        "server_vs_in_process": round(served / in_process, 3),
        "one_sample_clients": {"in_process_batch_pairs_per_s": round(batch_rate, 1),
                               "clients_pairs_per_s": round(client_rate, 1),
                               "ratio": round(client_rate / batch_rate, 3), "pairs": m,
                               "server_batches": busy["batches"],
                               "server_scoring_share": round(busy["scoring_s"] / gathered["clients"], 3),
                               "cpu_ms_per_pair": {side: round(1000 * v / m, 3) for side, v in cpu.items()},
                               "rewards_differing": len(differences),
                               "largest_difference": max(differences, default=0.0)},
        "one_pair_in_process": _percentiles(latency["in_process"]),
        "one_pair_server": _percentiles(latency["server"]),
        "server_batches": health["batches"]})
    print(f"batch {args.batch}: in-process {report['in_process_pairs_per_s']} pairs/s, server /score "
          f"{report['server_pairs_per_s']} pairs/s (ratio {report['server_vs_in_process']})")
    print(f"{args.clients} clients in {args.client_processes} processes x one sample, /get_reward: {client_rate:.1f} pairs/s against the same pairs "
          f"in-process in batches of {args.batch}: {batch_rate:.1f} pairs/s (ratio {client_rate / batch_rate:.3f}, "
          f"{m} pairs in {busy['batches']} server batches, scoring {report['one_sample_clients']['server_scoring_share']:.0%} "
          f"of the time; {len(differences)} rewards differ from the batch's, by up to {max(differences, default=0.0):.3g})")
    print("CPU ms per pair: " + ", ".join(f"{k} {v}" for k, v in report["one_sample_clients"]["cpu_ms_per_pair"].items()))
    print(f"one pair: in-process p50 {report['one_pair_in_process']['p50_ms']} ms / p99 "
          f"{report['one_pair_in_process']['p99_ms']} ms; server p50 {report['one_pair_server']['p50_ms']} "
          f"ms / p99 {report['one_pair_server']['p99_ms']} ms")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"report written to {args.out}")
    return 0


def _timed_batches(sides: dict[str, Any], batches: list[list[tuple[str, str]]]) -> dict[str, float]:
    """Seconds each side spends on the same batches, batch by batch in turn, so that a busy
    machine slows both alike."""
    seconds = {side: 0.0 for side in sides}
    for batch in batches:
        for side, score in sides.items():
            start = time.perf_counter()
            score(batch)
            seconds[side] += time.perf_counter() - start
    return seconds


def _one_sample_rounds(args: argparse.Namespace, base: str, server_pid: int, rewarder: Any,
                       warm: list[tuple[str, str]], rounds: list[list[tuple[str, str]]],
                       ) -> tuple[dict[str, float], dict[str, float], dict[str, float], list[float]]:
    """Each round's pairs scored in-process in one batch, then posted one sample a request by
    the clients (as OpenRLHF calls): wall seconds and CPU seconds per side, the server's batches
    and scoring seconds, and how far the rewards that differ from the batch's are off."""
    gathered = {"in_process": 0.0, "clients": 0.0}
    differences: list[float] = []
    busy = {"batches": 0, "scoring_s": 0.0}
    cpu = {"in_process": 0.0, "server": 0.0, "clients": 0.0}
    # The clients run in --client-processes processes (OpenRLHF posts from several actors):
    # 32 client threads in one interpreter could not send fast enough for a server on its own cores.
    per = max(1, args.clients // args.client_processes)
    with ProcessPoolExecutor(args.client_processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_client_process, [base + "/get_reward"] * args.client_processes,
                      [TOKEN] * args.client_processes, [warm[:per]] * args.client_processes,
                      [per] * args.client_processes))  # start the processes and their imports
        for chunk in rounds:
            start, mine = time.perf_counter(), time.process_time()
            want = rewarder.rewards([r for r, _ in chunk], [c for _, c in chunk]).filled(0.0)
            gathered["in_process"] += time.perf_counter() - start
            cpu["in_process"] += time.process_time() - mine
            before = _health(base)
            start, theirs = time.perf_counter(), _cpu_s(server_pid)
            size = -(-len(chunk) // args.client_processes)
            slices = [chunk[i:i + size] for i in range(0, len(chunk), size)]
            answers = list(pool.map(_client_process, [base + "/get_reward"] * len(slices),
                                    [TOKEN] * len(slices), slices, [per] * len(slices)))
            gathered["clients"] += time.perf_counter() - start
            got = [r for rewards, _ in answers for r in rewards]
            cpu["clients"] += sum(spent for _, spent in answers)
            cpu["server"] += _cpu_s(server_pid) - theirs
            after = _health(base)
            busy["batches"] += after["batches"] - before["batches"]
            busy["scoring_s"] += after["scoring_s"] - before["scoring_s"]
            differences += [abs(g - w) for g, w in zip(got, want, strict=True) if g != w]
    return gathered, cpu, busy, differences


def _latencies(sides: dict[str, Any], singles: list[tuple[str, str]]) -> dict[str, list[float]]:
    """Milliseconds each side takes to score one pair, pair by pair in turn."""
    latency: dict[str, list[float]] = {side: [] for side in sides}
    for ref, cand in singles:
        for side, score in sides.items():
            start = time.perf_counter()
            score([(ref, cand)])
            latency[side].append(1000 * (time.perf_counter() - start))
    return latency


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reward-server", help="reward server vs in-process API: pairs/s at batch 256, "
                       "32 one-sample clients against in-process batches, one-pair latency p50 / p99")
    p.add_argument("--data", help="ReXRank_IUXray_test.json (default: the example pairs)")
    p.add_argument("--metrics", default="radsem,crepe")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--batches", type=int, default=4, help="timed batches (after one warm-up)")
    p.add_argument("--latency-n", type=int, default=200, help="one-pair requests timed")
    p.add_argument("--rounds", type=int, default=4, help="rounds of --batch pairs sent by the one-sample clients")
    p.add_argument("--clients", type=int, default=32, help="concurrent one-sample clients")
    p.add_argument("--client-processes", type=int, default=4,
                   help="processes the clients are spread over (default 4, each with clients / 4 threads)")
    p.add_argument("--out", default="bench-results/reward_server.json")
    p.set_defaults(func=cmd_reward_server)
