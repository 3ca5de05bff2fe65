"""VERT's per-pair statistics record (every score family the judgement supports, NaN where
missing) and its corpus figures (each family's mean over the pairs that have it).
``STATS_VERSION`` is bumped when the record's meaning changes; stored results of another
version are then refused and recomputed."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from radscope.engine.statistics import record_percentile as cs

METRIC = "vert"
# Every score the VERT metric stores per pair (``VertScoring``), whatever the variant.
FAMILIES = ("vert", "green", "green_f1", "formula", "error_count", "total_error_count", "matched")


@dataclass(frozen=True, slots=True)
class VertStats:
    """One pair's score families, in ``FAMILIES`` order (NaN where the judgement lacks one)."""

    METRIC: ClassVar[str] = METRIC
    STATS_VERSION: ClassVar[int] = 1
    families: tuple[float, ...]

    @classmethod
    def from_result(cls, payload: Mapping[str, Any], pair: str = "?") -> VertStats:
        cs.check_version(METRIC, payload, cls, pair)
        scores = cs.require(METRIC, payload, pair, "scores")
        return cls(tuple(cs.number(METRIC, pair, f"scores.{family}",
                                   cs.require(METRIC, payload, pair, "scores", family),
                                   allow_none=True)
                         for family in FAMILIES if isinstance(scores, Mapping)))


def features(table: cs.RecordTable, start: int, stop: int, options: cs.Options) -> np.ndarray:
    values, _ = table.ragged("families", start, stop)
    values = values.reshape(-1, len(FAMILIES))
    present = np.isfinite(values)
    return np.column_stack([np.ones(stop - start), np.where(present, values, 0.0), present])


def figures(sums: np.ndarray, options: cs.Options) -> dict[str, np.ndarray]:
    k = len(FAMILIES)
    out = {"n_pairs": sums[:, 0]}
    for i, family in enumerate(FAMILIES):
        out[f"{family}.mean"] = cs.ratio(sums[:, 1 + i], sums[:, 1 + k + i])
        out[f"{family}.n"] = sums[:, 1 + k + i]
    return out


def nest(figs: Mapping[str, float], table: cs.RecordTable, options: cs.Options) -> dict[str, Any]:
    out: dict[str, Any] = {"variant": options.get("variant"), "n_pairs": int(figs.get("n_pairs", 0))}
    for family in FAMILIES:
        out[family] = {"mean": cs.optional(figs.get(f"{family}.mean", float("nan"))),
                       "n": int(figs.get(f"{family}.n", 0))}
    return out


def aggregate(stats: Sequence[VertStats], options: cs.Options) -> dict[str, float]:
    """Every VERT corpus figure of these pairs."""
    return cs.aggregate(SPEC, stats, options)


# The family whose mean is the per-pair score's, by prompt variant (formula's score falls back
# from one family to another, so no single figure is its mean).
SCORE_FIGURES = {"vert": "vert.mean", "rubric": "vert.mean", "green": "green.mean"}

SPEC = cs.CorpusStatistics(METRIC, VertStats, VertStats.from_result, features,
                           figures, nest, summation="sequential", headline=("vert.mean", "green.mean"),
                           directions=(("n_pairs", "descriptive"), ("*.n", "descriptive"),
                                       ("error_count.mean", "lower"),
                                       ("total_error_count.mean", "lower"), ("*.mean", "higher")),
                           score_figure=lambda options: SCORE_FIGURES.get(str(options.get("variant"))))
