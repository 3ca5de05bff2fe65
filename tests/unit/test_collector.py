"""The collector is tuned only in the processes RadScope owns, and left as it was afterwards."""
from __future__ import annotations

import gc

import pytest

from radscope.engine.api import Scorer
from radscope.engine.runs.collector import SCORING_THRESHOLD, scoring_collector, tune_for_scoring


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_scoring_collector_raises_the_first_threshold_and_restores_all(thresholds):
    gc.set_threshold(700, 11, 12)
    with scoring_collector():
        assert gc.get_threshold() == (SCORING_THRESHOLD, 11, 12)
    assert gc.get_threshold() == (700, 11, 12)


def test_a_higher_threshold_or_an_off_collector_is_kept(thresholds):
    gc.set_threshold(SCORING_THRESHOLD * 2, 10, 10)
    tune_for_scoring()
    assert gc.get_threshold() == (SCORING_THRESHOLD * 2, 10, 10)
    gc.set_threshold(0, 10, 10)
    tune_for_scoring()
    assert gc.get_threshold() == (0, 10, 10)


def test_the_library_api_leaves_its_hosts_collector_alone(thresholds):
    gc.set_threshold(700, 10, 10)
    with Scorer(["radsem", "bleu"], extractor="rules") as scorer:
        scores = scorer.score(["No pleural effusion. Heart size is normal."],
                              ["Heart size is normal. No effusion."])
    assert scores.records[0]["metrics"]["radsem"]["error"] is None
    assert gc.get_threshold() == (700, 10, 10)
