"""CLEAR stage 3: pure scoring of extracted condition tables, per pair.

``score_pair`` compares the two extractions cell by cell and keeps every row it scored, so that
the corpus aggregates can be rebuilt from stored pair results (the sufficient statistics) without
any model: the run summary does it through ``radscope.engine.metrics.clear.stats``, and the straight
reference it is checked against (``score_corpus``) is in tests/reference/clear.py.

Conventions, following the reference implementation unless said otherwise:
- The reference report is the truth. "unclear" belongs to neither scored class.
- Attribute rows exist only for true positives (positive in both reports); a row is one
  (pair, condition). A missed or invented condition therefore never reaches attribute scoring.
- List similarities are recall-oriented: each reference phrase is matched to its best
  candidate phrase, and the row score is the mean over reference phrases.
- Nothing is rounded here; the reference rounds to 3 decimals only when printing.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np

from radscope.engine.metrics.clear.schema import (
    ATTRIBUTE_NAMES,
    CHOICE_ATTRIBUTES,
    CONDITION_ATTRIBUTES,
    CONDITIONS,
    LIST_ATTRIBUTES,
    NEGATIVE,
    POSITIVE,
    AttributeValue,
    ClearPairExtraction,
)
from radscope.engine.metrics.lexical.metric import bleu, rouge_l, tokenize

PRESENCE_COLUMN = "presence"
TABLE_COLUMNS: tuple[str, ...] = (PRESENCE_COLUMN, *ATTRIBUTE_NAMES)
SIMILARITIES: tuple[str, ...] = ("bleu4", "rouge_l", "llm")
LlmStatus = Literal["absent", "ok", "unparsable"]


# --------------------------------------------------------------------------- similarities


def bleu4_similarity(reference: str, candidate: str) -> float:
    """Sentence BLEU-4 with nltk smoothing method 4 on lower-cased, punctuation-free tokens
    (CLEAR's convention). Identical phrases shorter than four words score below 1."""
    return bleu(reference, candidate, n=4, smoothing="method4")


def rouge_l_similarity(reference: str, candidate: str) -> float:
    """ROUGE-L F-measure with stemming, on the same tokens as BLEU."""
    return rouge_l(reference, candidate)


def best_match_similarity(reference: Sequence[str], candidate: Sequence[str],
                          similarity: Callable[[str, str], float]) -> float:
    """Mean over reference phrases of the best similarity to any candidate phrase.

    Recall-oriented on purpose: extra candidate phrases cost nothing, a missing one costs its
    reference phrase. Candidate phrases without tokens are skipped; a reference phrase without
    tokens, or with no usable candidate phrase, scores 0. An empty reference list scores 0.
    """
    if not reference:
        return 0.0
    usable = [c for c in candidate if tokenize(c)]
    scores = [max(similarity(phrase, c) for c in usable) if usable and tokenize(phrase) else 0.0
              for phrase in reference]
    return float(np.mean(scores))


def clamp_judgement(value: float | None) -> float | None:
    """An LLM similarity judgement clipped to [0, 1]; None (unparsable) stays None."""
    if value is None or np.isnan(value):
        return None
    return float(min(1.0, max(0.0, value)))


def phrases_match(reference: Sequence[str], candidate: Sequence[str]) -> bool:
    """Whether two phrase lists say the same thing word for word: equal as sets once each
    phrase is lower-cased and stripped of punctuation (order and duplicates ignored).
    Used only to colour the table; the scores use the graded similarities."""
    def canon(phrases: Sequence[str]) -> set[str]:
        return {" ".join(tokenize(p)) for p in phrases if tokenize(p)}
    return canon(reference) == canon(candidate)


def pair_f1(reference_cells: Sequence[bool], candidate_cells: Sequence[bool]) -> tuple[float, bool]:
    """F1 of one report's cells against the reference's, and whether the case is degenerate.

    Degenerate = neither side has any cell in the class (no TP, FP or FN). We score that 1.0:
    both reports agree that nothing is in this class (sklearn's ``f1_score`` with
    zero_division=1.0, whose formula 2 TP / (true + predicted) this is; the reference fork's
    per-report F1 uses 0 there, which punishes correct normal reports). Plain numpy, because
    sklearn's checks cost a millisecond per call on 13 cells.
    """
    ref = np.asarray(reference_cells, dtype=bool)
    cand = np.asarray(candidate_cells, dtype=bool)
    if ref.shape != cand.shape or ref.ndim != 1:
        raise ValueError(f"cells differ in shape: {ref.shape} vs {cand.shape}")
    in_class = int(np.count_nonzero(ref)) + int(np.count_nonzero(cand))
    if in_class == 0:
        return 1.0, True
    return 2.0 * int(np.count_nonzero(ref & cand)) / in_class, False


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if len(values) else None


# --------------------------------------------------------------------------- per-pair records


@dataclass
class ChoiceRow:
    """One (true-positive condition, choice attribute) of a pair; "N/A" vs "N/A" matches."""

    condition: str
    attribute: str
    reference: str
    candidate: str

    @property
    def match(self) -> bool:
        return self.reference == self.candidate

    def to_json(self) -> dict[str, Any]:
        return {"condition": self.condition, "attribute": self.attribute,
                "reference": self.reference, "candidate": self.candidate, "match": self.match}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChoiceRow:
        return cls(data["condition"], data["attribute"], data["reference"], data["candidate"])


@dataclass
class ListRow:
    """One (true-positive condition, list attribute) of a pair with its similarities.

    ``llm`` is the clamped judgement when ``llm_status`` is "ok", otherwise None ("absent":
    the judge was not asked; "unparsable": it answered but no number could be read)."""

    condition: str
    attribute: str
    reference: list[str]
    candidate: list[str]
    bleu4: float
    rouge_l: float
    llm: float | None = None
    llm_status: LlmStatus = "absent"

    def to_json(self) -> dict[str, Any]:
        return {"condition": self.condition, "attribute": self.attribute,
                "reference": list(self.reference), "candidate": list(self.candidate),
                "bleu4": self.bleu4, "rouge_l": self.rouge_l, "llm": self.llm,
                "llm_status": self.llm_status}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ListRow:
        return cls(data["condition"], data["attribute"], list(data["reference"]),
                   list(data["candidate"]), float(data["bleu4"]), float(data["rouge_l"]),
                   None if data.get("llm") is None else float(data["llm"]),
                   data.get("llm_status", "absent"))


@dataclass
class TableCell:
    """One cell of the display table. Values are None and ``match`` is None where nothing was
    compared (attributes of a condition that is not a true positive, or not asked for it)."""

    reference: AttributeValue | None
    candidate: AttributeValue | None
    match: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"reference": _copy_value(self.reference), "candidate": _copy_value(self.candidate),
                "match": self.match}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableCell:
        return cls(_copy_value(data["reference"]), _copy_value(data["candidate"]), data["match"])


