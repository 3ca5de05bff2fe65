"""LLM-metric benchmark: ``python -m bench llm``.

For each LLM metric (CLEAR, VERT, RadSEM) with the chosen judge (default: the offline Gemma 3
270M demo judge on CPU): model calls, prompt and completion tokens, and ms per pair, first with
an empty call cache (cold) and then again on the same pairs (cached); for CLEAR the ratio
of model calls and time between faithful and fast mode; and what running the judge in its
supervised worker process costs: VERT on the same pairs through the worker and through
llama-cpp-python in this process, alternated, cold each time (``isolation``).

Cold really is cold: every measurement gets a fresh ``$RADSCOPE_HOME`` (so a fresh call cache)
and the pairs are all different (the speed benchmark's cycling of the six examples would turn
most of a "cold" pass into cache hits). Model loading is timed separately.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import MetricRegistry

LLM_METRICS = ("clear", "vert", "radsem")
COUNTERS = ("model_calls", "cache_hits", "prompt_tokens", "completion_tokens")


def bench_pairs(path: str | None, n: int) -> list[ReportPair]:
    """``n`` distinct pairs: from a file, or the project's example pairs (six at most)."""
    if path:
        pairs = dataio.read_pairs(path)
    else:
        from radscope.engine.io.examples import example_pairs

        pairs = [ex.pair for ex in example_pairs()]
    seen: dict[tuple[str, str], ReportPair] = {}
    for pair in pairs:
        seen.setdefault((pair.reference, pair.candidate), pair)
    distinct = list(seen.values())
    if n > len(distinct):
        print(f"note: only {len(distinct)} distinct pairs available; using them all")
    return distinct[:n]


def _fresh_home() -> str:
    home = tempfile.mkdtemp(prefix="radscope-bench-llm-")
    os.environ["RADSCOPE_HOME"] = home
    return home


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: int(after.get(k, 0)) - int(before.get(k, 0)) for k in COUNTERS}


def measure(registry: MetricRegistry, name: str, pairs: Sequence[ReportPair], options: dict[str, Any],
            keep_rows: bool = False) -> dict[str, Any]:
    """Cold then cached pass of one metric over ``pairs`` (fresh cache for the cold pass);
    ``keep_rows`` adds the cold pass's per-pair results under "rows"."""
    from radscope.engine.runs.runner import run_batch

    _fresh_home()
    ctx = RuntimeContext(options=dict(options))
    try:
        start = time.perf_counter()
        metric = registry.get(name).build(ctx)
        load_s = time.perf_counter() - start
        passes: dict[str, Any] = {}
        for label in ("cold", "cached"):
            before = dict(ctx.counters)
            start = time.perf_counter()
            run = run_batch(pairs, [name], ctx, registry=registry, metrics=[metric])
            wall = time.perf_counter() - start
            entry = run.summary["metrics"][name]
            passes[label] = {**_delta(before, dict(ctx.counters)),
                             "ms_per_pair": round(wall * 1000 / max(1, len(pairs)), 1),
                             "wall_s": round(wall, 2), "n_errors": entry["n_errors"],
                             "mean": entry["mean"]}
            if keep_rows and label == "cold":
                passes["rows"] = run.rows
        model = metric.model()
        return {"n_pairs": len(pairs), "load_s": round(load_s, 2), **passes,
                "signature": metric.signature(), "model": model.id if model else None,
                "demo_grade": bool(model and model.demo_grade),
                "device": model.device if model else "cpu"}
    finally:
        ctx.close()


def clear_modes(registry: MetricRegistry, pairs: Sequence[ReportPair],
                options: dict[str, Any]) -> dict[str, Any]:
    """CLEAR fast versus faithful, both cold: calls, time, their ratios, and how often the two
    modes give the same attribute value."""
    out: dict[str, Any] = {}
    rows: dict[str, list[dict[str, Any]]] = {}
    for mode in ("fast", "faithful"):
        measured = measure(registry, "clear", pairs, {**options, "clear_mode": mode}, keep_rows=True)
        rows[mode] = measured.pop("rows")
        out[mode] = measured["cold"]
    fast, faithful = out["fast"], out["faithful"]
    out["ratio_calls_faithful_over_fast"] = (round(faithful["model_calls"] / fast["model_calls"], 2)
                                             if fast["model_calls"] else None)
    out["ratio_time_faithful_over_fast"] = (round(faithful["wall_s"] / fast["wall_s"], 2)
                                            if fast["wall_s"] else None)
    out["attribute_agreement"] = attribute_agreement(rows["fast"], rows["faithful"])
    out["n_pairs"] = len(pairs)
    return out


