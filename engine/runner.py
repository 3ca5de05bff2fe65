"""The batch runner: pairs x metrics -> stored per-pair results -> corpus summary.

Shared by the CLI, the UI's Batch tab and the benchmarks. The (pair, metric) results of each
chunk are stored, in one transaction, as soon as the chunk is scored, so an interrupted run
resumes where it stopped (same run id) and a failing pair or metric never stops the others.
"""
from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from engine import parallel, stats
from engine.metrics import registry
from engine.metrics.base import Metric, PairScore
from engine.reports import DEFAULT_MAX_CHARS, ReportPair

# Keys every per-pair metric result has; everything else in the dict is the metric's details.
STANDARD_KEYS = ("score", "direction", "signature", "error", "model", "demo_grade", "elapsed_ms")

ProgressFn = Callable[[int, int], None]  # (units done, units total); a unit = one (pair, metric)


def result_dict(metric: Metric, result: PairScore, signature: str | None = None) -> dict[str, Any]:
    """The JSON form of one metric's result on one pair (one entry of an output line)."""
    model = metric.model()
    out: dict[str, Any] = {
        "score": result.score,
        "direction": metric.direction,
        "signature": signature or metric.signature(),
        "error": result.error,
        "model": model.id if model else None,
        "demo_grade": bool(model and model.demo_grade),
        "elapsed_ms": round(result.elapsed_ms, 3),
    }
    clash = set(result.details) & set(out)
    if clash:
        raise ValueError(f"{metric.name}: details may not use the reserved keys {sorted(clash)}")
    out.update(result.details)
    return out


def pair_score_from_dict(data: dict[str, Any]) -> PairScore:
    """Inverse of ``result_dict`` for corpus statistics on stored results."""
    details = {k: v for k, v in data.items() if k not in STANDARD_KEYS}
    return PairScore(score=data.get("score"), details=details, error=data.get("error"),
                     elapsed_ms=data.get("elapsed_ms") or 0.0)


