"""F1-SRR-BERT: compare SRR-BERT label sets per pair and over a corpus (pure, no model).

Per pair the two label sets are compared directly: precision, recall and the *true* F1
(2|R∩C| / (|R| + |C|)); two empty sets agree perfectly and score 1.0. RadEval's per-sample
"F1" is in fact the Jaccard index |R∩C| / |R∪C| (its P, R and F1 coincide), so Jaccard is
reported beside F1 and never called F1.

Over a corpus the reports become 0/1 matrices (scikit-learn's ``MultiLabelBinarizer`` over the
level's whole vocabulary) and scikit-learn averages them:

* ``weighted``: per-label F1 weighted by the label's count in the references. This is the
  peer toolkit's headline. A label that no reference contains has weight 0, so inventing it in
  every candidate costs nothing; read it beside ``micro``.
* ``micro``: true positives, false positives and false negatives pooled over all cells.
* ``macro``: plain mean over the labels that occur at least once in the references *or* the
  candidates. Labels that occur nowhere are left out, because with a 163-label vocabulary they
  would otherwise add dozens of zeros (scikit-learn's 0/0 -> 0) and make any small corpus look
  bad. ``macro_all`` is the mean over the whole vocabulary, the number scikit-learn's
  ``classification_report`` prints, for comparison.
* ``samples``: mean of the per-report values (the per-pair numbers above, so an empty pair
  counts 1.0). ``samples_jaccard`` is the mean per-report Jaccard (RadEval's per-sample mean).

A 0/0 inside an average counts 0 (``zero_division=0``: a label never predicted has precision
0, a label never referenced has recall 0), as in RadEval. An average with nothing to average
(e.g. ``weighted`` when no reference has any label) is ``None``, shown as n/a.

Both the leaf level and the upper level (derived from the leaves with ``leaf_to_upper``) are
reported. Per-pair results keep the raw label sets, so any corpus number, in any status view,
can be recomputed later from stored results alone.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from radscope.models.srr_labels import (
    LabelLevel,
    StatusView,
    apply_view,
    check_labels,
    labels_to_upper,
    view_vocabulary,
)

# --------------------------------------------------------------------------- per pair


@dataclass
class SetComparison:
    """One pair's label sets at one level, their overlap, and the set agreement scores."""

    level: str
    view: str
    reference: list[str]
    candidate: list[str]
    both: list[str]
    only_reference: list[str]
    only_candidate: list[str]
    precision: float
    recall: float
    f1: float
    jaccard: float

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level, "view": self.view,
            "reference": list(self.reference), "candidate": list(self.candidate),
            "both": list(self.both), "only_reference": list(self.only_reference),
            "only_candidate": list(self.only_candidate),
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "jaccard": self.jaccard,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SetComparison:
        return cls(
            level=str(data["level"]), view=str(data["view"]),
            reference=list(data["reference"]), candidate=list(data["candidate"]),
            both=list(data["both"]), only_reference=list(data["only_reference"]),
            only_candidate=list(data["only_candidate"]),
            precision=float(data["precision"]), recall=float(data["recall"]),
            f1=float(data["f1"]), jaccard=float(data["jaccard"]),
        )


def compare_label_sets(reference: Iterable[str], candidate: Iterable[str],
                       level: LabelLevel, view: StatusView = StatusView.ALL) -> SetComparison:
    """Compare two reports' labels at ``level`` after applying ``view``.

    Empty candidate -> precision 0 (unless the reference is empty too); empty reference ->
    recall 0 (same exception); both empty -> everything 1.0.
    """
    level, view = LabelLevel(level), StatusView(view)
    ref = set(apply_view(reference, level, view))
    cand = set(apply_view(candidate, level, view))
    both = ref & cand
    if not ref and not cand:
        precision = recall = f1 = jaccard = 1.0
    else:
        precision = len(both) / len(cand) if cand else 0.0
        recall = len(both) / len(ref) if ref else 0.0
        f1 = 2 * len(both) / (len(ref) + len(cand))
        jaccard = len(both) / len(ref | cand)
    return SetComparison(
        level=level.value, view=view.value,
        reference=sorted(ref), candidate=sorted(cand), both=sorted(both),
        only_reference=sorted(ref - cand), only_candidate=sorted(cand - ref),
        precision=precision, recall=recall, f1=f1, jaccard=jaccard,
    )


