"""Scoring a corpus on Ray (``radscope score --engine ray``): same rows, same summary.

The driver (the process that runs this) reads and checks the input as the local runner does,
cuts it into blocks (``radscope.engine.cluster.blocks``) and hands them to Ray Data as a dataset, a
window of blocks at a time; ``Dataset.map_batches`` runs ``BlockScorer`` as a pool of actors
(``compute=ray.data.ActorPoolStrategy(size=...)``), so each metric is built once per actor.
The CPU-bound metrics (rules, lexical) run in CPU actors, one per CPU; the metrics that hold a
model (ONNX encoders, an embedded judge) or a judge connection run in a second pool of
``model_actors`` actors, each with ``gpus_per_actor`` GPUs when the cluster has them.

Storage and resume: only the driver writes, to the same SQLite store, run id and rows as the
local runner (a SQLite file has one writer at a time, and the nodes of a cluster share no
disk). Each block's results are stored in one transaction as soon as the block comes back, so
a job killed mid-run keeps every finished block; run again, it reads the stored results block
by block (the local runner's rule: a result is reused only while the pair's text and the
metric's signature are unchanged; a judge process failure is asked again) and sends Ray only
the blocks with something left to score. A run started on one engine can be finished on the
other. When every block is stored, the output rows and the summary are read back from the store
in input order, so they are built exactly as ``run_batch`` builds them.

Ray is optional (``make ray-env`` builds ``.venv-ray``): it is imported only when a run starts.
"""
from __future__ import annotations

import argparse
import importlib
import json
import logging
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from radscope.engine.cluster.blocks import COUNTERS, RESULTS, BlockScorer, block_row, blocks_of, encode_work
from radscope.engine.command_args import amount, count
from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import DEFAULT_MAX_CHARS
from radscope.engine.metrics.framework.base import Metric
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.runs.runner import (
    REGISTER_CHUNK,
    BatchRun,
    PairSource,
    ProgressFn,
    RowsFn,
    _chunks,
    _finished,
    _register_pairs,
    _reuse_stored,
    deliver_rows,
    input_run_id,
    resume_or_new_run_id,
    run_batch,
    run_summary,
)
from radscope.engine.runs.summary import SummaryBuilder

if TYPE_CHECKING:  # the API (numpy and the runner's callers) is loaded only by score_on_ray
    from radscope.engine.api import Scores


class RayUnavailable(ValueError):
    """Ray is not installed in this environment (a user error: the message says what to run)."""


@dataclass(frozen=True)
class RaySettings:
    """Where and how a run uses Ray."""

    address: str | None = None  # None: start a local Ray here; "auto" or host:port: join a cluster
    num_cpus: int | None = None  # CPUs of a local Ray (None: every core)
    block_size: int = 256  # pairs per block: the unit of work, of storage and of resume
    window: int = 512  # blocks per dataset: bounds what the driver holds (actors start per window)
    cpu_actors: int = 0  # actors for the CPU-bound metrics (0: the cluster's CPUs left over)
    model_actors: int = 1  # actors for the model and judge metrics
    model_cpus: float = 1.0  # CPUs reserved by each model actor
    gpus_per_actor: float = 0.0  # GPUs of each model actor (ONNX encoders, an embedded judge)


def add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``score`` command's options for ``--engine ray``."""
    group = parser.add_argument_group("Ray (--engine ray; needs `make ray-env`, see docs/ray.md)")
    group.add_argument("--address", help="Ray cluster to join ('auto': the one this node belongs to); "
                       "default: start a local Ray on this machine")
    group.add_argument("--ray-cpus", type=count(1), help="CPUs of the local Ray (default: every core)")
    group.add_argument("--block-size", type=count(1), default=RaySettings.block_size,
                       help="pairs per block, the unit that is stored and not scored again on resume")
    group.add_argument("--ray-window", type=count(1), default=RaySettings.window,
                       help="blocks handed to Ray at once")
    group.add_argument("--cpu-actors", type=count(0), default=0,
                       help="actors for the rules and lexical metrics (0: every CPU left)")
    group.add_argument("--model-actors", type=count(1), default=1,
                       help="actors for the encoder and judge metrics")
    group.add_argument("--model-actor-cpus", type=amount(0), default=RaySettings.model_cpus,
                       help="CPUs reserved by each model actor")
    group.add_argument("--gpus-per-actor", type=amount(0), default=0.0,
                       help="GPUs of each model actor (ONNX encoders, an embedded judge)")


def settings_from_args(args: argparse.Namespace) -> RaySettings:
    return RaySettings(address=args.address, num_cpus=args.ray_cpus, block_size=args.block_size,
                       window=args.ray_window, cpu_actors=args.cpu_actors, model_actors=args.model_actors,
                       model_cpus=args.model_actor_cpus, gpus_per_actor=args.gpus_per_actor)


@dataclass(frozen=True)
class _Stage:
    """One actor pool: the metrics it scores and the resources of each of its actors."""

    metrics: list[str]
    actors: int
    num_cpus: float
    num_gpus: float


