"""Command line: ``python -m engine <command>``.

``score`` runs metrics over a file of pairs; ``compare`` tests two systems' stored per-pair
results against each other; ``metrics`` lists what is registered. Metric options (judge,
encoder models, modes) become flags automatically from the registry.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine import dataio, parallel, stats
from engine.metrics import registry


def _add_metric_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("metric options")
    for opt in registry.all_options().values():
        kwargs: dict[str, Any] = {"default": None, "help": f"{opt.help} (default: {opt.default})"}
        if opt.type is bool:
            kwargs["action"] = argparse.BooleanOptionalAction
        else:
            kwargs["type"] = opt.type
            if opt.choices:
                kwargs["choices"] = opt.choices
        group.add_argument(opt.flag, dest=f"opt_{opt.name}", **kwargs)


def _collect_options(args: argparse.Namespace) -> dict[str, Any]:
    return {key[4:]: value for key, value in vars(args).items()
            if key.startswith("opt_") and value is not None}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score report pairs from a file")
    score.add_argument("--input", required=True, help="CSV, TSV, JSONL or JSON file of pairs")
    score.add_argument("--metrics", required=True, help="comma-separated metric names")
    score.add_argument("--out", required=True, help="per-pair results, JSONL (one line per pair)")
    score.add_argument("--csv", help="also write a flat CSV of per-pair scores")
    score.add_argument("--summary", help="corpus summary JSON")
    score.add_argument("--run-id", help="store results under this id; re-running it skips finished pairs")
    score.add_argument("--db", help="SQLite store path (default: $RADSCOPE_HOME/radscope.sqlite)")
    score.add_argument("--format", choices=dataio.FORMATS, help="input format (default: from extension)")
    score.add_argument("--id-col", default="id", help="id column ('none' to number rows)")
    score.add_argument("--reference-col", default="reference")
    score.add_argument("--candidate-col", default="candidate")
    score.add_argument("--modality-col")
    score.add_argument("--area-col")
    score.add_argument("--max-chars", type=int, default=None,
                       help="longest report accepted, in characters (longer ones are marked per pair)")
    score.add_argument("--concurrency", type=int, default=1,
                       help="pairs in flight at once (useful with a remote judge server)")
    score.add_argument("--workers", type=int, default=0,
                       help="processes for the CPU-bound metrics (rules, lexical); 0: every core")
    score.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    _add_metric_options(score)

    compare = sub.add_parser("compare", help="paired comparison of two systems' results files")
    compare.add_argument("results_a", help="results JSONL of system A (the baseline)")
    compare.add_argument("results_b", help="results JSONL of system B")
    compare.add_argument("--metric", required=True)
    compare.add_argument("--resamples", type=int, default=10_000)
    compare.add_argument("--seed", type=int, default=0)

    sub.add_parser("metrics", help="list the registered metrics")

    from engine import structure

    _add_metric_options(structure.add_parser(sub))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "score":
            return _score(args)
        if args.command == "compare":
            return _compare(args)
        if args.command == "structure":
            from engine import structure

            return structure.run_cli(args, _collect_options(args))
        return _list_metrics()
    except (dataio.InputError, ValueError, KeyError, FileNotFoundError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"error: {message}", file=sys.stderr)
        return 2


def _score(args: argparse.Namespace) -> int:
    from engine.reports import DEFAULT_MAX_CHARS
    from engine.runner import format_summary, run_batch
    from engine.store import Store, default_db_path

    metric_names = registry.parse_metric_list(args.metrics)
    columns = dataio.Columns(
        id=None if args.id_col.lower() == "none" else args.id_col,
        reference=args.reference_col, candidate=args.candidate_col,
        modality=args.modality_col, area=args.area_col)
    pairs = dataio.read_pairs(args.input, columns, fmt=args.format)
    ctx = registry.RuntimeContext(options=_collect_options(args))
    store = Store(Path(args.db) if args.db else default_db_path())
    bar = None
    if not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=len(pairs) * len(metric_names), unit="result", file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.n = done
            bar.refresh()

    try:
        run = run_batch(pairs, metric_names, ctx, store=store, run_id=args.run_id,
                        input_label=str(args.input), max_chars=args.max_chars or DEFAULT_MAX_CHARS,
                        concurrency=args.concurrency, progress=progress,
                        workers=args.workers or parallel.default_workers())
    finally:
        if bar is not None:
            bar.close()
        ctx.close()
    dataio.write_jsonl(run.rows, args.out)
    if args.csv:
        dataio.write_csv(run.rows, args.csv)
    if args.summary:
        dataio.write_json(run.summary, args.summary)
    print(format_summary(run.summary))
    print(f"run id: {run.run_id}  ({len(run.rows)} pairs written to {args.out})")
    return 0


def _read_scores(path: str, metric: str) -> tuple[dict[str, float | None], set[str]]:
    """Per-pair scores of one metric in a results file (None for failed pairs), and the
    signatures they were produced under."""
    scores: dict[str, float | None] = {}
    signatures: set[str] = set()
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        result = row.get("metrics", {}).get(metric)
        if result is None:
            raise ValueError(f"{path}: line {number}: no result for metric {metric!r}")
        scores[str(row["id"])] = result.get("score") if result.get("error") is None else None
        if result.get("signature"):
            signatures.add(result["signature"])
    return scores, signatures


def _compare(args: argparse.Namespace) -> int:
    from engine.signature import signature_differences

    a, sig_a = _read_scores(args.results_a, args.metric)
    b, sig_b = _read_scores(args.results_b, args.metric)
    common = [pid for pid in a if pid in b]
    if not common:
        raise ValueError("the two results files share no pair ids")
    result = stats.paired_comparison([a[p] for p in common], [b[p] for p in common],
                                     n_resamples=args.resamples, seed=args.seed)
    out: dict[str, Any] = {"metric": args.metric, "pairs_in_both": len(common), **result.to_json()}
    if len(sig_a) == 1 and sig_a == sig_b:
        out["same_setup"] = True
    else:
        # Different extractors, models or options: the difference may not be the systems'.
        out["same_setup"] = False
        out["signatures"] = {"a": sorted(sig_a), "b": sorted(sig_b)}
        if len(sig_a) == 1 and len(sig_b) == 1:
            out["signature_differences"] = signature_differences(next(iter(sig_a)), next(iter(sig_b)))
        print("warning: the two files were scored under different signatures; the difference may "
              "come from the set-up, not the systems (see signature_differences)", file=sys.stderr)
    print(json.dumps(out, indent=2))
    return 0


def _list_metrics() -> int:
    for name in registry.names():
        card = registry.get(name).card
        arrow = "higher" if card.direction == "higher" else "lower"
        print(f"{name:<10} {card.title:<28} {arrow} is better, range {card.range_text()}")
    return 0