@dataclass
class SrrPairScore:
    """F1-SRR-BERT for one pair: the raw label sets (the sufficient statistics) and both levels.

    ``leaf`` is None when the labels came from an upper-level head (nothing to derive from).
    """

    level: str
    view: str
    reference_labels: list[str]
    candidate_labels: list[str]
    leaf: SetComparison | None
    upper: SetComparison

    @property
    def score(self) -> float:
        """Headline per-pair value: true F1 at the finest level available."""
        return (self.leaf or self.upper).f1

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level, "view": self.view,
            "reference_labels": list(self.reference_labels),
            "candidate_labels": list(self.candidate_labels),
            "leaf": None if self.leaf is None else self.leaf.to_json(),
            "upper": self.upper.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SrrPairScore:
        return cls(
            level=str(data["level"]), view=str(data["view"]),
            reference_labels=list(data["reference_labels"]),
            candidate_labels=list(data["candidate_labels"]),
            leaf=None if data.get("leaf") is None else SetComparison.from_json(data["leaf"]),
            upper=SetComparison.from_json(data["upper"]),
        )


def score_pair(reference_labels: Iterable[str], candidate_labels: Iterable[str],
               level: LabelLevel = LabelLevel.LEAVES_WITH_STATUSES,
               view: StatusView = StatusView.ALL) -> SrrPairScore:
    """Score one pair from the two reports' label sets (union over utterances) at ``level``."""
    level, view = LabelLevel(level), StatusView(view)
    ref = check_labels(reference_labels, level)
    cand = check_labels(candidate_labels, level)
    if level.is_upper:
        leaf, upper = None, compare_label_sets(ref, cand, level, view)
    else:
        leaf = compare_label_sets(ref, cand, level, view)
        upper = compare_label_sets(labels_to_upper(ref), labels_to_upper(cand), level.upper_level, view)
    return SrrPairScore(level=level.value, view=view.value, reference_labels=ref,
                        candidate_labels=cand, leaf=leaf, upper=upper)


# --------------------------------------------------------------------------- corpus


@dataclass
class Prf:
    """Precision, recall and F1 of one averaging method (None = nothing to average)."""

    precision: float | None
    recall: float | None
    f1: float | None

    def to_json(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Prf:
        return cls(**{key: _opt_float(data.get(key)) for key in ("precision", "recall", "f1")})

    @classmethod
    def undefined(cls) -> Prf:
        return cls(None, None, None)


@dataclass
class LabelStats:
    """One label over the corpus: its scores and how often each side has it."""

    label: str
    precision: float
    recall: float
    f1: float
    support: int  # reports whose reference has the label
    predicted: int  # reports whose candidate has the label

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "precision": self.precision, "recall": self.recall,
                "f1": self.f1, "support": self.support, "predicted": self.predicted}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LabelStats:
        return cls(label=str(data["label"]), precision=float(data["precision"]),
                   recall=float(data["recall"]), f1=float(data["f1"]),
                   support=int(data["support"]), predicted=int(data["predicted"]))


@dataclass
class LevelAggregate:
    """All corpus averages at one level; ``per_label`` lists only labels seen on either side."""

    level: str
    view: str
    n_reports: int
    n_labels: int
    n_active_labels: int
    weighted: Prf
    micro: Prf
    macro: Prf
    macro_all: Prf
    samples: Prf
    samples_jaccard: float | None
    per_label: list[LabelStats] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level, "view": self.view, "n_reports": self.n_reports,
            "n_labels": self.n_labels, "n_active_labels": self.n_active_labels,
            "weighted": self.weighted.to_json(), "micro": self.micro.to_json(),
            "macro": self.macro.to_json(), "macro_all": self.macro_all.to_json(),
            "samples": self.samples.to_json(), "samples_jaccard": self.samples_jaccard,
            "per_label": [row.to_json() for row in self.per_label],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LevelAggregate:
        return cls(
            level=str(data["level"]), view=str(data["view"]), n_reports=int(data["n_reports"]),
            n_labels=int(data["n_labels"]), n_active_labels=int(data["n_active_labels"]),
            weighted=Prf.from_json(data["weighted"]), micro=Prf.from_json(data["micro"]),
            macro=Prf.from_json(data["macro"]), macro_all=Prf.from_json(data["macro_all"]),
            samples=Prf.from_json(data["samples"]),
            samples_jaccard=_opt_float(data.get("samples_jaccard")),
            per_label=[LabelStats.from_json(row) for row in data.get("per_label", [])],
        )


@dataclass
class SrrCorpusScore:
    """Corpus F1-SRR-BERT at the leaf level (None for upper-level heads) and the upper level."""

    level: str
    view: str
    leaf: LevelAggregate | None
    upper: LevelAggregate

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "view": self.view,
                "leaf": None if self.leaf is None else self.leaf.to_json(),
                "upper": self.upper.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SrrCorpusScore:
        leaf = data.get("leaf")
        return cls(level=str(data["level"]), view=str(data["view"]),
                   leaf=None if leaf is None else LevelAggregate.from_json(leaf),
                   upper=LevelAggregate.from_json(data["upper"]))