def run_ray(
    pairs: PairSource,
    metric_names: Sequence[str],
    ctx: RuntimeContext,
    *,
    registry: MetricRegistry,
    store: Any,
    run_id: str | None = None,
    input_label: str = "",
    max_chars: int = DEFAULT_MAX_CHARS,
    concurrency: int = 1,
    progress: ProgressFn | None = None,
    metrics: Sequence[Metric] | None = None,
    on_rows: RowsFn | None = None,
    keep_rows: bool = True,
    settings: RaySettings | None = None,
) -> BatchRun:
    """``runner.run_batch`` on Ray: the same arguments (a store is required: it is the record of
    finished blocks) and the same ``BatchRun``; the summary adds ``engine`` (block counts)."""
    settings = settings or RaySettings()
    ray = require_ray()  # before the store is touched: no run is started without Ray
    started = time.perf_counter()
    counters_before = Counter(ctx.counters)
    metric_names = list(metric_names)
    built = list(metrics) if metrics is not None else registry.build(metric_names, ctx)
    signatures = {m.name: m.signature() for m in built}
    run_id = run_id or resume_or_new_run_id(store, input_run_id(pairs, signatures, max_chars))
    if _finished(store, run_id):
        # An identical rerun of a finished run: nothing for Ray to do. The local runner answers
        # from the store as for any engine, and reopens the run only if something must be
        # scored again (a judge failure retried, in this process); the kept summary stays.
        return run_batch(pairs, metric_names, ctx, registry=registry, store=store, run_id=run_id,
                         input_label=input_label, max_chars=max_chars, concurrency=concurrency,
                         progress=progress, metrics=built, on_rows=on_rows, keep_rows=keep_rows)
    info = store.start_run(run_id, input_label, metric_names, {"signatures": signatures})
    reuse = info.n_results > 0
    resumed = _register_pairs(store, run_id, pairs, signatures if reuse else None)
    total = len(pairs) * len(built)
    done = resumed["reused"]
    if progress:
        progress(done, total)
    owned = _connect(ray, settings)
    try:
        job = _Job(ray, _stages(ray, built, settings), store, run_id, progress, total, done,
                   {"registry": registry, "options": dict(ctx.options), "max_chars": max_chars,
                    "concurrency": concurrency})
        blocks = job.blocks
        window: list[dict[str, Any]] = []
        hashes: dict[str, str] = {}
        for index, block in blocks_of(pairs, settings.block_size):
            blocks["total"] += 1
            block_hashes = {p.id: p.content_hash() for p in block}
            todo = _todo(store, run_id, block_hashes, signatures) if reuse else {
                p.id: list(signatures) for p in block}
            if not any(todo.values()):
                blocks["reused"] += 1
                continue
            window.append(block_row(index, encode_work(block, todo)))
            hashes.update(block_hashes)
            if len(window) == settings.window:
                job.run_window(window, hashes)
                window, hashes = [], {}
        if window:
            job.run_window(window, hashes)
    finally:
        if owned:
            ray.shutdown()
    builder = SummaryBuilder(built, signatures)
    kept: list[dict[str, Any]] = []
    for rows in stored_rows(store, run_id, pairs, built, signatures):
        deliver_rows(rows, builder, on_rows, kept if keep_rows else None)
    store.finish_run(run_id)  # only once every row was read back: else a re-run resumes it
    summary = run_summary(builder, ctx.counters - counters_before + job.remote, run_id, len(pairs), resumed)
    summary["engine"] = {"name": "ray", "block_size": settings.block_size, "blocks": blocks["total"],
                         "blocks_scored": blocks["scored"], "blocks_stored_before": blocks["reused"],
                         "actors": {", ".join(s.metrics): s.actors for s in job.stages}}
    # what the local runner's summary says of the store too (``runs.commands.store_line``)
    summary["answered_from_store"] = False
    summary["stored"] = len(pairs) * len(built) - resumed["reused"]
    summary["elapsed_s"] = round(time.perf_counter() - started, 3)
    return BatchRun(run_id=run_id, rows=kept, summary=summary, metrics=metric_names)


def require_ray() -> Any:
    """The ``ray`` module with Ray Data, or ``RayUnavailable`` saying how to get it."""
    try:
        ray = importlib.import_module("ray")
        importlib.import_module("ray.data")
    except ImportError:
        raise RayUnavailable("--engine ray needs Ray, which is not installed in this environment: "
                             "run `make ray-env` and use .venv-ray/bin/python (see docs/ray.md)") from None
    return ray


def _connect(ray: Any, settings: RaySettings) -> bool:
    """Initialise Ray unless the caller did; True when this call started it (and so stops it)."""
    if ray.is_initialized():
        return False
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if settings.address:
        ray.init(address=settings.address, **kwargs)
    else:
        ray.init(num_cpus=settings.num_cpus, **kwargs)
    ray.data.DataContext.get_current().enable_progress_bars = False
    return True


