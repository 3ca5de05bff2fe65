"""The store at scale: ``python -m bench store --n 100000``.

Scores ``--n`` pairs with the default metrics into a fresh store, as ``radscope score`` does (the
pairs read from a JSONL file, one worker unless ``--workers``), and reports the store's size per
pair and the process's peak memory; then runs the same input again, which must answer from the
finished run: nothing stored, the file the same size, and the time it took beside the first's.

The pairs are built from the project's example reports (assets/examples.json): each reference
is a few of their sentences, each candidate that reference with a sentence left out, another
put in or the order changed, so that the texts differ from pair to pair as a test set's do
(a reader that remembers texts would look faster on repeated ones). ``--pairs FILE`` scores
the first ``--n`` pairs of a file instead.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import machine_info
from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.reports import split_utterances
from radscope.engine.metrics.framework.registry import export_columns_of

SEED = 45


def example_sentences() -> list[str]:
    """Every sentence of the example pairs' reports, once each, in a fixed order."""
    from radscope.engine.io.examples import example_pairs

    seen: dict[str, None] = {}
    for example in example_pairs():
        for text in (example.pair.reference, example.pair.candidate):
            for sentence in split_utterances(text):
                seen.setdefault(sentence.strip(), None)
    return [s for s in seen if s]


def synthetic_rows(n: int, seed: int = SEED) -> list[dict[str, str]]:
    """``n`` pairs whose reports are drawn from the example sentences (see the module docstring)."""
    rng = random.Random(seed)
    pool = example_sentences()
    rows = []
    for i in range(n):
        reference = rng.sample(pool, rng.randint(3, min(7, len(pool))))
        candidate = list(reference)
        edit = rng.randrange(3)
        if edit == 0 and len(candidate) > 1:
            candidate.pop(rng.randrange(len(candidate)))
        elif edit == 1:
            candidate.insert(rng.randrange(len(candidate) + 1), rng.choice(pool))
        else:
            rng.shuffle(candidate)
        rows.append({"id": f"p{i}", "reference": " ".join(reference), "candidate": " ".join(candidate)})
    return rows


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def measure(pairs_path: Path, db: Path, workers: int) -> dict[str, Any]:
    """Score the file into ``db`` as ``radscope score`` does (its JSONL written): the first run's
    size, time and memory. Then three identical reruns: the same command again ("second_cli":
    its output file unchanged, so left as it is), the API asking for the summary alone
    ("second": the summary the run kept), and the API writing the JSONL again from the store
    ("second_with_rows"); their time and what they stored."""
    from radscope.engine.metrics.framework.defaults import default_metrics
    from radscope.engine.metrics.framework.registry import production

    registry = production()
    names = default_metrics(registry, {})
    pairs = dataio.PairFile(pairs_path, dataio.Columns())
    pairs.check()
    out: dict[str, Any] = {"metrics": names, "n_pairs": len(pairs)}
    for label in ("first", "second_cli", "second", "second_with_rows"):
        start = time.perf_counter()
        if label in ("first", "second_cli"):
            run = _command_run(pairs_path, db, workers, names)
        else:
            run = _api_run(pairs, db, workers, names, registry, write_rows=label == "second_with_rows")
        seconds = time.perf_counter() - start
        out[label] = {"run_id": run["run_id"], "seconds": round(seconds, 2),
                      "pairs_per_s": round(len(pairs) / seconds, 1), "stored_results": run["stored"],
                      "answered_from_store": run["answered_from_store"],
                      "store_bytes": db.stat().st_size, "peak_rss_mb": _peak_rss_mb()}
    first = out["first"]
    out["bytes_per_pair"] = round(first["store_bytes"] / max(1, len(pairs)), 1)
    for label in ("second_cli", "second", "second_with_rows"):
        out[f"{label}_over_first"] = round(out[label]["seconds"] / first["seconds"], 4)
        out[f"{label}_grew_store_by"] = out[label]["store_bytes"] - first["store_bytes"]
    return out


