"""Shared behaviour of the metrics that read reports with a pluggable extractor (CLEAR, RadSEM).

The ``extractor`` option picks the LLM judge or the deterministic rules; the metric scores the
extraction with its pure stage-3 code. A judge that gives no usable answer marks the pair with
an error (its raw answers kept in the details), never a made-up score.
"""
from __future__ import annotations

from abc import abstractmethod
from typing import Any

from engine.metrics.base import Metric, PairScore
from engine.context import ModelInfo
from engine.context import RuntimeContext
from engine.reports import ReportPair
from engine.runtimes.judge import JudgeError
from engine.metrics.judging import load_extractor


class ExtractedMetric(Metric):
    def __init__(self, ctx: RuntimeContext) -> None:
        self.extractor = load_extractor(self.card.name, ctx)

    def model(self) -> ModelInfo | None:
        return self.extractor.model()

    @property
    def cpu_bound(self) -> bool:  # type: ignore[override]
        """Rules extractors without an encoder are pure Python (see ``Metric.cpu_bound``)."""
        return bool(getattr(self.extractor, "cpu_bound", False))

    @abstractmethod
    def score_extraction(self, extraction: Any) -> tuple[float, dict[str, Any]]:
        """Stage 3: the pair score and the JSON details of the scored extraction."""

    def score_pair(self, pair: ReportPair) -> PairScore:
        traced = getattr(self.extractor, "extract_traced", None)
        try:
            if traced is not None:
                extraction, trace = traced(pair)
            else:
                extraction, trace = self.extractor.extract(pair), []
        except JudgeError as exc:
            return PairScore.failed(f"judge: {exc}", {"judge_error": exc.to_json()})
        score, details = self.score_extraction(extraction)
        details["extraction"] = extraction.to_json()
        details["judge_calls"] = [t.to_json() for t in trace]
        return PairScore(score=score, details=details)
