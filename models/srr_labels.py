"""SRR-BERT label vocabularies and the small label algebra the scorer needs.

The four label sets (leaves, upper, and both with statuses) come from the project's copy of the
public mapping files, ``models/data/srr_labels.json``, in model output order. A status label
reads ``"<finding> (<status>)"`` with status Present, Uncertain or Absent; ``"No Finding"`` is
the one label that never carries a status.

Upper labels are *derived* from leaf labels with the one-level ``leaf_to_upper`` map (the map
the SRR-BERT authors used to build the upper training labels), keeping each label's status.
When two leaves of one report share an upper label but carry different statuses (say
"Simple pleural effusion (Present)" and "Loculated pleural effusion (Absent)"), both upper
labels are kept: "Pleural Effusion (Present)" and "Pleural Effusion (Absent)". The authors
dropped such utterances when they built training data; at scoring time dropping them would
silently hide a finding, and merging them would need a precedence rule nobody has published.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

LABELS_FILE = Path(__file__).resolve().parent / "data" / "srr_labels.json"
NO_FINDING = "No Finding"
PRESENT, UNCERTAIN, ABSENT = "Present", "Uncertain", "Absent"

_STATUS_RE = re.compile(r"^(?P<name>.+) \((?P<status>Present|Uncertain|Absent)\)$")


class LabelLevel(StrEnum):
    """The four SRR-BERT heads; the value is the key used in the data file and in stored results."""

    LEAVES = "leaves"
    UPPER = "upper"
    LEAVES_WITH_STATUSES = "leaves_with_statuses"
    UPPER_WITH_STATUSES = "upper_with_statuses"

    @property
    def has_statuses(self) -> bool:
        return self in (LabelLevel.LEAVES_WITH_STATUSES, LabelLevel.UPPER_WITH_STATUSES)

    @property
    def is_upper(self) -> bool:
        return self in (LabelLevel.UPPER, LabelLevel.UPPER_WITH_STATUSES)

    @property
    def upper_level(self) -> LabelLevel:
        """The upper level that this level's labels map to (itself when already upper)."""
        if self.is_upper:
            return self
        return LabelLevel.UPPER_WITH_STATUSES if self.has_statuses else LabelLevel.UPPER

    @property
    def without_statuses(self) -> LabelLevel:
        if not self.has_statuses:
            return self
        return LabelLevel.UPPER if self.is_upper else LabelLevel.LEAVES


class StatusView(StrEnum):
    """Which labels count when comparing reports of a with-statuses level.

    ``ALL`` compares the labels as the model gave them, so "no effusion" in both reports is a
    match (the RadEval convention). ``PRESENT`` keeps only findings stated present, with the
    status dropped, and drops "No Finding": the set of positive findings, which is what a
    clinician usually means by "the findings" (two normal reports then compare as two empty
    sets, which score 1.0). ``PRESENT_OR_UNCERTAIN`` also counts hedged findings as present,
    as CheXbert-style evaluations commonly do.
    """

    ALL = "all"
    PRESENT = "present"
    PRESENT_OR_UNCERTAIN = "present_or_uncertain"

    @property
    def kept_statuses(self) -> tuple[str, ...]:
        if self is StatusView.PRESENT:
            return (PRESENT,)
        if self is StatusView.PRESENT_OR_UNCERTAIN:
            return (PRESENT, UNCERTAIN)
        return (PRESENT, UNCERTAIN, ABSENT)


@dataclass(frozen=True)
class SrrVocabulary:
    """All label lists in model output order, plus the one-level leaf -> upper map."""

    leaves: tuple[str, ...]
    upper: tuple[str, ...]
    leaves_with_statuses: tuple[str, ...]
    upper_with_statuses: tuple[str, ...]
    leaf_to_upper: dict[str, str]
    statuses: tuple[str, ...]

    def labels(self, level: LabelLevel) -> tuple[str, ...]:
        return getattr(self, LabelLevel(level).value)


@lru_cache(maxsize=1)
def vocabulary() -> SrrVocabulary:
    """Load and sanity-check the label file once (a corrupted copy fails loudly, not silently)."""
    data = json.loads(LABELS_FILE.read_text(encoding="utf-8"))
    vocab = SrrVocabulary(
        leaves=tuple(data["leaves"]),
        upper=tuple(data["upper"]),
        leaves_with_statuses=tuple(data["leaves_with_statuses"]),
        upper_with_statuses=tuple(data["upper_with_statuses"]),
        leaf_to_upper=dict(data["leaf_to_upper"]),
        statuses=tuple(data["statuses"]),
    )
    _check_vocabulary(vocab)
    return vocab


