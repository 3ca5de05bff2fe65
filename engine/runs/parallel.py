"""Worker processes for the CPU-bound metrics (rules extractors, lexical baselines).

Those metrics are pure Python, so threads would share one core; a process pool uses them all.
Each worker builds its own copy of the run's metrics from their names and options with the
run's registry, which crosses over as the names of its metric modules (nothing that holds a
lock or a session crosses the process boundary), and scores the pairs it is sent
exactly as the runner does in-process, so the results do not depend on the number of workers.
Encoders keep their one ONNX session with its own threads, and judges their worker and
in-flight limit: neither ever enters the pool (``Metric.cpu_bound`` is False for them).

Workers are started with ``spawn``: a fork of a process that already runs threads (the app,
onnxruntime, a progress bar) can deadlock.

Ctrl-C reaches the whole terminal's process group; only the parent acts on it (it stops the
run, stores what finished and prints one message). Workers ignore SIGINT: it is blocked in the
thread that starts them (a blocked signal stays blocked across the spawn, covering the seconds
of start-up imports) and ignored from their initializer on, so no worker prints a
``KeyboardInterrupt`` traceback of its own.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.base import Metric, PairScore, score_marking_failures
from radscope.engine.metrics.framework.registry import MetricRegistry

# Fewer pending pairs than this are scored in-process: starting workers (each imports the
# engine) costs more than it saves.
MIN_PAIRS = 64

_worker_metrics: dict[str, Metric] = {}


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread (processes started meanwhile inherit the mask); a Ctrl-C
    that arrives meanwhile is delivered to this process when the block ends."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _start_worker(registry: MetricRegistry, names: list[str], options: dict[str, Any]) -> None:
    from radscope.engine.context import RuntimeContext
    from radscope.engine.runs.collector import tune_for_scoring

    tune_for_scoring()  # a process of ours that only scores (runs.collector)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C (module doc)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    ctx = RuntimeContext(options=options)
    _worker_metrics.update({m.name: m for m in registry.build(names, ctx)})


def _score_in_worker(name: str, pairs: list[ReportPair]) -> list[PairScore]:
    metric = _worker_metrics[name]
    return [score_marking_failures(metric, [pair])[0] for pair in pairs]


class ProcessScorer:
    """A process pool scoring the run's CPU-bound metrics; results come back in input order."""

    def __init__(self, registry: MetricRegistry, metrics: Sequence[Metric], options: Mapping[str, Any],
                 workers: int):
        self.names = [m.name for m in metrics if m.cpu_bound]
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(registry, self.names, dict(options)))

    def handles(self, metric: Metric) -> bool:
        return metric.name in self.names

    def score(self, metric: Metric, pairs: Sequence[ReportPair]) -> list[PairScore]:
        """Split ``pairs`` evenly over the workers; a worker that dies marks its pairs."""
        size = max(1, math.ceil(len(pairs) / self.workers))
        parts = [list(pairs[i:i + size]) for i in range(0, len(pairs), size)]
        with _sigint_blocked():  # submit starts the workers the first time (module doc)
            futures = [self._pool.submit(_score_in_worker, metric.name, part) for part in parts]
        results: list[PairScore] = []
        for part, future in zip(parts, futures, strict=True):
            try:
                results.extend(future.result())
            except Exception as exc:  # noqa: BLE001 - a broken pool is reported on each pair
                results.extend(PairScore.failed(f"worker process: {type(exc).__name__}: {exc}")
                               for _ in part)
        return results

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def process_scorer(registry: MetricRegistry, metrics: Sequence[Metric], options: Mapping[str, Any],
                   workers: int, pending_pairs: int) -> ProcessScorer | None:
    """A pool when it can pay off: several workers, a CPU-bound metric and enough pairs."""
    if workers <= 1 or pending_pairs < MIN_PAIRS or not any(m.cpu_bound for m in metrics):
        return None
    return ProcessScorer(registry, metrics, options, workers)