def _command_run(pairs_path: Path, db: Path, workers: int, names: list[str]) -> dict[str, Any]:
    """``radscope score`` in this process, its JSONL beside the store; what its summary says."""
    import contextlib
    import io

    from radscope.engine.commands import main

    summary = db.with_suffix(".summary.json")
    argv = ["score", "--input", str(pairs_path), "--metrics", ",".join(names), "--out",
            str(db.with_suffix(".jsonl")), "--db", str(db), "--workers", str(workers), "--no-progress",
            "--summary", str(summary)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    if code != 0:
        raise RuntimeError(f"radscope score exited {code}")
    return dict(json.loads(summary.read_text()))


def _api_run(pairs: dataio.PairFile, db: Path, workers: int, names: list[str], registry: Any,
             write_rows: bool) -> dict[str, Any]:
    """The in-process API's run of the same input: the summary alone, or its JSONL written again."""
    from radscope.engine.runs.runner import input_run_id, resume_or_new_run_id, run_batch
    from radscope.engine.runs.store import Store

    ctx, store = RuntimeContext(), Store(db)
    writer = dataio.ResultsWriter(db.with_suffix(".rows.jsonl"), None, columns_of=export_columns_of) \
        if write_rows else None
    try:
        built = registry.build(names, ctx)
        run_id = resume_or_new_run_id(store, input_run_id(pairs, built))
        run = run_batch(pairs, names, ctx, registry=registry, store=store, run_id=run_id,
                        input_label=str(pairs.path), metrics=built, workers=workers, keep_rows=False,
                        on_rows=writer.write if writer else None)
        if writer:
            writer.finish()
        store.checkpoint()
        return {"run_id": run.run_id, **run.summary}
    finally:
        if writer:
            writer.close()
        ctx.close()
        store.close()


def cmd_store(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="radscope-bench-store-") as tmp:
        if args.pairs:
            if not Path(args.pairs).exists():
                print(f"store: pairs file not found at {args.pairs!r}; skipping")
                return 0
            rows = [{"id": p.id, "reference": p.reference, "candidate": p.candidate}
                    for p, _ in zip(dataio.PairFile(args.pairs, dataio.Columns()), range(args.n), strict=False)]
        else:
            rows = synthetic_rows(args.n)
        pairs_path = Path(tmp) / "pairs.jsonl"
        dataio.write_jsonl(rows, pairs_path)
        db = Path(args.db) if args.db else Path(tmp) / "bench.sqlite"
        if db.exists():
            print(f"store: {db} exists; the bench needs a fresh store (remove it or pass another --db)")
            return 2
        report = {"benchmark": "store", "machine": machine_info(), "workers": args.workers,
                  **measure(pairs_path, db, args.workers)}
    first, second, rows = report["first"], report["second"], report["second_with_rows"]
    again = report["second_cli"]
    print(f"first run   `radscope score`, {report['n_pairs']} pairs, {len(report['metrics'])} metrics: {first['seconds']} s "
          f"({first['pairs_per_s']} pairs/s), store {first['store_bytes'] / 1e6:.2f} MB = "
          f"{report['bytes_per_pair']} bytes/pair, peak RSS {first['peak_rss_mb']} MB")
    print(f"second run  the same `radscope score` again: answered {again['answered_from_store']}, stored "
          f"{again['stored_results']} results, output left as it was, {again['seconds']} s = "
          f"{100 * report['second_cli_over_first']:.1f} % of the first")
    print(f"  the API asking for the summary alone: answered from the store: {second['answered_from_store']}, stored "
          f"{second['stored_results']} results, store grew {report['second_grew_store_by']} bytes, "
          f"{second['seconds']} s = {100 * report['second_over_first']:.1f} % of the first")
    print(f"  the API writing the JSONL again from the store: answered {rows['answered_from_store']}, "
          f"stored {rows['stored_results']}, {rows['seconds']} s = "
          f"{100 * report['second_with_rows_over_first']:.1f} % of the first; peak RSS {rows['peak_rss_mb']} MB")
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("store", help="store size per pair, peak memory, and an identical rerun's cost")
    p.add_argument("--n", type=int, default=100_000, help="pairs to score (default 100,000)")
    p.add_argument("--pairs", help="score the first --n pairs of this file instead of the built ones")
    p.add_argument("--workers", type=int, default=1, help="scoring processes (default 1)")
    p.add_argument("--db", help="where to keep the store (default: a temporary file, removed)")
    p.add_argument("--out", help="JSON report to write")
    p.set_defaults(func=cmd_store)
