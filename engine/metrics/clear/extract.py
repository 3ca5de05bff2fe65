"""What a CLEAR extractor must provide (stages 1 and 2), whichever way it reads reports.

Two implementations plug in here: the LLM judge (``engine.metrics.clear.llm``) and the
deterministic rules (``engine.metrics.clear.rules``). Each module exposes
``build_extractor(ctx: RuntimeContext) -> ClearExtractor``; the metric picks one by the
``extractor`` option and then scores with the shared pure code in ``score.py``.
"""
from __future__ import annotations

from typing import Any, Protocol

from engine.context import ModelInfo
from engine.metrics.clear.schema import ClearPairExtraction
from engine.reports import ReportPair


class ClearExtractor(Protocol):
    kind: str  # "llm" | "rules"

    def model(self) -> ModelInfo | None:
        """The model behind the extraction (a rules extractor names its lexicon version)."""

    def signature_fields(self) -> dict[str, Any]:
        """What can change the extraction: model + revision/hash, prompts + versions, lexicon."""

    def extract(self, pair: ReportPair) -> ClearPairExtraction:
        """Presence for both reports, then attributes for the conditions positive in both.

        Raises an exception with a clear message when the model output cannot be used; the
        metric turns it into a per-pair error.
        """
