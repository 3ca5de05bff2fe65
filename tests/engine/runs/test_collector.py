"""The collector: tuned in the processes RadScope owns, paused for a rules call in a host's
process, and as it was afterwards."""
from __future__ import annotations

import gc
import threading

import pytest

from radscope.engine.api import Scorer
from radscope.engine.runs.collector import (
    SCORING_THRESHOLD,
    paused_collector,
    scoring_collector,
    tune_for_scoring,
)


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


@pytest.fixture
def enabled():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_the_library_api_pauses_collection_during_a_rules_call_only(thresholds, enabled):
    gc.set_threshold(700, 10, 10)
    gc.enable()
    seen: list[bool] = []
    with Scorer(["radsem", "bleu"], extractor="rules") as scorer:
        for metric in scorer.metrics:
            inner = metric.score_pairs
            metric.score_pairs = lambda pairs, inner=inner: (seen.append(gc.isenabled()), inner(pairs))[1]
        scores = scorer.score(["No pleural effusion. Heart size is normal."],
                              ["Heart size is normal. No effusion."])
    assert scores.records[0]["metrics"]["radsem"]["error"] is None
    assert seen == [False, False]
    assert gc.isenabled()
    assert gc.get_threshold() == (700, 10, 10)


def test_a_pause_nests_across_threads_and_keeps_an_off_collector_off(enabled):
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def other_call() -> None:
        with paused_collector():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=other_call)
    with paused_collector():
        thread.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other thread's call is still running
    release.set()
    thread.join(10)
    assert gc.isenabled()
    gc.disable()
    with paused_collector():
        pass
    assert not gc.isenabled()
