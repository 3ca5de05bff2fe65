"""CREPE's pure part: six raw regression outputs -> non-negative counts -> their sum.

The encoder's count heads are unbounded linear outputs, so a head can go negative; a negative
number of errors means "none", hence the clip at 0. Checkpoints trained with a Poisson loss put
a softplus in front; whether to apply it comes from the checkpoint's config, never guessed here.
The total is lower-is-better and has no upper bound.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

import numpy as np
import numpy.typing as npt

from radscope.engine.reader.error_words import CATEGORY_LETTERS

# ReXVal's six categories A-F, the same as the judge's (a)-(f) in the same order; their names
# are ``vocabulary.REXVAL_NAMES`` (ReXVal's) and ``vocabulary.CATEGORY_WORDS`` (the views').
CATEGORY_KEYS: tuple[str, ...] = CATEGORY_LETTERS
N_CATEGORIES = len(CATEGORY_KEYS)

ArrayLike = Sequence[float] | npt.NDArray[np.floating[Any]]


def softplus(x: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """log(1 + e^x), computed without overflow for large |x|."""
    return np.logaddexp(0.0, np.asarray(x, dtype=np.float64))


def clip_counts(raw: npt.ArrayLike, softplus_first: bool = False) -> npt.NDArray[np.float64]:
    """Vectorised core: raw head outputs of shape [..., 6] -> counts of the same shape, each
    >= 0 (softplus first only when asked). Non-finite outputs are an error, not a count."""
    values = np.asarray(raw, dtype=np.float64)
    if values.ndim == 0 or values.shape[-1] != N_CATEGORIES:
        raise ValueError(f"CREPE needs {N_CATEGORIES} outputs per pair (A-F); "
                         f"got shape {values.shape}")
    if not np.all(np.isfinite(values)):
        raise ValueError("CREPE outputs contain NaN or infinity")
    if softplus_first:
        values = softplus(values)
    return np.maximum(values, 0.0)


@dataclass(frozen=True)
class CrepeCounts:
    """Per-category predicted error counts of one pair and their total (the CREPE score)."""

    counts: dict[str, float]
    total: float

    @classmethod
    def from_row(cls, row: npt.NDArray[np.float64]) -> Self:
        """From an already clipped row of six counts."""
        counts = {key: float(v) for key, v in zip(CATEGORY_KEYS, row, strict=True)}
        return cls(counts=counts, total=float(np.sum(row)))

    def as_array(self) -> npt.NDArray[np.float64]:
        return np.array([self.counts[key] for key in CATEGORY_KEYS], dtype=np.float64)

    def to_json(self) -> dict[str, Any]:
        return {"counts": {key: self.counts[key] for key in CATEGORY_KEYS}, "total": self.total}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(counts={key: float(data["counts"][key]) for key in CATEGORY_KEYS},
                   total=float(data["total"]))


def aggregate(raw_outputs: ArrayLike, softplus: bool = False) -> CrepeCounts | list[CrepeCounts]:
    """Raw outputs -> counts and total: one ``CrepeCounts`` for a row of 6 values, a list of
    them (one per row, computed in one vectorised pass) for an array of shape [batch, 6]."""
    counts = clip_counts(raw_outputs, softplus_first=softplus)
    if counts.ndim == 1:
        return CrepeCounts.from_row(counts)
    if counts.ndim == 2:
        return [CrepeCounts.from_row(row) for row in counts]
    raise ValueError(f"expected shape [6] or [batch, 6]; got {counts.shape}")


def aggregate_batch(raw_outputs: ArrayLike, softplus: bool = False) -> list[CrepeCounts]:
    """Like ``aggregate`` but always a list (a single row gives a list of one)."""
    counts = clip_counts(np.atleast_2d(np.asarray(raw_outputs, dtype=np.float64)),
                         softplus_first=softplus)
    if counts.ndim != 2:
        raise ValueError(f"expected shape [batch, 6]; got {counts.shape}")
    return [CrepeCounts.from_row(row) for row in counts]
