"""What reading a pair once is worth: all five metrics on one pair with the rules reader,
together (the reader and the RadSEM sentence features computed once and shared) against five
separate runs (every cache emptied before each metric, as five processes would start).

``python -m bench rules-reader --data pairs.jsonl [--n 100]``: median and p90 ms per
pair of both, on the first ``n`` distinct pairs of the file (default: the project's examples).
Both wall-clock and CPU time (``time.process_time``) are reported: on a machine shared with
other work the wall clock includes waiting for a core, the CPU time does not, and the readers
run on one thread, so CPU time is what an idle machine's wall clock would show.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair

FIVE = ("clear", "radsem", "crepe", "vert", "srr")


def reading_caches() -> list[Callable[[], None]]:
    """``cache_clear`` of every per-text cache the rules readers keep (lexicons stay loaded):
    the ones ``bench reward`` empties for a fresh pass."""
    from bench.speed.reward_side import text_caches

    return [cache.cache_clear for cache in text_caches()]


def _ms(run: Callable[[], Any]) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def time_pairs(metrics: Sequence[Any], pairs: Sequence[ReportPair]) -> dict[str, Any]:
    """Per pair: all metrics after one cache reset, and the sum of one reset per metric."""
    clears = reading_caches()

    def reset() -> None:
        for clear in clears:
            clear()

    together: list[tuple[float, float]] = []
    separate: list[tuple[float, float]] = []
    for pair in pairs:
        reset()
        together.append(_ms(lambda: [m.score_pair(pair) for m in metrics]))  # noqa: B023 - run now
        wall = cpu = 0.0
        for metric in metrics:
            reset()
            w, c = _ms(lambda: metric.score_pair(pair))  # noqa: B023 - _ms calls it at once
            wall, cpu = wall + w, cpu + c
        separate.append((wall, cpu))

    def stats(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {"median": round(statistics.median(values), 2),
                "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 2),
                "mean": round(statistics.fmean(values), 2)}

    return {"together_ms": stats([w for w, _ in together]),
            "separate_ms": stats([w for w, _ in separate]),
            "together_cpu_ms": stats([c for _, c in together]),
            "separate_cpu_ms": stats([c for _, c in separate]), "n_pairs": len(pairs)}


def cmd_reader(args: argparse.Namespace) -> int:
    from bench.common import machine_info, missing
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.framework.registry import MetricRegistry

    registry: MetricRegistry = args.registry
    if args.data and missing(args.data, "rules-reader"):
        return 0
    if args.data:
        source = dataio.read_pairs(args.data)
    else:
        from radscope.engine.io.examples import example_pairs

        source = [ex.pair for ex in example_pairs()]
    distinct = list({(p.reference, p.candidate): p for p in source}.values())[:args.n]
    ctx = RuntimeContext(options={"extractor": "rules"})
    try:
        metrics = [registry.get(name).build(ctx) for name in FIVE]
        for metric in metrics:  # load lexicons and compile patterns outside the timing
            metric.score_pair(distinct[0])
        figures = time_pairs(metrics, distinct)
        signatures = {m.name: m.signature() for m in metrics}
    finally:
        ctx.close()
    for kind in ("wall", "cpu"):
        suffix = "_ms" if kind == "wall" else "_cpu_ms"
        t, s = figures["together" + suffix], figures["separate" + suffix]
        print(f"five metrics, rules reader, one pair (n={figures['n_pairs']}, {kind} time): "
              f"together {t['median']:.1f} ms median ({t['p90']:.1f} p90) vs five separate runs "
              f"{s['median']:.1f} ms ({s['p90']:.1f} p90)")
    if args.out:
        dataio.write_json({"benchmark": "rules-reader", "machine": machine_info(),
                           "data": args.data or "examples", **figures,
                           "signatures": signatures}, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules-reader", help="five metrics on one pair: read once vs five runs")
    p.add_argument("--data", help="pairs file (default: the project's example pairs)")
    p.add_argument("--n", type=int, default=100, help="distinct pairs to time (default 100)")
    p.add_argument("--out", help="JSON report path")
    p.set_defaults(func=cmd_reader)
