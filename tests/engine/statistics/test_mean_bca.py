"""Tests for engine.statistics.mean_bca: bootstrap CIs, paired comparisons and rank correlations."""
from __future__ import annotations

import math

import numpy as np
import pytest

from radscope.engine.statistics.mean_bca import (
    Correlation,
    MeanCI,
    PairedComparison,
    bootstrap_mean_ci,
    correlation,
    paired_comparison,
)

# --- bootstrap_mean_ci -------------------------------------------------------------------------


def test_constant_sample_has_a_collapsed_interval():
    # Every resample of ten copies of 0.5 has mean 0.5, so the interval is the point 0.5.
    ci = bootstrap_mean_ci([0.5] * 10)
    assert ci == MeanCI(0.5, 0.5, 0.5, 10, 0.95, "exact")


def test_missing_values_are_skipped_and_not_counted():
    # Only 1.0 and 3.0 are usable: mean 2.0, n 2.
    ci = bootstrap_mean_ci([1.0, None, 3.0, float("nan")])
    assert ci.n == 2
    assert ci.mean == pytest.approx(2.0)
    assert ci.ci_low <= 2.0 <= ci.ci_high


def test_empty_and_single_value():
    empty = bootstrap_mean_ci([None, float("nan")])
    assert (empty.mean, empty.ci_low, empty.ci_high, empty.n) == (None, None, None, 0)
    single = bootstrap_mean_ci([0.7])
    assert (single.mean, single.ci_low, single.ci_high, single.n) == (0.7, 0.7, 0.7, 1)


def test_mean_ci_matches_the_normal_approximation_and_shrinks_with_n():
    # Values 0..9: mean 4.5, population variance (sum of (i-4.5)^2)/10 = 82.5/10 = 8.25, so the
    # bootstrap standard error of the mean is about sqrt(8.25/10) = 0.908 and a 95% interval
    # about 4.5 +/- 1.96*0.908 = [2.72, 6.28]. Four copies of the same values (n = 40) keep the
    # spread and divide the standard error by sqrt(4) = 2: about 4.5 +/- 0.89.
    small = bootstrap_mean_ci(list(range(10)))
    large = bootstrap_mean_ci(list(range(10)) * 4)
    assert small.mean == pytest.approx(4.5) and large.mean == pytest.approx(4.5)
    assert small.n == 10 and large.n == 40
    assert small.ci_low < 4.5 < small.ci_high
    assert small.ci_low == pytest.approx(2.72, abs=0.35)
    assert small.ci_high == pytest.approx(6.28, abs=0.35)
    assert large.ci_low == pytest.approx(4.5 - 0.89, abs=0.2)
    assert large.ci_high == pytest.approx(4.5 + 0.89, abs=0.2)
    small_width = small.ci_high - small.ci_low
    large_width = large.ci_high - large.ci_low
    assert large_width / small_width == pytest.approx(0.5, abs=0.12)
    assert small.method == "BCa"


def test_same_seed_same_interval_and_seed_is_a_parameter():
    values = [0.1, 0.4, 0.35, 0.8, 0.55, 0.2, 0.9, 0.05]
    assert bootstrap_mean_ci(values, seed=3) == bootstrap_mean_ci(values, seed=3)
    assert bootstrap_mean_ci(values) == bootstrap_mean_ci(values, seed=0)


def test_confidence_level_widens_the_interval():
    values = list(range(20))
    ci90 = bootstrap_mean_ci(values, confidence=0.90)
    ci99 = bootstrap_mean_ci(values, confidence=0.99)
    assert ci99.ci_low < ci90.ci_low and ci99.ci_high > ci90.ci_high
    assert ci90.confidence == 0.90


def test_mean_ci_json_round_trip_turns_nan_free_values_into_plain_json():
    ci = bootstrap_mean_ci([1.0, 2.0, 4.0])
    data = ci.to_json()
    assert set(data) == {"mean", "ci_low", "ci_high", "n", "confidence", "method"}
    assert all(isinstance(v, (int, float, str)) for v in data.values())
    assert MeanCI.from_json(data) == ci
    assert MeanCI(float("nan"), None, None, 0).to_json()["mean"] is None


# --- paired_comparison -------------------------------------------------------------------------


