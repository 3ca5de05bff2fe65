"""CLEAR's fixed vocabulary, the JSON Schemas for model answers, and the extraction records.

Everything a prompt, a constrained decoder or a scorer needs to agree on lives here as data:
the 13 conditions, the presence labels, the two top-5 condition sets, the five attributes with
their allowed values, per-condition hint words, and validators that turn raw model output into
normalised values (or fail with a message that names the offending key or value).

The schemas use only the JSON Schema features that llama.cpp's schema-to-grammar converter
understands (type, enum, properties, required, additionalProperties: false, items, minItems),
so that the same dicts can drive constrained decoding.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

# --------------------------------------------------------------------------- conditions

# The 13 CheXpert observations without "No Finding", grouped here by what they describe and
# kept in alphabetical order everywhere else (tables, schemas, outputs).
_CONDITION_GROUPS: dict[str, tuple[str, ...]] = {
    "heart and mediastinum": ("Cardiomegaly", "Enlarged Cardiomediastinum"),
    "lung parenchyma": ("Atelectasis", "Consolidation", "Edema", "Lung Lesion", "Lung Opacity",
                        "Pneumonia"),
    "pleura": ("Pleural Effusion", "Pleural Other", "Pneumothorax"),
    "bones and devices": ("Fracture", "Support Devices"),
}
CONDITIONS: tuple[str, ...] = tuple(sorted(c for group in _CONDITION_GROUPS.values() for c in group))

POSITIVE: Final = "positive"
NEGATIVE: Final = "negative"
UNCLEAR: Final = "unclear"
# "unclear" means the report neither affirms nor denies the condition; it belongs to neither
# scored class, so it can only ever cost a false negative, never earn a true positive.
PRESENCE_VALUES: tuple[str, ...] = (POSITIVE, NEGATIVE, UNCLEAR)
PresenceClass = Literal["positive", "negative"]

# Top-5 conditions for the @5 averages. The reference code uses a different five for each
# class; the paper's footnote gives one set for both. "code" is the default because it is what
# produced the published numbers' implementation; results always say which set was used.
TOP5_DEFAULT = "code"
TOP5: dict[str, dict[str, list[str]]] = {
    "code": {
        POSITIVE: ["Cardiomegaly", "Edema", "Consolidation", "Atelectasis", "Pleural Effusion"],
        NEGATIVE: ["Edema", "Consolidation", "Pneumonia", "Pneumothorax", "Pleural Effusion"],
    },
    "paper": {
        POSITIVE: ["Pneumothorax", "Pneumonia", "Edema", "Pleural Effusion", "Consolidation"],
        NEGATIVE: ["Pneumothorax", "Pneumonia", "Edema", "Pleural Effusion", "Consolidation"],
    },
}


def top5_conditions(top5: str, label: PresenceClass) -> list[str]:
    """The five conditions of set ``top5`` ("code" or "paper") for one presence class."""
    if top5 not in TOP5:
        raise ValueError(f"unknown top-5 set {top5!r}; choose from: {', '.join(TOP5)}")
    return list(TOP5[top5][label])


# --------------------------------------------------------------------------- attributes

NA = "N/A"
# Spellings models and the reference data use for "not applicable"; all become NA.
NA_ALIASES: frozenset[str] = frozenset({"", "n/a", "na", "nan", "none", "null"})

FIRST_OCCURRENCE = "first occurrence"
CHANGE = "change"
SEVERITY = "severity"
DESCRIPTIVE_LOCATION = "descriptive location"
RECOMMENDATION = "recommendation"

AttributeKind = Literal["choice", "list"]
AttributeValue = str | list[str]


@dataclass(frozen=True)
class AttributeSpec:
    """One attribute: a closed choice (``values`` lists every allowed answer, NA included) or
    a free list of phrases (``values`` is empty; ``[NA]`` means nothing to report)."""

    name: str
    kind: AttributeKind
    values: tuple[str, ...] = ()


ATTRIBUTES: dict[str, AttributeSpec] = {
    FIRST_OCCURRENCE: AttributeSpec(FIRST_OCCURRENCE, "choice", ("current", "previous", NA)),
    CHANGE: AttributeSpec(CHANGE, "choice", ("improving", "stable", "worsening", "mixed", NA)),
    SEVERITY: AttributeSpec(SEVERITY, "choice", ("mild", "moderate", "severe", "mixed", NA)),
    DESCRIPTIVE_LOCATION: AttributeSpec(DESCRIPTIVE_LOCATION, "list"),
    RECOMMENDATION: AttributeSpec(RECOMMENDATION, "list"),
}
ATTRIBUTE_NAMES: tuple[str, ...] = tuple(ATTRIBUTES)
CHOICE_ATTRIBUTES: tuple[str, ...] = tuple(a for a, s in ATTRIBUTES.items() if s.kind == "choice")
LIST_ATTRIBUTES: tuple[str, ...] = tuple(a for a, s in ATTRIBUTES.items() if s.kind == "list")

SUPPORT_DEVICES = "Support Devices"
# Devices have no onset, trend or severity worth asking about; they keep only the two lists.
CONDITION_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    c: (LIST_ATTRIBUTES if c == SUPPORT_DEVICES else ATTRIBUTE_NAMES) for c in CONDITIONS
}


def attributes_for(condition: str) -> tuple[str, ...]:
    """The attributes extracted for ``condition`` (Support Devices: the two list ones only)."""
    _check_condition(condition)
    return CONDITION_ATTRIBUTES[condition]


# --------------------------------------------------------------------------- prompt hints


@dataclass(frozen=True)
class ConditionHints:
    """Words that steer the descriptive-location question for one condition (spec table)."""

    location: tuple[str, ...] = ()
    descriptor: tuple[str, ...] = ()
    note: str = ""


_LUNG_REGIONS = ("left upper", "right lower", "whole lung")
_AIRSPACE_DESCRIPTORS = ("segmental", "focal", "terminal", "peripheral")
_HEART_SIZE = ("mild", "moderate", "severe")

CONDITION_HINTS: dict[str, ConditionHints] = {
    "Atelectasis": ConditionHints(_LUNG_REGIONS, ("compressive", *_AIRSPACE_DESCRIPTORS)),
    "Cardiomegaly": ConditionHints((), _HEART_SIZE),
    "Consolidation": ConditionHints(_LUNG_REGIONS, _AIRSPACE_DESCRIPTORS),
    "Edema": ConditionHints(
        ("medial (near hilum)", "middle", "lateral (peripheral)"),
        ("interstitial", "alveolar", "minimal", "mild", "moderate", "severe")),
    "Enlarged Cardiomediastinum": ConditionHints((), _HEART_SIZE),
    "Fracture": ConditionHints(
        ("ribs", "cervicothoracic vertebra"),
        ("simple/closed", "compound/open", "incomplete/partial", "complete")),
    "Lung Lesion": ConditionHints(
        ("central", "peripheral", "sub-pleural", "entire pleural space"),
        ("density", "internal composition", "shape", "margin"),
        note="count lesions only: nodules, masses, infiltrates, metastases"),
    "Lung Opacity": ConditionHints(
        ("left upper", "right lower", "perihilar"),
        ("interstitial", "alveolar", "diffuse", "focal", "dense", "ill-defined", "faint")),
    "Pleural Effusion": ConditionHints(
        ("left", "right", "entire pleural space"),
        ("subpulmonic", "posterior", "loculated", "lobular", "small", "moderate", "large")),
    "Pleural Other": ConditionHints(
        ("left upper", "right lower", "entire pleural space"),
        ("subpulmonic", "posterior", "loculated", "lobular", "diffuse", "focal"),
        note="pleural findings other than effusion, such as thickening or plaques"),
    "Pneumonia": ConditionHints(_LUNG_REGIONS, _AIRSPACE_DESCRIPTORS),
    "Pneumothorax": ConditionHints(("left upper", "right lower"), ("simple", "tension", "open")),
    "Support Devices": ConditionHints(
        note="devices in place on this study only; leave out devices that were removed"),
}
# The same trend words are offered for every condition.
STATUS_HINTS: tuple[str, ...] = ("improving", "worsening", "stable", "unchanged", "new")


# --------------------------------------------------------------------------- normalisers


def _check_condition(condition: Any) -> None:
    if condition not in CONDITION_ATTRIBUTES:
        raise ValueError(f"unknown condition {condition!r}; expected one of: "
                         f"{', '.join(CONDITIONS)}")


def _check_attribute(condition: str, attribute: Any) -> AttributeSpec:
    _check_condition(condition)
    if attribute not in ATTRIBUTES:
        raise ValueError(f"unknown attribute {attribute!r} for {condition!r}; expected one of: "
                         f"{', '.join(ATTRIBUTE_NAMES)}")
    if attribute not in CONDITION_ATTRIBUTES[condition]:
        raise ValueError(f"attribute {attribute!r} does not apply to {condition!r} (it gets only: "
                         f"{', '.join(CONDITION_ATTRIBUTES[condition])})")
    return ATTRIBUTES[attribute]


def is_na(value: Any) -> bool:
    """True for None and every "not applicable" spelling ("nan", "n/a", "none", "", ...)."""
    return value is None or (isinstance(value, str) and value.strip().lower() in NA_ALIASES)


def normalise_na(value: str | None) -> str:
    """Map not-applicable spellings to ``NA``; otherwise return the value stripped."""
    return NA if is_na(value) else str(value).strip()


def normalise_presence(value: Any, condition: str = "?") -> str:
    """One presence label, lower-cased. NA spellings count as "unclear", as in the reference
    code; anything else outside positive/negative/unclear is an error."""
    if not isinstance(value, str) and value is not None:
        raise ValueError(f"presence of {condition!r} must be a string, got {value!r}")
    if value is None or is_na(value):
        return UNCLEAR
    label = value.strip().lower()
    if label not in PRESENCE_VALUES:
        raise ValueError(f"presence of {condition!r} is {value!r}; expected one of: "
                         f"{', '.join(PRESENCE_VALUES)}")
    return label


def normalise_choice(attribute: str, value: Any, condition: str = "?") -> str:
    """One choice answer, lower-cased, NA spellings mapped to ``NA``. A one-item list is
    unwrapped because the reference data stores choices as one-element lists."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, str) and value is not None:
        raise ValueError(f"{attribute!r} of {condition!r} must be one string, got {value!r}")
    answer = NA if value is None or is_na(value) else value.strip().lower()
    allowed = ATTRIBUTES[attribute].values
    if answer not in allowed:
        raise ValueError(f"{attribute!r} of {condition!r} is {value!r}; expected one of: "
                         f"{', '.join(allowed)}")
    return answer


