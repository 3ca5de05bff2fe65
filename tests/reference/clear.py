"""CLEAR's corpus scores computed straight from stored per-pair scores: presence F1 per class
(``score_presence``) and the attribute averages (``score_corpus``). The run summary computes the
same figures another way (``radscope.engine.metrics.clear.stats`` over typed records, with intervals);
the tests check that the two agree."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from radscope.engine.metrics.clear.schema import (
    CHOICE_ATTRIBUTES,
    CONDITIONS,
    LIST_ATTRIBUTES,
    NEGATIVE,
    POSITIVE,
    TOP5_DEFAULT,
    PresenceClass,
    top5_conditions,
    validate_presence,
)
from radscope.engine.metrics.clear.score import ClearPairScore, _mean


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