def test_constant_improvement_is_detected():
    # b = a + 0.1 on every pair: every resample's mean difference is 0.1, so the interval is
    # [0.1, 0.1] and no level of it reaches 0: the p-value is the bootstrap's floor, 1 / 2001.
    a = [0.05 * i for i in range(20)]
    b = [x + 0.1 for x in a]
    res = paired_comparison(a, b)
    assert res.n == 20
    assert res.mean_diff == pytest.approx(0.1, abs=1e-12)
    assert res.mean_b - res.mean_a == pytest.approx(0.1, abs=1e-12)
    assert res.ci_low == pytest.approx(0.1, abs=1e-12)
    assert res.ci_high == pytest.approx(0.1, abs=1e-12)
    assert res.method == "exact"
    assert res.p_value == pytest.approx(1 / 2001)


def test_no_difference_gives_p_one():
    # Differences alternate +1 / -1: mean difference exactly 0, the resamples spread evenly on
    # both sides of it, and only an interval of (almost) no width could leave 0 out.
    a = [1, 2, 3, 4, 5, 6]
    b = [2, 1, 4, 3, 6, 5]
    res = paired_comparison(a, b)
    assert res.mean_diff == pytest.approx(0.0)
    assert res.p_value > 0.9
    assert res.ci_low < 0.0 < res.ci_high


def test_noisy_zero_mean_difference_is_not_significant():
    # Differences drawn symmetric around zero: a random sign on a fixed magnitude.
    rng = np.random.default_rng(42)
    a = rng.uniform(0, 1, 60)
    diff = rng.choice([-1, 1], 60) * rng.uniform(0, 0.2, 60)
    diff -= diff.mean()  # make the observed mean difference exactly 0
    res = paired_comparison(list(a), list(a + diff))
    assert res.p_value > 0.5


def test_direction_is_b_minus_a_and_missing_pairs_are_dropped():
    a = [0.9, None, 0.8, 0.7, float("nan")]
    b = [0.5, 0.4, 0.6, None, 0.3]
    # Usable pairs: (0.9, 0.5) and (0.8, 0.6): differences -0.4 and -0.2, mean -0.3.
    res = paired_comparison(a, b)
    assert res.n == 2
    assert res.mean_diff == pytest.approx(-0.3)
    assert res.mean_a == pytest.approx(0.85) and res.mean_b == pytest.approx(0.55)


