"""``radscope agree``: how far metrics agree with radiologists' ratings of report pairs.

    radscope agree --ratings rated.csv --better higher --metrics radsem,crepe [--out report.json]
    radscope agree --ratings REXVAL_FOLDER --format rexval --metrics crepe,vert
    radscope agree --ratings RATE_EVAL_FOLDER --format rate-eval --metrics radsem

Prints per metric Kendall tau-b and Spearman rho (signed so that positive means agreement) with
95% bootstrap CIs, the pairs counted, and the detection F1 where both the metric and the ratings
count errors per category; ``--out`` writes everything as JSON. A problem with the input is one
``error:`` line (exit status 2), never a number.
"""
from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from radscope.engine.metrics.framework.registry import MetricRegistry

if TYPE_CHECKING:
    from radscope.engine.ratings.rated import RatedPairs
    from radscope.engine.ratings.rexval import ErrorKind

FORMATS = ("own", "rexval", "rate-eval")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``agree`` subcommand (its metric flags are added by the caller)."""
    p = sub.add_parser("agree", help="how far metrics agree with radiologists' ratings (Kendall "
                       "tau-b, Spearman rho with CIs, detection F1)")
    p.add_argument("--ratings", required=True,
                   help="the rated pairs: a CSV, TSV, JSONL or JSON file (own format), or the folder "
                        "of a ReXVal or RaTE-Eval copy")
    p.add_argument("--format", choices=FORMATS, default="own", dest="ratings_format",
                   help="own (default): columns id, reference, candidate and a rating; rexval; rate-eval")
    p.add_argument("--metrics", required=True, help="comma-separated metric names")
    p.add_argument("--better", choices=("higher", "lower"),
                   help="which rating is better: higher (a quality score) or lower (an error count); "
                        "required for the own format; ReXVal counts errors (lower), RaTE-Eval "
                        "scores quality (higher)")
    p.add_argument("--rating-col", default="rating", help="own format: the rating column (default: rating)")
    p.add_argument("--id-col", default="id", help="own format: the id column ('none' to number rows)")
    p.add_argument("--reference-col", default="reference")
    p.add_argument("--candidate-col", default="candidate")
    p.add_argument("--errors", choices=("total", "significant"), default="total",
                   help="ReXVal: which radiologists' error counts (default: total)")
    p.add_argument("--study-number-base", type=int, choices=(0, 1), default=0,
                   help="ReXVal: the ratings file numbers the studies from 0 (published) or 1")
    p.add_argument("--split", default="test", help="RaTE-Eval: the split (default: test)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument("--out", "--output", dest="out", help="write the full report here as JSON")
    return p


def run_cli(args: argparse.Namespace, registry: MetricRegistry, options: Mapping[str, Any]) -> int:
    from radscope.engine.io import dataio
    from radscope.engine.ratings.agreement import score_agreement

    if args.out and Path(args.out).is_dir():
        raise dataio.InputError(f"--out {args.out}: is a folder; give a file path such as "
                                f"{Path(args.out) / 'agreement.json'}")
    names = registry.parse_metric_list(args.metrics)
    rated = read_ratings(args)
    report = score_agreement(rated, names, registry, options, seed=args.seed)
    report["format"] = args.ratings_format
    print(format_report(report))
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def read_ratings(args: argparse.Namespace) -> RatedPairs:
    """The ``RatedPairs`` that the flags name; a missing file or a contradicting flag raises."""
    from radscope.engine.io import dataio

    path = Path(args.ratings)
    if not path.exists():
        raise FileNotFoundError(f"--ratings {args.ratings}: no such file or folder")
    fmt = args.ratings_format
    if fmt == "own":
        from radscope.engine.ratings.own import load_own

        if args.better is None:
            raise dataio.InputError("--better higher|lower is required with your own ratings: say "
                                    "whether a higher rating means a better report (a score) or a "
                                    "worse one (an error count)")
        columns = dataio.Columns(id=None if args.id_col.lower() == "none" else args.id_col,
                                 reference=args.reference_col, candidate=args.candidate_col)
        return load_own(path, lower_is_better=args.better == "lower", columns=columns,
                        rating_column=args.rating_col)
    if not path.is_dir():
        raise dataio.InputError(f"--ratings {args.ratings}: --format {fmt} reads a folder (the "
                                "dataset's files as published), not one file")
    if fmt == "rexval":
        from radscope.engine.ratings.rexval import load_rexval

        if args.better == "higher":
            raise dataio.InputError("--better higher contradicts ReXVal, whose ratings count errors "
                                    "(lower is better); leave --better out")
        return load_rexval(path, study_number_base=args.study_number_base).rated(cast("ErrorKind", args.errors))
    from radscope.engine.ratings.rate_eval import load_rate_eval

    return load_rate_eval(path, split=args.split).rated(lower_is_better=args.better == "lower")


def format_report(report: Mapping[str, Any]) -> str:
    """The report as the lines the command prints."""
    unrated = f", {report['n_unrated']} without a rating left out" if report["n_unrated"] else ""
    lines = [f"ratings: {report['ratings']} ({report['rating']}); {report['n_pairs']} pairs{unrated}",
             f"{'metric':<10} {'n':>5}  {'Kendall tau-b [95% CI]':<26} {'Spearman rho [95% CI]':<26} "
             "detection F1"]
    for name, entry in report["metrics"].items():
        f1 = entry.get("detection_f1")
        line = (f"{name:<10} {entry['kendall']['n']:>5}  {_coefficient(entry['kendall']):<26} "
                f"{_coefficient(entry['spearman']):<26} "
                f"{'-' if f1 is None else format(f1['overall']['f1'], '.3f')}")
        notes = []
        if entry.get("no_coefficient"):
            notes.append(f"no coefficient: {entry['no_coefficient']}")
        if entry["n_errors"]:
            notes.append(f"{entry['n_errors']} pair(s) not scored, left out")
        if entry["demo_grade"]:
            notes.append("scored by a demo-grade model: not a measure of the metric")
        lines.append(line + ("  (" + "; ".join(notes) + ")" if notes else ""))
    lines.append("Signs are aligned: positive means the metric ranks the pairs as the radiologists do, "
                 "whichever way each one counts (the raw coefficients are in the JSON report).")
    return "\n".join(lines)


def _coefficient(c: Mapping[str, Any]) -> str:
    if c["aligned"] is None:
        return "n/a"
    ci = "" if c["aligned_ci"] is None else f" [{c['aligned_ci'][0]:+.3f}, {c['aligned_ci'][1]:+.3f}]"
    return f"{c['aligned']:+.3f}{ci}"