def aggregate_level(references: Sequence[Iterable[str]], candidates: Sequence[Iterable[str]],
                    level: LabelLevel, view: StatusView = StatusView.ALL) -> LevelAggregate:
    """Corpus averages for label sets that are already at ``level`` (one set per report)."""
    level, view = LabelLevel(level), StatusView(view)
    if len(references) != len(candidates):
        raise ValueError(
            f"{len(references)} reference label sets but {len(candidates)} candidate sets")
    vocab = list(view_vocabulary(level, view))
    ref_sets = [apply_view(labels, level, view) for labels in references]
    cand_sets = [apply_view(labels, level, view) for labels in candidates]
    n = len(ref_sets)
    if n == 0:
        none = Prf.undefined()
        return LevelAggregate(level.value, view.value, 0, len(vocab), 0,
                              none, none, none, none, none, None)

    from sklearn.metrics import jaccard_score, precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    binarizer = MultiLabelBinarizer(classes=vocab)
    y_true = binarizer.fit_transform(ref_sets)
    y_pred = binarizer.transform(cand_sets)
    support = y_true.sum(axis=0)
    predicted = y_pred.sum(axis=0)
    active = np.flatnonzero((support + predicted) > 0)

    def averaged(method: str, labels: np.ndarray | None = None) -> tuple[float, float, float]:
        p, r, f, _ = precision_recall_fscore_support(
            y_true, y_pred, average=method, labels=labels, zero_division=0)
        return float(p), float(r), float(f)

    def average(method: str, labels: np.ndarray | None = None) -> Prf:
        return Prf(*averaged(method, labels))

    weighted = average("weighted") if support.sum() > 0 else Prf.undefined()
    micro = average("micro") if active.size else Prf.undefined()
    macro = average("macro", labels=active) if active.size else Prf.undefined()
    macro_all = average("macro")

    # With zero_division=0 scikit-learn gives a report pair with two empty sets 0 for P, R and
    # F1; every other 0/0 already matches the per-pair convention. Such a pair should count 1.0,
    # so add the share of empty pairs back.
    empty_share = float(np.mean((y_true.sum(axis=1) + y_pred.sum(axis=1)) == 0))
    raw_p, raw_r, raw_f1 = averaged("samples")
    samples = Prf(raw_p + empty_share, raw_r + empty_share, raw_f1 + empty_share)
    # Jaccard's only 0/0 is the empty pair, so zero_division=1 is exactly the per-pair rule.
    samples_jaccard = float(jaccard_score(y_true, y_pred, average="samples", zero_division=1.0))

    p_lab, r_lab, f_lab, _ = precision_recall_fscore_support(
        y_true, y_pred, average=None, zero_division=0)
    per_label = [LabelStats(vocab[i], float(p_lab[i]), float(r_lab[i]), float(f_lab[i]),
                            int(support[i]), int(predicted[i])) for i in active]
    return LevelAggregate(
        level=level.value, view=view.value, n_reports=n, n_labels=len(vocab),
        n_active_labels=int(active.size), weighted=weighted, micro=micro, macro=macro,
        macro_all=macro_all, samples=samples, samples_jaccard=samples_jaccard,
        per_label=per_label,
    )


def corpus_scores(references: Sequence[Iterable[str]], candidates: Sequence[Iterable[str]],
                  level: LabelLevel = LabelLevel.LEAVES_WITH_STATUSES,
                  view: StatusView = StatusView.ALL) -> SrrCorpusScore:
    """Corpus F1-SRR-BERT at ``level`` and at its derived upper level."""
    level, view = LabelLevel(level), StatusView(view)
    references = [check_labels(labels, level) for labels in references]
    candidates = [check_labels(labels, level) for labels in candidates]
    if level.is_upper:
        return SrrCorpusScore(level.value, view.value, None,
                              aggregate_level(references, candidates, level, view))
    leaf = aggregate_level(references, candidates, level, view)
    upper = aggregate_level([labels_to_upper(s) for s in references],
                            [labels_to_upper(s) for s in candidates], level.upper_level, view)
    return SrrCorpusScore(level.value, view.value, leaf, upper)


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class SrrLabels:
    """The two reports' label sets (union over their utterances) at the labeller's level."""

    reference: list[str]
    candidate: list[str]
    level: LabelLevel
