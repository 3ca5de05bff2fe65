"""One method per figure: a paired comparison's interval and p-value come from the same
bootstrap resamples, so the 95 % interval excludes 0 exactly when p < 0.05 (issue 38: CLEAR
B - A showed 95 % CI [0.0125, 0.3307] beside p = 0.1034 and "no significant difference")."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from radscope.engine.metrics.framework.statistics_by_metric import statistics_for
from radscope.engine.runs.compare import NO_DIFFERENCE, compare_systems
from radscope.engine.statistics import record_percentile as cs
from radscope.engine.statistics.inverted_p import inverted_p_value
from radscope.engine.statistics.mean_bca import paired_comparison

RECORDED = json.loads((Path(__file__).parents[2] / "fixtures" / "corpus_stats" / "recorded.json")
                      .read_text(encoding="utf-8"))


def _excludes_zero(low: float | None, high: float | None) -> bool:
    assert low is not None and high is not None
    return low > 0 or high < 0


# Paired samples of the shapes per-pair scores take: continuous (BLEU, RadSEM), on a grid with
# many exact ties and many zero differences (rules metrics: F1 of a handful of conditions),
# skewed counts (CREPE errors), tiny samples, constant and identical systems, missing scores.
def _continuous(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    a = rng.uniform(0, 1, n)
    return list(a), list(a + rng.normal(rng.uniform(-0.15, 0.15), rng.uniform(0.05, 0.4), n))


def _grid(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    a = np.round(rng.uniform(0, 1, n) * 4) / 4
    step = rng.choice([-0.25, 0.0, 0.25], n, p=rng.dirichlet([2, 3, 2]))
    return list(a), list(np.clip(a + step, 0, 1))


def _counts(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    lam = rng.uniform(0.2, 2.0)
    return (list(rng.poisson(lam, n).astype(float)),
            list(rng.poisson(lam * rng.uniform(0.6, 1.4), n).astype(float)))


def _with_gaps(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    a, b = _continuous(rng, n)
    for i in rng.choice(n, n // 5, replace=False):
        (a if i % 2 else b)[i] = None if i % 3 else float("nan")
    return a, b


def _identical(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    a = list(rng.uniform(0, 1, n))
    return a, list(a)


def _shifted(rng: np.random.Generator, n: int) -> tuple[list[Any], list[Any]]:
    a = rng.uniform(0, 1, n)
    return list(a), list(a + rng.choice([-0.1, 0.1]))


SHAPES: list[Callable[[np.random.Generator, int], tuple[list[Any], list[Any]]]] = [
    _continuous, _grid, _counts, _with_gaps, _identical, _shifted]


def test_interval_excludes_zero_exactly_when_p_is_below_alpha_on_600_random_samples():
    rng = np.random.default_rng(38)
    seen = {"excluded": 0, "included": 0, "BCa": 0, "exact": 0}
    for trial in range(600):
        shape = SHAPES[trial % len(SHAPES)]
        n = int(rng.choice([2, 3, 5, 8, 13, 30, 80, 200]))
        a, b = shape(rng, n)
        result = paired_comparison(a, b, seed=trial)
        if result.p_value is None:  # fewer than two usable pairs: neither interval nor test
            assert result.n < 2 and result.ci_low is None
            continue
        excluded = _excludes_zero(result.ci_low, result.ci_high)
        assert excluded == (result.p_value < 0.05), (trial, shape.__name__, n, result)
        seen["excluded" if excluded else "included"] += 1
        seen[result.method] = seen.get(result.method, 0) + 1
        # The p-value does not depend on the confidence shown; each interval agrees with it.
        for confidence in (0.9, 0.99):
            other = paired_comparison(a, b, seed=trial, confidence=confidence)
            assert other.p_value == result.p_value
            assert _excludes_zero(other.ci_low, other.ci_high) == (other.p_value < 1 - confidence)
    # The check covered both answers and both readings (BCa; "exact" for constant differences;
    # the percentile reading of undefined BCa is checked with the figures below).
    assert min(seen.values()) >= 20, seen


@pytest.mark.parametrize("seed", range(6))
def test_p_value_is_where_the_interval_reaches_zero(seed):
    """Independent of the closed form: bisect the confidence at which the interval (BCa where
    defined) starts to include 0; 1 minus it is the p-value."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(6, 60))
    a = rng.beta(2, 5, n)  # skewed, so BCa's bias correction and acceleration are not 0
    b = a + rng.normal(0.04, 0.15, n)
    result = paired_comparison(list(a), list(b))
    assert result.method == "BCa" and 0.002 < result.p_value < 0.99
    excluded_at, included_at = 0.0005, 0.9995  # confidences
    for _ in range(40):
        middle = (excluded_at + included_at) / 2
        at = paired_comparison(list(a), list(b), confidence=middle)
        if _excludes_zero(at.ci_low, at.ci_high):
            excluded_at = middle
        else:
            included_at = middle
    assert 1 - included_at == pytest.approx(result.p_value, abs=1e-9)


