"""``radscope runs``: what the store holds, and what to do with it.

``list`` (id, date, status, pairs, metrics, size), ``show RUN``, ``export RUN`` (the run's JSONL,
and CSV, written again from the store exactly as ``score`` wrote them), ``remove RUN...`` and
``compact`` (VACUUM: the file gives back the space that removed runs held).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from radscope.engine.io import dataio
from radscope.engine.metrics.framework.registry import export_columns_of
from radscope.engine.runs.store import Store, UnknownRunError, default_db_path


def human_bytes(n: float) -> str:
    """A size as people read it (1024-based, one decimal)."""
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def store_line(store: Store, summary: dict[str, Any]) -> str:
    """The last line of ``score``: what the run left in the store, and the store's size."""
    size = f"store {store.path}: {human_bytes(store.size_bytes())}"
    if summary.get("answered_from_store"):
        return (f"{size}; identical to this finished run (same input, options and signatures): answered "
                "from it, nothing stored again (--fresh scores it again as a new run)")
    stored, n_pairs = summary.get("stored"), summary.get("n_pairs") or 0
    if stored is None:
        return size
    copied = (summary.get("resumed") or {}).get("from_earlier_run", 0)
    shared = f", {copied} of them sharing the earlier run's details" if copied else ""
    return f"{size}; this run stored {stored} results ({n_pairs} pairs){shared}"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    runs = sub.add_parser("runs", help="list, show, export, remove and compact the stored runs")
    runs.add_argument("--db", help="SQLite store path (default: $RADSCOPE_HOME/radscope.sqlite)")
    # --db after the action works too (SUPPRESS: an action that is not given it keeps the one before).
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS, help="SQLite store path")
    actions = runs.add_subparsers(dest="runs_command", required=True)
    actions.add_parser("list", parents=[db], help="every run: id, date, status, pairs, metrics, size")
    show = actions.add_parser("show", parents=[db], help="one run's settings and counts")
    show.add_argument("run_id")
    export = actions.add_parser("export", parents=[db], help="write a run's results again, as `score` wrote them")
    export.add_argument("run_id")
    export.add_argument("--out", required=True, help="per-pair results, JSONL")
    export.add_argument("--csv", help="also the flat results table as CSV")
    export.add_argument("--input", help="the run's input file, for the texts in the CSV (read with "
                        "the default column names: id, reference, candidate)")
    remove = actions.add_parser("remove", parents=[db], help="delete runs (then `compact` shrinks the file)")
    remove.add_argument("run_ids", nargs="+")
    actions.add_parser("compact", parents=[db], help="rewrite older runs compactly and VACUUM: the file shrinks")
    return runs


def run_cli(args: argparse.Namespace) -> int:
    with Store(Path(args.db) if args.db else default_db_path()) as store:
        command = args.runs_command
        if command == "list":
            return _list(store)
        if command == "show":
            return _show(store, args.run_id)
        if command == "export":
            return _export(store, args)
        if command == "remove":
            return _remove(store, args.run_ids)
        before = store.size_bytes()
        store.compact()
        print(f"compacted {store.path}: {human_bytes(before)} -> {human_bytes(store.size_bytes())}")
        return 0


def _list(store: Store) -> int:
    runs = store.list_runs()
    sizes = store.run_sizes([r.run_id for r in runs])
    print(f"{'run id':<24} {'started':<19} {'status':<11} {'pairs':>7} {'size':>9}  metrics")
    for info in runs:
        print(f"{info.run_id:<24} {info.created_at[:19].replace('T', ' '):<19} {info.status:<11} "
              f"{info.n_pairs:>7} {human_bytes(sizes.get(info.run_id, 0)):>9}  {','.join(info.metrics)}")
    print(f"{len(runs)} runs; store {store.path}: {human_bytes(store.size_bytes())}")
    return 0


def _run(store: Store, run_id: str) -> Any:
    info = store.get_run(run_id)
    if info is None:
        raise UnknownRunError(f"no run {run_id!r} in {store.path} (`radscope runs list` names them)")
    return info


def _show(store: Store, run_id: str) -> int:
    info = _run(store, run_id)
    shown = {**info.to_json(), "size_bytes": store.run_sizes([run_id]).get(run_id, 0)}
    print(json.dumps(shown, indent=2, ensure_ascii=False))
    return 0


def _export(store: Store, args: argparse.Namespace) -> int:
    info = _run(store, args.run_id)
    pairs = dataio.PairFile(args.input, dataio.Columns()) if args.input else None
    with dataio.ResultsWriter(args.out, args.csv, pairs, columns_of=export_columns_of) as writer:
        writer.write(run_rows(store, info.run_id, info.metrics))
        writer.finish()
    print(f"run {info.run_id}: {writer.n_rows} pairs written to {args.out}"
          + (f" and {args.csv}" if args.csv else ""))
    return 0


def run_rows(store: Store, run_id: str, metrics: list[str]) -> Any:
    """A stored run's output rows, in input order, each metric's result in the run's order."""
    pair_id: str | None = None
    found: dict[str, Any] = {}
    for row in store.results(run_id):
        if row.pair_id != pair_id and pair_id is not None:
            yield {"id": pair_id, "metrics": {m: found[m] for m in metrics if m in found}}
            found = {}
        pair_id = row.pair_id
        found[row.metric] = row.payload
    if pair_id is not None:
        yield {"id": pair_id, "metrics": {m: found[m] for m in metrics if m in found}}


def _remove(store: Store, run_ids: list[str]) -> int:
    for run_id in run_ids:
        _run(store, run_id)
    for run_id in run_ids:
        store.remove_run(run_id)
    print(f"removed {len(run_ids)} run(s); `radscope runs compact` gives their space back to the disk "
          f"(store {store.path}: {human_bytes(store.size_bytes())})")
    return 0