def _check_vocabulary(vocab: SrrVocabulary) -> None:
    expected = {"leaves": 55, "upper": 25, "leaves_with_statuses": 163, "upper_with_statuses": 73}
    for name, count in expected.items():
        if len(getattr(vocab, name)) != count:
            found = len(getattr(vocab, name))
            raise ValueError(f"{LABELS_FILE}: {name} has {found} labels, expected {count}")
    if vocab.statuses != (PRESENT, UNCERTAIN, ABSENT):
        raise ValueError(f"{LABELS_FILE}: unexpected statuses {vocab.statuses}")
    if set(vocab.leaf_to_upper) != set(vocab.leaves):
        raise ValueError(f"{LABELS_FILE}: leaf_to_upper must map exactly the 55 leaves")
    stray = sorted(set(vocab.leaf_to_upper.values()) - set(vocab.upper))
    if stray:
        raise ValueError(f"{LABELS_FILE}: leaf_to_upper targets not among upper labels: {stray}")
    for plain, with_status in ((vocab.leaves, vocab.leaves_with_statuses),
                               (vocab.upper, vocab.upper_with_statuses)):
        findings = [name for name in plain if name != NO_FINDING]
        built = [with_status_label(n, s) for s in vocab.statuses for n in findings] + [NO_FINDING]
        if tuple(built) != with_status:
            raise ValueError(f"{LABELS_FILE}: a with-statuses list does not follow the "
                             "'findings x statuses, then No Finding' order")


def labels_for(level: LabelLevel) -> tuple[str, ...]:
    """The label vocabulary of one SRR-BERT head, in model output order."""
    return vocabulary().labels(level)


def split_status(label: str) -> tuple[str, str | None]:
    """``"Edema (Present)"`` -> ``("Edema", "Present")``; no status -> ``(label, None)``."""
    match = _STATUS_RE.match(label)
    if match is None:
        return label, None
    return match.group("name"), match.group("status")


def with_status_label(name: str, status: str | None) -> str:
    """Inverse of ``split_status``; "No Finding" and status-less labels stay bare."""
    if status is None or name == NO_FINDING:
        return name
    return f"{name} ({status})"


def to_upper(label: str) -> str:
    """Map a leaf label (with or without status) to its upper label, keeping the status."""
    name, status = split_status(label)
    upper = vocabulary().leaf_to_upper.get(name)
    if upper is None:
        raise ValueError(f"not an SRR-BERT leaf label: {label!r}")
    return with_status_label(upper, status)


def labels_to_upper(labels: Iterable[str]) -> list[str]:
    """Upper labels of a report's leaf labels, sorted; differing statuses stay separate labels."""
    return sorted({to_upper(label) for label in labels})


def check_labels(labels: Iterable[str], level: LabelLevel) -> list[str]:
    """Sorted, de-duplicated ``labels``; a label outside the level's vocabulary is an error."""
    unique = set(labels)
    unknown = sorted(unique - set(labels_for(level)))
    if unknown:
        raise ValueError(
            f"labels not in the SRR-BERT {LabelLevel(level).value} vocabulary: {unknown}")
    return sorted(unique)


def view_vocabulary(level: LabelLevel, view: StatusView) -> tuple[str, ...]:
    """The labels a view can produce: the level itself for ``ALL``, else bare finding names."""
    level, view = LabelLevel(level), StatusView(view)
    if view is StatusView.ALL:
        return labels_for(level)
    _require_statuses(level, view)
    return tuple(name for name in labels_for(level.without_statuses) if name != NO_FINDING)


def apply_view(labels: Iterable[str], level: LabelLevel, view: StatusView) -> list[str]:
    """Labels of one report as seen through ``view`` (sorted, validated against ``level``)."""
    level, view = LabelLevel(level), StatusView(view)
    checked = check_labels(labels, level)
    if view is StatusView.ALL:
        return checked
    _require_statuses(level, view)
    kept = set()
    for label in checked:
        name, status = split_status(label)
        if status in view.kept_statuses:
            kept.add(name)
    return sorted(kept)


def _require_statuses(level: LabelLevel, view: StatusView) -> None:
    if not level.has_statuses:
        raise ValueError(
            f"the {view.value!r} view needs a with-statuses level, got {level.value!r}")
