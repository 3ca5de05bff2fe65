"""LLM-judge mechanics benchmark: ``python -m bench llm-mechanics``.

Not a quality benchmark (the default demo judge's judgements are meaningless): it checks that
the judge *pipelines* work on real report lengths. CLEAR (fast and faithful), VERT (each
variant) and RadSEM with ``--extractor llm`` run on real pairs through two backends: the
embedded judge in its worker process, and ``python -m llama_cpp.server`` on 127.0.0.1 (the
``json_object`` dialect) serving the same GGUF. Per backend x configuration x data set: pairs,
failures per category (``radscope.engine.runtimes.judge.FAILURE_CAUSES``) and per cause (pipeline,
runtime, input limit, model quality), model calls, tokens and seconds per pair. The target is
0 failures caused by the pipeline.

Data (each optional, from ``--data-dir``, by default ../shared/data; a clear skip when absent):
the longest SSREE dev reports (reference against its L2 corruption), PARROT's English
translations (each against the next report), IU X-ray test pairs (self and other, as the
``iu-pairs`` benchmark makes them).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.runtimes.judge import FAILURE_CAUSES

# name -> (metric, options)
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "clear-fast": ("clear", {"clear_mode": "fast"}),
    "clear-faithful": ("clear", {"clear_mode": "faithful"}),
    "vert-vert": ("vert", {"vert_variant": "vert"}),
    "vert-green": ("vert", {"vert_variant": "green"}),
    "vert-formula": ("vert", {"vert_variant": "formula"}),
    "vert-rubric": ("vert", {"vert_variant": "rubric"}),
    "radsem": ("radsem", {}),
}
BACKENDS = ("worker", "server")
DATASETS = ("ssree", "parrot", "iu")
COUNTERS = ("model_calls", "prompt_tokens", "completion_tokens")


# --------------------------------------------------------------------------- data


def ssree_pairs(path: Path, n: int) -> list[ReportPair]:
    """The ``n`` longest SSREE dev references, each against its L2 corruption."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows.sort(key=lambda r: len(r["reference"]), reverse=True)
    return [ReportPair(f"ssree:{r['name']}", r["reference"], r["L2"], r.get("examined_type"),
                       r.get("examined_area")) for r in rows[:n]]


def parrot_pairs(path: Path, n: int) -> list[ReportPair]:
    """``n`` PARROT English translations, each against the next one."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if (r.get("English translation") or "").strip()]
    rows = rows[:n]
    return [ReportPair(f"parrot:{i}", r["English translation"],
                       rows[(i + 1) % len(rows)]["English translation"], r.get("DICOM Modality"),
                       r.get("Area")) for i, r in enumerate(rows)]


def iu_pairs(path: Path, n: int) -> list[ReportPair]:
    """``n`` IU X-ray test pairs (a study against itself, then against the next study)."""
    from bench.corpora.iu_pairs import iu_sanity_pairs

    rows = iu_sanity_pairs(path, (n + 1) // 2)[:n]
    return [ReportPair(r["id"], r["reference"], r["candidate"], r.get("modality")) for r in rows]


def load_datasets(data_dir: Path, limits: dict[str, int]) -> dict[str, list[ReportPair]]:
    """The data sets found under ``data_dir`` (a message for each one that is absent)."""
    sources = {"ssree": (data_dir / "ssree_dev" / "ssree_dev.jsonl", ssree_pairs),
               "parrot": (data_dir / "parrot_v0" / "Fr_sample.csv", parrot_pairs),
               "iu": (data_dir / "iu_xray" / "ReXRank_IUXray_test.json", iu_pairs)}
    out: dict[str, list[ReportPair]] = {}
    for name, (path, read) in sources.items():
        if limits.get(name, 0) <= 0:
            continue
        if not path.exists():
            print(f"llm-mechanics: {name} data not found at {path}; skipping it "
                  "(see ../shared/data/README.md)")
            continue
        out[name] = read(path, limits[name])
    return out


# --------------------------------------------------------------------------- the server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def llama_server(gguf: Path, n_ctx: int, threads: int, alias: str = "judge",
                 timeout_s: float = 180) -> Iterator[str]:
    """``python -m llama_cpp.server`` on 127.0.0.1 serving ``gguf`` as ``alias`` (Gemma chat
    format); yields its /v1 URL. RuntimeError when it exits or does not come up in time."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "radscope.models.llama_server", "--model", str(gguf), "--model_alias", alias,
         "--chat_format", "gemma", "--n_ctx", str(n_ctx), "--n_threads", str(threads),
         "--n_threads_batch", str(threads), "--verbose", "False", "--host", "127.0.0.1",
         "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {(proc.stderr.read() if proc.stderr else '')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama_cpp.server did not come up within {timeout_s:g} s")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


