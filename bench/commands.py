"""Benchmarks: ``python -m bench <name> ...``.

A benchmark module under ``bench/<group>/`` that defines ``add_commands(subparsers)`` adds its
commands (each sets ``func`` to a callable taking the parsed args and returning an exit code).

Benchmarks print figures and write a JSON report; they never pass or fail. Real data is read
from a path argument; when it is absent the benchmark says so and exits 0, so that ``make
bench`` runs on a fresh clone that has no data.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import statistics
import sys
import tempfile
import time
from typing import Any

from bench.common import machine_info, missing
from radscope.engine.commands import _add_metric_options, _collect_options
from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import MetricRegistry, MetricSpec, production

# --- ssree ----------------------------------------------------------------------------------

def cmd_ssree(args: argparse.Namespace) -> int:
    from bench.quality import ssree

    if missing(args.data, "ssree"):
        return 0
    registry: MetricRegistry = args.registry
    metric_names = registry.parse_metric_list(args.metrics)
    reports = ssree.load_ssree(args.data, args.limit)
    folds = {fold: [ssree.fold_of(r.name) == fold for r in reports] for fold in ssree.FOLDS}
    if args.fold != "all":
        reports = [r for r, inside in zip(reports, folds[args.fold], strict=True) if inside]
        folds = {}
    pairs = ssree.ssree_pairs(reports)
    # SSREE mixes CT, MR and radiographs; the published figures score every metric on all of
    # them, so chest-radiograph metrics are forced here (the report says so).
    options = {"force_applicability": True, **_collect_options(args)}
    ctx = RuntimeContext(options=options)
    report: dict[str, Any] = {"benchmark": "ssree", "data": str(args.data), "n_reports": len(reports),
                              "fold": args.fold, "fold_seed": ssree.FOLD_SEED,
                              "fold_sizes": {fold: sum(inside) for fold, inside in folds.items()},
                              "force_applicability": options["force_applicability"],
                              "machine": machine_info(), "metrics": {},
                              "units": {"kendall_tau_b": "mean coefficient", "all_pairs": "%",
                                        "adjacent": "%", "perfect_chain": "%", "ms_per_pair": "ms"},
                              "published_full_set": ssree.PUBLISHED}
    try:
        for name in metric_names:
            figures = _ssree_metric(name, pairs, reports, folds, ctx, registry, args.quiet)
            report["metrics"][name] = figures
            print(_ssree_lines(name, figures, args.fold))
    finally:
        ctx.close()
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def _ssree_metric(name: str, pairs: list[ReportPair], reports: list[Any], folds: dict[str, list[bool]],
                  ctx: RuntimeContext, registry: MetricRegistry, quiet: bool) -> dict[str, Any]:
    """One metric's SSREE figures: scored through the runner (timed, as a user's run would be),
    with its pair errors, signature and model, and each fold's figures when both are scored."""
    from bench.quality import ssree
    from radscope.engine.runs.runner import run_batch

    start = time.perf_counter()
    run = run_batch(pairs, [name], ctx, registry=registry, progress=_bar(len(pairs), name, quiet))
    wall = time.perf_counter() - start
    scores = {row["id"]: row["metrics"][name] for row in run.rows}
    per_report = _ssree_scores(scores, reports)
    higher = registry.get(name).card.direction == "higher"
    figures = ssree.figures(per_report, higher_is_better=higher)
    figures["ms_per_pair"] = round(wall * 1000 / max(1, len(pairs)), 3)
    figures["n_pair_errors"] = sum(1 for v in scores.values() if v["error"] is not None)
    figures["signature"] = run.summary["metrics"][name]["signature"]
    figures["model"] = run.summary["metrics"][name]["model"]
    if folds:
        figures["folds"] = {
            fold: ssree.figures([s for s, inside in zip(per_report, members, strict=True) if inside],
                                higher_is_better=higher)
            for fold, members in folds.items()}
        figures["fold_gap"] = ssree.fold_gap(*(figures["folds"][fold] for fold in ssree.FOLDS))
    return figures


def _ssree_scores(scores: dict[str, dict[str, Any]], reports: list[Any]) -> list[list[float | None]]:
    """Each report's scores, level by level (None where the pair failed), in the shape the
    SSREE figures read."""
    from bench.quality import ssree

    return [[scores[f"{r.name}:{lvl}"]["score"] if scores[f"{r.name}:{lvl}"]["error"] is None
             else None for lvl in ssree.LEVELS] for r in reports]


