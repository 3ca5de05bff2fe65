"""What every metric looks like to the CLI, the batch runner and the UI.

A metric turns a list of report pairs into one ``PairScore`` per pair (extraction and pure
scoring happen inside); corpus figures come from each result's typed statistics record
(``radscope.engine.statistics.record_percentile``) without
calling any model. Nothing outside ``radscope.engine.metrics`` special-cases a metric by name.
"""
from __future__ import annotations

import time
from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from radscope.engine.context import ModelInfo
from radscope.engine.eligibility.applicability import ANY, IntendedStudies
from radscope.engine.eligibility.readable import ReaderLanguages
from radscope.engine.io.reports import ReportPair
from radscope.engine.reader.error_words import RULES_READER

Direction = Literal["higher", "lower"]


@dataclass(frozen=True)
class MetricCard:
    """Human-readable facts about a metric, shown beside its panel and in the README."""

    name: str
    title: str
    measures: str
    inputs: str
    direction: Direction
    range: tuple[float, float | None]  # None = unbounded above
    paper: str
    models: str
    limits: str
    intended_studies: IntendedStudies = ANY  # the studies it was designed for; outside them: "not applicable"
    # The report sections its definition reads ("findings", "impression"); empty: the text as
    # given (the lexical baselines). ``reads_why`` says why when a section is left out.
    reads: tuple[str, ...] = ()
    reads_why: str = ""
    # The error kinds (``radscope.engine.reader.kinds.ERROR_KINDS``) its score can see by design: CLEAR's and SRR-BERT's
    # presence labels cannot see a side swap, whatever the reader.
    sees: frozenset[str] = frozenset()
    # What its titles call its rules extractor ("VERT (rules judge)"; ``vocabulary.ran_title``).
    rules_reader: str = RULES_READER

    def range_text(self) -> str:
        low, high = self.range
        return f"[{low:g}, {'∞' if high is None else f'{high:g}'}]"


@dataclass
class PairScore:
    """One metric's result on one pair.

    ``details`` holds the JSON-serialisable intermediate structures (tables, label sets, pairs)
    that the UI draws and from which corpus aggregates are recomputed.
    """

    score: float | None
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    elapsed_ms: float = 0.0

    @classmethod
    def failed(cls, message: str, details: dict[str, Any] | None = None) -> PairScore:
        return cls(score=None, details=details or {}, error=message)


class Metric(ABC):
    """Base class for registered metrics.

    Subclasses set ``card`` and implement ``score_pair`` (or ``score_pairs`` for batched
    models). Corpus figures live apart, in the metric package's ``stats`` module.
    """

    card: MetricCard
    version: str = "1"
    batch_size: int = 1  # pairs per call to score_pairs; encoders use more
    # Pure-Python scoring that holds no model, session or connection: the runner may score it
    # in worker processes (engine.runs.parallel), one per core, with identical results.
    cpu_bound: bool = False
    # The ``STATS_VERSION`` of the metric's statistics record (``radscope.engine.metrics.framework.statistics_by_metric``):
    # an ``ExtractorMetric`` takes it from its scoring, which names its record's version, so
    # the base class needs no lookup; a test checks the two agree.
    stats_version: int = 1

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def direction(self) -> Direction:
        return self.card.direction

    def model(self) -> ModelInfo | None:
        """The model behind this metric (None for model-free metrics)."""
        return None

    @property
    def reader_languages(self) -> ReaderLanguages:
        """The languages this metric's reader knows (see engine.eligibility.readable): a metric
        that is not an ``ExtractorMetric`` declares its own; the default reads any language."""
        return "any"

    def signature_fields(self) -> dict[str, Any]:
        """Everything beyond name and version that can change this metric's value."""
        return {}

    def signature(self) -> str:
        from radscope.engine.metrics.framework.signature import make_signature

        fields = self.signature_fields()
        # A new statistics record changes what a stored result means: from version 2 on it is
        # part of the signature, so resumed runs score such pairs again and comparisons see it.
        if self.stats_version > 1:
            fields = {**fields, "stats": self.stats_version}
        return make_signature(self.name, self.version, fields)

    def score_pair(self, pair: ReportPair) -> PairScore:
        raise NotImplementedError

    def score_pairs(self, pairs: Sequence[ReportPair]) -> list[PairScore]:
        """Score several pairs; one failing pair never fails the others."""
        results = []
        for pair in pairs:
            start = time.perf_counter()
            try:
                result = self.score_pair(pair)
            except Exception as exc:  # noqa: BLE001 - reported per pair, never swallowed silently
                result = PairScore.failed(f"{type(exc).__name__}: {exc}")
            result.elapsed_ms = (time.perf_counter() - start) * 1000
            results.append(result)
        return results

    def close(self) -> None:  # noqa: B027 - a deliberate no-op default: most metrics hold nothing
        """Release models or connections."""


def score_marking_failures(metric: Metric, pairs: list[ReportPair]) -> list[PairScore]:
    """Score pairs; an exception (a model that failed to load, say) marks each pair, never hides.

    ``Metric.score_pairs`` already isolates pairs; this also covers a batched ``score_pairs``
    that raises or returns the wrong number of results (used by the runner and its workers).
    A metric that reads findings first applies the no-finding rule (``radscope.engine.eligibility.readable``).
    """
    from radscope.engine.eligibility import readable

    ruled = readable.finding_rule(pairs, metric.reader_languages)
    todo = [p for p in ruled if isinstance(p, ReportPair)]
    scored = iter(_score_isolated(metric, todo) if todo else [])
    out = []
    for ruling in ruled:
        out.append(PairScore.failed(ruling) if isinstance(ruling, str) else next(scored))
    return out


def _score_isolated(metric: Metric, pairs: list[ReportPair]) -> list[PairScore]:
    start = time.perf_counter()
    try:
        out = metric.score_pairs(pairs)
        if len(out) != len(pairs):
            raise RuntimeError(f"{metric.name} returned {len(out)} results for {len(pairs)} pairs")
        return out
    except Exception as exc:  # noqa: BLE001 - reported per pair with its message
        elapsed = (time.perf_counter() - start) * 1000 / max(1, len(pairs))
        return [PairScore(None, error=f"{type(exc).__name__}: {exc}", elapsed_ms=elapsed)
                for _ in pairs]
