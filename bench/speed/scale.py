"""Scaling: how wall time, throughput and memory grow from a thousand pairs to a million.

``python -m bench scale --sizes 1000,10000 --metrics bleu,rouge,clear,radsem`` scores
synthetic batches of each size with the CLI in a fresh process and records wall time, pairs/s
and the peak resident memory of the whole process tree (sampled; worker processes included).
``--baseline-rev REV`` runs the same batches with the CLI of an earlier commit (checked out into
a temporary directory) up to ``--baseline-max`` pairs, and checks that both give the same means.
It also times the start-up of a 3-pair BLEU run (median of three), old and new.

The in-process API as a reward function is ``python -m bench reward``
(``bench.speed.reward``).

Pairs: IU X-ray test reports (``--data ReXRank_IUXray_test.json``), pair t being report t
against report t + 1 + t // m (m reports), so up to m(m - 1) pairs are distinct; without data
the project's example pairs are crossed the same way.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from radscope.layout import repository_root

ROOT = repository_root()
SAMPLE_S = 0.1  # how often the process tree's memory is read


def load_reports(path: str | None) -> tuple[list[str], str]:
    """Report texts to cross, and where they came from."""
    if path and Path(path).exists():
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        texts = [(r.get("report") or "").strip() for r in data.values()]
        return [t for t in texts if t], str(path)
    from radscope.engine.io.examples import example_pairs

    texts = [t for e in example_pairs() for t in (e.pair.reference, e.pair.candidate)]
    return list(dict.fromkeys(texts)), "assets/examples.json (no --data)"


def synthetic_pairs(reports: Sequence[str], n: int) -> list[tuple[str, str]]:
    m = len(reports)
    return [(reports[t % m], reports[(t + 1 + t // m) % m]) for t in range(n)]


def write_pairs(pairs: Sequence[tuple[str, str]], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for t, (ref, cand) in enumerate(pairs):
            out.write(json.dumps({"id": f"p{t}", "reference": ref, "candidate": cand}) + "\n")


# --- measuring a run ---------------------------------------------------------------------------


def _tree_rss_kb(root: int) -> int:
    """Resident memory of ``root`` and all its descendants, from /proc (Linux)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
            status = Path(f"/proc/{entry.name}/status").read_text()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(stat.rsplit(")", 1)[1].split()[1])
        rss[pid] = next((int(line.split()[1]) for line in status.splitlines()
                         if line.startswith("VmRSS:")), 0)
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(rss.get(p, 0) for p in tree)


def run_measured(command: list[str], cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run a command; wall time, CPU time and the sampled peak RSS of its process tree.

    CPU seconds (user + system, worker processes included) are the fairer figure on a shared
    machine, where wall time depends on what else runs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            done.wait(SAMPLE_S)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"rc": proc.returncode, "wall_s": round(wall, 3), "cpu_s": round(cpu, 2),
            "peak_rss_mb": round(peak / 1024, 1),
            "stderr_tail": err[-2000:] if proc.returncode else "", "stdout": out}


def engine_module(tree: Path) -> str:
    """The engine's module name in a source tree: ``radscope.engine`` since the code moved under
    one top-level package, ``engine`` in the commits before (a baseline may be either)."""
    return "radscope.engine" if (tree / "radscope" / "__init__.py").exists() else "engine"


def score_command(pairs: Path, metrics: str, work: Path, workers: int | None,
                  tree: Path = ROOT) -> list[str]:
    command = [sys.executable, "-m", engine_module(tree), "score", "--input", str(pairs), "--metrics",
               metrics, "--out", str(work / "out.jsonl"), "--summary", str(work / "summary.json"),
               "--db", str(work / "store.sqlite"), "--no-progress"]
    return command + (["--workers", str(workers)] if workers is not None else [])


