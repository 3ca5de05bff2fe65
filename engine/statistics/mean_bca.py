"""The BCa bootstrap over per-pair scores: a mean's interval, two systems' paired comparison
(the mean difference's BCa interval and the p-value read from it), agreement with human
ratings.

It serves every metric's mean per-pair score (the run summary's first line, ``compare``'s
"mean" row) and the agreement benchmark; the metrics' corpus figures (CLEAR F1@13, RadSEM class
F1, ...) are ratios of summed records, which ``record_percentile`` bootstraps instead.

Every function here is deterministic: resampling uses a NumPy generator built from an explicit
``seed`` (default 0), so the same inputs always give the same interval and p-value. This
module cleans inputs, handles the degenerate cases, and packs the answers into JSON-ready
dataclasses.

Missing values: ``None``, NaN and infinities mean "no score" (a failed pair) and are skipped;
``n`` always counts the values actually used.

Bootstrap method: BCa (bias-corrected and accelerated) by default, because per-pair metric
scores are usually bounded and skewed, where BCa's coverage is better than the plain percentile
interval. BCa is undefined on constant data and unstable on tiny or heavily tied samples (its
acceleration divides by zero); then the same bootstrap distribution is re-read with the
percentile method instead. The method actually used is recorded in each result (``"BCa"``,
``"percentile"``, or ``"exact"`` when the data are constant so that every resample gives the
same value).

A paired comparison has one method: the paired bootstrap. Its p-value is not a second test
beside the interval (a randomisation test, or a bootstrap shifted to the null, can disagree
with the interval near 0.05) but the interval read backwards (``inverted_p``): the 95 %
interval excludes 0 exactly when p < 0.05.

Memory stays flat in the number of pairs (a million pairs is a summary like any other): means
and mean differences are resampled a chunk of resamples at a time (``_CHUNK_VALUES`` values held
at once), heavily tied scores (rules metrics) are resampled as multinomial counts over their
distinct values, and BCa's acceleration uses the closed form of the mean's jackknife. Draws and formulas follow ``scipy.stats.bootstrap``
(``method="BCa"``, ``batch`` = the chunk size): on untied data the interval is the one scipy
gives with the same seed and batch, without scipy's n x (n - 1) jackknife matrix. Rank
correlations (small human-rated sets) still use scipy, imported only when asked for.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from statistics import NormalDist
from typing import Any, Literal, Self

import numpy as np

from radscope.engine.statistics.inverted_p import check_resamples, inverted_p_value, percentile_bounds

DEFAULT_SEED = 0
DEFAULT_RESAMPLES = 2000
# Two values closer than this (relative to their size) are treated as equal when deciding
# whether a sample is constant: b = a + 0.1 in floating point gives differences that differ in
# the 17th digit, which must still count as "no spread".
_CONSTANT_RTOL = 1e-12
# Resampled values held in memory at once (4M float64 values and their int64 indices: 64 MB).
_CHUNK_VALUES = 1 << 22
# Resample counts over distinct values instead of indices when there are at most n / this many.
_TIED_RATIO = 8
_NORMAL = NormalDist()

CorrelationMethod = Literal["kendall", "spearman"]


# --- JSON helpers ------------------------------------------------------------------------------


def _json_number(value: Any) -> Any:
    """Plain JSON value: NumPy scalars become Python numbers, non-finite floats become None."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class _JsonDataclass:
    """``to_json``/``from_json`` for the flat result dataclasses below."""

    def to_json(self) -> dict[str, Any]:
        names = [f.name for f in fields(self)]  # type: ignore[arg-type]
        return {name: _json_number(getattr(self, name)) for name in names}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in names})


# --- result types ------------------------------------------------------------------------------


@dataclass
class MeanCI(_JsonDataclass):
    """A mean with its bootstrap confidence interval; all None when there was nothing to average."""

    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    confidence: float = 0.95
    method: str = "BCa"


