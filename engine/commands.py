"""Command line: ``radscope <command>`` (``python -m radscope`` in a checkout).

``score`` runs metrics over a file of pairs; ``compare`` tests two systems' stored per-pair
results against each other; ``metrics`` lists what is registered. Metric options (judge,
encoder models, modes) become flags automatically from the registry.

Every problem a user can fix (the input, the output paths, the store file) is a one-line
``error:`` message with exit status 2, never a traceback. ``score`` checks its output paths
before any work, prints the run id when the run starts, and on Ctrl-C stops between two
results, printing the id and the command that resumes (exit status 130).
"""
from __future__ import annotations

import argparse
import errno
import json
import os
import shlex
import sqlite3
import sys
from pathlib import Path
from typing import Any

from radscope.engine.command_args import OneLineParser, count
from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.metrics.framework.defaults import default_metrics
from radscope.engine.metrics.framework.registry import MetricRegistry, export_columns_of, production
from radscope.engine.reader.error_words import ran_title
from radscope.engine.runs import parallel


def _add_metric_options(parser: argparse.ArgumentParser, registry: MetricRegistry) -> None:
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


def build_parser(registry: MetricRegistry) -> argparse.ArgumentParser:
    parser = OneLineParser(prog="radscope", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score report pairs from a file")
    score.add_argument("--input", required=True, help="CSV, TSV, JSONL or JSON file of pairs")
    score.add_argument("--metrics", help="comma-separated metric names (default: every metric "
                       "that gives real numbers under the chosen options: with the rules reader "
                       "(the default) all of them; never a demo-grade model)")
    score.add_argument("--out", required=True, help="per-pair results, JSONL (one line per pair)")
    score.add_argument("--csv", help="also write the flat results table as CSV (the app's Batch "
                       "download: texts, then per metric its score, error, model, signature and details)")
    score.add_argument("--summary", help="corpus summary JSON")
    score.add_argument("--run-id", help="store results under this id; re-running it skips finished pairs "
                       "(default: an id derived from the input and options, so re-running the same "
                       "command resumes its unfinished run, or answers from its finished one without "
                       "storing anything again)")
    score.add_argument("--fresh", action="store_true",
                       help="score the input again as a new run even when an identical finished run "
                       "is stored (its pairs are scored and stored again)")
    score.add_argument("--db", help="SQLite store path (default: $RADSCOPE_HOME/radscope.sqlite)")
    score.add_argument("--format", choices=dataio.FORMATS, help="input format (default: from extension)")
    score.add_argument("--id-col", default="id", help="id column ('none' to number rows)")
    score.add_argument("--reference-col", default="reference")
    score.add_argument("--candidate-col", default="candidate")
    score.add_argument("--modality-col")
    score.add_argument("--area-col")
    score.add_argument("--max-chars", type=count(1), default=None,
                       help="longest report accepted, in characters (longer ones are marked per pair)")
    score.add_argument("--concurrency", type=count(1), default=1,
                       help="pairs in flight at once (useful with a remote judge server)")
    score.add_argument("--workers", type=count(0), default=0,
                       help="processes for the CPU-bound metrics (rules, lexical); 0: every core")
    score.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    score.add_argument("--engine", choices=("local", "ray"), default="local",
                       help="local: this machine's cores; ray: blocks scored by Ray actors, here or "
                       "on a cluster (same rows and summary; see docs/ray.md)")
    from radscope.engine.cluster.ray_runner import add_ray_arguments

    add_ray_arguments(score)
    _add_metric_options(score, registry)

    compare = sub.add_parser("compare", help="paired comparison of two systems' results files")
    compare.add_argument("results_a", help="results JSONL of system A (the baseline)")
    compare.add_argument("results_b", help="results JSONL of system B")
    compare.add_argument("--metric", required=True)
    compare.add_argument("--resamples", type=count(1), default=None,
                         help="resamples of each mean's bootstrap (default: the app's, 2,000, so "
                              "that both show the same numbers)")
    compare.add_argument("--seed", type=int, default=0)
    compare.add_argument("--include-demo", action="store_true",
                         help="give verdicts for metrics scored by a demo-grade model too")

    sub.add_parser("metrics", help="list the registered metrics")

    from radscope.engine.runs import commands as runs_commands

    runs_commands.add_parser(sub)

    from radscope.engine.structured import rewrite as structured_report
    _add_metric_options(structured_report.add_parser(sub), registry)

    from radscope.engine.ratings import command as ratings_command

    _add_metric_options(ratings_command.add_parser(sub), registry)
    return parser


def main(argv: list[str] | None = None, registry: MetricRegistry | None = None) -> int:
    """Run one command; ``registry`` defaults to the project's metrics."""
    from radscope.engine.runs.store import StoreError

    registry = production() if registry is None else registry
    parser = build_parser(registry)
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    try:
        if args.command == "score":
            return _score(args, argv, registry)
        if args.command == "compare":
            return _compare(args, registry)
        if args.command == "runs":
            from radscope.engine.runs import commands as runs_commands

            return runs_commands.run_cli(args)
        if args.command == "structure":
            from radscope.engine.structured import rewrite as structured_report
            return structured_report.run_cli(args, _collect_options(args))
        if args.command == "agree":
            from radscope.engine.ratings import command as ratings_command

            return ratings_command.run_cli(args, registry, _collect_options(args))
        return _list_metrics(registry)
    except (dataio.InputError, StoreError, ValueError, KeyError, FileNotFoundError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted before scoring started; nothing was stored", file=sys.stderr)
        return 130


def check_output_paths(input_path: str, **paths: str | None) -> None:
    """Refuse output paths that cannot be written before any scoring is done: a directory,
    a path under a file, an unwritable place, the input itself, or one path given twice."""
    seen: dict[Path, str] = {Path(input_path).resolve(): "--input"}
    for flag, value in paths.items():
        if not value:
            continue
        flag = "--" + flag
        path = Path(value)
        if path.is_dir():
            raise dataio.InputError(f"{flag} {value}: is a directory; give a file path, such as "
                                    f"{path / ('results' + ('.json' if flag == '--summary' else path.suffix or '.jsonl'))}")
        resolved = path.resolve()
        if resolved in seen:
            raise dataio.InputError(f"{flag} {value}: is the same file as {seen[resolved]}; "
                                    "give each output its own path")
        seen[resolved] = flag
        ancestor = resolved.parent
        while not ancestor.exists():
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise dataio.InputError(f"{flag} {value}: {ancestor} is a file, not a folder")
        writable = os.access(path, os.W_OK) if path.exists() else os.access(ancestor, os.W_OK | os.X_OK)
        if not writable:
            raise dataio.InputError(f"{flag} {value}: cannot write there (permission denied)")


def _resume_command(argv: list[str], run_id: str) -> str:
    args = list(argv)
    if "--run-id" not in args and not any(a.startswith("--run-id=") for a in args):
        args += ["--run-id", run_id]
    return shlex.join([sys.executable, "-m", "radscope", *args])


_DISK_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)


def _score(args: argparse.Namespace, argv: list[str], registry: MetricRegistry) -> int:
    from radscope.engine.io.reports import DEFAULT_MAX_CHARS
    from radscope.engine.runs.collector import scoring_collector
    from radscope.engine.runs.runner import input_run_id, resume_or_new_run_id
    from radscope.engine.runs.store import Store, default_db_path, os_error_message

    check_output_paths(args.input, out=args.out, csv=args.csv, summary=args.summary)
    if args.engine == "ray":
        from radscope.engine.cluster.ray_runner import require_ray

        require_ray()  # before any work: without Ray, say how to get it
    options = _collect_options(args)
    metric_names = (registry.parse_metric_list(args.metrics) if args.metrics is not None
                    else default_metrics(registry, options))
    columns = dataio.Columns(
        id=None if args.id_col.lower() == "none" else args.id_col,
        reference=args.reference_col, candidate=args.candidate_col,
        modality=args.modality_col, area=args.area_col)
    pairs = dataio.PairFile(args.input, columns, fmt=args.format)
    pairs.check()  # the whole file is read and checked once, before any work
    max_chars = args.max_chars or DEFAULT_MAX_CHARS
    store = Store(Path(args.db) if args.db else default_db_path())
    ctx = RuntimeContext(options=options)
    try:
        with scoring_collector():  # this command's process only scores (runs.collector)
            built = registry.build(metric_names, ctx)
            if args.fresh and args.run_id:
                raise dataio.InputError("--fresh starts a new run with an id of its own; leave out --run-id")
            run_id = args.run_id or resume_or_new_run_id(store, input_run_id(pairs, built, max_chars),
                                                         fresh=args.fresh)
            return _score_run(args, argv, pairs, built, registry, ctx, store, run_id, max_chars)
    except sqlite3.DatabaseError as exc:
        raise store.damaged(exc) from None
    except OSError as exc:
        if exc.errno not in _DISK_ERRORS:
            raise
        where = exc.filename or " / ".join(p for p in (args.out, args.csv, args.summary) if p)
        raise dataio.InputError(
            f"could not write the results: {os_error_message(where, exc)}. What was scored is stored "
            f"in {store.path}: free space (or choose another --out) and run the same command again "
            "to resume") from None
    finally:
        ctx.close()
        store.close()


def _score_run(args: argparse.Namespace, argv: list[str], pairs: dataio.PairFile, built: list[Any],
               registry: MetricRegistry, ctx: RuntimeContext, store: Any, run_id: str, max_chars: int) -> int:
    """Score the file chunk by chunk, each chunk's rows written to the outputs as it is done
    (under ``.partial`` names, moved into place when the run finishes); an identical rerun
    whose output files are unchanged leaves them be."""
    from radscope.engine.runs.runner import run_batch
    from radscope.engine.runs.summary import format_summary

    info = store.get_run(run_id)
    resuming = f" (resuming: {info.n_results} results stored)" if info else ""
    if info and info.status == "finished":
        resuming = f" (finished before: reading its {info.n_results} stored results)"
    print(f"run id: {run_id}{resuming}", file=sys.stderr, flush=True)
    metric_names = [m.name for m in built]
    written = _outputs(args)
    run, unchanged = None, False
    if info and info.status == "finished" and not args.fresh and all(
            store.output_unchanged(run_id, kind, path) for kind, path in written.items()):
        # An identical rerun whose output files are still the ones it wrote: the store answers
        # and the files stay as they are. Something to score again (a judge failure retried)
        # means the files must be written again after all.
        run = run_batch(pairs, metric_names, ctx, registry=registry, store=store, run_id=run_id,
                        input_label=str(args.input), max_chars=max_chars, metrics=built,
                        keep_rows=False, reuse_earlier=False)
        if run.answered_from_store:
            print(f"outputs unchanged: {', '.join(written.values())} already hold this run's results "
                  "(size and SHA-256 checked; --fresh scores again)", file=sys.stderr, flush=True)
            unchanged = True
        else:
            run = None
    if run is None:
        outcome = _write_outputs(args, argv, pairs, built, registry, ctx, store, run_id, max_chars)
        if isinstance(outcome, int):
            return outcome
        run = outcome
        for kind, path in written.items():
            store.record_output(run.run_id, kind, path)
    if args.summary:
        dataio.write_json(run.summary, args.summary)
    print(format_summary(run.summary))
    where = "left as they were in" if unchanged else "written to"
    print(f"run id: {run.run_id}  ({len(pairs)} pairs {where} {args.out})")
    from radscope.engine.runs.commands import store_line

    print(store_line(store, run.summary))
    return 0


def _outputs(args: argparse.Namespace) -> dict[str, str]:
    """The result files this command writes, by kind."""
    return {kind: path for kind, path in (("jsonl", args.out), ("csv", args.csv)) if path}


def _write_outputs(args: argparse.Namespace, argv: list[str], pairs: dataio.PairFile, built: list[Any],
                   registry: MetricRegistry, ctx: RuntimeContext, store: Any, run_id: str,
                   max_chars: int) -> Any:
    """Score (or read back) every pair into the output files; the run, or the exit code of an
    interrupted one."""
    from radscope.engine.runs.runner import run_batch

    metric_names = [m.name for m in built]
    bar = None
    if not args.no_progress:  # a bar on a terminal, a line per 10 % or 30 s in a log
        from radscope.engine.io.progress import progress as progress_bar

        bar = progress_bar(len(pairs) * len(metric_names), unit="result")

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.update(done, total)

    with dataio.ResultsWriter(args.out, args.csv, pairs, columns_of=export_columns_of) as writer:
        try:
            if args.engine == "ray":
                from radscope.engine.cluster.ray_runner import run_ray, settings_from_args

                run = run_ray(pairs, metric_names, ctx, registry=registry, store=store, run_id=run_id,
                              input_label=str(args.input), max_chars=max_chars,
                              concurrency=args.concurrency, progress=progress, metrics=built,
                              on_rows=writer.write, keep_rows=False, settings=settings_from_args(args))
            else:
                run = run_batch(pairs, metric_names, ctx, registry=registry, store=store, run_id=run_id,
                                input_label=str(args.input), max_chars=max_chars,
                                concurrency=args.concurrency, progress=progress, metrics=built,
                                workers=args.workers or parallel.default_workers(),
                                on_rows=writer.write, keep_rows=False, reuse_earlier=not args.fresh)
        except KeyboardInterrupt:
            if bar is not None:
                bar.close()
                bar = None
            stored = store.get_run(run_id)
            if stored is not None:
                store.finish_run(run_id, "interrupted")
            print(f"\ninterrupted: run {run_id} stopped with {stored.n_results if stored else 0} of "
                  f"{len(pairs) * len(built)} results stored (no output file written).\nTo resume, "
                  "run the same command again (it finds this unfinished run by its input), or:\n"
                  f"  {_resume_command(argv, run_id)}", file=sys.stderr, flush=True)
            return 130
        finally:
            if bar is not None:
                bar.close()
        writer.finish()
    return run


def _read_rows(path: str, metric: str) -> list[dict[str, Any]]:
    """The rows of a results file, each required to hold a result for ``metric``."""
    rows = []
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("metrics", {}).get(metric) is None:
            raise ValueError(f"{path}: line {number}: no result for metric {metric!r}")
        rows.append(row)
    return rows


def _compare(args: argparse.Namespace, registry: MetricRegistry) -> int:
    from radscope.engine.runs.compare import compare_systems

    rows_a, rows_b = _read_rows(args.results_a, args.metric), _read_rows(args.results_b, args.metric)
    if not {str(r["id"]) for r in rows_a} & {str(r["id"]) for r in rows_b}:
        raise ValueError("the two results files share no pair ids")
    directions = {args.metric: registry.get(args.metric).card.direction} if args.metric in registry else None
    result = compare_systems(rows_a, rows_b, [args.metric], directions=directions,
                             include_demo=args.include_demo, seed=args.seed,
                             **({"n_resamples": args.resamples} if args.resamples else {})
                             )[args.metric]
    out: dict[str, Any] = {"metric": args.metric, "pairs_in_both": result["pairs_in_both"],
                           **result["paired"], **result}
    if result["same_setup"] is False:
        print("warning: the two files were scored under different signatures; the difference may "
              "come from the set-up, not the systems (see signature_differences)", file=sys.stderr)
    print(json.dumps(out, indent=2))
    return 0


def _list_metrics(registry: MetricRegistry) -> int:
    """Each metric by the name it runs under with the default options (``vocabulary.ran_title``)."""
    for name in registry.names():
        spec = registry.get(name)
        card = spec.card
        title = ran_title(card.title, card.rules_reader, spec.extractors.choose(RuntimeContext())
                          if spec.extractors else None)
        arrow = "higher" if card.direction == "higher" else "lower"
        print(f"{name:<10} {title:<28} {arrow} is better, range {card.range_text()}, "
              f"for {card.intended_studies.text}")
    return 0
