"""What Ray costs on one machine: the local process pool against a local Ray, in one run.

``python -m bench ray --n 10000`` scores the same synthetic pairs (IU X-ray reports
crossed as in ``bench.speed.scale``; the example pairs without ``--data``) with the CLI twice,
each in a fresh process with its own RadScope home: ``--workers`` N (the process pool) and
``--engine ray`` (a local Ray of N CPUs started by the run), and records wall time, CPU time and
peak RSS of each, and whether the two gave the same means and intervals. Then it starts two
judge servers on 127.0.0.1 and scores ``--judge-n`` pairs with the VERT LLM judge through both
(``--judge-url A,B``): the local runner with ``--concurrency 4``, then Ray with two model actors
of two calls each (different pairs for each run, so that neither reads the other's answers from
a server's prompt cache). The servers are ``bench.doubles.judge_standin`` (a fixed delay per
call: what the engine adds around judge calls) or, with ``--judge-server llama``, llama-cpp-
python's server with the demo GGUF (``--server-python``: a Python that has it); either way the
VERT scores mean nothing here.

CPU time: this process becomes a child subreaper, so Ray's worker processes, orphaned when the
run stops its raylet, are reaped here and their CPU time counted (``RUSAGE_CHILDREN``).
"""
from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.speed.scale import (
    ROOT,
    SAMPLE_S,
    _tree_rss_kb,
    load_reports,
    synthetic_pairs,
    write_pairs,
)

_PR_SET_CHILD_SUBREAPER = 36
JUDGE_MODEL = "gemma3-270m-demo"


def _become_subreaper() -> None:
    """Orphaned descendants (Ray's workers) are handed to this process, which reaps them."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def _reap(keep: Sequence[int], timeout_s: float = 60.0) -> None:
    """Wait for every child except ``keep`` (the judge servers) to exit, so its CPU is counted."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        children = [int(p) for p in Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
                    .read_text().split() if int(p) not in keep]
        if not children:
            return
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(SAMPLE_S)