def _stages(ray: Any, built: Sequence[Metric], settings: RaySettings) -> list[_Stage]:
    """The CPU pool (rules, lexical) and the model pool (encoders, judges), where needed."""
    model = [m.name for m in built if not m.cpu_bound]
    stages = []
    if model:
        stages.append(_Stage(model, max(1, settings.model_actors), settings.model_cpus,
                             settings.gpus_per_actor))
    cpu = [m.name for m in built if m.cpu_bound]
    if cpu:
        left = float(ray.cluster_resources().get("CPU", 1)) - sum(s.actors * s.num_cpus for s in stages)
        stages.insert(0, _Stage(cpu, settings.cpu_actors or max(1, int(left)), 1.0, 0.0))
    return stages


def _todo(store: Any, run_id: str, hashes: Mapping[str, str],
          signatures: Mapping[str, str]) -> dict[str, list[str]]:
    """The metrics each pair of a block still needs (stored results that hold are not redone)."""
    results: dict[str, dict[str, dict[str, Any]]] = {pid: {} for pid in hashes}
    _reuse_stored(store.results_for(run_id, list(hashes)), results, dict(hashes), dict(signatures))
    return {pid: [name for name in signatures if name not in results[pid]] for pid in hashes}


@dataclass
class _Job:
    """The Ray side of one run: its actor pools, and the driver storing each block that returns."""

    ray: Any
    stages: list[_Stage]
    store: Any
    run_id: str
    progress: ProgressFn | None
    total: int
    done: int
    scorer_kwargs: dict[str, Any]  # BlockScorer's arguments besides the stage's metrics
    remote: Counter = field(default_factory=Counter)  # the actors' model-call counters
    blocks: Counter = field(default_factory=Counter)

    def run_window(self, window: list[dict[str, Any]], hashes: Mapping[str, str]) -> None:
        """Score a window of blocks through the actor pools, storing each block as it comes back."""
        dataset = self.ray.data.from_items(window, override_num_blocks=len(window))
        for stage in self.stages:
            dataset = dataset.map_batches(
                BlockScorer, batch_size=1, compute=self.ray.data.ActorPoolStrategy(size=stage.actors),
                num_cpus=stage.num_cpus, num_gpus=stage.num_gpus or None,
                fn_constructor_kwargs={**self.scorer_kwargs, "metrics": stage.metrics})
        for row in dataset.iter_rows():
            found = json.loads(row[RESULTS])
            self.store.put_results(self.run_id, [(pid, name, payload, hashes[pid])
                                                 for pid, name, payload in found])
            self.remote.update(json.loads(row[COUNTERS]))
            self.blocks["scored"] += 1
            self.done += len(found)
            if self.progress:
                self.progress(self.done, self.total)


def stored_rows(store: Any, run_id: str, pairs: PairSource, built: Sequence[Metric],
                signatures: Mapping[str, str]) -> Iterator[list[dict[str, Any]]]:
    """The run's output rows in input order, a chunk at a time, read back from the store; a
    (pair, metric) with no stored result for the pair's current text raises (never a partial row)."""
    for chunk in _chunks(pairs, REGISTER_CHUNK):
        hashes = {p.id: p.content_hash() for p in chunk}
        results: dict[str, dict[str, dict[str, Any]]] = {p.id: {} for p in chunk}
        _reuse_stored(store.results_for(run_id, list(hashes)), results, hashes, dict(signatures))
        missing = [(p.id, m.name) for p in chunk for m in built if m.name not in results[p.id]]
        if missing:
            raise RuntimeError(f"run {run_id}: {len(missing)} results missing after the Ray job, "
                               f"first {missing[0]}; run the same command again to score them")
        yield [{"id": p.id, "metrics": {m.name: results[p.id][m.name] for m in built}}
               for p in chunk]



def score_on_ray(metrics: str | Sequence[str], references: Sequence[str], candidates: Sequence[str],
                 ids: Sequence[str] | None = None, *, store: Any, run_id: str | None = None,
                 settings: RaySettings | None = None, registry: MetricRegistry | None = None,
                 max_chars: int = DEFAULT_MAX_CHARS, concurrency: int = 1, **options: Any) -> Scores:
    """``radscope.engine.api.Scorer(metrics, **options).score(references, candidates, ids)`` on Ray:
    the same ``Scores`` (records and signatures). ``store`` is a ``Store`` or a path to one;
    a known ``run_id`` resumes."""
    from radscope.engine.api import Scores
    from radscope.engine.api import _pairs as api_pairs
    from radscope.engine.metrics.framework.registry import production
    from radscope.engine.runs.store import Store

    registry = production() if registry is None else registry
    names = registry.parse_metric_list(metrics)
    pairs = api_pairs(references, candidates, ids)
    owned = not hasattr(store, "start_run")
    db = Store(Path(store)) if owned else store
    ctx = RuntimeContext(options=dict(options))
    try:
        built = registry.build(names, ctx)
        run = run_ray(pairs, names, ctx, registry=registry, store=db, run_id=run_id, max_chars=max_chars,
                      concurrency=concurrency, metrics=built, settings=settings)
        return Scores(run.rows, {m.name: m.signature() for m in built})
    finally:
        ctx.close()
        if owned:
            db.close()
