"""RadSEM stage-1 and stage-2 output: JSON Schemas for constrained decoding, and typed tag data.

The schemas use only what llama.cpp's JSON-schema-to-grammar converter understands (``type``,
``enum``, ``anyOf``, ``properties``, ``required``, ``additionalProperties: false``, ``items``), so
the same dicts constrain llama-cpp-python, llama-server, vLLM and hosted APIs.

``RadsemTags.from_json`` reads our own stored data back without judging it; ``tag_problems``
is the gate for model output (schema conformance, with an error naming the offending item).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

NORMALITIES = ("normal", "abnormal")
RELATIONS = ("equivalent", "part-whole")
DETAILS = ("equivalent", "partial", "none")
SIDES = ("Ref", "Gen")

PAIR_FIELDS = ("ref_sentence", "gen_sentence", "normality", "anatomical_relationship",
               "asserted_abnormality_relationship", "negated_abnormality_relationship",
               "details_of_abnormality_relationship")
NULLABLE_PAIR_FIELDS = ("asserted_abnormality_relationship", "negated_abnormality_relationship",
                        "details_of_abnormality_relationship")
UNMATCHED_FIELDS = ("sentence_is_from", "sentence", "normality")

# Allowed values per field (None = any string); nullable fields also accept JSON null.
_PAIR_VALUES: dict[str, tuple[str, ...] | None] = {
    "ref_sentence": None, "gen_sentence": None, "normality": NORMALITIES,
    "anatomical_relationship": RELATIONS, "asserted_abnormality_relationship": RELATIONS,
    "negated_abnormality_relationship": RELATIONS, "details_of_abnormality_relationship": DETAILS,
}
_UNMATCHED_VALUES: dict[str, tuple[str, ...] | None] = {
    "sentence_is_from": SIDES, "sentence": None, "normality": NORMALITIES,
}


def _choice(values: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _nullable_choice(values: tuple[str, ...]) -> dict[str, Any]:
    return {"anyOf": [_choice(values), {"type": "null"}]}


# Stage 1 answers a list of atomic sentences, not one long string: each item is bounded on its
# own, so the grammar stays within llama.cpp's limits at any report length (the bounds are set
# per report by ``radscope.engine.metrics.radsem.llm.rewrite_schema``).
REWRITE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"sentences": {"type": "array", "items": {"type": "string"}}},
    "required": ["sentences"],
    "additionalProperties": False,
}

TAG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pairs": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "ref_sentence": {"type": "string"},
                    "gen_sentence": {"type": "string"},
                    "normality": _choice(NORMALITIES),
                    "anatomical_relationship": _choice(RELATIONS),
                    "asserted_abnormality_relationship": _nullable_choice(RELATIONS),
                    "negated_abnormality_relationship": _nullable_choice(RELATIONS),
                    "details_of_abnormality_relationship": _nullable_choice(DETAILS),
                },
                "required": list(PAIR_FIELDS),
                "additionalProperties": False,
            },
        },
        "unmatched_sentences": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "sentence_is_from": _choice(SIDES),
                    "sentence": {"type": "string"},
                    "normality": _choice(NORMALITIES),
                },
                "required": list(UNMATCHED_FIELDS),
                "additionalProperties": False,
            },
        },
    },
    "required": ["pairs", "unmatched_sentences"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class RadsemPair:
    """One Ref <-> Gen sentence pair with the model's relation tags (values not checked here)."""

    ref_sentence: str
    gen_sentence: str
    normality: str
    anatomical_relationship: str
    asserted_abnormality_relationship: str | None = None
    negated_abnormality_relationship: str | None = None
    details_of_abnormality_relationship: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in PAIR_FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RadsemPair:
        """Missing sentences or tags become "" (or None for the nullable tags), never an error."""
        values: dict[str, Any] = {name: _text_or_none(data.get(name)) for name in PAIR_FIELDS}
        for name in PAIR_FIELDS:
            if name not in NULLABLE_PAIR_FIELDS:
                values[name] = values[name] or ""
        return cls(**values)


@dataclass(frozen=True)
class UnmatchedSentence:
    """A sentence from one side with no counterpart on the other."""

    sentence_is_from: str
    sentence: str
    normality: str

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in UNMATCHED_FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UnmatchedSentence:
        return cls(**{name: _text_or_none(data.get(name)) or "" for name in UNMATCHED_FIELDS})


@dataclass(frozen=True)
class RadsemTags:
    """The stage-2 result for one report pair."""

    pairs: list[RadsemPair] = field(default_factory=list)
    unmatched_sentences: list[UnmatchedSentence] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"pairs": [pair.to_json() for pair in self.pairs],
                "unmatched_sentences": [item.to_json() for item in self.unmatched_sentences]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RadsemTags:
        """Read stored tags back as they are (no value checks: the scorer decides what counts)."""
        return cls(pairs=[RadsemPair.from_json(p) for p in data.get("pairs") or []],
                   unmatched_sentences=[UnmatchedSentence.from_json(u)
                                        for u in data.get("unmatched_sentences") or []])


def tag_problems(data: Any) -> list[str]:
    """Every way ``data`` departs from ``TAG_SCHEMA``, one readable line each (empty = valid)."""
    if not isinstance(data, dict):
        return [f"top level: expected an object, got {type(data).__name__}"]
    problems = [f"top level: unexpected key {key!r}" for key in data
                if key not in ("pairs", "unmatched_sentences")]
    for key, allowed, nullable in (("pairs", _PAIR_VALUES, NULLABLE_PAIR_FIELDS),
                                   ("unmatched_sentences", _UNMATCHED_VALUES, ())):
        if key not in data:
            problems.append(f"top level: missing key {key!r}")
            continue
        if not isinstance(data[key], list):
            problems.append(f"{key}: expected an array, got {type(data[key]).__name__}")
            continue
        for index, item in enumerate(data[key]):
            problems.extend(_item_problems(f"{key}[{index}]", item, allowed, nullable))
    return problems


def _item_problems(where: str, item: Any, allowed: dict[str, tuple[str, ...] | None],
                   nullable: tuple[str, ...]) -> list[str]:
    if not isinstance(item, dict):
        return [f"{where}: expected an object, got {type(item).__name__}"]
    problems = [f"{where}: unexpected key {key!r}" for key in item if key not in allowed]
    for name, values in allowed.items():
        if name not in item:
            problems.append(f"{where}.{name}: missing")
            continue
        value = item[name]
        if value is None and name in nullable:
            continue
        if not isinstance(value, str):
            problems.append(f"{where}.{name}: expected a string, got {json.dumps(value)}")
        elif values is not None and value not in values:
            options = list(values) + ([None] if name in nullable else [])
            problems.append(f"{where}.{name}: expected one of {json.dumps(options)}, got {value!r}")
    return problems


def _text_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)