def measured(command: list[str], env: dict[str, str], keep: Sequence[int] = ()) -> dict[str, Any]:
    """Wall time, CPU time of the whole process tree (reaped orphans included), peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss_kb(proc.pid))
        time.sleep(SAMPLE_S)
    wall = time.perf_counter() - start
    err = proc.stderr.read() if proc.stderr else ""
    _reap(keep)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"rc": proc.returncode, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "peak_rss_mb": round(peak / 1024, 1), **({"stderr_tail": err[-2000:]} if proc.returncode else {})}


def score(pairs: Path, metrics: str, extra: list[str], keep: Sequence[int] = ()) -> dict[str, Any]:
    """One CLI run in a fresh home; its figures, means and intervals."""
    with tempfile.TemporaryDirectory(prefix="radscope-raybench-") as tmp:
        work = Path(tmp)
        command = [sys.executable, "-m", "radscope.engine", "score", "--input", str(pairs), "--metrics", metrics,
                   "--out", str(work / "out.jsonl"), "--summary", str(work / "summary.json"),
                   "--db", str(work / "store.sqlite"), "--no-progress", *extra]
        figures = measured(command, {**os.environ, "RADSCOPE_HOME": str(work / "home")}, keep)
        if figures["rc"] == 0:
            summary = json.loads((work / "summary.json").read_text())
            figures["means_ci"] = {m: [s["mean"], s["ci_low"], s["ci_high"], s["n"], s["n_errors"]]
                                   for m, s in summary["metrics"].items()}
            figures["model_calls"] = summary["model_calls"]
    return figures


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(command: list[str]) -> tuple[subprocess.Popen, str]:
    """A judge server on a free port of 127.0.0.1 (``command`` + ``--port N``); its base URL."""
    port = _free_port()
    proc = subprocess.Popen([*command, "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"judge server {command[:3]} did not come up on {url}")


def server_command(args: argparse.Namespace) -> tuple[list[str], str, str] | str:
    """(command, model name, JSON dialect) of the judge servers, or why none can start."""
    if args.judge_server == "standin":
        return ([sys.executable, "-m", "bench.doubles.judge_standin", "--delay-ms", str(args.judge_delay_ms),
                 "--model", "judge-standin"], "judge-standin", "json_object")
    gguf = _server_gguf(args.server_python)
    if gguf is None:
        return f"{args.server_python} cannot run llama_cpp.server with the demo GGUF"
    return ([args.server_python, "-m", "radscope.models.llama_server", "--model", gguf, "--model_alias", JUDGE_MODEL,
             "--chat_format", "gemma", "--n_ctx", "4096", "--n_threads", "1", "--n_threads_batch", "1",
             "--verbose", "False", "--host", "127.0.0.1"], JUDGE_MODEL, "json_object")


def _server_gguf(python: str) -> str | None:
    """The demo GGUF's path as the server's environment resolves it (None: no llama.cpp there)."""
    probe = subprocess.run(
        [python, "-c", "import llama_cpp.server.app; from radscope.models.resolve import resolve; "
         f"print(resolve({JUDGE_MODEL!r}, task='judge').path)"],
        cwd=ROOT, capture_output=True, text=True)
    return probe.stdout.strip() if probe.returncode == 0 else None


def judge_part(reports: list[str], args: argparse.Namespace, work: Path) -> dict[str, Any]:
    server = server_command(args)
    if isinstance(server, str):
        return {"skipped": server}
    command, model, dialect = server
    n = args.judge_n
    pairs = synthetic_pairs(reports, 2 * n + args.n)[args.n:]  # not the pairs scored above
    local_pairs, ray_pairs = work / "judge_local.jsonl", work / "judge_ray.jsonl"
    write_pairs(pairs[:n], local_pairs)
    write_pairs(pairs[n:], ray_pairs)
    servers = [start_server(command) for _ in range(2)]
    try:
        judge = ["--extractor", "llm", "--judge-url", ",".join(url for _, url in servers),
                 "--judge-model", model, "--json-dialect", dialect]
        keep = [proc.pid for proc, _ in servers]
        label = (f"bench.doubles.judge_standin, {args.judge_delay_ms:g} ms per call"
                 if args.judge_server == "standin" else "llama_cpp.server, demo GGUF, 1 thread")
        return {"n": n, "metric": "vert --extractor llm", "servers": label,
                "local_concurrency_4": score(local_pairs, "vert", [*judge, "--concurrency", "4"], keep),
                "ray_2_actors_x_2": score(ray_pairs, "vert", [
                    *judge, "--engine", "ray", "--ray-cpus", str(args.cpus), "--model-actors", "2",
                    "--model-actor-cpus", "0.5", "--concurrency", "2", "--block-size", "16"], keep)}
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=30)


def cmd_ray(args: argparse.Namespace) -> int:
    _become_subreaper()
    reports, source = load_reports(args.data)
    out: dict[str, Any] = {"pairs_from": source, "n": args.n, "metrics": args.metrics, "cpus": args.cpus}
    with tempfile.TemporaryDirectory(prefix="radscope-raybench-") as tmp:
        work = Path(tmp)
        pairs = work / "pairs.jsonl"
        write_pairs(synthetic_pairs(reports, args.n), pairs)
        rules = ["--extractor", "rules"]
        out["process_pool"] = score(pairs, args.metrics, [*rules, "--workers", str(args.cpus)])
        out["ray"] = score(pairs, args.metrics, [*rules, "--engine", "ray", "--ray-cpus", str(args.cpus),
                                                 "--block-size", str(args.block_size)])
        out["same_means_and_ci"] = out["process_pool"].get("means_ci") == out["ray"].get("means_ci")
        for key in ("wall_s", "cpu_s", "peak_rss_mb"):
            out[f"ray_over_pool_{key}"] = round(out["ray"][key] / max(out["process_pool"][key], 1e-9), 2)
        if args.judge_n:
            out["judge"] = judge_part(reports, args, work)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=2))
    print(json.dumps(out, indent=2))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ray", help="local process pool vs local Ray, and two judge servers through both")
    p.add_argument("--data", help="ReXRank_IUXray_test.json (default: the example pairs)")
    p.add_argument("--n", type=int, default=10_000)
    p.add_argument("--metrics", default="bleu,rouge,clear,radsem")
    p.add_argument("--cpus", type=int, default=2, help="process-pool workers, and the local Ray's CPUs")
    p.add_argument("--block-size", type=int, default=256)
    p.add_argument("--judge-n", type=int, default=200, help="pairs per judge run (0: no judge part)")
    p.add_argument("--judge-server", choices=("standin", "llama"), default="standin",
                   help="standin: bench.doubles.judge_standin, a fixed delay per call, one call at a time; "
                   "llama: llama-cpp-python's server with the demo GGUF (one thread each: slow on 2 cores)")
    p.add_argument("--judge-delay-ms", type=float, default=100.0, help="the stand-in's time per call")
    p.add_argument("--server-python", default=str(ROOT / ".venv" / "bin" / "python"),
                   help="a Python with llama-cpp-python's server (default: the project's .venv)")
    p.add_argument("--out", default="bench-results/ray.json")
    p.set_defaults(func=cmd_ray)
