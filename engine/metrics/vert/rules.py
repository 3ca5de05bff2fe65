"""The VERT / GREEN rules judge: the reader's errors and matched findings as a judge assessment.

Instead of asking an LLM, the assessment is written from the clinical reader's alignment
(``radscope.engine.reader.errors``): significant and insignificant errors per category (a)-(f) with a
readable line each, and the matched findings. The unchanged GREEN, GREEN-F1 and formula
scorers then score it; the overall VERT score is the formula M / (M + 2S + 0.5 I), since
there is no judge to give one. The rubric variant needs a judge and is refused.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.metrics.vert.schema import CATEGORIES, CategoryErrors, JudgeAssessment
from radscope.engine.metrics.vert.score import formula
from radscope.engine.reader.by_section import error_details, read_sections
from radscope.engine.reader.errors import ReaderError
from radscope.engine.reader.metric_views import reader_details, rules_model
from radscope.engine.reader.versions import reader_signature

RULES_VARIANTS = ("vert", "green", "formula")


def assessment_from_errors(errors: Sequence[ReaderError], matched: list[str]) -> JudgeAssessment:
    """The judge-shaped assessment of the reader's errors (counts equal the listed errors)."""

    def section(significant: bool) -> dict[str, CategoryErrors]:
        out = {}
        for cat in CATEGORIES:
            texts = [e.text for e in errors
                     if e.category == cat.letter and e.significant == significant]
            out[cat.key] = CategoryErrors(count=len(texts), errors=texts)
        return out

    significant, insignificant = section(True), section(False)
    s = sum(c.count for c in significant.values())
    i = sum(c.count for c in insignificant.values())
    overall = formula(len(matched), s, i)
    explanation = (f"Rules reader: {len(matched)} matched finding(s), {s} significant and {i} "
                   f"insignificant error(s); overall = M / (M + 2S + 0.5 I) = {overall:.2f}.")
    return JudgeAssessment(explanation=explanation, significant=significant,
                           insignificant=insignificant, matched_count=len(matched),
                           matched_findings=list(matched), overall_score=overall,
                           raw_format="json")


class VertRulesExtractor(PairwiseExtractor[JudgeAssessment]):
    """The rules judge's assessment of a pair (``kind = "rules"``)."""

    kind: ExtractorKind = "rules"
    cpu_bound = True  # pure Python: may run in worker processes

    def __init__(self, variant: str, label: str) -> None:
        self.label = label  # what the reader is called on the card and in every result
        if variant not in RULES_VARIANTS:
            raise ValueError(f"the VERT variant {variant!r} needs an LLM judge (--extractor llm); "
                             f"the rules judge gives {', '.join(RULES_VARIANTS)}")
        self.variant = variant

    def model(self) -> ModelInfo:
        return rules_model(self.label)

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", **reader_signature(), "view": "vert-errors",
                "variant": self.variant, "overall": "formula"}

    def extract_pair(self, pair: ReportPair) -> Extracted[JudgeAssessment]:
        reading = read_sections(pair.reference, pair.candidate)
        reader = reader_details(self.label)
        if not reading.readable():
            return Extracted.failed("cannot read: the rules reader found no finding in either "
                                    "report", {"reader": reader})
        counted = reading.counted
        assessment = assessment_from_errors(counted.errors, list(counted.matched))
        return Extracted(assessment, {"reader": reader, **error_details(counted)})