@dataclass
class PairedComparison(_JsonDataclass):
    """System B against system A on the same references.

    ``mean_diff`` is mean(b − a) over pairs where both systems have a score. Whether a positive
    difference is good depends on the metric: for a higher-is-better metric B is better when it
    is positive, for a lower-is-better metric (e.g. an error count) B is better when it is
    negative. The test is two-sided, so the p-value does not depend on that reading.

    One paired bootstrap gives both the interval and ``p_value``: pairs are resampled whole (the
    per-pair differences), the interval is read from those resamples (``method``: BCa, else
    percentile), and ``p_value`` is the smallest alpha at which that same reading's (1 - alpha)
    interval leaves out 0 (``inverted_p``). So the interval excludes 0 exactly when
    ``p_value < 1 - confidence``. No interval and no p-value from fewer than two pairs.
    """

    n: int
    mean_a: float | None
    mean_b: float | None
    mean_diff: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    confidence: float = 0.95
    method: str = "BCa"
    n_resamples: int = DEFAULT_RESAMPLES


@dataclass
class Correlation(_JsonDataclass):
    """Rank correlation between a metric and human judgements, with a paired bootstrap CI.

    The sign is reported as computed: a higher-is-better metric against human error counts
    agrees with the humans when the coefficient is negative.
    """

    coef: float | None
    p_value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    method: str = "kendall"
    confidence: float = 0.95
    ci_method: str = "BCa"


# --- input cleaning ----------------------------------------------------------------------------


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return not math.isfinite(float(value))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"expected a number or None, got {value!r}") from exc


def _clean(values: Iterable[float | None]) -> np.ndarray:
    return np.array([float(v) for v in values if v is not None and not _is_missing(v)], dtype=float)