def normalise_phrases(value: Any, attribute: str = "?", condition: str = "?") -> list[str]:
    """A list answer as a list of stripped phrases (case kept for display).

    A bare string becomes a one-item list. NA spellings become ``NA``; when real phrases are
    present, NA items are dropped (a list cannot be both empty and non-empty); an empty list
    becomes ``[NA]``.
    """
    if value is None or isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ValueError(f"{attribute!r} of {condition!r} must be a list of strings, got {value!r}")
    phrases = []
    for item in value:
        if item is not None and not isinstance(item, str):
            raise ValueError(f"{attribute!r} of {condition!r} has a non-string item {item!r}")
        phrases.append(normalise_na(item))
    real = [p for p in phrases if p != NA]
    return real if real else [NA]


def normalise_attribute(condition: str, attribute: str, value: Any) -> AttributeValue:
    """Validate that ``attribute`` applies to ``condition`` and normalise its value."""
    spec = _check_attribute(condition, attribute)
    if spec.kind == "choice":
        return normalise_choice(attribute, value, condition)
    return normalise_phrases(value, attribute, condition)


# --------------------------------------------------------------------------- validators


def _check_keys(what: str, got: Mapping[str, Any], expected: Sequence[str]) -> None:
    missing = [k for k in expected if k not in got]
    unknown = [k for k in got if k not in expected]
    if missing or unknown:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(map(repr, missing))}")
        if unknown:
            parts.append(f"unexpected {', '.join(map(repr, unknown))}")
        raise ValueError(f"{what}: {'; '.join(parts)}")