def test_inverted_p_value_by_hand():
    # Resamples -1, 1, 2, 3, 4: the interpolated quantile crosses 0 at position 0.5 of 4, the
    # level 0.125; the (1 - alpha) percentile interval's lower end is above 0 once alpha / 2
    # passes 0.125, so p = 0.25. Mirrored resamples give the same p; all on one side of 0 gives
    # the floor 1 / (B + 1); all exactly 0 gives 1.
    values = np.array([3.0, -1.0, 4.0, 1.0, 2.0])
    assert inverted_p_value(values, 1000) == pytest.approx(0.25)
    assert inverted_p_value(-values, 1000) == pytest.approx(0.25)
    assert inverted_p_value(np.array([0.5, 0.7, 0.9]), 1000) == pytest.approx(1 / 1001)
    assert inverted_p_value(np.zeros(4), 1000) == 1.0
    assert inverted_p_value(np.array([np.nan, np.nan]), 1000) is None
    assert inverted_p_value(np.array([np.nan, 2.0, -1.0, 4.0, 1.0, 3.0]), 1000) == \
        pytest.approx(0.25)  # undefined resamples left out, as the interval leaves them out


def _crepe_records(rng: np.random.Generator, n: int, lam: float) -> list[Any]:
    spec = statistics_for("crepe")
    counts = rng.poisson(lam, (n, 6)).astype(float)
    return [spec.record(tuple(row), float(row.sum())) for row in counts]


def _recorded_records(metric: str) -> tuple[cs.CorpusStatistics, list[Any], dict[str, str]]:
    from radscope.engine.metrics.framework.signature import parse_signature

    spec = statistics_for(metric)
    results = [r for r in RECORDED[metric]["results"]
               if r.get("error") is None and r.get("score") is not None]
    return (spec, [spec.from_result(r, pair=str(i)) for i, r in enumerate(results)],
            parse_signature(RECORDED[metric]["signature"]))


def test_every_figure_interval_agrees_with_its_p_value():
    """Ratio figures (CLEAR F1@13, SRR micro / macro F1, RadSEM class F1) and count means
    (CREPE), A and B drawn from recorded results paired at random."""
    rng = np.random.default_rng(7)
    checked = {"excluded": 0, "included": 0}
    for trial in range(24):
        if trial % 2:
            spec = statistics_for("crepe")
            n = int(rng.integers(5, 120))
            records_a = _crepe_records(rng, n, 1.0)
            records_b = _crepe_records(rng, n, float(rng.uniform(0.7, 1.5)))
            options: dict[str, str] = {}
        else:
            spec, records, options = _recorded_records(("clear", "srr", "radsem")[trial // 2 % 3])
            n = int(rng.integers(5, len(records)))
            records_a = [records[i] for i in rng.choice(len(records), n)]
            records_b = [records[i] for i in rng.choice(len(records), n)]
        compared = cs.paired_figures(spec, records_a, records_b, options, seed=trial)
        for name, c in compared.items():
            if c.p_value is None or c.ci_low is None:
                continue
            excluded = _excludes_zero(c.ci_low, c.ci_high)
            assert excluded == (c.p_value < 0.05), (trial, spec.metric, name, c)
            checked["excluded" if excluded else "included"] += 1
    assert min(checked.values()) >= 40, checked


def test_compare_verdicts_sit_beside_intervals_that_say_the_same():
    """What the Batch tab and ``compare`` show: a verdict of "better" exactly where the row's
    interval leaves out 0, on the mean and on every figure with a direction."""
    rng = np.random.default_rng(3)
    results = [r for r in RECORDED["clear"]["results"]
               if r.get("error") is None and r.get("score") is not None]
    signature = RECORDED["clear"]["signature"]
    answers = []
    for trial in range(6):
        n = int(rng.integers(8, len(results)))
        pick_a, pick_b = rng.choice(len(results), n), rng.choice(len(results), n)

        def rows(picks: np.ndarray) -> list[dict[str, Any]]:
            return [{"id": str(i), "metrics": {"clear": {**results[j], "signature": signature}}}
                    for i, j in enumerate(picks)]

        compared = compare_systems(rows(pick_a), rows(pick_b), ["clear"], seed=trial)["clear"]
        rows_shown = [(compared["paired"], compared["verdict"])] + [
            (f, f["verdict"]) for f in compared["figures"].values()
            if f["direction"] != "descriptive" and f["p_value"] is not None]
        for row, verdict in rows_shown:
            interval = (row["ci_low"], row["ci_high"])
            assert (verdict != NO_DIFFERENCE) == _excludes_zero(*interval), (row, verdict)
            answers.append(verdict != NO_DIFFERENCE)
    assert len(answers) > 50 and 5 <= sum(answers) <= len(answers) - 5
