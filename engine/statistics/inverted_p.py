"""A paired comparison's p-value read from the very bootstrap interval it is shown beside.

A two-sided p-value is the smallest alpha at which the (1 - alpha) interval, read from the same
resamples with the same rule, leaves out 0 (Efron and Tibshirani's achieved significance level
of a confidence interval). So "the 95 % interval excludes 0" and "p < 0.05" are one statement,
never two that can disagree, as a bootstrap interval beside a randomisation p-value could.

The rule is the one ``mean_bca`` and ``record_percentile`` read their intervals with: the level
``Phi(z0 + t / (1 - a t))``, ``t = z0 + Phi^-1(alpha / 2)``, of the resampled values'
linearly interpolated quantile (``np.percentile``). ``z0 = a = 0`` is the percentile interval,
other values BCa's bias correction and acceleration. The inversion is exact: the quantile
function is inverted where it crosses 0, then the level mapping is solved for alpha in closed
form, with no search and no second set of resamples.

The smallest p-value reported is 1 / (resamples + 1): a bootstrap of B resamples cannot tell
tail areas below about 1 / B apart (every resample on one side of 0 says "fewer than one in B",
not "zero"). The callers refuse so few resamples that this floor would reach alpha.
"""
from __future__ import annotations

from statistics import NormalDist

import numpy as np

_NORMAL = NormalDist()


def percentile_bounds(distribution: np.ndarray, confidence: float
                      ) -> tuple[float | None, float | None]:
    """The percentile interval over the resamples where the statistic exists (None, None
    when it exists on none)."""
    finite = distribution[np.isfinite(distribution)]
    if finite.size == 0:
        return None, None
    alpha = (1 - confidence) / 2
    low, high = np.percentile(finite, [100 * alpha, 100 * (1 - alpha)])
    return float(low), float(high)


def check_resamples(n_resamples: int, confidence: float) -> None:
    """Refuse a resample count whose p-value floor, 1 / (B + 1), would reach alpha: below it
    the p-value could no longer say what the interval says."""
    if (n_resamples + 1) * (1 - confidence) <= 1:
        raise ValueError(f"{n_resamples} resamples are too few for a p-value beside a "
                         f"{confidence:.0%} interval; use at least {int(1 / (1 - confidence))}")


def _crossings(values: np.ndarray) -> tuple[float, float]:
    """(L, U) for the sorted resamples' interpolated quantile function G: G(q) <= 0 exactly for
    q <= L, and G(q) < 0 exactly for q < U. -inf / +inf where no level qualifies."""
    size = values.size
    if size == 1:
        return ((1.0 if values[0] <= 0 else -np.inf), (np.inf if values[0] < 0 else 0.0))

    def level(below: int) -> float:
        """Where G crosses 0 between resample ``below - 1`` (at or under 0) and ``below``."""
        under, over = values[below - 1], values[below]
        return float((below - 1 + (0.0 - under) / (over - under)) / (size - 1))

    at_most = int(np.searchsorted(values, 0.0, side="right"))  # resamples <= 0
    under = int(np.searchsorted(values, 0.0, side="left"))  # resamples < 0
    low = -np.inf if at_most == 0 else 1.0 if at_most == size else level(at_most)
    high = np.inf if under == size else 0.0 if under == 0 else level(under)
    return low, high


def _tail(level: float, z0: float, accel: float) -> float:
    """alpha / 2 at which the lower bound's level ``Phi(z0 + t / (1 - a t))`` equals ``level``
    (0 when every valid alpha's level lies above it)."""
    if level <= 0:
        return 0.0
    if level >= 1:
        return 1.0
    w = _NORMAL.inv_cdf(level) - z0
    if 1 + accel * w <= 0:
        return 0.0
    return _NORMAL.cdf(w / (1 + accel * w) - z0)


def inverted_p_value(distribution: np.ndarray, n_resamples: int, z0: float = 0.0,
                     accel: float = 0.0) -> float | None:
    """Two-sided p-value of "the statistic is 0" from its bootstrap ``distribution``: the
    smallest alpha whose interval (level rule above, ``z0``/``accel`` as the interval used)
    excludes 0, floored at 1 / (``n_resamples`` + 1). None when no resample has a value."""
    finite = np.sort(distribution[np.isfinite(distribution)])
    if finite.size == 0:
        return None
    low_level, high_level = _crossings(finite)
    # The lower bound is above 0 once its level passes L; the upper bound is below 0 once its
    # level, 1 - (lower level of -statistic), drops under U: the same equation mirrored.
    below = _tail(low_level, z0, accel)
    above = _tail(1 - high_level, -z0, -accel)
    p = min(1.0, 2 * min(below, above))
    return max(p, 1 / (n_resamples + 1))