def _as_mapping(what: str, obj: Any) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise ValueError(f"{what} must be a JSON object, got {type(obj).__name__}")
    return obj


def validate_presence(obj: Any) -> dict[str, str]:
    """Check a presence answer (exactly the 13 condition keys) and normalise its labels.

    Returns the labels in ``CONDITIONS`` order."""
    obj = _as_mapping("presence answer", obj)
    _check_keys("presence answer", obj, CONDITIONS)
    return {c: normalise_presence(obj[c], c) for c in CONDITIONS}


def validate_attribute_answer(condition: str, attribute: str, obj: Any) -> AttributeValue:
    """Check one faithful-mode answer ``{"answer": ...}`` and return the normalised value."""
    _check_attribute(condition, attribute)
    obj = _as_mapping(f"answer for {attribute!r} of {condition!r}", obj)
    _check_keys(f"answer for {attribute!r} of {condition!r}", obj, ("answer",))
    return normalise_attribute(condition, attribute, obj["answer"])


def validate_condition_attributes(condition: str, obj: Any,
                                  complete: bool = True) -> dict[str, AttributeValue]:
    """Check the attributes of one condition; ``complete`` requires every attribute it gets."""
    _check_condition(condition)
    obj = _as_mapping(f"attributes of {condition!r}", obj)
    for key in obj:
        _check_attribute(condition, key)
    if complete:
        _check_keys(f"attributes of {condition!r}", obj, CONDITION_ATTRIBUTES[condition])
    return {a: normalise_attribute(condition, a, obj[a])
            for a in CONDITION_ATTRIBUTES[condition] if a in obj}


def validate_fast_answer(obj: Any,
                         conditions: Sequence[str]) -> dict[str, dict[str, AttributeValue]]:
    """Check a fast-mode answer: exactly ``conditions`` as keys, each with all its attributes."""
    for c in conditions:
        _check_condition(c)
    obj = _as_mapping("fast-mode answer", obj)
    _check_keys("fast-mode answer", obj, list(conditions))
    return {c: validate_condition_attributes(c, obj[c]) for c in conditions}