def attribute_agreement(fast_rows: Sequence[dict[str, Any]], faithful_rows: Sequence[dict[str, Any]]
                        ) -> dict[str, Any]:
    """Share of attribute cells (pair x report x condition x attribute, present in both modes)
    on which fast and faithful extraction agree; lists compare as sets of lower-cased phrases."""
    def norm(value: Any) -> Any:
        return sorted(str(v).strip().lower() for v in value) if isinstance(value, list) else value

    same = total = 0
    for fast_row, faithful_row in zip(fast_rows, faithful_rows, strict=True):
        a = fast_row["metrics"]["clear"].get("extraction")
        b = faithful_row["metrics"]["clear"].get("extraction")
        if not a or not b:
            continue
        for side in ("reference", "candidate"):
            for condition, values in a[side]["attributes"].items():
                other = b[side]["attributes"].get(condition, {})
                for attribute, value in values.items():
                    if attribute in other:
                        total += 1
                        same += norm(value) == norm(other[attribute])
    return {"cells": total, "agreement": round(same / total, 4) if total else None}


def isolation_overhead(registry: MetricRegistry, pairs: Sequence[ReportPair], options: dict[str, Any],
                       rounds: int = 2) -> dict[str, Any]:
    """VERT ms/pair through the isolated judge worker against the same calls made directly with
    llama-cpp-python in this process, alternated over ``rounds`` and each cold (fresh call
    cache); the figure is the ratio of the medians."""
    import statistics

    from radscope.engine.metrics.framework.judging import DEFAULT_JUDGE, JudgeConfig
    from radscope.engine.metrics.vert.metric import judge_metric
    from radscope.engine.runs.runner import run_batch
    from radscope.engine.runtimes.callcache import CallCache
    from radscope.engine.runtimes.judge import Judge, JudgeBackend
    from radscope.engine.runtimes.judge_worker import IsolatedLlamaBackend, WorkerLoad
    from radscope.engine.runtimes.llamacpp import LlamaCppBackend, LlamaSettings
    from radscope.models.resolve import resolve

    ctx = RuntimeContext(options=dict(options))
    config = JudgeConfig.from_ctx(ctx)
    if config.url:
        raise ValueError("the isolation benchmark needs the embedded judge (no --judge-url)")
    resolved = resolve(config.judge or DEFAULT_JUDGE, task="judge")
    settings = LlamaSettings(n_ctx=config.n_ctx, n_gpu_layers=config.gpu_layers,
                             n_threads=config.threads, chat_format=config.chat_format)
    entry = resolved.entry
    common: dict[str, Any] = {"model_id": resolved.id, "sha256": "bench", "demo_grade": resolved.demo_grade,
                              "registry_chat_format": entry.chat_format if entry else None,
                              "registry_n_ctx": entry.n_ctx if entry else None}
    backends: dict[str, Callable[[], JudgeBackend]] = {
        "isolated": lambda: IsolatedLlamaBackend(WorkerLoad(str(resolved.path), **common,
                                                            settings=asdict(settings))),
        "in_process": lambda: LlamaCppBackend(resolved.path, **common, settings=settings),
    }
    times: dict[str, list[float]] = {name: [] for name in backends}
    for _ in range(rounds):
        for name, build in backends.items():
            backend = build()
            cache = CallCache(Path(_fresh_home()) / "calls.sqlite")
            try:
                metric = judge_metric(ctx, Judge(backend, cache))
                start = time.perf_counter()
                run = run_batch(pairs, ["vert"], ctx, registry=registry, metrics=[metric])
                times[name].append((time.perf_counter() - start) * 1000 / max(1, len(pairs)))
                assert run.summary["metrics"]["vert"]["n"] + run.summary["metrics"]["vert"]["n_errors"] == len(pairs)
            finally:
                backend.close()
                cache.close()
    medians = {name: statistics.median(values) for name, values in times.items()}
    return {"n_pairs": len(pairs), "rounds": rounds,
            "ms_per_pair": {name: [round(v, 1) for v in values] for name, values in times.items()},
            "median_ms_per_pair": {name: round(v, 1) for name, v in medians.items()},
            "ratio_isolated_over_in_process": round(medians["isolated"] / medians["in_process"], 3)}