# --------------------------------------------------------------------------- measuring


def measure(registry: MetricRegistry, metric: str, pairs: Sequence[ReportPair],
            options: dict[str, Any]) -> dict[str, Any]:
    """One configuration on one data set: failures per category and cause, calls, tokens, time."""
    from radscope.engine.runs.runner import run_batch

    home = tempfile.mkdtemp(prefix="radscope-bench-mechanics-")
    previous = os.environ.get("RADSCOPE_HOME")
    os.environ["RADSCOPE_HOME"] = home  # a fresh call cache: every call is a real one
    ctx = RuntimeContext(options=options)
    try:
        started = time.perf_counter()
        run = run_batch(list(pairs), [metric], ctx, registry=registry)
        wall = time.perf_counter() - started
        counters = dict(ctx.counters)
    finally:
        ctx.close()
        if previous is None:
            os.environ.pop("RADSCOPE_HOME", None)
        else:
            os.environ["RADSCOPE_HOME"] = previous
    categories: Counter[str] = Counter()
    examples: dict[str, str] = {}  # the first message of each category: what the limit was
    other: list[str] = []
    not_applicable = 0
    for row in run.rows:
        result = row["metrics"][metric]
        not_applicable += bool(result.get("not_applicable"))
        if result.get("error") is None:
            continue
        judge_error = result.get("judge_error")
        if isinstance(judge_error, dict):
            category = str(judge_error.get("category"))
            categories[category] += 1
            examples.setdefault(category, str(result["error"])[:300])
        else:  # not a judge failure (the whole metric failed, a pair that cannot be read)
            categories["other"] += 1
            other.append(str(result["error"])[:200])
    causes: Counter[str] = Counter()
    for category, n in categories.items():
        causes[FAILURE_CAUSES.get(category, "pipeline")] += n
    return {"pairs": len(run.rows), "not_applicable": not_applicable,
            "failures": dict(sorted(categories.items())),
            "causes": dict(sorted(causes.items())), "examples": examples,
            "other_errors": other[:5],
            **{k: int(counters.get(k, 0)) for k in COUNTERS},
            "wall_s": round(wall, 2), "s_per_pair": round(wall / max(1, len(run.rows)), 2)}