# --------------------------------------------------------------------------- JSON Schemas


def _value_schema(attribute: str) -> dict[str, Any]:
    spec = ATTRIBUTES[attribute]
    if spec.kind == "choice":
        return {"type": "string", "enum": list(spec.values)}
    return {"type": "array", "items": {"type": "string"}, "minItems": 1}


def _object_schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


def presence_schema() -> dict[str, Any]:
    """(a) One report's presence answer: all 13 conditions, each positive/negative/unclear."""
    return _object_schema({c: {"type": "string", "enum": list(PRESENCE_VALUES)}
                           for c in CONDITIONS})


def attribute_answer_schema(attribute: str) -> dict[str, Any]:
    """(b) One faithful-mode attribute answer: ``{"answer": <choice or list of phrases>}``."""
    if attribute not in ATTRIBUTES:
        raise ValueError(f"unknown attribute {attribute!r}")
    return _object_schema({"answer": _value_schema(attribute)})


def fast_answer_schema(conditions: Sequence[str]) -> dict[str, Any]:
    """(c) One report's fast-mode answer: each given condition -> all of its attributes."""
    for c in conditions:
        _check_condition(c)
    return _object_schema({
        c: _object_schema({a: _value_schema(a) for a in CONDITION_ATTRIBUTES[c]})
        for c in conditions
    })


# --------------------------------------------------------------------------- records


@dataclass
class ClearReportExtraction:
    """What the extractor read from one report: presence of all 13 conditions, and attributes
    of some positive conditions. Values are validated and normalised on construction, so a
    record that exists is always well formed; attributes may be partial (faithful mode fills
    them one call at a time) but only for conditions this report labels positive."""

    presence: dict[str, str]
    attributes: dict[str, dict[str, AttributeValue]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.presence = validate_presence(self.presence)
        attributes = _as_mapping("attributes", self.attributes)
        for condition in attributes:
            _check_condition(condition)
            if self.presence[condition] != POSITIVE:
                raise ValueError(f"attributes given for {condition!r}, which this report labels "
                                 f"{self.presence[condition]!r}, not positive")
        self.attributes = {c: validate_condition_attributes(c, attributes[c], complete=False)
                           for c in CONDITIONS if c in attributes}

    def positives(self) -> list[str]:
        return [c for c in CONDITIONS if self.presence[c] == POSITIVE]

    def to_json(self) -> dict[str, Any]:
        return {"presence": dict(self.presence),
                "attributes": {c: {a: (list(v) if isinstance(v, list) else v)
                                   for a, v in attrs.items()}
                               for c, attrs in self.attributes.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClearReportExtraction:
        return cls(presence=dict(data["presence"]), attributes=dict(data.get("attributes", {})))


@dataclass
class ClearPairExtraction:
    """Both reports' extractions, plus optional LLM judgements of list similarity.

    ``llm_similarity[condition][attribute]`` is the judge's raw number for the two phrase
    lists (clamped to [0, 1] only when scored) or None when its answer could not be parsed;
    a missing key means the judge was not asked.
    """

    reference: ClearReportExtraction
    candidate: ClearReportExtraction
    llm_similarity: dict[str, dict[str, float | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        judged = _as_mapping("llm_similarity", self.llm_similarity)
        clean: dict[str, dict[str, float | None]] = {}
        for condition, per_attr in judged.items():
            _check_condition(condition)
            for attribute, value in _as_mapping(f"llm_similarity of {condition!r}",
                                                per_attr).items():
                if _check_attribute(condition, attribute).kind != "list":
                    raise ValueError(f"llm_similarity given for choice attribute {attribute!r}")
                if value is not None and (isinstance(value, bool)
                                          or not isinstance(value, (int, float))):
                    raise ValueError(f"llm_similarity of {condition!r}/{attribute!r} must be a "
                                     f"number or null, got {value!r}")
                if value is not None and math.isnan(value):
                    value = None  # NaN cannot be stored in JSON; it means "no usable answer"
                clean.setdefault(condition, {})[attribute] = (None if value is None
                                                              else float(value))
        self.llm_similarity = clean

    def true_positives(self) -> list[str]:
        """Conditions positive in both reports: the only ones whose attributes are compared."""
        return [c for c in CONDITIONS
                if self.reference.presence[c] == POSITIVE
                and self.candidate.presence[c] == POSITIVE]

    def to_json(self) -> dict[str, Any]:
        return {"reference": self.reference.to_json(), "candidate": self.candidate.to_json(),
                "llm_similarity": {c: dict(v) for c, v in self.llm_similarity.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClearPairExtraction:
        return cls(reference=ClearReportExtraction.from_json(data["reference"]),
                   candidate=ClearReportExtraction.from_json(data["candidate"]),
                   llm_similarity=dict(data.get("llm_similarity", {})))