def _line(name: str, m: dict[str, Any]) -> str:
    c, h = m["cold"], m["cached"]
    return (f"{name:<7} cold: {c['model_calls']:>4} calls {c['prompt_tokens']:>6} prompt tok "
            f"{c['completion_tokens']:>6} completion tok {c['ms_per_pair']:>9.1f} ms/pair | "
            f"cached: {h['model_calls']} calls {h['cache_hits']} hits {h['ms_per_pair']:.1f} ms/pair"
            f" | errors {c['n_errors']} | load {m['load_s']} s")


def cmd_llm(args: argparse.Namespace) -> int:
    from bench.common import machine_info
    from radscope.engine.commands import _collect_options

    home_before = os.environ.get("RADSCOPE_HOME")
    # This benchmark measures the judge, so CLEAR and RadSEM read reports with it.
    options = {"extractor": "llm", **_collect_options(args)}
    registry: MetricRegistry = args.registry
    names = registry.parse_metric_list(args.metrics)
    unknown = [n for n in names if n not in LLM_METRICS]
    if unknown:
        raise ValueError(f"not an LLM metric: {', '.join(unknown)} (choose from {', '.join(LLM_METRICS)})")
    pairs = bench_pairs(args.data, args.pairs)
    report: dict[str, Any] = {"benchmark": "llm", "machine": machine_info(), "options": options,
                              "pairs": [p.id for p in pairs], "metrics": {}}
    try:
        for name in names:
            figures = measure(registry, name, pairs, options)
            report["metrics"][name] = figures
            print(_line(name, figures), flush=True)
        if "clear" in names and args.faithful_pairs > 0:
            modes = clear_modes(registry, pairs[:args.faithful_pairs], options)
            report["clear_fast_vs_faithful"] = modes
            print(f"clear faithful/fast on {modes['n_pairs']} pair(s): "
                  f"{modes['faithful']['model_calls']}/{modes['fast']['model_calls']} calls "
                  f"(x{modes['ratio_calls_faithful_over_fast']}), "
                  f"{modes['faithful']['wall_s']}/{modes['fast']['wall_s']} s "
                  f"(x{modes['ratio_time_faithful_over_fast']}), attribute agreement "
                  f"{modes['attribute_agreement']['agreement']} over "
                  f"{modes['attribute_agreement']['cells']} cells", flush=True)
        if "vert" in names and args.isolation_rounds > 0:
            iso = isolation_overhead(registry, pairs, options, rounds=args.isolation_rounds)
            report["isolation"] = iso
            med = iso["median_ms_per_pair"]
            print(f"vert through the judge worker vs in this process, {iso['n_pairs']} pairs x "
                  f"{iso['rounds']} rounds: {med['isolated']} vs {med['in_process']} ms/pair "
                  f"(x{iso['ratio_isolated_over_in_process']})", flush=True)
    finally:
        if home_before is None:
            os.environ.pop("RADSCOPE_HOME", None)
        else:
            os.environ["RADSCOPE_HOME"] = home_before
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def add_metric_commands(sub: Any, registry: MetricRegistry) -> None:
    from radscope.engine.commands import _add_metric_options

    p = sub.add_parser("llm", help="LLM metrics: calls, tokens, ms/pair cold and cached; "
                                   "CLEAR fast vs faithful")
    p.add_argument("--metrics", default=",".join(LLM_METRICS))
    p.add_argument("--data", help="pairs file (default: the project's example pairs)")
    p.add_argument("--pairs", type=int, default=3, help="distinct pairs per metric")
    p.add_argument("--faithful-pairs", type=int, default=1,
                   help="pairs for the CLEAR fast/faithful comparison (0: skip it)")
    p.add_argument("--isolation-rounds", type=int, default=2,
                   help="rounds of VERT through the judge worker vs in-process (0: skip)")
    p.add_argument("--out", help="JSON report path")
    _add_metric_options(p, registry)
    p.set_defaults(func=cmd_llm)