def _ssree_lines(name: str, f: dict[str, Any], fold: str) -> str:
    """Fold a, fold b, all and the gap between the folds; or the one fold asked for."""
    from bench.quality import ssree
    if fold != "all":
        return _ssree_line(f"{name} {fold}", f)
    lines = [_ssree_line(f"{name} {part}", f["folds"][part]) for part in ssree.FOLDS]
    lines.append(_ssree_line(f"{name} all", f))
    gap = f["fold_gap"]
    shown = "  ".join(f"{label} {'n/a' if gap[key] is None else f'{gap[key]:.4f}'}"
                      + ("" if gap["noise"][key] is None else f" (chance alone: ±{gap['noise'][key]:.4f})")
                      for key, label in (("kendall_tau_b", "tau-b"), ("L1_mean", "L1 mean")))
    flag = f"  GAP > {ssree.FOLD_GAP_LIMIT}: a rule may fit reports, not language" if gap["over_limit"] else ""
    lines.append(f"{name + ' gap':<12} fold a vs b: {shown}{flag}")
    return "\n".join(lines)


def _ssree_line(label: str, f: dict[str, Any]) -> str:
    if not f.get("n_reports"):
        return f"{label:<12} no scorable report ({f.get('n_excluded', 0)} excluded)"
    lv = " ".join(f"{v:.1f}" for v in f["adjacent_by_level"].values())
    means = " ".join(f"{level} {'n/a' if v is None else f'{v:.3f}'}"
                     for level, v in f.get("mean_by_level", {}).items())
    speed = f"  {f['ms_per_pair']:.2f} ms/pair" if "ms_per_pair" in f else ""
    return (f"{label:<12} tau-b {f['kendall_tau_b']:.3f}  all-pairs {f['all_pairs']:.1f}%  "
            f"adjacent {f['adjacent']:.1f}% ({lv})  chain {f['perfect_chain']:.1f}%  "
            f"n={f['n_reports']}{speed}\n{'':<12} mean score {means}")


def _bar(total: int, desc: str, quiet: bool):
    if quiet:
        return None
    from radscope.engine.io.progress import progress

    bar = progress(total, desc, unit="it", leave=False)

    def update(done: int, _total: int) -> None:
        bar.update(done)
        if done >= total:
            bar.close()
    return update


# --- speed ----------------------------------------------------------------------------------

def _speed_pairs(path: str | None, n: int) -> list[ReportPair]:
    """``n`` pairs from a pairs file, or the project's example pairs cycled when none is given.

    Cycled examples repeat, and extractors that remember texts they have read then look faster
    than they are: the report says how many pairs were distinct.
    """
    if path:
        pairs = dataio.read_pairs(path)
    else:
        from radscope.engine.io.examples import example_pairs

        pairs = [ex.pair for ex in example_pairs()]
    return [ReportPair(id=f"{i}", reference=pairs[i % len(pairs)].reference,
                       candidate=pairs[i % len(pairs)].candidate) for i in range(n)]


def measure_speed(spec: MetricSpec, pairs: list[ReportPair], ctx: RuntimeContext,
                  warmup: int) -> dict[str, Any]:
    """Median ms/pair one at a time after warm-up, then pairs/s when scored as one batch.

    Runs the pairs twice more for counters: the second pass shows what the call cache saves.
    """
    import resource

    name = spec.name
    metric = spec.build(ctx)
    metric.score_pairs(pairs[:warmup])
    c0 = dict(ctx.counters)
    per_pair = []
    for pair in pairs:
        start = time.perf_counter()
        out = metric.score_pairs([pair])
        per_pair.append((time.perf_counter() - start) * 1000)
        if out[0].error:
            raise RuntimeError(f"{name} failed on the speed set: {out[0].error}")
    c1 = dict(ctx.counters)
    start = time.perf_counter()
    metric.score_pairs(pairs)
    batch_s = time.perf_counter() - start
    first, second = _delta(c0, c1), _delta(c1, dict(ctx.counters))
    model = metric.model()
    return {
        "ms_per_pair_median": round(statistics.median(per_pair), 3),
        "ms_per_pair_p90": round(sorted(per_pair)[int(0.9 * (len(per_pair) - 1))], 3),
        "pairs_per_s_batch": round(len(pairs) / batch_s, 2) if batch_s > 0 else None,
        "n_pairs": len(pairs), "warmup": warmup,
        "counters_first_pass": first, "counters_second_pass_batched": second,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "signature": metric.signature(), "model": model.id if model else None,
        "device": model.device if model else "cpu",
    }


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0)}


