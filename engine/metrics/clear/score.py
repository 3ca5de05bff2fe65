"""CLEAR stage 3: pure scoring of extracted condition tables, per pair and over a corpus.

Per pair, ``score_pair`` compares the two extractions cell by cell and keeps every row it
scored, so that ``score_corpus`` can rebuild all corpus aggregates from stored pair results
(the sufficient statistics) without any model.

Conventions, following the reference implementation unless said otherwise:
- The reference report is the truth. "unclear" belongs to neither scored class.
- Attribute rows exist only for true positives (positive in both reports); a row is one
  (pair, condition). A missed or invented condition therefore never reaches attribute scoring.
- List similarities are recall-oriented: each reference phrase is matched to its best
  candidate phrase, and the row score is the mean over reference phrases.
- Nothing is rounded here; the reference rounds to 3 decimals only when printing.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np

from engine.metrics.clear.schema import (
    ATTRIBUTE_NAMES,
    CHOICE_ATTRIBUTES,
    CONDITION_ATTRIBUTES,
    CONDITIONS,
    LIST_ATTRIBUTES,
    NEGATIVE,
    POSITIVE,
    TOP5_DEFAULT,
    AttributeValue,
    ClearPairExtraction,
    PresenceClass,
    top5_conditions,
    validate_presence,
)
from engine.metrics.lexical import bleu, rouge_l, tokenize

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


# --------------------------------------------------------------------------- corpus: presence


@dataclass
class PresenceClassScore:
    """Presence F1s for one class (positive or negative) over a corpus.

    - ``per_condition``: F1 per condition (sklearn's, zero_division=0); None ("n/a") for a
      condition that no report, reference or candidate, puts in this class.
    - ``f1_at13`` / ``f1_at5``: the reference code's means over all 13 / the top-5 set, with
      unsupported conditions counted as 0 (so they are comparable with published numbers).
    - ``f1_at13_supported`` / ``f1_at5_supported``: means over supported conditions only
      (None when none is supported); the fairer number for small corpora and single pairs.
    - ``micro_f1``: a true micro-F1, binary F1 over all flattened cells of this class
      (None when no cell on either side is in the class).
    - ``cell_accuracy``: share of all cells where both sides agree on in-class vs not; this is
      what the reference code prints as "micro f1" (sklearn average='micro' on 0/1 cells).
    """

    label: PresenceClass
    per_condition: dict[str, float | None]
    f1_at13: float
    f1_at5: float
    f1_at13_supported: float | None
    f1_at5_supported: float | None
    micro_f1: float | None
    cell_accuracy: float
    top5: list[str]

    _KEYS = (("f1_at13", "f1@13"), ("f1_at5", "f1@5"), ("f1_at13_supported", "f1@13_supported"),
             ("f1_at5_supported", "f1@5_supported"), ("micro_f1", "micro_f1"),
             ("cell_accuracy", "cell_accuracy"))

    @staticmethod
    def prefix(label: PresenceClass) -> str:
        return "pos" if label == POSITIVE else "neg"

    def to_json(self) -> dict[str, Any]:
        """Flat keys as named in the spec: ``pos_f1@13``, ``neg_cell_accuracy``, ..."""
        p = self.prefix(self.label)
        out: dict[str, Any] = {f"{p}_{name}": getattr(self, attr) for attr, name in self._KEYS}
        out[f"{p}_f1_per_condition"] = dict(self.per_condition)
        out[f"{p}_top5"] = list(self.top5)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], label: PresenceClass) -> PresenceClassScore:
        p = cls.prefix(label)
        values = {attr: data[f"{p}_{name}"] for attr, name in cls._KEYS}
        return cls(label=label, per_condition=dict(data[f"{p}_f1_per_condition"]),
                   top5=list(data[f"{p}_top5"]), **values)


@dataclass
class PresenceScores:
    """Both classes' presence scores, with the top-5 set that defined the @5 averages."""

    positive: PresenceClassScore
    negative: PresenceClassScore
    top5_set: str
    n_pairs: int

    def to_json(self) -> dict[str, Any]:
        return {"top5_set": self.top5_set, "n_pairs": self.n_pairs,
                **self.positive.to_json(), **self.negative.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PresenceScores:
        return cls(positive=PresenceClassScore.from_json(data, POSITIVE),
                   negative=PresenceClassScore.from_json(data, NEGATIVE),
                   top5_set=data["top5_set"], n_pairs=int(data["n_pairs"]))


def _f1(true_positives: Any, in_class: Any) -> np.ndarray:
    """2 TP / (true + predicted), 0 where neither side has the class: sklearn's ``f1_score``
    with zero_division=0, per column, to the float (without importing scikit-learn)."""
    tp = np.asarray(true_positives, dtype=float)
    total = np.asarray(in_class, dtype=float)
    return np.divide(2.0 * tp, total, out=np.zeros_like(total), where=total > 0)


def _class_score(reference: np.ndarray, candidate: np.ndarray, label: PresenceClass,
                 top5: str) -> PresenceClassScore:
    truth = reference == label
    pred = candidate == label
    f1s = _f1(np.count_nonzero(truth & pred, axis=0),
              np.count_nonzero(truth, axis=0) + np.count_nonzero(pred, axis=0))
    supported = truth.any(axis=0) | pred.any(axis=0)
    per_condition = {c: (float(f1s[i]) if supported[i] else None)
                     for i, c in enumerate(CONDITIONS)}
    five = top5_conditions(top5, label)
    index = {c: i for i, c in enumerate(CONDITIONS)}
    return PresenceClassScore(
        label=label,
        per_condition=per_condition,
        f1_at13=float(np.mean(f1s)),
        f1_at5=float(np.mean([f1s[index[c]] for c in five])),
        f1_at13_supported=_mean([v for v in per_condition.values() if v is not None]),
        f1_at5_supported=_mean([v for c in five if (v := per_condition[c]) is not None]),
        micro_f1=(float(_f1(np.count_nonzero(truth & pred),
                            np.count_nonzero(truth) + np.count_nonzero(pred)))
                  if supported.any() else None),
        cell_accuracy=float(np.mean(truth == pred)),
        top5=five,
    )


def score_presence(reference: Sequence[Mapping[str, str]], candidate: Sequence[Mapping[str, str]],
                   top5: str = TOP5_DEFAULT) -> PresenceScores:
    """Corpus presence scores from aligned lists of label dicts (reference as truth).

    Usable on its own, e.g. to score a presence extractor against human labels."""
    if len(reference) != len(candidate):
        raise ValueError(f"{len(reference)} reference label sets but {len(candidate)} "
                         "candidate ones")
    if not reference:
        raise ValueError("no pairs to score")
    top5_conditions(top5, POSITIVE)  # fail early on an unknown set name
    ref = np.array([list(validate_presence(r).values()) for r in reference])
    cand = np.array([list(validate_presence(r).values()) for r in candidate])
    return PresenceScores(positive=_class_score(ref, cand, POSITIVE, top5),
                          negative=_class_score(ref, cand, NEGATIVE, top5),
                          top5_set=top5, n_pairs=len(reference))


# --------------------------------------------------------------------------- corpus: attributes


@dataclass
class Averages:
    """One attribute value aggregated three ways over rows (row = (pair, true-positive
    condition)): ``micro`` pools all rows; ``condition_averaged`` averages per-condition means
    over the conditions that have rows; ``report_averaged`` averages per-pair means over the
    pairs that have rows. All None when there is no row."""

    micro: float | None
    condition_averaged: float | None
    report_averaged: float | None
    n_rows: int
    per_condition: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: Sequence[tuple[Hashable, str, float]]) -> Averages:
        """Aggregate ``(pair key, condition, value)`` triples."""
        by_condition: dict[str, list[float]] = defaultdict(list)
        by_pair: dict[Hashable, list[float]] = defaultdict(list)
        for pair, condition, value in rows:
            by_condition[condition].append(value)
            by_pair[pair].append(value)
        per_condition = {c: float(np.mean(by_condition[c])) for c in CONDITIONS
                         if c in by_condition}
        return cls(micro=_mean([v for _, _, v in rows]),
                   condition_averaged=_mean(list(per_condition.values())),
                   report_averaged=_mean([float(np.mean(v)) for v in by_pair.values()]),
                   n_rows=len(rows), per_condition=per_condition)

    def to_json(self) -> dict[str, Any]:
        return {"micro": self.micro, "condition_averaged": self.condition_averaged,
                "report_averaged": self.report_averaged, "n_rows": self.n_rows,
                "per_condition": dict(self.per_condition)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Averages:
        return cls(data["micro"], data["condition_averaged"], data["report_averaged"],
                   int(data["n_rows"]), dict(data.get("per_condition", {})))


@dataclass
class ListAttributeScore:
    """A list attribute's similarities over the corpus. ``llm`` averages only rows with a
    parsed judgement (its ``n_rows`` is how many); ``llm_unparsable`` counts the rows whose
    judgement could not be read; rows where the judge was not asked are in neither."""

    bleu4: Averages
    rouge_l: Averages
    llm: Averages
    llm_unparsable: int
    n_rows: int

    def to_json(self) -> dict[str, Any]:
        return {"bleu4": self.bleu4.to_json(), "rouge_l": self.rouge_l.to_json(),
                "llm": self.llm.to_json(), "llm_unparsable": self.llm_unparsable,
                "n_rows": self.n_rows}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ListAttributeScore:
        return cls(Averages.from_json(data["bleu4"]), Averages.from_json(data["rouge_l"]),
                   Averages.from_json(data["llm"]), int(data["llm_unparsable"]),
                   int(data["n_rows"]))


@dataclass
class ClearCorpusScore:
    """CLEAR over a corpus: presence F1s, choice-attribute accuracies, list similarities.

    ``mean_pair_score`` is the mean of the pairs' headline ``score`` (pair positive F1);
    ``n_degenerate_pairs`` counts pairs where neither report had a positive condition.
    ``n_pairs_with_rows`` counts pairs with at least one true positive: only those contribute
    attribute rows (pairs without one are left out of attribute scores, not scored 0).
    """

    presence: PresenceScores
    choice: dict[str, Averages]
    lists: dict[str, ListAttributeScore]
    n_pairs: int
    n_pairs_with_rows: int
    mean_pair_score: float
    n_degenerate_pairs: int

    @property
    def top5_set(self) -> str:
        return self.presence.top5_set

    def to_json(self) -> dict[str, Any]:
        return {"presence": self.presence.to_json(),
                "choice": {a: v.to_json() for a, v in self.choice.items()},
                "lists": {a: v.to_json() for a, v in self.lists.items()},
                "n_pairs": self.n_pairs, "n_pairs_with_rows": self.n_pairs_with_rows,
                "mean_pair_score": self.mean_pair_score,
                "n_degenerate_pairs": self.n_degenerate_pairs}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClearCorpusScore:
        return cls(presence=PresenceScores.from_json(data["presence"]),
                   choice={a: Averages.from_json(v) for a, v in data["choice"].items()},
                   lists={a: ListAttributeScore.from_json(v) for a, v in data["lists"].items()},
                   n_pairs=int(data["n_pairs"]), n_pairs_with_rows=int(data["n_pairs_with_rows"]),
                   mean_pair_score=float(data["mean_pair_score"]),
                   n_degenerate_pairs=int(data["n_degenerate_pairs"]))


def score_corpus(pairs: Sequence[ClearPairScore], top5: str = TOP5_DEFAULT) -> ClearCorpusScore:
    """All corpus aggregates from stored per-pair results (no model, no re-extraction)."""
    if not pairs:
        raise ValueError("no pairs to score")
    presence = score_presence([p.reference_presence for p in pairs],
                              [p.candidate_presence for p in pairs], top5)
    return ClearCorpusScore(
        presence=presence, choice=_corpus_choice(pairs), lists=_corpus_lists(pairs),
        n_pairs=len(pairs), n_pairs_with_rows=sum(bool(p.true_positives) for p in pairs),
        mean_pair_score=float(np.mean([p.score for p in pairs])),
        n_degenerate_pairs=sum(p.pos_f1_degenerate for p in pairs))


def _corpus_choice(pairs: Sequence[ClearPairScore]) -> dict[str, Averages]:
    """Per choice attribute, the match rate of its rows averaged over rows, conditions, pairs."""
    return {a: Averages.of([(i, r.condition, float(r.match))
                            for i, p in enumerate(pairs) for r in p.choice_rows
                            if r.attribute == a])
            for a in CHOICE_ATTRIBUTES}


def _corpus_lists(pairs: Sequence[ClearPairScore]) -> dict[str, ListAttributeScore]:
    """Per list attribute, its rows' BLEU-4, ROUGE-L and (where judged) LLM similarities."""
    lists = {}
    for a in LIST_ATTRIBUTES:
        rows = [(i, r) for i, p in enumerate(pairs) for r in p.list_rows if r.attribute == a]
        lists[a] = ListAttributeScore(
            bleu4=Averages.of([(i, r.condition, r.bleu4) for i, r in rows]),
            rouge_l=Averages.of([(i, r.condition, r.rouge_l) for i, r in rows]),
            llm=Averages.of([(i, r.condition, r.llm) for i, r in rows
                              if r.llm_status == "ok" and r.llm is not None]),
            llm_unparsable=sum(r.llm_status == "unparsable" for _, r in rows),
            n_rows=len(rows))
    return lists