def _table(rows: list[dict[str, Any]]) -> str:
    lines = ["| backend | configuration | data | pairs | not applicable | pipeline failures | "
             "other failures (category: n) | calls | prompt tokens | completion tokens | s/pair |",
             "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        f = r["figures"]
        others = ", ".join(f"{c}: {n}" for c, n in f["failures"].items()
                           if FAILURE_CAUSES.get(c, "pipeline") != "pipeline") or "none"
        lines.append(f"| {r['backend']} | {r['config']} | {r['data']} | {f['pairs']} | "
                     f"{f['not_applicable']} | {f['causes'].get('pipeline', 0)} | {others} | {f['model_calls']} | "
                     f"{f['prompt_tokens']} | {f['completion_tokens']} | {f['s_per_pair']} |")
    return "\n".join(lines)


def cmd_llm_mechanics(args: argparse.Namespace) -> int:
    from bench.common import machine_info
    from radscope.models.resolve import resolve

    limits = {"ssree": args.ssree, "parrot": args.parrot, "iu": args.iu}
    datasets = load_datasets(Path(args.data_dir), limits)
    if not datasets:
        print("llm-mechanics: no data set found; nothing to run")
        return 0
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for name in configs:
        if name not in CONFIGS:
            raise ValueError(f"unknown configuration {name!r}; choose from {', '.join(CONFIGS)}")
    for name in backends:
        if name not in BACKENDS:
            raise ValueError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    base = {"extractor": "llm", "judge": args.judge, "judge_threads": args.threads,
            "judge_ctx": args.ctx, "judge_timeout": args.timeout,
            "judge_max_tokens": args.max_tokens, "judge_retries": args.retries}
    rows: list[dict[str, Any]] = []
    report: dict[str, Any] = {"benchmark": "llm-mechanics", "machine": machine_info(),
                              "judge": args.judge, "n_ctx": args.ctx,
                              "max_tokens": args.max_tokens, "retries": args.retries,
                              "datasets": {k: [p.id for p in v] for k, v in datasets.items()},
                              "rows": rows}

    def run_all(backend: str, extra: dict[str, Any]) -> None:
        for config in configs:
            metric, options = CONFIGS[config]
            for data, pairs in datasets.items():
                figures = measure(args.registry, metric, pairs, {**base, **extra, **options})
                rows.append({"backend": backend, "config": config, "data": data,
                             "figures": figures})
                print(f"{backend:<6} {config:<15} {data:<6} pairs {figures['pairs']:>3} "
                      f"failures {figures['failures'] or 'none'} calls {figures['model_calls']} "
                      f"tokens {figures['prompt_tokens']}+{figures['completion_tokens']} "
                      f"{figures['s_per_pair']} s/pair", flush=True)
                if figures["other_errors"]:
                    print("       other errors: " + " | ".join(figures["other_errors"]), flush=True)

    if "worker" in backends:
        run_all("worker", {})
    if "server" in backends:
        gguf = resolve(args.judge, task="judge").path
        with llama_server(gguf, args.ctx or 8192, args.threads or 1, alias=args.judge) as url:
            run_all("server", {"judge_url": url, "judge_model": args.judge,
                               "json_dialect": "json_object"})
    table = _table(rows)
    report["table"] = table
    print(table)
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    pipeline = sum(r["figures"]["causes"].get("pipeline", 0) for r in rows)
    print(f"pipeline failures: {pipeline}")
    return 1 if pipeline else 0


def add_metric_commands(sub: Any, registry: MetricRegistry) -> None:
    p = sub.add_parser("llm-mechanics",
                       help="judge pipelines on real report lengths: failures per cause, calls, "
                            "tokens, s/pair, through the judge worker and llama_cpp.server")
    p.add_argument("--data-dir", default="../shared/data", help="folder with ssree_dev/, "
                   "parrot_v0/ and iu_xray/ (absent data sets are skipped with a message)")
    p.add_argument("--ssree", type=int, default=30, help="longest SSREE dev reports (0: none)")
    p.add_argument("--parrot", type=int, default=20, help="PARROT English reports (0: none)")
    p.add_argument("--iu", type=int, default=20, help="IU X-ray test pairs (0: none)")
    p.add_argument("--configs", default=",".join(CONFIGS),
                   help=f"comma-separated, from {', '.join(CONFIGS)}")
    p.add_argument("--backends", default=",".join(BACKENDS), help="worker, server or both")
    p.add_argument("--judge", default="gemma3-270m-demo")
    p.add_argument("--ctx", type=int, default=8192, help="judge context (tokens)")
    p.add_argument("--threads", type=int, default=0, help="judge threads (0: all cores)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds one judge call may take")
    p.add_argument("--max-tokens", type=int, default=0,
                   help="cap on every answer's tokens (0: each question's own budget); cut-offs "
                        "there are counted as 'budget' failures")
    p.add_argument("--retries", type=int, default=2, help="extra attempts after an unusable answer")
    p.add_argument("--out", help="JSON report path")
    p.set_defaults(func=cmd_llm_mechanics, registry=registry)