def cmd_speed(args: argparse.Namespace) -> int:
    if args.data and missing(args.data, "speed"):
        return 0
    if args.fresh_cache:
        os.environ["RADSCOPE_HOME"] = tempfile.mkdtemp(prefix="radscope-bench-")
    registry: MetricRegistry = args.registry
    metric_names = registry.parse_metric_list(args.metrics)
    pairs = _speed_pairs(args.data, args.n)
    ctx = RuntimeContext(options=_collect_options(args))
    distinct = len({(p.reference, p.candidate) for p in pairs})
    report: dict[str, Any] = {"benchmark": "speed", "machine": machine_info(), "metrics": {},
                              "pairs": args.data or "examples (cycled)", "n_pairs": len(pairs),
                              "distinct_pairs": distinct}
    if distinct < len(pairs):
        print(f"note: only {distinct} of {len(pairs)} pairs are distinct; caches flatter repeats")
    try:
        for name in metric_names:
            figures = measure_speed(registry.get(name), pairs, ctx, args.warmup)
            report["metrics"][name] = figures
            print(f"{name:<10} {figures['ms_per_pair_median']:.3f} ms/pair (median), "
                  f"{figures['pairs_per_s_batch']} pairs/s batched, model={figures['model']}")
    finally:
        ctx.close()
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def build_parser(registry: MetricRegistry) -> argparse.ArgumentParser:
    """Every benchmark's command; ``args.registry`` is the metrics they may run."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.set_defaults(registry=registry)
    sub = parser.add_subparsers(dest="bench", required=True)

    p = sub.add_parser("ssree", help="SSREE L1..L5 monotonicity (validation spec §1)")
    p.add_argument("--data", help="path to ssree_dev.jsonl (e.g. ../shared/data/ssree_dev/ssree_dev.jsonl)")
    p.add_argument("--metrics", required=True)
    p.add_argument("--out", help="JSON report path")
    p.add_argument("--limit", type=int, help="only the first N reports")
    p.add_argument("--fold", choices=("a", "b", "all"), default="all",
                   help="score one fixed fold of the reports (split by name; default: both and all)")
    p.add_argument("--quiet", action="store_true")
    _add_metric_options(p, registry)
    p.set_defaults(func=cmd_ssree)

    p = sub.add_parser("speed", help="ms/pair (median after warm-up) and pairs/s")
    p.add_argument("--metrics", required=True)
    p.add_argument("--data", help="pairs file (default: the project's example pairs, cycled)")
    p.add_argument("--n", type=int, default=50, help="pairs to time")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--out", help="JSON report path")
    p.add_argument("--fresh-cache", action=argparse.BooleanOptionalAction, default=True,
                   help="use an empty cache directory so the first pass is cold")
    _add_metric_options(p, registry)
    p.set_defaults(func=cmd_speed)

    # Other benchmarks live in their own modules under bench/<group>/ (speed, quality) and add their
    # commands here (``add_metric_commands`` where a command takes metric options).
    for module in _benchmark_modules():
        if hasattr(module, "add_commands"):
            module.add_commands(sub)
        if hasattr(module, "add_metric_commands"):
            module.add_metric_commands(sub, registry)
    return parser


def _benchmark_modules() -> list[Any]:
    """Every module of bench's sub-packages (speed, quality, corpora, doubles), in a stable order."""
    import bench as package

    modules = []
    for group in pkgutil.iter_modules(package.__path__):
        if not group.ispkg:
            continue
        sub = importlib.import_module(f"bench.{group.name}")
        modules += [importlib.import_module(f"bench.{group.name}.{info.name}")
                    for info in pkgutil.iter_modules(sub.__path__)]
    return modules


def main(argv: list[str] | None = None, registry: MetricRegistry | None = None) -> int:
    """Run one benchmark; ``registry`` defaults to the project's metrics."""
    args = build_parser(production() if registry is None else registry).parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, KeyError, dataio.InputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
