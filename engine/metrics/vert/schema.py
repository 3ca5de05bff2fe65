"""The judge's structured answer: error categories, the JSON Schema for constrained decoding,
and the ``JudgeAssessment`` dataclass that both answer formats are parsed into.

The JSON Schema sticks to what llama.cpp's schema-to-grammar converter turns into a real
grammar (type, enum, properties, required, additionalProperties false, items, pattern): numeric
bounds are silently dropped by that converter, so the overall score is a two-decimal *string*
held in shape by a pattern, and non-negative counts are checked by the parser instead.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, Self

from radscope.engine.reader.error_words import REXVAL_NAMES

RawFormat = Literal["json", "sections"]


@dataclass(frozen=True)
class ErrorCategory:
    """One of the six ReXVal error categories; ``letter`` is CREPE's name for the same one."""

    key: str
    letter: str
    name: str


# The same six categories, in the order of CREPE's A-F: ReXVal's, defined in our words, which the
# judge is prompted with (``vocabulary.REXVAL_NAMES``); views show ``vocabulary.CATEGORY_WORDS``.
CATEGORIES: tuple[ErrorCategory, ...] = tuple(
    ErrorCategory(letter.lower(), letter, name) for letter, name in REXVAL_NAMES.items())
CATEGORY_KEYS: tuple[str, ...] = tuple(c.key for c in CATEGORIES)
CATEGORY_NAMES: dict[str, str] = {c.key: c.name for c in CATEGORIES}

# Top-level keys of the JSON answer.
EXPLANATION = "explanation"
SIGNIFICANT = "significant_errors"
INSIGNIFICANT = "insignificant_errors"
MATCHED = "matched_findings"
OVERALL_SCORE = "overall_score"

# Two decimals in [0.00, 1.00]. Written with "[.]", not an escaped dot: llama-cpp-python's
# converter copies a backslash-dot into the grammar, where llama.cpp rejects it as an unknown
# escape and the grammar sampler fails to build (checked against llama-cpp-python 0.3.36).
SCORE_PATTERN = r"^(0[.][0-9][0-9]|1[.]00)$"

_CATEGORY_ERRORS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "errors": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["count", "errors"],
    "additionalProperties": False,
}

_ERROR_SECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {key: _CATEGORY_ERRORS_SCHEMA for key in CATEGORY_KEYS},
    "required": list(CATEGORY_KEYS),
    "additionalProperties": False,
}

_MATCHED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "findings": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["count", "findings"],
    "additionalProperties": False,
}


def judge_schema(with_score: bool = True) -> dict[str, Any]:
    """JSON Schema of the judge's answer; ``with_score`` adds the overall score (VERT, formula,
    rubric variants; the GREEN variant has none). Returns a fresh copy the caller may edit."""
    properties: dict[str, Any] = {
        EXPLANATION: {"type": "string"},
        SIGNIFICANT: _ERROR_SECTION_SCHEMA,
        INSIGNIFICANT: _ERROR_SECTION_SCHEMA,
        MATCHED: _MATCHED_SCHEMA,
    }
    if with_score:
        properties[OVERALL_SCORE] = {"type": "string", "pattern": SCORE_PATTERN}
    return copy.deepcopy({
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    })


JUDGE_SCHEMA: dict[str, Any] = judge_schema(with_score=True)


@dataclass
class CategoryErrors:
    """Errors the judge reported for one category: ``count`` is authoritative (GREEN's rule),
    ``errors`` is the listed text, kept for display even when its length differs."""

    count: int
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "errors": list(self.errors)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(count=int(data["count"]), errors=[str(e) for e in data.get("errors", [])])


ErrorSection = dict[str, CategoryErrors]


def _section_to_json(section: ErrorSection | None) -> dict[str, Any] | None:
    if section is None:
        return None
    return {key: section[key].to_json() for key in CATEGORY_KEYS}


def _section_from_json(data: dict[str, Any] | None) -> ErrorSection | None:
    if data is None:
        return None
    return {key: CategoryErrors.from_json(data[key]) for key in CATEGORY_KEYS}


@dataclass
class JudgeAssessment:
    """One parsed judge answer.

    A section the judge left out (or wrote so that it could not be read) is ``None`` rather
    than zero: the scores that need it are then unavailable, which is explicit, whereas a zero
    would quietly change them. ``overall_score`` is already clamped to [0, 1]; ``None`` means
    the judge gave none. ``parse_warnings`` lists every tolerance the parser applied.
    """

    explanation: str
    significant: ErrorSection | None
    insignificant: ErrorSection | None
    matched_count: int | None
    matched_findings: list[str]
    overall_score: float | None
    raw_format: RawFormat
    parse_warnings: list[str] = field(default_factory=list)

    def missing_sections(self) -> list[str]:
        """Names of the count sections that are unavailable (for messages and display)."""
        missing = []
        if self.significant is None:
            missing.append("Clinically Significant Errors")
        if self.insignificant is None:
            missing.append("Clinically Insignificant Errors")
        if self.matched_count is None:
            missing.append("Matched Findings")
        return missing

    def to_json(self) -> dict[str, Any]:
        """Same shape as the judge's JSON answer (score as a number), plus parse metadata."""
        return {
            EXPLANATION: self.explanation,
            SIGNIFICANT: _section_to_json(self.significant),
            INSIGNIFICANT: _section_to_json(self.insignificant),
            MATCHED: None if self.matched_count is None else {
                "count": self.matched_count, "findings": list(self.matched_findings)},
            OVERALL_SCORE: self.overall_score,
            "raw_format": self.raw_format,
            "parse_warnings": list(self.parse_warnings),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        matched = data.get(MATCHED)
        score = data.get(OVERALL_SCORE)
        return cls(
            explanation=str(data.get(EXPLANATION, "")),
            significant=_section_from_json(data.get(SIGNIFICANT)),
            insignificant=_section_from_json(data.get(INSIGNIFICANT)),
            matched_count=None if matched is None else int(matched["count"]),
            matched_findings=[] if matched is None else [str(f) for f in matched["findings"]],
            overall_score=None if score is None else float(score),
            raw_format=data["raw_format"],
            parse_warnings=[str(w) for w in data.get("parse_warnings", [])],
        )
