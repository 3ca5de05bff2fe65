"""Agreement with radiologists on bring-your-own rating files (validation spec §5).

``python -m bench agreement --format rexval --data DIR --metrics crepe,vert`` scores the
rated pairs and reports, per metric, Kendall tau-b and Spearman rho with bootstrap CIs against
the human scores, and, for metrics that count errors per category (VERT's judge, CREPE), the
per-category error-detection F1 against the radiologists' counts (ReXVal). No rating data
ships with RadScope: the files come from their publishers (PhysioNet, Hugging Face).
"""
from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.statistics import mean_bca

CATEGORY_LETTERS = ("A", "B", "C", "D", "E", "F")


def category_counts(metric_result: Mapping[str, Any]) -> dict[str, float] | None:
    """Per-category error counts A-F of one stored result, when the metric has them.

    VERT: the judge's clinically significant errors; CREPE: the predicted counts.
    """
    if metric_result.get("error") is not None:
        return None
    assessment = metric_result.get("assessment")
    if isinstance(assessment, Mapping) and isinstance(assessment.get("significant"), Mapping):
        significant = assessment["significant"]
        return {letter: float((significant.get(letter.lower()) or {}).get("count") or 0)
                for letter in CATEGORY_LETTERS}
    counts = metric_result.get("counts")
    if isinstance(counts, Mapping) and set(CATEGORY_LETTERS) <= set(counts):
        return {letter: float(counts[letter]) for letter in CATEGORY_LETTERS}
    return None


def agreement(metric_scores: Sequence[float | None], human: Sequence[float | None],
              human_lower_is_better: bool, metric_lower_is_better: bool, seed: int = 0
              ) -> dict[str, Any]:
    """Kendall tau-b and Spearman rho (raw), plus ``aligned`` = the coefficient signed so that
    positive always means the metric orders pairs as the humans do."""
    sign = 1.0 if human_lower_is_better == metric_lower_is_better else -1.0
    out: dict[str, Any] = {}
    for method in ("kendall", "spearman"):
        c = mean_bca.correlation(metric_scores, human, method=method, seed=seed).to_json()
        c["aligned"] = None if c["coef"] is None else sign * c["coef"]
        bounds = [c["ci_low"], c["ci_high"]]
        c["aligned_ci"] = None if None in bounds else sorted(sign * b for b in bounds)
        out[method] = c
    return out


def detection(results: Sequence[Mapping[str, Any]], human_counts: Sequence[Mapping[str, float] | None]
              ) -> dict[str, Any] | None:
    """Per-category detection F1 of a counting metric against human counts (pairs with both)."""
    from radscope.engine.metrics.vert.score import detection_f1

    human, model = [], []
    for result, h in zip(results, human_counts, strict=True):
        g = category_counts(result)
        if g is not None and h is not None:
            human.append({k.lower(): v for k, v in h.items()})
            model.append({k.lower(): v for k, v in g.items()})
    if not human:
        return None
    return detection_f1(human, model).to_json()


def cmd_agreement(args: argparse.Namespace) -> int:
    from bench.common import machine_info
    from bench.quality.ratings import RaTEEvalData, ReXValData, load_rate_eval, load_rexval
    from radscope.engine.cli import _collect_options
    from radscope.engine.runs.runner import run_batch

    if not args.data or not Path(args.data).exists():
        print(f"agreement: rating data not found at {args.data!r}; skipping (ReXVal comes from "
              "PhysioNet, RaTE-Eval from Hugging Face: bring your own copy)")
        return 0
    registry: MetricRegistry = args.registry
    names = registry.parse_metric_list(args.metrics)
    data: ReXValData | RaTEEvalData
    if args.format == "rexval":
        data = load_rexval(args.data)
        human = data.human_scores(args.kind)
        human_counts = [None if data.ratings.get(p.id) is None else
                        (data.ratings[p.id].significant if args.kind == "significant" else
                         {k: data.ratings[p.id].significant[k] + data.ratings[p.id].insignificant[k]
                          for k in CATEGORY_LETTERS}) for p in data.pairs]
        human_lower = True  # error counts
    else:
        data = load_rate_eval(args.data, split=args.split)
        human, human_counts = data.human_scores(), [None] * len(data.pairs)
        human_lower = False  # a quality score
    pairs = data.pairs[: args.limit] if args.limit else data.pairs
    human, human_counts = human[: len(pairs)], human_counts[: len(pairs)]
    ctx = RuntimeContext(options=_collect_options(args))
    report: dict[str, Any] = {"benchmark": "agreement", "format": args.format, "data": str(args.data),
                              "human_score": args.kind if args.format == "rexval" else "score",
                              "n_pairs": len(pairs), "machine": machine_info(), "metrics": {}}
    try:
        run = run_batch(pairs, names, ctx, registry=registry)
    finally:
        ctx.close()
    for name in names:
        results = [row["metrics"][name] for row in run.rows]
        scores = [r["score"] if r["error"] is None else None for r in results]
        lower = registry.get(name).card.direction == "lower"
        entry = agreement(scores, human, human_lower, lower, seed=args.seed)
        entry["signature"] = run.summary["metrics"][name]["signature"]
        entry["n_errors"] = run.summary["metrics"][name]["n_errors"]
        found = detection(results, human_counts)
        if found is not None:
            entry["detection_f1"] = found
        report["metrics"][name] = entry
        k, s = entry["kendall"], entry["spearman"]
        print(f"{name:<10} kendall tau-b {_fmt(k)}  spearman {_fmt(s)}  (aligned: positive = agrees)"
              + (f"  detection F1 {found['overall']['f1']:.3f}" if found else ""))
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def _fmt(c: Mapping[str, Any]) -> str:
    if c["coef"] is None:
        return "n/a"
    ci = "" if c["aligned_ci"] is None else f" [{c['aligned_ci'][0]:+.3f}, {c['aligned_ci'][1]:+.3f}]"
    return f"{c['aligned']:+.3f}{ci} n={c['n']}"


def add_metric_commands(sub: argparse._SubParsersAction, registry: MetricRegistry) -> None:
    from radscope.engine.cli import _add_metric_options

    p = sub.add_parser("agreement", help="Kendall/Spearman and detection F1 against radiologists' ratings")
    p.add_argument("--format", choices=("rexval", "rate-eval"), required=True)
    p.add_argument("--data", help="folder with the rating files (ReXVal CSVs or RaTE-Eval Task 2)")
    p.add_argument("--metrics", required=True)
    p.add_argument("--kind", choices=("total", "significant"), default="total",
                   help="ReXVal: which human error counts to correlate with")
    p.add_argument("--split", default="test", help="RaTE-Eval split")
    p.add_argument("--limit", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="JSON report path")
    _add_metric_options(p, registry)
    p.set_defaults(func=cmd_agreement)
