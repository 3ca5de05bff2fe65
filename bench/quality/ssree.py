"""SSREE monotonicity benchmark (validation spec §1).

Each SSREE report comes with five rewrites L1..L5 of growing clinical corruption. A metric
that tracks clinical meaning scores L1 > L2 > L3 > L4 > L5 against the reference. Per report
we measure Kendall tau-b against that intended order, all-pairs concordance (ties count half),
strict adjacent accuracy and whether the strict five-level chain holds; then average.

Two fixed folds (``fold_of``): each report goes to fold ``a`` or ``b`` by a SHA-256 hash of
``FOLD_SEED`` and its ``name``, so the split is the same on every machine and Python run (no
reliance on ``hash()`` or PYTHONHASHSEED) and a report never changes fold when others are added.
Rules are developed on one fold; the other shows whether they fit reports or language.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np
from scipy.stats import kendalltau

from radscope.engine.io.reports import ReportPair

LEVELS = ("L1", "L2", "L3", "L4", "L5")
FOLDS = ("a", "b")
# Changing the seed reshuffles the folds and voids every per-fold figure recorded before.
FOLD_SEED = "radscope-ssree-folds-v1"
# Folds further apart than this on L1 mean or tau-b suggest rules that fit reports, not language.
FOLD_GAP_LIMIT = 0.01

# Published figures on the full 2,448-report set (same protocol), for context in the report.
PUBLISHED = {
    "RadSEM with GPT-5": {"kendall_tau_b": 0.957, "all_pairs": 97.8, "adjacent": 95.0, "perfect_chain": 81.9},
    "RaTEScore": {"kendall_tau_b": 0.597, "all_pairs": 79.8, "adjacent": 70.5, "perfect_chain": 22.4},
    "BLEU-1": {"kendall_tau_b": 0.555, "all_pairs": 77.0, "adjacent": 63.4, "perfect_chain": 7.7},
    "GREEN": {"kendall_tau_b": 0.525, "all_pairs": 66.0, "adjacent": 55.7, "perfect_chain": 5.3},
    "ROUGE-L": {"kendall_tau_b": 0.354, "all_pairs": 65.1, "adjacent": 52.2, "perfect_chain": 2.5},
}


@dataclass(frozen=True)
class SsreeReport:
    name: str
    reference: str
    levels: tuple[str, str, str, str, str]
    modality: str | None = None
    area: str | None = None


def load_ssree(path: str | Path, limit: int | None = None) -> list[SsreeReport]:
    """Read the SSREE JSONL (fields name, reference, L1..L5, examined_type, examined_area)."""
    reports = []
    with Path(path).open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            rec = json.loads(line)
            missing = [k for k in ("name", "reference", *LEVELS) if k not in rec]
            if missing:
                raise ValueError(f"{path}: line {number}: missing field(s) {', '.join(missing)}")
            reports.append(SsreeReport(rec["name"], rec["reference"],
                                       tuple(rec[k] for k in LEVELS),
                                       rec.get("examined_type"), rec.get("examined_area")))
            if limit and len(reports) >= limit:
                break
    return reports


def fold_of(name: str, seed: str = FOLD_SEED) -> str:
    """The fold ("a" or "b") of the report called ``name``: the parity of a SHA-256 digest."""
    digest = hashlib.sha256(f"{seed}\x00{name}".encode()).digest()
    return FOLDS[digest[0] & 1]


def split_folds(reports: Sequence[SsreeReport], seed: str = FOLD_SEED) -> dict[str, list[SsreeReport]]:
    """The reports of each fold, in file order."""
    folds: dict[str, list[SsreeReport]] = {fold: [] for fold in FOLDS}
    for report in reports:
        folds[fold_of(report.name, seed)].append(report)
    return folds


def fold_gap(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """How far fold a's figures are from fold b's on tau-b and the L1 mean (absolute), and
    whether either passes ``FOLD_GAP_LIMIT``; None where a fold has no figure."""
    def gap(x: float | None, y: float | None) -> float | None:
        return None if x is None or y is None else round(abs(x - y), 4)
    gaps = {"kendall_tau_b": gap(a.get("kendall_tau_b"), b.get("kendall_tau_b")),
            "L1_mean": gap(a.get("mean_by_level", {}).get("L1"), b.get("mean_by_level", {}).get("L1"))}
    return {**gaps, "over_limit": any(v is not None and v > FOLD_GAP_LIMIT for v in gaps.values()),
            "noise": {key: _combined(a.get(f"{key}_se"), b.get(f"{key}_se")) for key in gaps}}


def _combined(x: float | None, y: float | None) -> float | None:
    """The standard error of a difference of two independent means: how large a gap chance
    alone makes between folds of this size."""
    return None if x is None or y is None else round(math.hypot(x, y), 4)


def _standard_error(values: Sequence[float]) -> float | None:
    return round(float(np.std(values, ddof=1)) / math.sqrt(len(values)), 4) if len(values) > 1 else None


def ssree_pairs(reports: Sequence[SsreeReport]) -> list[ReportPair]:
    """Five pairs per report: id ``<name>:L<k>``, the reference against level k."""
    return [ReportPair(id=f"{r.name}:{level}", reference=r.reference, candidate=text,
                       modality=r.modality, area=r.area)
            for r in reports for level, text in zip(LEVELS, r.levels, strict=True)]


def report_ordering(scores: Sequence[float]) -> dict[str, Any]:
    """Ordering statistics of one report's five scores (already oriented: higher = better).

    Kendall tau-b is taken against the intended order (L1 best). When all five scores tie,
    tau-b is undefined; it is counted as 0 (the metric expresses no ordering).
    """
    s = np.asarray(scores, dtype=float)
    intended = np.arange(len(s), 0, -1)
    tau = kendalltau(s, intended).statistic
    tau = 0.0 if tau is None or math.isnan(tau) else float(tau)
    concordance = []
    for i in range(len(s)):
        for j in range(i + 1, len(s)):
            concordance.append(1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
    adjacent = [bool(s[i] > s[i + 1]) for i in range(len(s) - 1)]
    return {"kendall_tau_b": tau, "all_pairs": float(np.mean(concordance)),
            "adjacent": adjacent, "perfect_chain": all(adjacent)}


def level_means(per_report_scores: Sequence[Sequence[float | None]]) -> dict[str, float | None]:
    """Mean score at each level L1..L5 over the reports that scored it: how faithful a
    faithful rewrite (L1) looks, which the ordering figures cannot tell."""
    out: dict[str, float | None] = {}
    for i, level in enumerate(LEVELS):
        values = [float(v) for s in per_report_scores
                  if _scored(v := s[i])]
        out[level] = round(float(np.mean(values)), 4) if values else None
    return out


def figures(per_report_scores: Sequence[Sequence[float | None]], higher_is_better: bool) -> dict[str, Any]:
    """The ordering figures and the mean score at each level of a set of reports, with the
    standard error of the L1 mean (``monotonicity`` gives tau-b's)."""
    first = [float(v) for s in per_report_scores if _scored(v := s[0])]
    return {**monotonicity(per_report_scores, higher_is_better),
            "mean_by_level": level_means(per_report_scores), "L1_mean_se": _standard_error(first)}


def _scored(value: float | None) -> TypeGuard[float]:
    """A level that has a score (not failed, not NaN)."""
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def monotonicity(per_report_scores: Sequence[Sequence[float | None]], higher_is_better: bool) -> dict[str, Any]:
    """Corpus figures over reports; reports with any failed level are left out and counted.

    Percentages (0-100) for all_pairs, adjacent, adjacent_by_level and perfect_chain, as in the
    published table; kendall_tau_b is a mean coefficient in [-1, 1].
    """
    sign = 1.0 if higher_is_better else -1.0
    stats = []
    excluded = 0
    for scores in per_report_scores:
        if not all(_scored(v) for v in scores):
            excluded += 1
            continue
        stats.append(report_ordering([sign * float(v) for v in scores]))  # type: ignore[arg-type]
    if not stats:
        return {"n_reports": 0, "n_excluded": excluded}
    by_level = np.mean([s["adjacent"] for s in stats], axis=0) * 100
    return {
        "kendall_tau_b": round(float(np.mean([s["kendall_tau_b"] for s in stats])), 4),
        "kendall_tau_b_se": _standard_error([s["kendall_tau_b"] for s in stats]),
        "all_pairs": round(float(np.mean([s["all_pairs"] for s in stats])) * 100, 2),
        "adjacent": round(float(np.mean(by_level)), 2),
        "adjacent_by_level": {f"L{i + 1}>L{i + 2}": round(float(v), 2) for i, v in enumerate(by_level)},
        "perfect_chain": round(float(np.mean([s["perfect_chain"] for s in stats])) * 100, 2),
        "n_reports": len(stats),
        "n_excluded": excluded,
    }
