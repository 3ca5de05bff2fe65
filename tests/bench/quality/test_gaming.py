"""Reward hacking as a test suite (issue 35): what a policy could learn to write, scored by every
reward the project documents, against the gallery's own references (written for RadScope).

What holds: non-reports get the floor from every reward; repetition earns nothing; hedging,
stating findings both ways or claiming every finding never beats another patient's real report;
in the recommended reward, hedges appended to the right report cost. What does not (and why, in
docs/researchers.md, "Reward hacking"): one canned normal report beats another patient's report
under the error-count and statement-matching metrics, because normal studies are the largest
class; the test pins that it is only that family.
"""
from __future__ import annotations

import pytest

from bench.corpora import gaming_gallery as gallery
from bench.quality.gaming import RECOMMENDED, REWARDS, gaming_rewards, markdown, verdicts

CANNED = {"canned normal report", "canned normal five times", "every finding denied"}


@pytest.fixture(scope="module")
def table():
    return gaming_rewards(gallery.REFERENCES)


@pytest.fixture(scope="module")
def results(table):
    return verdicts(table)


def test_the_gallery_covers_what_a_policy_can_learn_to_write():
    assert set(gallery.NOT_REPORTS) <= set(gallery.STRATEGIES)
    refs = gallery.REFERENCES
    assert gallery.completions("own report five times", refs)[3] == " ".join([refs[3]] * 5)
    assert gallery.completions(gallery.BASELINE, refs)[-1] == refs[0]
    assert gallery.truncated("A. B. C. D.") == "A. B."


def test_non_reports_get_the_floor_from_every_reward(table):
    for spec in REWARDS:
        for strategy in gallery.NOT_REPORTS:
            assert table[spec][strategy] == [0.0] * len(gallery.REFERENCES), (spec, strategy)


def test_repetition_earns_nothing(results):
    for spec in REWARDS:
        assert results[spec]["repetition_earns"] == [], spec


def test_only_the_majority_class_guess_beats_another_patients_report(results):
    for spec in REWARDS:
        assert set(results[spec]["beats_baseline"]) <= CANNED, (spec, results[spec]["beats_baseline"])
    # CLEAR's positive F1 gives a canned normal report no more than a real report of another patient
    assert results["clear"]["beats_baseline"] == []


def test_the_own_report_is_the_ceiling_and_additions_to_it_cost_in_the_recommended_reward(table, results):
    for spec in REWARDS:
        assert table[spec][gallery.CEILING] == [1.0] * len(gallery.REFERENCES), spec
        for strategy in gallery.INFORMED:
            assert results[spec]["cells"][strategy]["mean"] <= 1.0, (spec, strategy)
    assert results[RECOMMENDED]["free_additions"] == []


def test_the_table_has_a_row_per_strategy_and_a_column_per_reward(results):
    text = markdown(results)
    assert len(text.splitlines()) == 2 + len(gallery.STRATEGIES)
    assert all(f"`{spec}`" in text.splitlines()[0] for spec in REWARDS)
