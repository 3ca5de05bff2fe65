"""In-process scoring for Python callers: a reward function in a training loop, a notebook.

Build a ``Scorer`` once (it loads the models), then call ``score`` as often as needed::

    from radscope.engine.api import Scorer

    scorer = Scorer(["radsem", "clear", "crepe"], extractor="rules")
    scores = scorer.score(references, candidates)
    reward = scores.array("radsem")          # float64, NaN where a pair could not be scored
    scores.records[0]["metrics"]["clear"]    # the CLI's per-pair dict: score, signature, details

Options are the CLI's metric flags as keyword arguments (``--crepe-model`` -> ``crepe_model``);
``registry`` (default: the project's metrics, ``radscope.engine.metrics.framework.registry.production``) says
which metrics the names refer to.
Records and signatures are exactly those ``radscope score`` writes. Models and the
worker processes (``workers`` > 1) are reused between calls; ``score`` may be called from
several threads at once. Nothing is stored unless a store is given (then a run id resumes).
A call that only runs the rules readers and lexical metrics pauses automatic garbage collection
until it returns (``radscope.engine.runs.collector.paused_collector``: it makes no reference
cycles, and the collections it would trigger cost about a fifth of its time).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import numpy as np

from radscope.engine.context import RuntimeContext
from radscope.engine.eligibility import readable
from radscope.engine.io.reports import DEFAULT_MAX_CHARS, ReportPair
from radscope.engine.metrics.framework.base import Metric, PairScore
from radscope.engine.metrics.framework.registry import MetricRegistry, production
from radscope.engine.options.intended_studies import FORCE_APPLICABILITY
from radscope.engine.runs import parallel
from radscope.engine.runs.collector import paused_collector
from radscope.engine.runs.results import result_dict
from radscope.engine.runs.runner import run_batch, score_metric_pairs


@dataclass
class Scores:
    """Per-pair results of one ``Scorer.score`` call, in input order."""

    records: list[dict[str, Any]]  # {"id": ..., "metrics": {name: result dict}}, as the CLI
    signatures: dict[str, str]

    def __len__(self) -> int:
        return len(self.records)

    def array(self, metric: str) -> np.ndarray:
        """The metric's per-pair scores; NaN where the pair has an error."""
        self._check(metric)
        return np.array([np.nan if r["metrics"][metric]["score"] is None
                         else r["metrics"][metric]["score"] for r in self.records], dtype=float)

    def errors(self, metric: str) -> list[str | None]:
        self._check(metric)
        return [r["metrics"][metric]["error"] for r in self.records]

    def reasons(self, metric: str) -> list[str | None]:
        """Why each pair has no score (None where it has one): the error, the cannot-read
        message, or ``"not applicable: ..."`` with the metric's reason (``errors`` gives None
        for that last case, since it is not an error)."""
        return [_reason(r["metrics"][metric]) for r in self._results(metric)]

    def statuses(self, metric: str) -> list[str]:
        """Per pair: ``scored``, ``not_applicable``, ``cannot_read`` or ``error`` (the summary's
        counts are these, counted)."""
        return [_status(r["metrics"][metric]) for r in self._results(metric)]

    def _results(self, metric: str) -> list[dict[str, Any]]:
        self._check(metric)
        return self.records

    def _check(self, metric: str) -> None:
        if metric not in self.signatures:
            raise KeyError(f"{metric!r} was not scored; this scorer has {sorted(self.signatures)}")


@dataclass
class CorpusResult:
    """A corpus scored in one call: the per-pair ``scores`` and the CLI's ``summary`` (what
    ``radscope score --summary`` writes: per metric the mean with its bootstrap CI, the
    corpus figures with 95 % CIs, the signature and the counts of errors, cannot-read and
    not-applicable pairs; the model-call counters)."""

    scores: Scores
    summary: dict[str, Any]

    def table(self) -> str:
        """The summary as the CLI prints it."""
        from radscope.engine.runs.summary import format_summary

        return format_summary(self.summary)


