"""Scores from one judge assessment, the headline per prompt variant, error-detection F1
against human counts. All pure (the judge-ensemble reference is in tests/reference/vert.py).

Notation: M = matched findings (the judge's stated count), S = Σ significant errors over the six
categories, I = Σ insignificant errors.

Zero-denominator rule: GREEN scores 0 whenever M = 0, even with no errors at all. GREEN-F1 and
the formula score follow the same rule (M = 0 -> 0), so their only 0/0 case (M = S = I = 0) is
0 as well: a judgement that matched nothing is never rewarded, and the three ratio scores agree
on the degenerate answer.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Self

from radscope.engine.metrics.vert.schema import CATEGORY_KEYS, JudgeAssessment

Variant = Literal["vert", "green", "formula", "rubric"]
VARIANTS: tuple[Variant, ...] = ("vert", "green", "formula", "rubric")
ErrorKind = Literal["significant", "insignificant", "both"]


# --------------------------------------------------------------------------- formulas

def green(matched: int, significant: int) -> float:
    """GREEN = M / (M + S); 0 when M = 0 (GREEN's own convention)."""
    if matched <= 0:
        return 0.0
    return matched / (matched + significant)


def green_f1(matched: int, significant: int) -> float:
    """GREEN-F1 = 2M / (2M + S); 0 when M = 0 (module docstring: same rule as GREEN)."""
    if matched <= 0:
        return 0.0
    return 2 * matched / (2 * matched + significant)


def formula(matched: int, significant: int, insignificant: int) -> float:
    """Formula score = M / (M + 2S + 0.5 I); 0 when M = 0 (module docstring)."""
    if matched <= 0:
        return 0.0
    return matched / (matched + 2 * significant + 0.5 * insignificant)


def vert_score(assessment: JudgeAssessment) -> float | None:
    """The judge's own overall score, clamped to [0, 1]; ``None`` = unparsable (never 0)."""
    score = assessment.overall_score
    return None if score is None else min(1.0, max(0.0, score))


def error_total(assessment: JudgeAssessment, kind: ErrorKind = "significant") -> int | None:
    """S, I or S + I; ``None`` when a needed section is missing."""
    counts = category_counts(assessment, kind)
    return None if counts is None else sum(counts.values())


def category_counts(assessment: JudgeAssessment,
                    kind: ErrorKind = "significant") -> dict[str, int] | None:
    """Per-category error counts (the input of ``detection_f1``); ``None`` when missing."""
    sections = {
        "significant": [assessment.significant],
        "insignificant": [assessment.insignificant],
        "both": [assessment.significant, assessment.insignificant],
    }[kind]
    present = [section for section in sections if section is not None]
    if len(present) != len(sections):
        return None
    return {key: sum(section[key].count for section in present) for key in CATEGORY_KEYS}


# --------------------------------------------------------------------------- one judgement

@dataclass
class JudgeScores:
    """Every score one judgement supports; ``None`` where a needed part is missing, with the
    reason in ``unavailable`` (score name -> message) so that callers can show it as an error.

    ``vert`` is whatever overall score the judge wrote: VERT's score in the ``vert`` variant,
    the rubric band value in ``rubric``, and the judge's own formula arithmetic in ``formula``.
    """

    vert: float | None
    green: float | None
    green_f1: float | None
    formula: float | None
    error_count: int | None
    total_error_count: int | None
    matched: int | None
    unavailable: dict[str, str] = field(default_factory=dict)

    def headline(self, variant: Variant) -> float | None:
        """The score a prompt variant reports.

        vert, rubric: the judge's overall score. green: GREEN. formula: the judge's own
        computation when it gave one (that is what the variant asks for), else the formula
        computed here from its counts, so an answer without the number still scores.
        """
        if variant in ("vert", "rubric"):
            return self.vert
        if variant == "green":
            return self.green
        if variant == "formula":
            return self.vert if self.vert is not None else self.formula
        raise ValueError(f"unknown judge variant {variant!r}; expected one of {VARIANTS}")

    def headline_error(self, variant: Variant) -> str | None:
        """Why ``headline(variant)`` is ``None`` (``None`` when it is available)."""
        if self.headline(variant) is not None:
            return None
        name = {"vert": "vert", "rubric": "vert", "green": "green", "formula": "formula"}[variant]
        return self.unavailable.get(name, f"{name} score unavailable")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(**{**data, "unavailable": dict(data.get("unavailable", {}))})


def compute_scores(assessment: JudgeAssessment) -> JudgeScores:
    """All scores of one judgement."""
    m = assessment.matched_count
    s = error_total(assessment, "significant")
    i = error_total(assessment, "insignificant")
    unavailable: dict[str, str] = {}

    missing = {
        "significant": "no readable [Clinically Significant Errors]",
        "insignificant": "no readable [Clinically Insignificant Errors]",
        "matched": "no readable [Matched Findings]",
    }

    def reason(*needs: str) -> str:
        return "; ".join(missing[n] for n in needs
                         if {"significant": s, "insignificant": i, "matched": m}[n] is None)

    vert = vert_score(assessment)
    if vert is None:
        unavailable["vert"] = "the judge gave no readable overall score (unparsable)"
    green_value = green_f1_value = None
    if m is not None and s is not None:
        green_value, green_f1_value = green(m, s), green_f1(m, s)
    else:
        unavailable["green"] = unavailable["green_f1"] = reason("matched", "significant")
    formula_value = None
    if m is not None and s is not None and i is not None:
        formula_value = formula(m, s, i)
    else:
        unavailable["formula"] = reason("matched", "significant", "insignificant")
    if s is None:
        unavailable["error_count"] = reason("significant")
    total = None if s is None or i is None else s + i
    if total is None:
        unavailable["total_error_count"] = reason("significant", "insignificant")
    if m is None:
        unavailable["matched"] = reason("matched")

    return JudgeScores(vert=vert, green=green_value, green_f1=green_f1_value,
                       formula=formula_value, error_count=s, total_error_count=total,
                       matched=m, unavailable=unavailable)


# --------------------------------------------------------------------------- detection F1

@dataclass
class DetectionCounts:
    """Pooled agreement between judge and human error counts for one category (or all)."""

    tp: float
    fp: float
    fn: float

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    def to_json(self) -> dict[str, float]:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": self.precision, "recall": self.recall, "f1": self.f1}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(tp=float(data["tp"]), fp=float(data["fp"]), fn=float(data["fn"]))


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator > 0 else 0.0


@dataclass
class DetectionF1:
    """Per-category and pooled ("overall") error-detection agreement over a corpus."""

    per_category: dict[str, DetectionCounts]
    overall: DetectionCounts
    n_pairs: int

    def to_json(self) -> dict[str, Any]:
        return {"per_category": {k: v.to_json() for k, v in self.per_category.items()},
                "overall": self.overall.to_json(), "n_pairs": self.n_pairs}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(per_category={k: DetectionCounts.from_json(v)
                                 for k, v in data["per_category"].items()},
                   overall=DetectionCounts.from_json(data["overall"]),
                   n_pairs=int(data["n_pairs"]))


def _checked_counts(counts: Mapping[str, float], who: str, index: int) -> dict[str, float]:
    unknown = set(counts) - set(CATEGORY_KEYS)
    if unknown:
        raise ValueError(f"{who} counts of pair {index} have unknown categories "
                         f"{sorted(unknown)}; expected keys among {CATEGORY_KEYS}")
    values = {key: float(counts.get(key, 0)) for key in CATEGORY_KEYS}
    if any(v < 0 for v in values.values()):
        raise ValueError(f"{who} counts of pair {index} contain a negative count: {values}")
    return values


def detection_f1(human: Sequence[Mapping[str, float]],
                 model: Sequence[Mapping[str, float]]) -> DetectionF1:
    """Error-detection F1 of the judge against human counts, pooled over pairs.

    Per category c: TP = Σ min(h, g), FP = Σ max(0, g − h), FN = Σ max(0, h − g); precision,
    recall and F1 from those totals, 0 when a denominator is 0. "overall" pools all
    categories. Counts may be fractional (ReXVal's human counts are radiologist means); a
    category missing from a dict counts 0, an unknown category is an error.
    """
    if len(human) != len(model):
        raise ValueError(f"{len(human)} human count sets but {len(model)} judge count sets")
    totals = {key: DetectionCounts(0.0, 0.0, 0.0) for key in CATEGORY_KEYS}
    for index, (h_raw, g_raw) in enumerate(zip(human, model, strict=True)):
        h, g = _checked_counts(h_raw, "human", index), _checked_counts(g_raw, "judge", index)
        for key in CATEGORY_KEYS:
            totals[key].tp += min(h[key], g[key])
            totals[key].fp += max(0.0, g[key] - h[key])
            totals[key].fn += max(0.0, h[key] - g[key])
    overall = DetectionCounts(sum(c.tp for c in totals.values()),
                              sum(c.fp for c in totals.values()),
                              sum(c.fn for c in totals.values()))
    return DetectionF1(per_category=totals, overall=overall, n_pairs=len(human))
