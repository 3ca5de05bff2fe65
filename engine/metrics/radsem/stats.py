"""RadSEM's per-pair statistics record and its corpus figures (mean score, per-class F1 and
counts, sentences per report). The figures equal what the ``radsem`` metric reported from stored
details; ``STATS_VERSION`` is bumped when the record's meaning changes (older stored results
are then refused, and recomputed by a resumed run)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from radscope.engine.metrics.radsem.score import (
    ABNORMAL,
    CLASSES,
    NORMAL,
    RULE_ABSENT,
    RULE_ALL_MATCHED,
    RULE_F1,
    RULE_PARTIAL_PENALTY,
)
from radscope.engine.statistics import record_percentile as cs

METRIC = "radsem"
RULES = (RULE_ABSENT, RULE_ALL_MATCHED, RULE_F1, RULE_PARTIAL_PENALTY)


@dataclass(frozen=True, slots=True)
class RadsemStats:
    """One pair: its score, sentence counts, and per class (abnormal, normal): present, F1
    (NaN when undefined), matched flow, unmatched sentences per side, scoring rule (index in
    ``RULES``)."""

    METRIC: ClassVar[str] = METRIC
    STATS_VERSION: ClassVar[int] = 1
    score: float
    ref_sentences: int
    gen_sentences: int
    abnormal_present: int
    abnormal_f1: float
    abnormal_matched: float
    abnormal_unmatched_ref: int
    abnormal_unmatched_gen: int
    abnormal_rule: int
    normal_present: int
    normal_f1: float
    normal_matched: float
    normal_unmatched_ref: int
    normal_unmatched_gen: int
    normal_rule: int

    @classmethod
    def from_result(cls, payload: Mapping[str, Any], pair: str = "?") -> RadsemStats:
        cs.check_version(METRIC, payload, cls, pair)
        values: dict[str, Any] = {
            "score": cs.number(METRIC, pair, "score", payload.get("score")),
            "ref_sentences": len(cs.require(METRIC, payload, pair, "extraction", "ref_sentences")),
            "gen_sentences": len(cs.require(METRIC, payload, pair, "extraction", "gen_sentences"))}
        for normality in CLASSES:
            block = cs.require(METRIC, payload, pair, normality)
            rule = cs.require(METRIC, payload, pair, normality, "rule")
            if rule not in RULES:
                raise cs.StatsError(f"{METRIC}: pair {pair}: field '{normality}.rule' is {rule!r}, "
                                    f"not one of {RULES}")
            values[f"{normality}_present"] = int(bool(cs.require(METRIC, payload, pair, normality,
                                                                 "present")))
            values[f"{normality}_f1"] = cs.number(METRIC, pair, f"{normality}.f1", block.get("f1"),
                                                  allow_none=True)
            for key in ("matched", "unmatched_ref", "unmatched_gen"):
                value = cs.number(METRIC, pair, f"{normality}.{key}", block.get(key))
                values[f"{normality}_{key}"] = value if key == "matched" else int(value)
            values[f"{normality}_rule"] = RULES.index(rule)
        return cls(**values)


_CLASS_WIDTH = 6 + len(RULES)


def features(table: cs.RecordTable, start: int, stop: int, options: cs.Options) -> np.ndarray:
    """pairs, score, sentences per side; per class: present, F1 sum and count over present
    pairs, matched and unmatched sums, one count per rule."""
    col = table.column
    parts = [np.ones(stop - start), col("score", start, stop), col("ref_sentences", start, stop),
             col("gen_sentences", start, stop)]
    for normality in CLASSES:
        present = col(f"{normality}_present", start, stop).astype(float)
        f1 = col(f"{normality}_f1", start, stop)
        has_f1 = present * np.isfinite(f1)
        rule = col(f"{normality}_rule", start, stop)
        parts += [present, np.where(has_f1 > 0, f1, 0.0), has_f1,
                  present * col(f"{normality}_matched", start, stop),
                  present * col(f"{normality}_unmatched_ref", start, stop),
                  present * col(f"{normality}_unmatched_gen", start, stop)]
        parts += [present * (rule == i) for i in range(len(RULES))]
    return np.column_stack(parts)


def figures(sums: np.ndarray, options: cs.Options) -> dict[str, np.ndarray]:
    n = sums[:, 0]
    out = {"n_pairs": n, "mean": cs.ratio(sums[:, 1], n),
           "mean_ref_sentences": cs.ratio(sums[:, 2], n),
           "mean_gen_sentences": cs.ratio(sums[:, 3], n)}
    for k, normality in enumerate(CLASSES):
        base = 4 + k * _CLASS_WIDTH
        out[f"{normality}.n_pairs_present"] = sums[:, base]
        out[f"{normality}.mean_f1"] = cs.ratio(sums[:, base + 1], sums[:, base + 2])
        out[f"{normality}.matched"] = sums[:, base + 3]
        out[f"{normality}.unmatched_ref"] = sums[:, base + 4]
        out[f"{normality}.unmatched_gen"] = sums[:, base + 5]
        for i, rule in enumerate(RULES):
            out[f"{normality}.rules.{rule}"] = sums[:, base + 6 + i]
    return out


def nest(figs: Mapping[str, float], table: cs.RecordTable, options: cs.Options) -> dict[str, Any]:
    """RadSEM's corpus dict as it has always been shown (rules: only those that occurred)."""
    if not figs:
        return {}
    out: dict[str, Any] = {"n_pairs": int(figs["n_pairs"]), "mean": figs["mean"]}
    for normality in CLASSES:
        out[normality] = {
            "n_pairs_present": int(figs[f"{normality}.n_pairs_present"]),
            "mean_f1": cs.optional(figs[f"{normality}.mean_f1"]),
            "matched": figs[f"{normality}.matched"],
            "unmatched_ref": int(figs[f"{normality}.unmatched_ref"]),
            "unmatched_gen": int(figs[f"{normality}.unmatched_gen"]),
            "rules": {rule: int(figs[f"{normality}.rules.{rule}"]) for rule in sorted(RULES)
                      if figs[f"{normality}.rules.{rule}"] > 0}}
    out["mean_ref_sentences"] = figs["mean_ref_sentences"]
    out["mean_gen_sentences"] = figs["mean_gen_sentences"]
    out["class_weights"] = {ABNORMAL: 0.9, NORMAL: 0.1}
    return out


def aggregate(stats: Sequence[RadsemStats], options: cs.Options) -> dict[str, float]:
    """Every RadSEM corpus figure of these pairs (flat names, NaN where undefined)."""
    return cs.aggregate(SPEC, stats, options)


SPEC = cs.CorpusStatistics(
    METRIC, RadsemStats, RadsemStats.from_result, features, figures, nest,
    summation="sequential", headline=("mean", f"{ABNORMAL}.mean_f1", f"{NORMAL}.mean_f1"),
    directions=(("mean", "metric"), ("*.mean_f1", "higher"), ("*.matched", "higher"),
                ("*.unmatched_*", "lower"),  # findings missed / invented: error counts
                ("n_pairs", "descriptive"), ("*.n_pairs_present", "descriptive"),
                ("mean_*_sentences", "descriptive"), ("*.rules.*", "descriptive")),
    score_figure="mean")