def _clean_pairs(a: Sequence[float | None], b: Sequence[float | None]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Keep only positions where both values are present (pairwise deletion)."""
    if len(a) != len(b):
        raise ValueError(f"paired inputs differ in length: {len(a)} vs {len(b)}")
    keep = [(float(x), float(y)) for x, y in zip(a, b, strict=True)
            if x is not None and y is not None and not (_is_missing(x) or _is_missing(y))]
    if not keep:
        return np.empty(0), np.empty(0)
    xs, ys = zip(*keep, strict=True)
    return np.array(xs), np.array(ys)


def _is_constant(x: np.ndarray) -> bool:
    return bool(np.ptp(x) <= _CONSTANT_RTOL * max(1.0, float(np.max(np.abs(x)))))


# --- bootstrap core ----------------------------------------------------------------------------


@dataclass
class _Interval:
    low: float | None
    high: float | None
    method: str
    distribution: np.ndarray
    z0: float = 0.0  # the level rule the interval was read with (0, 0: percentile)
    accel: float = 0.0


def _percentile_interval(distribution: np.ndarray, confidence: float) -> _Interval:
    """Percentile interval from the resamples where the statistic exists (none: no interval)."""
    low, high = percentile_bounds(distribution, confidence)
    return _Interval(low, high, "none" if low is None else "percentile", distribution)


def _scipy_bootstrap_interval(data: tuple[np.ndarray, ...], statistic: Callable[..., Any], *,
                              paired: bool, vectorized: bool, confidence: float,
                              n_resamples: int, seed: int) -> _Interval:
    """BCa interval from scipy for statistics without a closed-form jackknife (rank
    correlations on small human-rated sets), re-read as a percentile interval when BCa is
    undefined."""
    from scipy import stats as sps

    kwargs = dict(paired=paired, vectorized=vectorized, confidence_level=confidence)
    with warnings.catch_warnings():
        # Degenerate resamples are expected (ties, tiny n); the NaN they cause is handled below.
        warnings.simplefilter("ignore")
        result = sps.bootstrap(data, statistic, n_resamples=n_resamples, method="BCa",
                               rng=np.random.default_rng(seed), **kwargs)
        low, high = result.confidence_interval
        method = "BCa"
        if not (np.isfinite(low) and np.isfinite(high)):
            # Same resamples, different reading: no new draws, so the seed still fixes it.
            result = sps.bootstrap(data, statistic, n_resamples=0, method="percentile",
                                   bootstrap_result=result, **kwargs)
            low, high = result.confidence_interval
            method = "percentile"
    distribution = np.asarray(result.bootstrap_distribution, dtype=float)
    if not (np.isfinite(low) and np.isfinite(high)):
        # A statistic that is undefined on some resamples (a rank correlation on a resample
        # whose values are all tied): read the interval from the resamples where it exists.
        return _percentile_interval(distribution, confidence)
    return _Interval(float(low), float(high), method, distribution)


def resample_means(x: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap distribution of the mean of ``x``, holding at most ``_CHUNK_VALUES`` values.

    Untied data: index resampling exactly as ``scipy.stats.bootstrap`` draws it with
    ``batch=max(1, _CHUNK_VALUES // n)``. Heavily tied data (at most n / ``_TIED_RATIO``
    distinct values, as rules metrics give): each resample is a multinomial count vector over
    the distinct values, which has the same distribution as index resampling and costs
    O(distinct values) instead of O(n) per resample.
    """
    n = x.size
    out = np.empty(n_resamples)
    values, counts = np.unique(x, return_counts=True)
    if values.size * _TIED_RATIO <= n:
        per = max(1, _CHUNK_VALUES // values.size)
        shares = counts / n
        for start in range(0, n_resamples, per):
            drawn = rng.multinomial(n, shares, size=min(per, n_resamples - start))
            out[start:start + len(drawn)] = drawn @ values / n
        return out
    per = max(1, _CHUNK_VALUES // n)
    for start in range(0, n_resamples, per):
        index = rng.integers(0, n, (min(per, n_resamples - start), n))
        out[start:start + len(index)] = np.mean(x[index], axis=-1)
    return out


def _bca_constants(x: np.ndarray, mean: float, distribution: np.ndarray
                   ) -> tuple[float, float] | None:
    """BCa's bias correction z0 and acceleration a for the mean (None when BCa is undefined).

    Bias: the share of resamples below the observed mean (ties counted half, as scipy does).
    Acceleration: for the mean the jackknife influence values are x_i - mean, so scipy's
    jackknife sum reduces to sum(d^3) / (6 * sum(d^2)^1.5) and needs no n x (n - 1) matrix.
    """
    d = x - mean
    spread = float(np.sum(d * d))
    below = (np.count_nonzero(distribution < mean) + np.count_nonzero(distribution <= mean))
    share = below / (2 * distribution.size)
    if spread == 0 or not 0 < share < 1:
        return None
    return _NORMAL.inv_cdf(share), float(np.sum(d ** 3)) / (6 * spread ** 1.5)


def _bca_levels(z0: float, accel: float, confidence: float) -> tuple[float, float]:
    """BCa's adjusted percentile levels (NaN where its denominator is not positive)."""
    levels = []
    for tail in ((1 - confidence) / 2, (1 + confidence) / 2):
        shifted = z0 + _NORMAL.inv_cdf(tail)
        denominator = 1 - accel * shifted
        levels.append(_NORMAL.cdf(z0 + shifted / denominator) if denominator > 0 else math.nan)
    return levels[0], levels[1]


def _mean_interval(x: np.ndarray, confidence: float, n_resamples: int,
                   seed: int) -> _Interval:
    """BCa (or, where undefined, percentile) bootstrap interval of the mean, in flat memory."""
    mean = float(np.mean(x))
    distribution = resample_means(x, n_resamples, np.random.default_rng(seed))
    constants = _bca_constants(x, mean, distribution)
    if constants is not None:
        low_level, high_level = _bca_levels(*constants, confidence)
        if math.isfinite(low_level) and math.isfinite(high_level):
            low, high = np.percentile(distribution, [100 * low_level, 100 * high_level])
            return _Interval(float(low), float(high), "BCa", distribution, *constants)
    return _percentile_interval(distribution, confidence)


# --- public API --------------------------------------------------------------------------------


def bootstrap_mean_ci(values: Iterable[float | None], confidence: float = 0.95,
                      n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> MeanCI:
    """Mean of the present values with a bootstrap confidence interval.

    No values: everything None. One value, or all values equal: the interval collapses onto
    the mean (every resample has the same mean), reported with method ``"exact"``.
    """
    x = _clean(values)
    n = int(x.size)
    if n == 0:
        return MeanCI(None, None, None, 0, confidence, "none")
    mean = float(np.mean(x))
    if n == 1 or _is_constant(x):
        return MeanCI(mean, mean, mean, n, confidence, "exact")
    interval = _mean_interval(x, confidence, n_resamples, seed)
    return MeanCI(mean, interval.low, interval.high, n, confidence, interval.method)


def paired_comparison(a: Sequence[float | None], b: Sequence[float | None],
                      n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                      confidence: float = 0.95) -> PairedComparison:
    """Compare system B with system A on the same references (see ``PairedComparison``).

    ``a[i]`` and ``b[i]`` must be the two systems' scores on the same reference; pairs where
    either is missing are dropped.
    """
    check_resamples(n_resamples, confidence)
    xa, xb = _clean_pairs(a, b)
    n = int(xa.size)
    if n == 0:
        return PairedComparison(0, None, None, None, None, None, None, confidence, "none",
                                n_resamples)
    diff = xb - xa
    mean_diff = float(np.mean(diff))
    mean_a, mean_b = float(np.mean(xa)), float(np.mean(xb))
    if n == 1:  # one pair: a difference, but nothing to resample
        return PairedComparison(1, mean_a, mean_b, mean_diff, None, None, None, confidence,
                                "none", n_resamples)
    if _is_constant(diff):  # every resample has the same mean difference
        interval = _Interval(mean_diff, mean_diff, "exact", np.full(n_resamples, mean_diff))
    else:
        interval = _mean_interval(diff, confidence, n_resamples, seed)
    p_value = inverted_p_value(interval.distribution, n_resamples, interval.z0, interval.accel)
    return PairedComparison(n, mean_a, mean_b, mean_diff, interval.low, interval.high, p_value,
                            confidence, interval.method, n_resamples)


def _kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    from scipy import stats as sps

    return float(sps.kendalltau(x, y, variant="b").statistic)


def _spearman_rho(x: np.ndarray, y: np.ndarray) -> float:
    from scipy import stats as sps

    return float(sps.spearmanr(x, y).statistic)


_CORRELATIONS: dict[str, Callable[[np.ndarray, np.ndarray], float]] = {
    "kendall": _kendall_tau_b,
    "spearman": _spearman_rho,
}


def correlation(metric_scores: Sequence[float | None], human_scores: Sequence[float | None],
                method: CorrelationMethod = "kendall", confidence: float = 0.95,
                n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> Correlation:
    """Kendall tau-b or Spearman rho between metric and human scores, with a bootstrap CI.

    Pairs where either score is missing are dropped. The p-value is scipy's (two-sided, against
    no association). The interval comes from resampling (metric, human) pairs together.
    When either side has no spread the coefficient is undefined and everything but ``n`` is None.
    """
    if method not in _CORRELATIONS:
        raise ValueError(f"unknown correlation method {method!r}; "
                         f"use one of {sorted(_CORRELATIONS)}")
    x, y = _clean_pairs(metric_scores, human_scores)
    n = int(x.size)
    empty = Correlation(None, None, None, None, n, method, confidence, "none")
    if n < 2 or _is_constant(x) or _is_constant(y):
        return empty
    from scipy import stats as sps

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.kendalltau(x, y, variant="b") if method == "kendall" else sps.spearmanr(x, y)
    coef, p_value = float(res.statistic), float(res.pvalue)
    if not math.isfinite(coef):
        return empty
    interval = _scipy_bootstrap_interval((x, y), _CORRELATIONS[method], paired=True,
                                         vectorized=False, confidence=confidence,
                                         n_resamples=n_resamples, seed=seed)
    return Correlation(coef, p_value if math.isfinite(p_value) else None, interval.low,
                       interval.high, n, method, confidence, interval.method)
