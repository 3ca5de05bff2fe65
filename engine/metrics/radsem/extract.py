"""What a RadSEM extractor must provide (stages 1 and 2), whichever way it reads reports.

Two implementations plug in here: the LLM judge (``engine.metrics.radsem.llm``) and the
deterministic rules (``engine.metrics.radsem.rules``). Each module exposes
``build_extractor(ctx: RuntimeContext) -> RadsemExtractor``; stage 3 (``score.py``) is shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.context import ModelInfo
from engine.metrics.radsem.schema import RadsemTags
from engine.reports import ReportPair


@dataclass
class RadsemExtraction:
    """Stage-1 atomic sentences of both reports and the stage-2 tags that pair them."""

    ref_sentences: list[str]
    gen_sentences: list[str]
    tags: RadsemTags
    notes: list[str] = field(default_factory=list)  # e.g. sentences a stage dropped, and why

    def to_json(self) -> dict[str, Any]:
        return {"ref_sentences": list(self.ref_sentences), "gen_sentences": list(self.gen_sentences),
                "tags": self.tags.to_json(), "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RadsemExtraction:
        return cls(ref_sentences=list(data["ref_sentences"]), gen_sentences=list(data["gen_sentences"]),
                   tags=RadsemTags.from_json(data["tags"]), notes=list(data.get("notes", [])))


class RadsemExtractor(Protocol):
    kind: str  # "llm" | "rules"

    def model(self) -> ModelInfo | None:
        """The model behind the extraction (a rules extractor names its encoder and lexicon)."""

    def signature_fields(self) -> dict[str, Any]:
        """What can change the extraction: model + revision/hash, prompts + versions, rules."""

    def extract(self, pair: ReportPair) -> RadsemExtraction:
        """Rewrite both Findings sections into atomic sentences, then match them.

        Every pair and unmatched sentence in ``tags`` must be drawn from the two sentence
        lists. Raises with a clear message when the output cannot be used.
        """