def test_paired_comparison_degenerate_sizes():
    empty = paired_comparison([None], [1.0])
    assert empty.n == 0 and empty.mean_diff is None and empty.p_value is None
    one = paired_comparison([0.2], [0.5])  # a difference, but no interval and no test
    assert one.n == 1 and one.mean_diff == pytest.approx(0.3)
    assert one.p_value is None and one.ci_low is None and one.ci_high is None
    with pytest.raises(ValueError, match="length"):
        paired_comparison([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="too few"):  # the p-value floor 1/11 would pass 0.05
        paired_comparison([0.1, 0.2, 0.3], [0.2, 0.3, 0.5], n_resamples=10)


def test_paired_comparison_json_round_trip():
    res = paired_comparison([0.1, 0.5, 0.3, 0.9], [0.2, 0.4, 0.6, 0.95])
    data = res.to_json()
    assert PairedComparison.from_json(data) == res
    assert data["n"] == 4


# --- correlation -------------------------------------------------------------------------------


def test_kendall_is_tau_b_on_a_tied_example():
    # x = (1, 2, 2, 3, 4), y = (2, 1, 3, 3, 5). The 10 pairs of positions:
    #   (1,2) x up, y down: discordant     (2,3) x tied (2,2): tie in x only
    #   (1,3) (1,4) (1,5) concordant       (2,4) (2,5) concordant
    #   (3,4) y tied (3,3): tie in y only  (3,5) (4,5) concordant
    # C = 7, D = 1, ties only in x = 1, ties only in y = 1.
    # tau-b = (C - D) / sqrt((C + D + Tx)(C + D + Ty)) = 6 / sqrt(9 * 9) = 2/3
    # (tau-a would be 6/10 = 0.6, so this pins the variant).
    res = correlation([1, 2, 2, 3, 4], [2, 1, 3, 3, 5], method="kendall")
    assert res.coef == pytest.approx(2 / 3)
    assert res.n == 5 and res.method == "kendall"
    assert 0.0 <= res.p_value <= 1.0


def test_spearman_on_a_monotone_example_is_one():
    # y = x^2 is strictly increasing in x on positive values: the ranks are identical.
    x = [1, 2, 3, 4, 5, 6, 7]
    res = correlation(x, [v * v for v in x], method="spearman")
    assert res.coef == pytest.approx(1.0)
    # Every resample is monotone too (or undefined when all points coincide).
    assert res.ci_low == pytest.approx(1.0) and res.ci_high == pytest.approx(1.0)


def test_correlation_sign_and_ci_on_anti_monotone_data():
    # Reversing one side turns every concordant pair into a discordant one: tau-b = -1.
    x = list(range(12))
    res = correlation(x, [-v for v in x])
    assert res.coef == pytest.approx(-1.0)


def test_correlation_ci_contains_the_coefficient():
    rng = np.random.default_rng(7)
    human = rng.integers(0, 5, 80).astype(float)
    metric = human + rng.normal(0, 1.5, 80)
    for method in ("kendall", "spearman"):
        res = correlation(list(metric), list(human), method=method)
        assert res.ci_low < res.coef < res.ci_high
        assert res.coef > 0
        assert res.n == 80


def test_correlation_drops_missing_pairs_and_handles_constant_input():
    res = correlation([1.0, None, 3.0, 4.0, float("nan")], [1.0, 2.0, 2.0, 5.0, 1.0])
    assert res.n == 3  # (1,1), (3,2), (4,5)
    assert res.coef == pytest.approx(1.0)  # all three pairs concordant
    flat = correlation([1.0, 2.0, 3.0], [2.0, 2.0, 2.0])
    assert flat.n == 3 and flat.coef is None and flat.ci_low is None
    with pytest.raises(ValueError, match="unknown correlation method"):
        correlation([1, 2], [1, 2], method="pearson")  # type: ignore[arg-type]


def test_correlation_is_deterministic_and_round_trips():
    x = [0.1, 0.5, 0.3, 0.9, 0.7, 0.2]
    y = [1, 3, 2, 5, 3, 1]
    first = correlation(x, y, seed=11)
    assert first == correlation(x, y, seed=11)
    assert Correlation.from_json(first.to_json()) == first
    assert not any(isinstance(v, float) and math.isnan(v) for v in first.to_json().values())


# --- flat memory: the chunked intervals against scipy's in-memory ones -------------------------


def _scipy_bca(x: np.ndarray, **kwargs) -> tuple[float, float]:
    import warnings

    from scipy import stats as sps

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.bootstrap((x,), np.mean, n_resamples=2000, method="BCa", **kwargs)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def test_flat_interval_equals_scipy_bca_on_5000_untied_scores():
    # Continuous scores (BLEU-like): the chunked bootstrap draws the same indices as scipy does
    # with the same seed and batch, and the closed-form acceleration equals scipy's jackknife,
    # so the two intervals agree to rounding.
    from radscope.engine.statistics import mean_bca

    x = np.random.default_rng(1).beta(2, 5, 5000)
    ci = bootstrap_mean_ci(x)
    low, high = _scipy_bca(x, rng=np.random.default_rng(0),
                           batch=max(1, mean_bca._CHUNK_VALUES // x.size))
    assert ci.method == "BCa" and ci.n == 5000
    assert ci.mean == pytest.approx(float(np.mean(x)), abs=1e-15)
    assert ci.ci_low == pytest.approx(low, abs=1e-12)
    assert ci.ci_high == pytest.approx(high, abs=1e-12)


def test_flat_interval_of_tied_scores_is_within_bootstrap_noise_of_scipy():
    # Rules-like scores with 14 distinct values are resampled as multinomial counts: other
    # draws, same distribution. The 95% endpoints' Monte Carlo error with 2000 resamples is
    # about 1.5 % of the interval's width, so 10 % of the width is a generous bound.
    x = np.round(np.random.default_rng(2).beta(2, 2, 5000) * 13) / 13
    ci = bootstrap_mean_ci(x)
    low, high = _scipy_bca(x, rng=np.random.default_rng(0))
    width = high - low
    assert ci.mean == pytest.approx(float(np.mean(x)), abs=1e-15)
    assert ci.ci_low == pytest.approx(low, abs=0.1 * width)
    assert ci.ci_high == pytest.approx(high, abs=0.1 * width)


def test_interval_memory_does_not_grow_with_the_square_of_n():
    # 100,000 scores: scipy's BCa jackknife alone would hold 100,000 x 99,999 floats (80 GB);
    # the chunked bootstrap holds one chunk of indices and values (2 x 32 MB) at a time.
    import tracemalloc

    x = np.random.default_rng(4).uniform(0, 1, 100_000)
    tracemalloc.start()
    try:
        ci = bootstrap_mean_ci(x)
        res = paired_comparison(x, x + 0.01 * np.sin(np.arange(x.size)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert ci.ci_low < ci.mean < ci.ci_high
    assert res.n == 100_000
    assert peak < 200 * 2 ** 20