def _copy_value(value: AttributeValue | None) -> AttributeValue | None:
    return list(value) if isinstance(value, list) else value


@dataclass
class TableRow:
    """One condition's row: the presence column and the five attribute columns."""

    condition: str
    cells: dict[str, TableCell]

    def to_json(self) -> dict[str, Any]:
        return {"condition": self.condition,
                "cells": {k: v.to_json() for k, v in self.cells.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableRow:
        return cls(data["condition"],
                   {k: TableCell.from_json(v) for k, v in data["cells"].items()})


@dataclass
class ClearPairScore:
    """CLEAR on one pair: presence F1s, attribute rows, and the table for display.

    The headline ``score`` is ``pos_f1``: F1 of the candidate's positive conditions against
    the reference's over this pair's 13 cells, with a pair where neither report has a positive
    condition scored 1.0 and flagged by ``pos_f1_degenerate``. ``neg_f1`` follows the same
    rule for the negative class.
    """

    reference_presence: dict[str, str]
    candidate_presence: dict[str, str]
    pos_f1: float
    neg_f1: float
    pos_f1_degenerate: bool
    neg_f1_degenerate: bool
    true_positives: list[str]
    choice_rows: list[ChoiceRow] = field(default_factory=list)
    list_rows: list[ListRow] = field(default_factory=list)
    # per choice attribute: share of this pair's rows that match (None: no row)
    choice_agreement: dict[str, float | None] = field(default_factory=dict)
    # per list attribute and similarity: mean over this pair's rows (None: no row / no judgement)
    list_similarity: dict[str, dict[str, float | None]] = field(default_factory=dict)
    table: list[TableRow] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.pos_f1

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "reference_presence": dict(self.reference_presence),
            "candidate_presence": dict(self.candidate_presence),
            "pos_f1": self.pos_f1, "neg_f1": self.neg_f1,
            "pos_f1_degenerate": self.pos_f1_degenerate,
            "neg_f1_degenerate": self.neg_f1_degenerate,
            "true_positives": list(self.true_positives),
            "choice_rows": [r.to_json() for r in self.choice_rows],
            "list_rows": [r.to_json() for r in self.list_rows],
            "choice_agreement": dict(self.choice_agreement),
            "list_similarity": {a: dict(v) for a, v in self.list_similarity.items()},
            "table": [r.to_json() for r in self.table],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClearPairScore:
        return cls(
            reference_presence=dict(data["reference_presence"]),
            candidate_presence=dict(data["candidate_presence"]),
            pos_f1=float(data["pos_f1"]), neg_f1=float(data["neg_f1"]),
            pos_f1_degenerate=bool(data["pos_f1_degenerate"]),
            neg_f1_degenerate=bool(data["neg_f1_degenerate"]),
            true_positives=list(data["true_positives"]),
            choice_rows=[ChoiceRow.from_json(r) for r in data.get("choice_rows", [])],
            list_rows=[ListRow.from_json(r) for r in data.get("list_rows", [])],
            choice_agreement=dict(data.get("choice_agreement", {})),
            list_similarity={a: dict(v) for a, v in data.get("list_similarity", {}).items()},
            table=[TableRow.from_json(r) for r in data.get("table", [])],
        )


# --------------------------------------------------------------------------- per-pair scoring


def _tp_attributes(extraction: ClearPairExtraction, condition: str,
                   side: str) -> dict[str, AttributeValue]:
    report = getattr(extraction, side)
    got = report.attributes.get(condition, {})
    missing = [a for a in CONDITION_ATTRIBUTES[condition] if a not in got]
    if missing:
        raise ValueError(f"{side} report lacks {', '.join(map(repr, missing))} for true-positive "
                         f"condition {condition!r}")
    return got


def _list_row(extraction: ClearPairExtraction, condition: str, attribute: str,
              reference: list[str], candidate: list[str]) -> ListRow:
    judged = extraction.llm_similarity.get(condition, {})
    status: LlmStatus
    if attribute not in judged:
        llm, status = None, "absent"
    else:
        llm = clamp_judgement(judged[attribute])
        status = "ok" if llm is not None else "unparsable"
    return ListRow(condition, attribute, list(reference), list(candidate),
                   bleu4=best_match_similarity(reference, candidate, bleu4_similarity),
                   rouge_l=best_match_similarity(reference, candidate, rouge_l_similarity),
                   llm=llm, llm_status=status)


def _table(extraction: ClearPairExtraction, true_positives: Sequence[str]) -> list[TableRow]:
    rows = []
    for condition in CONDITIONS:
        ref_label = extraction.reference.presence[condition]
        cand_label = extraction.candidate.presence[condition]
        cells = {PRESENCE_COLUMN: TableCell(ref_label, cand_label, ref_label == cand_label)}
        for attribute in ATTRIBUTE_NAMES:
            if condition in true_positives and attribute in CONDITION_ATTRIBUTES[condition]:
                ref = extraction.reference.attributes[condition][attribute]
                cand = extraction.candidate.attributes[condition][attribute]
                match = phrases_match(ref, cand) if isinstance(ref, list) else ref == cand
                cells[attribute] = TableCell(_copy_value(ref), _copy_value(cand), match)
            else:
                cells[attribute] = TableCell(None, None, None)
        rows.append(TableRow(condition, cells))
    return rows


def score_pair(extraction: ClearPairExtraction) -> ClearPairScore:
    """Score one pair (reference as truth). Raises ValueError when a true-positive condition
    lacks an attribute on either side: an incomplete extraction is an error, not a zero."""
    ref_presence = dict(extraction.reference.presence)
    cand_presence = dict(extraction.candidate.presence)
    pos_f1, pos_degenerate = pair_f1(*_class_cells(ref_presence, cand_presence, POSITIVE))
    neg_f1, neg_degenerate = pair_f1(*_class_cells(ref_presence, cand_presence, NEGATIVE))
    true_positives = extraction.true_positives()

    choice_rows: list[ChoiceRow] = []
    list_rows: list[ListRow] = []
    for condition in true_positives:
        ref = _tp_attributes(extraction, condition, "reference")
        cand = _tp_attributes(extraction, condition, "candidate")
        for attribute in CONDITION_ATTRIBUTES[condition]:
            if attribute in CHOICE_ATTRIBUTES:
                # the schema made choice answers one string and list answers lists of strings
                choice_rows.append(ChoiceRow(condition, attribute, cast(str, ref[attribute]),
                                             cast(str, cand[attribute])))
            else:
                list_rows.append(_list_row(extraction, condition, attribute,
                                           cast(list[str], ref[attribute]),
                                           cast(list[str], cand[attribute])))

    choice_agreement = {
        a: _mean([float(r.match) for r in choice_rows if r.attribute == a])
        for a in CHOICE_ATTRIBUTES}
    list_similarity = {
        a: {"bleu4": _mean([r.bleu4 for r in list_rows if r.attribute == a]),
            "rouge_l": _mean([r.rouge_l for r in list_rows if r.attribute == a]),
            "llm": _mean([r.llm for r in list_rows
                          if r.attribute == a and r.llm_status == "ok" and r.llm is not None])}
        for a in LIST_ATTRIBUTES}

    return ClearPairScore(
        reference_presence=ref_presence, candidate_presence=cand_presence,
        pos_f1=pos_f1, neg_f1=neg_f1,
        pos_f1_degenerate=pos_degenerate, neg_f1_degenerate=neg_degenerate,
        true_positives=true_positives, choice_rows=choice_rows, list_rows=list_rows,
        choice_agreement=choice_agreement, list_similarity=list_similarity,
        table=_table(extraction, true_positives))


def _class_cells(reference: Mapping[str, str], candidate: Mapping[str, str],
                 label: str) -> tuple[list[bool], list[bool]]:
    return ([reference[c] == label for c in CONDITIONS],
            [candidate[c] == label for c in CONDITIONS])
