"""CLEAR stages 1-2 with an LLM judge: presence labels, then attributes of the true positives.

Two modes for stage 2 (the spec asks for both):

- ``fast`` (default): one call per report returns every attribute of every true-positive
  condition as one JSON object;
- ``faithful``: one call per report x condition x attribute, as in the paper.

Call order keeps llama.cpp's KV cache useful: every CLEAR prompt opens with the same lines and
the report, so consecutive calls on one report only re-read the question at the end. The
candidate's attributes are asked right after its presence labels for the same reason.

Optionally (``clear_llm_similarity``) the judge also rates each list attribute's two phrase
lists (stage 3's LLM similarity); an unusable rating is kept as "unparsable", not as an error.
"""
from __future__ import annotations

import json
from typing import Any

from radscope.engine.context import ModelInfo, Option, RuntimeContext
from radscope.engine.io.reports import ReportPair, findings_and_impression
from radscope.engine.metrics.clear.schema import (
    ATTRIBUTES,
    CHANGE,
    CONDITION_HINTS,
    CONDITIONS,
    DESCRIPTIVE_LOCATION,
    FIRST_OCCURRENCE,
    LIST_ATTRIBUTES,
    RECOMMENDATION,
    SEVERITY,
    STATUS_HINTS,
    SUPPORT_DEVICES,
    AttributeValue,
    ClearPairExtraction,
    ClearReportExtraction,
    attribute_answer_schema,
    attributes_for,
    fast_answer_schema,
    presence_schema,
    validate_attribute_answer,
    validate_fast_answer,
    validate_presence,
)
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.metrics.framework.judging import judge_for, judged
from radscope.engine.runtimes.jsontext import extract_json, validate
from radscope.engine.runtimes.judge import CallTrace, Judge, JudgeError, bounded_schema
from radscope.engine.runtimes.prompts import Prompt, load_prompt

MODES = ("fast", "faithful")
CLEAR_MODE = Option("clear_mode", "fast",
                    "CLEAR attribute extraction: fast (one judge call per report) or faithful "
                    "(one call per report x condition x attribute, as in the paper)",
                    choices=MODES)
CLEAR_LLM_SIMILARITY = Option("clear_llm_similarity", False,
                              "CLEAR: also ask the judge to rate each list attribute's two "
                              "phrase lists (one extra call per row)", type=bool)

PRESENCE_PROMPT = "clear.presence"
FAST_PROMPT = "clear.attributes"
SIMILARITY_PROMPT = "clear.list_similarity"
ATTRIBUTE_PROMPTS: dict[str, str] = {
    FIRST_OCCURRENCE: "clear.attr.first_occurrence",
    CHANGE: "clear.attr.change",
    SEVERITY: "clear.attr.severity",
    DESCRIPTIVE_LOCATION: "clear.attr.location",
    RECOMMENDATION: "clear.attr.recommendation",
}
SIMILARITY_SCHEMA: dict[str, Any] = {
    "type": "object", "properties": {"similarity": {"type": "number"}},
    "required": ["similarity"], "additionalProperties": False,
}
# Bounds for free text in attribute answers: phrases are short, lists are few.
_PHRASE_CHARS, _PHRASES = 160, 6


def _hint_list(words: tuple[str, ...]) -> str:
    return ", ".join(words) if words else "none in particular"


def conditions_block(conditions: list[str]) -> str:
    """The fast prompt's list of conditions, each with its hint words (spec table)."""
    lines = []
    for condition in conditions:
        hints = CONDITION_HINTS[condition]
        parts = []
        if hints.location:
            parts.append("sites such as " + ", ".join(hints.location))
        if hints.descriptor:
            parts.append("descriptive words such as " + ", ".join(hints.descriptor))
        if hints.note:
            parts.append(hints.note)
        label = condition + (" (descriptive location and recommendation only)"
                             if condition == SUPPORT_DEVICES else "")
        lines.append(f"- {label}" + (": " + "; ".join(parts) if parts else ""))
    return "\n".join(lines)


def attribute_fields(condition: str, attribute: str, report: str) -> dict[str, str]:
    """Template values of the faithful-mode prompt for one condition and attribute."""
    values = {"report": report, "condition": condition}
    if attribute == CHANGE:
        values["status_hints"] = ", ".join(STATUS_HINTS)
    if attribute == DESCRIPTIVE_LOCATION:
        hints = CONDITION_HINTS[condition]
        values["location_hints"] = _hint_list(hints.location)
        values["descriptor_hints"] = _hint_list(hints.descriptor)
        values["note"] = f"Note: {hints.note}.\n" if hints.note else ""
    return values