def score_run(pairs: Path, metrics: str, cwd: Path, workers: int | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="radscope-scale-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "RADSCOPE_HOME": str(work / "home")}
        figures = run_measured(score_command(pairs, metrics, work, workers, cwd), cwd, env)
        figures.pop("stdout")
        if figures["rc"] == 0:
            summary = json.loads((work / "summary.json").read_text())
            figures["means"] = {m: s["mean"] for m, s in summary["metrics"].items()}
            figures["ci"] = {m: [s["ci_low"], s["ci_high"]] for m, s in summary["metrics"].items()}
    return figures


def startup_seconds(cwd: Path, runs: int = 3) -> dict[str, float]:
    """Median wall and CPU time of ``radscope score --metrics bleu`` on 3 pairs."""
    with tempfile.TemporaryDirectory(prefix="radscope-startup-") as tmp:
        work = Path(tmp)
        pairs = work / "pairs.jsonl"
        write_pairs([("Heart size normal. Lungs clear.", "Lungs clear. Normal heart."),
                     ("Small left effusion.", "Left pleural effusion is small."),
                     ("No pneumothorax.", "No acute disease.")], pairs)
        env = {**os.environ, "RADSCOPE_HOME": str(work / "home")}
        walls, cpus = [], []
        for _ in range(runs):
            res = run_measured(score_command(pairs, "bleu", work, None, cwd), cwd, env)
            if res["rc"] != 0:
                raise RuntimeError(f"start-up run failed in {cwd}: {res['stderr_tail']}")
            walls.append(res["wall_s"])
            cpus.append(res["cpu_s"])
    return {"wall_s": round(statistics.median(walls), 3),
            "cpu_s": round(statistics.median(cpus), 3)}


def checkout(rev: str, into: Path) -> Path:
    """The tree of commit ``rev`` (git archive), to run an earlier CLI side by side."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev], cwd=ROOT, stdout=out, check=True)
    tree = into / rev
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


# --- commands ----------------------------------------------------------------------------------


def cmd_scale(args: argparse.Namespace) -> int:
    from bench.common import machine_info

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    reports, source = load_reports(args.data)
    report: dict[str, Any] = {
        "benchmark": "scale", "machine": machine_info(), "data": source,
        "distinct_reports": len(reports), "metrics": args.metrics, "workers": args.workers,
        "baseline_rev": args.baseline_rev, "baseline_max": args.baseline_max, "runs": []}
    with tempfile.TemporaryDirectory(prefix="radscope-scale-") as tmp:
        tmp_path = Path(tmp)
        baseline = None
        if args.baseline_rev:
            try:
                baseline = checkout(args.baseline_rev, tmp_path)
            except (subprocess.CalledProcessError, OSError) as exc:
                print(f"baseline {args.baseline_rev!r} not available ({exc}); measuring the "
                      "current CLI only")
                report["baseline_rev"] = None
        if args.startup:
            report["startup_3_pairs_bleu_s"] = {"current": startup_seconds(ROOT)}
            if baseline:
                report["startup_3_pairs_bleu_s"]["baseline"] = startup_seconds(baseline)
            print(f"start-up, 3 pairs of BLEU: {report['startup_3_pairs_bleu_s']} s")
        for n in sizes:
            pairs = tmp_path / f"pairs_{n}.jsonl"
            write_pairs(synthetic_pairs(reports, n), pairs)
            entry: dict[str, Any] = {"n_pairs": n}
            runs = [("current", ROOT, args.workers)]
            if baseline and n <= args.baseline_max:
                runs.append(("baseline", baseline, None))
            for label, cwd, workers in runs:
                figures = score_run(pairs, args.metrics, cwd, workers)
                if figures["rc"] == 0:
                    figures["pairs_per_s"] = round(n / figures["wall_s"], 1)
                entry[label] = figures
                print(f"{n:>9} pairs  {label:<8} rc={figures['rc']}  {figures['wall_s']:>9.1f} s  "
                      f"{figures.get('pairs_per_s', 0):>8} pairs/s  "
                      f"cpu {figures['cpu_s']:>8.1f} s  "
                      f"peak {figures['peak_rss_mb']:>8.1f} MB")
            if "baseline" in entry and entry["baseline"]["rc"] == 0 and entry["current"]["rc"] == 0:
                entry["same_means"] = entry["baseline"]["means"] == entry["current"]["means"]
            pairs.unlink()
            report["runs"].append(entry)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scale", help="wall time, pairs/s and peak RSS from 1k to 1M pairs")
    p.add_argument("--data", help="ReXRank_IUXray_test.json (default: the example pairs)")
    p.add_argument("--sizes", default="1000,10000", help="comma-separated pair counts")
    p.add_argument("--metrics", default="bleu,rouge,clear,radsem")
    p.add_argument("--workers", type=int, default=0, help="--workers of the current CLI (0: all)")
    p.add_argument("--baseline-rev", help="git commit whose CLI runs the same batches")
    p.add_argument("--baseline-max", type=int, default=20_000,
                   help="largest batch given to the baseline (its summary needs O(n^2) memory)")
    p.add_argument("--startup", action=argparse.BooleanOptionalAction, default=True,
                   help="also time a 3-pair BLEU run (median of three)")
    p.add_argument("--out", default="bench-results/scale.json")
    p.set_defaults(func=cmd_scale)