def new_run_id(pairs: Sequence[ReportPair], metric_names: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for pair in pairs:
        digest.update(f"{pair.id}\x1f{pair.reference}\x1f{pair.candidate}\x1e".encode())
    digest.update(",".join(metric_names).encode())
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"run-{stamp}-{digest.hexdigest()[:8]}"


@dataclass
class BatchRun:
    run_id: str
    rows: list[dict[str, Any]]
    summary: dict[str, Any]
    metrics: list[str] = field(default_factory=list)


def run_batch(
    pairs: Sequence[ReportPair],
    metric_names: Sequence[str],
    ctx: registry.RuntimeContext,
    *,
    store: Any | None = None,
    run_id: str | None = None,
    input_label: str = "",
    max_chars: int = DEFAULT_MAX_CHARS,
    concurrency: int = 1,
    chunk_size: int = 32,
    progress: ProgressFn | None = None,
    metrics: Sequence[Metric] | None = None,
    workers: int = 1,
) -> BatchRun:
    """Score every pair with every metric, storing each chunk's results as it finishes.

    With a ``store`` and a ``run_id`` that already exists, finished (pair, metric) results are
    read back instead of recomputed. ``metrics`` may pass already-built metric objects (the
    app keeps them loaded between requests). ``workers`` > 1 scores the CPU-bound metrics in
    that many processes (``engine.parallel``; same results).
    """
    started = time.perf_counter()
    counters_before = Counter(ctx.counters)  # the context may serve several runs
    metric_names = list(metric_names)
    built = list(metrics) if metrics is not None else registry.build(metric_names, ctx)
    signatures = {m.name: m.signature() for m in built}
    run_id = run_id or new_run_id(pairs, metric_names)
    results: dict[str, dict[str, dict[str, Any]]] = {p.id: {} for p in pairs}
    if store is not None:
        store.start_run(run_id, input_label, metric_names, {"signatures": signatures})
        store.put_pairs(run_id, [p.id for p in pairs])
        for row in store.results(run_id):
            if row["pair_id"] in results and row["metric"] in signatures:
                results[row["pair_id"]][row["metric"]] = row["payload"]
    total = len(pairs) * len(built)
    done = sum(len(r) for r in results.values())
    if progress:
        progress(done, total)

    unsaved: list[tuple[str, str, dict[str, Any]]] = []  # written once per chunk and metric

    def record(metric: Metric, pair: ReportPair, result: PairScore) -> None:
        nonlocal done
        payload = result_dict(metric, result, signatures[metric.name])
        results[pair.id][metric.name] = payload
        unsaved.append((pair.id, metric.name, payload))
        done += 1
        if progress:
            progress(done, total)

    pool = ThreadPoolExecutor(max_workers=max(1, concurrency)) if concurrency > 1 else None
    pending = sum(1 for r in results.values() if len(r) < len(built))
    procs = parallel.process_scorer(built, ctx.options, workers, pending)
    try:
        for start in range(0, len(pairs), chunk_size):
            chunk = pairs[start:start + chunk_size]
            for metric in built:
                todo = [p for p in chunk if metric.name not in results[p.id]]
                score_metric_pairs(metric, todo, record, max_chars=max_chars, pool=pool,
                                   procs=procs)
                if store is not None:
                    store.put_results(run_id, unsaved)
                unsaved.clear()
    finally:
        if store is not None and unsaved:
            # Stopped inside a chunk (cancelled, interrupted): keep what did finish.
            store.put_results(run_id, unsaved)
        if pool:
            pool.shutdown(wait=True)
        if procs:
            procs.close()
    if store is not None:
        store.finish_run(run_id)
    rows = [{"id": p.id, "metrics": {m.name: results[p.id][m.name] for m in built
                                     if m.name in results[p.id]}} for p in pairs]
    summary = summarize(built, rows, ctx.counters - counters_before, signatures)
    summary["run_id"] = run_id
    summary["n_pairs"] = len(pairs)
    summary["elapsed_s"] = round(time.perf_counter() - started, 3)
    return BatchRun(run_id=run_id, rows=rows, summary=summary, metrics=metric_names)


def score_metric_pairs(metric: Metric, pairs: Sequence[ReportPair],
                       record: Callable[[Metric, ReportPair, PairScore], None], *,
                       max_chars: int = DEFAULT_MAX_CHARS,
                       pool: ThreadPoolExecutor | None = None,
                       procs: parallel.ProcessScorer | None = None) -> None:
    """Score ``pairs`` with one metric, handing each result to ``record``: a pair whose input
    is unusable (empty, too long) is marked without calling the metric (the runner and the
    in-process API, engine.api, share this)."""
    valid = []
    for pair in pairs:
        problems = pair.problems(max_chars)
        if problems:
            record(metric, pair, PairScore.failed("input: " + "; ".join(problems)))
        else:
            valid.append(pair)
    _score_chunk(metric, valid, record, pool, procs)


def _score_chunk(metric: Metric, pairs: list[ReportPair],
                 record: Callable[[Metric, ReportPair, PairScore], None],
                 pool: ThreadPoolExecutor | None,
                 procs: parallel.ProcessScorer | None = None) -> None:
    if not pairs:
        return
    if procs is not None and procs.handles(metric):
        for pair, result in zip(pairs, procs.score(metric, pairs)):
            record(metric, pair, result)
    elif metric.batch_size > 1:
        for start in range(0, len(pairs), metric.batch_size):
            batch = pairs[start:start + metric.batch_size]
            for pair, result in zip(batch, _safe_score(metric, batch)):
                record(metric, pair, result)
    elif pool is not None:
        futures = [(pair, pool.submit(_safe_score, metric, [pair])) for pair in pairs]
        for pair, future in futures:
            record(metric, pair, future.result()[0])
    else:
        for pair in pairs:
            record(metric, pair, _safe_score(metric, [pair])[0])


def _safe_score(metric: Metric, pairs: list[ReportPair]) -> list[PairScore]:
    """Score pairs; an exception (a model that failed to load, say) marks each pair, never hides."""
    start = time.perf_counter()
    try:
        out = metric.score_pairs(pairs)
        if len(out) != len(pairs):
            raise RuntimeError(f"{metric.name} returned {len(out)} results for {len(pairs)} pairs")
        return out
    except Exception as exc:  # noqa: BLE001 - reported per pair with its message
        elapsed = (time.perf_counter() - start) * 1000 / max(1, len(pairs))
        return [PairScore(None, error=f"{type(exc).__name__}: {exc}", elapsed_ms=elapsed)
                for _ in pairs]


def summarize(metrics: Sequence[Metric], rows: Sequence[dict[str, Any]], counters: Counter,
              signatures: dict[str, str] | None = None) -> dict[str, Any]:
    """Corpus summary from per-pair rows: mean with bootstrap CI, errors, metric aggregates,
    and this run's model-call counters."""
    summary: dict[str, Any] = {"metrics": {}}
    for metric in metrics:
        per_pair = [pair_score_from_dict(row["metrics"][metric.name]) for row in rows
                    if metric.name in row["metrics"]]
        ok = [r for r in per_pair if r.error is None and r.score is not None]
        ci = stats.bootstrap_mean_ci([r.score for r in ok])
        model = metric.model()
        entry: dict[str, Any] = {
            "mean": ci.mean, "ci_low": ci.ci_low, "ci_high": ci.ci_high,
            "n": ci.n, "n_errors": sum(1 for r in per_pair if r.error is not None),
            "direction": metric.direction,
            "range": list(metric.card.range),
            "signature": (signatures or {}).get(metric.name) or metric.signature(),
            "model": model.id if model else None,
            "demo_grade": bool(model and model.demo_grade),
        }
        try:
            entry["corpus"] = metric.corpus(ok)
        except Exception as exc:  # noqa: BLE001 - the means above are still valid; say what failed
            entry["corpus"] = {"error": f"{type(exc).__name__}: {exc}"}
        summary["metrics"][metric.name] = entry
    summary["model_calls"] = int(counters.get("model_calls", 0))
    summary["cache_hits"] = int(counters.get("cache_hits", 0))
    for key in ("prompt_tokens", "completion_tokens"):
        if key in counters:
            summary[key] = int(counters[key])
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    """A short human-readable table of a summary (for the terminal)."""
    lines = []
    for name, m in summary["metrics"].items():
        if m["mean"] is None:
            value = "n/a"
        else:
            value = f"{m['mean']:.4f} [{m['ci_low']:.4f}, {m['ci_high']:.4f}]"
        arrow = "↑" if m["direction"] == "higher" else "↓"
        demo = "  (demo-grade model)" if m.get("demo_grade") else ""
        lines.append(f"{name:<10} {arrow} {value}  n={m['n']} errors={m['n_errors']}{demo}")
        lines.append(f"{'':<10}   {m['signature']}")
    lines.append(f"model calls: {summary['model_calls']}  cache hits: {summary['cache_hits']}")
    return "\n".join(lines)