class LlmClearExtractor(PairwiseExtractor[ClearPairExtraction]):
    """CLEAR extraction by an LLM judge (``kind = "llm"``)."""

    kind: ExtractorKind = "llm"

    def __init__(self, judge: Judge, mode: str = "fast", llm_similarity: bool = False) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown CLEAR mode {mode!r}; choose from {', '.join(MODES)}")
        self.judge = judge
        self.mode = mode
        self.llm_similarity = llm_similarity

    def model(self) -> ModelInfo | None:
        return self.judge.model()

    def prompts(self) -> list[Prompt]:
        ids = [PRESENCE_PROMPT]
        ids += [FAST_PROMPT] if self.mode == "fast" else list(ATTRIBUTE_PROMPTS.values())
        if self.llm_similarity:
            ids.append(SIMILARITY_PROMPT)
        return [load_prompt(i) for i in ids]

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": self.kind, **self.judge.signature_fields(),
                "prompts": [p.key for p in self.prompts()], "mode": self.mode,
                "llm_sim": self.llm_similarity}

    # -- stages ----------------------------------------------------------------------------------

    def extract_pair(self, pair: ReportPair) -> Extracted[ClearPairExtraction]:
        return judged(lambda: self.extract_traced(pair))

    def extract_traced(self, pair: ReportPair) -> tuple[ClearPairExtraction, list[CallTrace]]:
        """Both stages (and the optional similarity ratings), with a trace of every question."""
        trace: list[CallTrace] = []
        texts = {"reference": findings_and_impression(pair.reference),
                 "candidate": findings_and_impression(pair.candidate)}
        presence = {side: self._presence(texts[side], side, trace) for side in texts}
        positives = [c for c in CONDITIONS
                     if presence["reference"][c] == presence["candidate"][c] == "positive"]
        attributes: dict[str, dict[str, dict[str, AttributeValue]]] = {}
        for side in ("candidate", "reference"):  # candidate first: its prefix is still cached
            attributes[side] = (self._fast(texts[side], positives, side, trace)
                                if self.mode == "fast"
                                else self._faithful(texts[side], positives, side, trace))
        extraction = ClearPairExtraction(
            reference=ClearReportExtraction(presence["reference"], attributes["reference"]),
            candidate=ClearReportExtraction(presence["candidate"], attributes["candidate"]))
        if self.llm_similarity and positives:
            extraction = ClearPairExtraction(
                extraction.reference, extraction.candidate,
                llm_similarity=self._similarities(extraction, positives, trace))
        return extraction, trace

    def _presence(self, report: str, side: str, trace: list[CallTrace]) -> dict[str, str]:
        prompt = load_prompt(PRESENCE_PROMPT)
        answer = self.judge.ask(prompt, {"report": report, "conditions": ", ".join(CONDITIONS)},
                                presence_schema(), max_tokens=320, parse=None)
        trace.append(CallTrace.of(prompt, side, answer))
        return validate_presence(answer.value)

    def _fast(self, report: str, conditions: list[str], side: str,
              trace: list[CallTrace]) -> dict[str, dict[str, AttributeValue]]:
        if not conditions:
            return {}
        prompt = load_prompt(FAST_PROMPT)
        schema = bounded_schema(fast_answer_schema(conditions), _PHRASE_CHARS, _PHRASES)
        answer = self.judge.ask(
            prompt, {"report": report, "status_hints": ", ".join(STATUS_HINTS),
                     "conditions_block": conditions_block(conditions)},
            schema, max_tokens=96 + 160 * len(conditions),
            parse=lambda text: validate_fast_answer(_json_of(text, schema), conditions))
        trace.append(CallTrace.of(prompt, side, answer))
        return answer.value

    def _faithful(self, report: str, conditions: list[str], side: str,
                  trace: list[CallTrace]) -> dict[str, dict[str, AttributeValue]]:
        out: dict[str, dict[str, AttributeValue]] = {}
        for condition in conditions:
            for attribute in attributes_for(condition):
                prompt = load_prompt(ATTRIBUTE_PROMPTS[attribute])
                schema = bounded_schema(attribute_answer_schema(attribute), _PHRASE_CHARS,
                                        _PHRASES)
                answer = self.judge.ask(
                    prompt, attribute_fields(condition, attribute, report), schema,
                    max_tokens=24 if ATTRIBUTES[attribute].kind == "choice" else 160,
                    parse=lambda text, c=condition, a=attribute, s=schema:
                        validate_attribute_answer(c, a, _json_of(text, s)))
                trace.append(CallTrace.of(prompt, side, answer))
                out.setdefault(condition, {})[attribute] = answer.value
        return out

    def _similarities(self, extraction: ClearPairExtraction, conditions: list[str],
                      trace: list[CallTrace]) -> dict[str, dict[str, float | None]]:
        prompt = load_prompt(SIMILARITY_PROMPT)
        out: dict[str, dict[str, float | None]] = {}
        for condition in conditions:
            for attribute in LIST_ATTRIBUTES:
                values = {"condition": condition, "attribute": attribute,
                          "reference": json.dumps(extraction.reference.attributes[condition][attribute]),
                          "candidate": json.dumps(extraction.candidate.attributes[condition][attribute])}
                try:
                    answer = self.judge.ask(prompt, values, SIMILARITY_SCHEMA, max_tokens=24)
                except JudgeError as exc:  # unparsable: excluded from the mean and counted
                    trace.append(CallTrace(prompt.key, "pair", len(exc.texts), 0, 0, [str(exc)]))
                    out.setdefault(condition, {})[attribute] = None
                    continue
                trace.append(CallTrace.of(prompt, "pair", answer))
                out.setdefault(condition, {})[attribute] = float(answer.value["similarity"])
        return out


def _json_of(text: str, schema: dict[str, Any]) -> Any:
    """The judge's JSON, checked against the (bounded) schema before the CLEAR validators."""
    return validate(extract_json(text), schema)


def build_extractor(ctx: RuntimeContext) -> LlmClearExtractor:
    """The LLM extractor for the run's judge and CLEAR options."""
    return LlmClearExtractor(judge_for(ctx), mode=str(ctx.option(CLEAR_MODE)),
                             llm_similarity=bool(ctx.option(CLEAR_LLM_SIMILARITY)))
