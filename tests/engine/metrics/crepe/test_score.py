"""CREPE's pure aggregation: clipping, optional softplus, totals, batches and corpus means."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from radscope.engine.metrics.crepe.score import (
    CATEGORY_KEYS,
    CrepeCounts,
    aggregate,
    aggregate_batch,
    clip_counts,
    softplus,
)
from radscope.engine.reader.error_words import REXVAL_NAMES
from tests.reference.crepe import CrepeSummary, summarize


def test_categories_are_the_six_rexval_ones():
    assert CATEGORY_KEYS == ("A", "B", "C", "D", "E", "F")
    assert REXVAL_NAMES[CATEGORY_KEYS[0]] == "Finding stated that the reference does not contain"
    assert REXVAL_NAMES[CATEGORY_KEYS[5]] == "Change since a prior study that is left unsaid"


def test_negative_outputs_are_clipped_and_summed():
    result = aggregate([1.5, -0.3, 0.0, 0.25, -2.0, 0.75])
    # clipped: 1.5, 0, 0, 0.25, 0, 0.75 -> total 2.5
    assert result.counts == {"A": 1.5, "B": 0.0, "C": 0.0, "D": 0.25, "E": 0.0, "F": 0.75}
    assert result.total == pytest.approx(2.5)


def test_softplus_only_when_asked():
    raw = [0.0, -1.0, 2.0, -50.0, 800.0, 1.0]
    result = aggregate(raw, softplus=True)
    # softplus(x) = ln(1 + e^x): 0 -> ln 2, -1 -> ln(1 + 1/e), 2 -> ln(1 + e^2),
    # -50 -> about 1.9e-22, 800 -> 800 (no overflow), 1 -> ln(1 + e).
    expected = [math.log(2), math.log(1 + math.exp(-1)), math.log(1 + math.exp(2)),
                math.exp(-50), 800.0, math.log(1 + math.e)]
    assert result.as_array() == pytest.approx(expected, rel=1e-12)
    assert result.total == pytest.approx(sum(expected))
    # without softplus the same row is only clipped: 0 + 0 + 2 + 0 + 800 + 1
    assert aggregate(raw).total == pytest.approx(803.0)
    assert softplus(0.0) == pytest.approx(math.log(2))


def test_batch_is_vectorised_and_matches_rows():
    raw = np.array([[1.0, -1.0, 0.5, 0.0, 0.0, 0.0],
                    [-0.2, 2.0, 0.0, 0.0, 1.0, -3.0]], dtype=np.float32)
    batch = aggregate(raw)
    assert isinstance(batch, list) and len(batch) == 2
    assert [r.total for r in batch] == pytest.approx([1.5, 3.0])  # 1 + 0.5; 2 + 1
    assert batch == [aggregate(row) for row in raw]
    assert aggregate_batch(raw[0]) == [aggregate(raw[0])]
    assert clip_counts(raw).shape == (2, 6)
    assert clip_counts(raw).min() == 0.0


@pytest.mark.parametrize("bad", [[1.0] * 5, [[1.0] * 7], 3.0])
def test_wrong_shape_is_an_error(bad):
    with pytest.raises(ValueError, match="6 outputs"):
        aggregate(bad)


def test_non_finite_outputs_are_an_error():
    with pytest.raises(ValueError, match="NaN"):
        aggregate([float("nan"), 0, 0, 0, 0, 0])


def test_counts_round_trip():
    result = aggregate([0.1, 0.2, 0.3, 0.4, 0.5, -0.6])
    assert CrepeCounts.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_corpus_summary_means():
    results = aggregate_batch([[1, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 1], [2, -1, 0, 0, 0, 2]])
    summary = summarize(results)
    # clipped rows: (1,0,0,0,0,0) (0,2,0,0,0,1) (2,0,0,0,0,2); totals 1, 3, 4
    assert summary.n_pairs == 3
    assert summary.mean_counts == pytest.approx(
        {"A": 1.0, "B": 2 / 3, "C": 0.0, "D": 0.0, "E": 0.0, "F": 1.0})
    assert summary.mean_total == pytest.approx(8 / 3)
    assert CrepeSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary


def test_empty_corpus_summary():
    summary = summarize([])
    assert summary == CrepeSummary(n_pairs=0, mean_counts=None, mean_total=None)
    assert CrepeSummary.from_json(summary.to_json()) == summary