class Scorer:
    """Metrics built once and reused for every ``score`` call (see the module docstring)."""

    def __init__(self, metrics: str | Sequence[str], *, store: Any | None = None,
                 max_chars: int = DEFAULT_MAX_CHARS, workers: int = 1,
                 registry: MetricRegistry | None = None, **options: Any) -> None:
        for name, value in (("workers", workers), ("max_chars", max_chars)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        self.registry = registry = production() if registry is None else registry
        self.metric_names = registry.parse_metric_list(metrics)
        unknown = sorted(set(options) - set(registry.all_options()))
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)}; known options: "
                             f"{', '.join(sorted(registry.all_options()))}")
        self.context = RuntimeContext(options=dict(options))
        self.metrics: list[Metric] = registry.build(self.metric_names, self.context)
        self.signatures = {m.name: m.signature() for m in self.metrics}
        self.reader_languages = {m.name: m.reader_languages for m in self.metrics}
        self.max_chars = max_chars
        self.workers = workers
        self._owns_store = isinstance(store, (str, os.PathLike))
        if isinstance(store, (str, os.PathLike)):  # the same test as _owns_store, for the type checker
            from radscope.engine.runs.store import Store

            store = Store(Path(store))
        self.store = store
        self._procs: parallel.ProcessScorer | None = None
        self._lock = threading.Lock()

    def score(self, references: Sequence[str], candidates: Sequence[str],
              ids: Sequence[str] | None = None, *, run_id: str | None = None) -> Scores:
        """Score ``candidates[i]`` against ``references[i]`` with every metric.

        ``ids`` name the pairs (default "0", "1", ...). With a store, results are stored under
        ``run_id`` (new when None) and a known run id resumes; without one nothing is written.
        """
        pairs = _pairs(references, candidates, ids)
        # Only the readers: no model call, no reference cycles (``runs.collector``).
        pause = paused_collector() if all(m.cpu_bound for m in self.metrics) else nullcontext()
        with pause:
            return self._score(pairs, run_id)

    def _score(self, pairs: list[ReportPair], run_id: str | None) -> Scores:
        if self.store is not None:
            run = run_batch(pairs, self.metric_names, self.context, registry=self.registry,
                            store=self.store, run_id=run_id, max_chars=self.max_chars, metrics=self.metrics,
                            workers=self.workers)
            return Scores(run.rows, dict(self.signatures))
        position = {p.id: i for i, p in enumerate(pairs)}
        records: list[dict[str, Any]] = [{"id": p.id, "metrics": {}} for p in pairs]

        def record(metric: Metric, pair: ReportPair, result: PairScore) -> None:
            records[position[pair.id]]["metrics"][metric.name] = result_dict(
                metric, result, self.signatures[metric.name])

        procs = self._pool(len(pairs))
        force = bool(self.context.option(FORCE_APPLICABILITY))
        for metric in self.metrics:
            score_metric_pairs(metric, pairs, record, max_chars=self.max_chars,
                               reader_languages=self.reader_languages[metric.name], force=force, procs=procs)
        return Scores(records, dict(self.signatures))

    def score_corpus(self, references: Sequence[str], candidates: Sequence[str],
                     ids: Sequence[str] | None = None, *, run_id: str | None = None) -> CorpusResult:
        """``score`` plus the corpus summary the CLI prints and writes with ``--summary``."""
        from collections import Counter

        from radscope.engine.runs.summary import SummaryBuilder

        before = Counter(self.context.counters)
        scores = self.score(references, candidates, ids, run_id=run_id)
        builder = SummaryBuilder(self.metrics, self.signatures)
        for record in scores.records:
            builder.add_row(record["metrics"], record["id"])
        counters = Counter(self.context.counters)
        counters.subtract(before)
        return CorpusResult(scores, builder.summary(counters))

    def _pool(self, n_pairs: int) -> parallel.ProcessScorer | None:
        """The worker processes, started on the first call large enough and kept."""
        with self._lock:
            if self._procs is None:
                self._procs = parallel.process_scorer(self.registry, self.metrics, self.context.options,
                                                      self.workers, n_pairs)
            return self._procs

    def close(self) -> None:
        """Release the models, the worker processes and a store opened from a path."""
        with self._lock:
            if self._procs is not None:
                self._procs.close()
                self._procs = None
        self.context.close()
        if self._owns_store and self.store is not None:
            self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _status(result: dict[str, Any]) -> str:
    if result.get("score") is not None:
        return "scored"
    if result.get("error") is not None:
        return "cannot_read" if readable.is_cannot_read(result["error"]) else "error"
    return "not_applicable" if result.get("not_applicable") else "error"


def _reason(result: dict[str, Any]) -> str | None:
    status = _status(result)
    if status == "scored":
        return None
    if status == "not_applicable":
        reason = str(result["not_applicable"])
        return reason if reason.startswith("not applicable") else f"not applicable: {reason}"
    return str(result.get("error") or "no score and no error recorded")


def _pairs(references: Sequence[str], candidates: Sequence[str],
           ids: Sequence[str] | None) -> list[ReportPair]:
    if isinstance(references, str) or isinstance(candidates, str):
        raise TypeError("references and candidates must be sequences of reports, not one string")
    if len(references) != len(candidates):
        raise ValueError(f"{len(references)} references but {len(candidates)} candidates")
    names = [str(i) for i in range(len(references))] if ids is None else [str(i) for i in ids]
    if len(names) != len(references):
        raise ValueError(f"{len(names)} ids for {len(references)} pairs")
    if len(set(names)) != len(names):
        raise ValueError("pair ids repeat")
    for what, texts in (("reference", references), ("candidate", candidates)):
        bad = [i for i, t in enumerate(texts) if not isinstance(t, str)]
        if bad:
            raise TypeError(f"{what} {bad[0]} is {type(texts[bad[0]]).__name__}, not a string")
    return [ReportPair(id=n, reference=r, candidate=c)
            for n, r, c in zip(names, references, candidates, strict=True)]
