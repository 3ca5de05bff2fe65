"""What a RadSEM extractor gives for a pair (stages 1 and 2), whichever way it reads reports.

Two extractors produce it: the LLM judge (``radscope.engine.metrics.radsem.llm``) and the deterministic
rules (``radscope.engine.metrics.radsem.rules``); stage 3 (``score.py``) scores it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from radscope.engine.metrics.radsem.schema import RadsemTags


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
