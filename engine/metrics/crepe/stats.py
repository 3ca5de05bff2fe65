"""CREPE's per-pair statistics record (the six category counts and their total) and its corpus
figures (mean per category, mean total). ``STATS_VERSION`` is bumped when the record's meaning
changes; stored results of another version are then refused and recomputed."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from radscope.engine.metrics.crepe.score import CATEGORY_KEYS
from radscope.engine.statistics import record_percentile as cs

METRIC = "crepe"


@dataclass(frozen=True, slots=True)
class CrepeStats:
    """One pair's predicted error counts per category (in ``CATEGORY_KEYS`` order) and total."""

    METRIC: ClassVar[str] = METRIC
    STATS_VERSION: ClassVar[int] = 1
    counts: tuple[float, ...]
    total: float

    @classmethod
    def from_result(cls, payload: Mapping[str, Any], pair: str = "?") -> CrepeStats:
        cs.check_version(METRIC, payload, cls, pair)
        counts = tuple(cs.number(METRIC, pair, f"counts.{key}",
                                 cs.require(METRIC, payload, pair, "counts", key))
                       for key in CATEGORY_KEYS)
        return cls(counts, cs.number(METRIC, pair, "total", cs.require(METRIC, payload, pair, "total")))


def features(table: cs.RecordTable, start: int, stop: int, options: cs.Options) -> np.ndarray:
    values, _ = table.ragged("counts", start, stop)
    return np.column_stack([np.ones(stop - start), table.column("total", start, stop),
                            values.reshape(-1, len(CATEGORY_KEYS))])


def figures(sums: np.ndarray, options: cs.Options) -> dict[str, np.ndarray]:
    out = {"n_pairs": sums[:, 0], "mean_total": cs.ratio(sums[:, 1], sums[:, 0])}
    for i, key in enumerate(CATEGORY_KEYS):
        out[f"mean_counts.{key}"] = cs.ratio(sums[:, 2 + i], sums[:, 0])
    return out


def nest(figs: Mapping[str, float], table: cs.RecordTable, options: cs.Options) -> dict[str, Any]:
    if not figs:
        return {"n_pairs": 0, "mean_counts": None, "mean_total": None}
    return {"n_pairs": int(figs["n_pairs"]),
            "mean_counts": {key: figs[f"mean_counts.{key}"] for key in CATEGORY_KEYS},
            "mean_total": figs["mean_total"]}


def aggregate(stats: Sequence[CrepeStats], options: cs.Options) -> dict[str, float]:
    """Every CREPE corpus figure of these pairs."""
    return cs.aggregate(SPEC, stats, options)


SPEC = cs.CorpusStatistics(METRIC, CrepeStats, CrepeStats.from_result, features,
                           figures, nest, headline=("mean_total",),
                           directions=(("mean_total", "metric"), ("mean_counts.*", "lower"),
                                       ("n_pairs", "descriptive")),
                           score_figure="mean_total")
