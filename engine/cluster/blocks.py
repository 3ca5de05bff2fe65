"""A run's work cut into blocks, and the actor that scores one block (no Ray import here).

A block is ``block_size`` consecutive pairs of the input (block ``k`` holds pairs
``k*block_size`` to ``(k+1)*block_size - 1``), so the same input always gives the same blocks.
The driver sends a block as one dataset row: its index and its work as JSON text (each pair's
fields and the metrics still to score on it). ``BlockScorer`` is the callable class that
``Dataset.map_batches`` runs as an actor: it builds its metrics once, from the registry, the
metric names and the run's options (as ``radscope.engine.runs.parallel`` does in a worker process), and
scores each block through ``runner.score_metric_pairs``, the function the local runner uses,
so a pair that cannot be read, is out of scope or fails gets the same marked result as on one
machine. Its results go back as JSON text beside the block (a second stage adds its metrics'
results to the first's), with the judge and encoder counters the block used.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.base import Metric, PairScore
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.options.intended_studies import FORCE_APPLICABILITY
from radscope.engine.runs.collector import tune_for_scoring
from radscope.engine.runs.results import result_dict
from radscope.engine.runs.runner import score_metric_pairs

# The columns of a block row: its index, its work (JSON), its results and counters (JSON).
BLOCK, WORK, RESULTS, COUNTERS = "block", "work", "results", "counters"
PAIR_FIELDS = ("id", "reference", "candidate", "modality", "area")


def blocks_of(pairs: Iterable[ReportPair], block_size: int) -> Iterator[tuple[int, list[ReportPair]]]:
    """(index, pairs) of each block, in input order."""
    if block_size < 1:
        raise ValueError(f"block size must be at least 1, got {block_size}")
    block: list[ReportPair] = []
    index = 0
    for pair in pairs:
        block.append(pair)
        if len(block) == block_size:
            yield index, block
            index, block = index + 1, []
    if block:
        yield index, block


def encode_work(pairs: Sequence[ReportPair], todo: Mapping[str, Sequence[str]]) -> str:
    """The block's pairs (only those with a metric left to score) and their metrics, as JSON."""
    return json.dumps([{"pair": {f: getattr(p, f) for f in PAIR_FIELDS}, "todo": list(todo[p.id])}
                       for p in pairs if todo[p.id]])


def block_row(index: int, work: str) -> dict[str, Any]:
    """A block as the dataset row the driver hands to Ray."""
    return {BLOCK: index, WORK: work, RESULTS: "[]", COUNTERS: "{}"}


class BlockScorer:
    """Scores blocks with some of a run's metrics; run by Ray Data as an actor, one per worker.

    ``metrics`` are the names this stage scores (the CPU-bound ones, or those that hold a model
    or a judge connection); the metrics are built once, when the actor starts. ``concurrency``
    pairs are in flight at once for a metric scored pair by pair (a remote judge).
    """

    def __init__(self, registry: MetricRegistry, metrics: Sequence[str], options: Mapping[str, Any],
                 max_chars: int, concurrency: int = 1) -> None:
        tune_for_scoring()  # the actor's process only scores (runs.collector)
        self.context = RuntimeContext(options=dict(options))
        self.metrics: list[Metric] = registry.build(list(metrics), self.context)
        self.signatures = {m.name: m.signature() for m in self.metrics}
        self.reader_languages = {m.name: m.reader_languages for m in self.metrics}
        self.force = bool(self.context.option(FORCE_APPLICABILITY))
        self.max_chars = max_chars
        self.pool = ThreadPoolExecutor(max_workers=concurrency) if concurrency > 1 else None

    def __call__(self, batch: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Score every block of the batch; the results are added to the rows' ``results``."""
        results, counters = [], []
        for work, earlier, counted in zip(batch[WORK], batch[RESULTS], batch[COUNTERS], strict=True):
            before = Counter(self.context.counters)
            found = json.loads(earlier) + self.score_block(json.loads(work))
            used = Counter(json.loads(counted)) + (self.context.counters - before)
            results.append(json.dumps(found))  # NaN stays NaN: the store cleans it, as locally
            counters.append(json.dumps(dict(used)))
        return {BLOCK: np.asarray(batch[BLOCK]), WORK: np.asarray(batch[WORK], dtype=object),
                RESULTS: np.array(results, dtype=object), COUNTERS: np.array(counters, dtype=object)}

    def score_block(self, work: list[dict[str, Any]]) -> list[list[Any]]:
        """[pair id, metric, result dict] for each of the block's (pair, metric) to score here."""
        pairs = [(ReportPair(**item["pair"]), set(item["todo"])) for item in work]
        found: list[list[Any]] = []

        def record(metric: Metric, pair: ReportPair, result: PairScore) -> None:
            found.append([pair.id, metric.name, result_dict(metric, result, self.signatures[metric.name])])

        for metric in self.metrics:
            todo = [pair for pair, names in pairs if metric.name in names]
            score_metric_pairs(metric, todo, record, max_chars=self.max_chars,
                               reader_languages=self.reader_languages[metric.name], force=self.force, pool=self.pool)
        return found
