"""CREPE's corpus means straight from stored per-pair counts: the reference that the run
summary's CREPE figures (``radscope.engine.metrics.crepe.stats``) are checked against."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

import numpy as np

from radscope.engine.metrics.crepe.score import CATEGORY_KEYS, CrepeCounts


@dataclass(frozen=True)
class CrepeSummary:
    """Corpus means per category and of the total; ``None`` means for an empty corpus."""

    n_pairs: int
    mean_counts: dict[str, float] | None
    mean_total: float | None

    def to_json(self) -> dict[str, Any]:
        return {"n_pairs": self.n_pairs, "mean_counts": self.mean_counts,
                "mean_total": self.mean_total}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        means = data.get("mean_counts")
        total = data.get("mean_total")
        return cls(n_pairs=int(data["n_pairs"]),
                   mean_counts=None if means is None else {
                       key: float(means[key]) for key in CATEGORY_KEYS},
                   mean_total=None if total is None else float(total))


def summarize(results: Sequence[CrepeCounts]) -> CrepeSummary:
    """Corpus summary from stored per-pair counts (never re-runs the encoder)."""
    if not results:
        return CrepeSummary(n_pairs=0, mean_counts=None, mean_total=None)
    matrix = np.stack([r.as_array() for r in results])
    means = matrix.mean(axis=0)
    return CrepeSummary(
        n_pairs=len(results),
        mean_counts={key: float(v) for key, v in zip(CATEGORY_KEYS, means, strict=True)},
        mean_total=float(np.mean([r.total for r in results])),
    )
