"""The reward adapters refuse what is not one text per sample, with an error naming it.

Each case here was coerced before: a string read as its characters (12 rewards for one
``compute_score(solution_strs="No effusion.", ...)``), ``None`` scored as the text "None", NaN
accepted as the reward of an unscored sample (NaN poisons the group mean and every advantage),
``workers`` of 0 or -3 and ``max_chars=-1`` taken as given.
"""
from __future__ import annotations

import pytest

from radscope.engine.rewards import file as reward_file
from radscope.engine.api import Scorer
from radscope.engine.rewards.server import main as serve_reward
from radscope.engine.rewards.scorer import (
    OpenRLHFBatch,
    RewardBatch,
    RewardScorer,
    trl_async_reward,
    trl_reward,
)

REF, CAND = "No pleural effusion.", "Small pleural effusion."
PROMPT = "Write the findings: "


@pytest.fixture(scope="module")
def bleu() -> RewardScorer:
    return RewardScorer("bleu1")


def trl_call(completions, reference):
    return {"prompts": ["p"] * 2, "completions": completions, "completion_ids": [[1], [2]],
            "reference": reference}


def test_verl_batch_refuses_one_string_instead_of_a_list():
    with pytest.raises(TypeError, match=r"solution_strs must be a list .* not one str .*characters"):
        reward_file.compute_score(solution_strs="No effusion.", ground_truths="No effusion.", metrics="bleu1")
    with pytest.raises(TypeError, match="ground_truths must be a list"):
        reward_file.compute_score(solution_strs=["No effusion."], ground_truths="No effusion.", metrics="bleu1")
    with pytest.raises(TypeError, match=r"solution_strs must be a list .* not NoneType"):
        reward_file.compute_score(ground_truths=[REF], metrics="bleu1")  # half of the batch call


def test_verl_refuses_none_as_a_ground_truth():
    with pytest.raises(TypeError, match=r"ground_truths\[1\] is NoneType, not a string"):
        reward_file.compute_score(solution_strs=[CAND, CAND], ground_truths=[REF, None], metrics="bleu1")
    with pytest.raises(ValueError, match="needs solution_str and ground_truth"):
        reward_file.compute_score("src", CAND, None, metrics="bleu1")
    with pytest.raises(TypeError, match="ground_truth is int, not a string"):
        reward_file.compute_score("src", CAND, 3, metrics="bleu1")


def test_verl_batch_refuses_lists_of_different_lengths():
    with pytest.raises(ValueError, match="2 solution_strs and 1 ground_truths: one of each per sample"):
        reward_file.compute_score(solution_strs=[CAND, CAND], ground_truths=[REF], metrics="bleu1")


def test_openrlhf_refuses_strings_none_and_different_lengths():
    query = PROMPT + CAND
    with pytest.raises(TypeError, match=r"queries must be a list .* not one str"):
        reward_file.reward_func(query, PROMPT, REF, metrics="bleu1")
    with pytest.raises(TypeError, match=r"labels\[0\] is NoneType"):  # --data.label_key not set
        reward_file.reward_func([query], [PROMPT], [None], metrics="bleu1")
    with pytest.raises(ValueError, match="2 queries, 1 prompts and 1 labels"):
        OpenRLHFBatch.of([query, query], [PROMPT], [REF])


def test_trl_refuses_a_reference_column_given_as_a_string(bleu):
    reward = trl_reward("bleu1", scorer=bleu)
    with pytest.raises(TypeError, match=r"the column 'reference' must be a list .* not one str"):
        reward(**trl_call([CAND, CAND], "No effusion."))
    with pytest.raises(TypeError, match=r"reference\[1\] must be a string or a list of chat messages, not NoneType"):
        reward(**trl_call([CAND, CAND], [REF, None]))
    with pytest.raises(TypeError, match=r"completions must be a list .* not one str"):
        reward(**trl_call("No effusion.", [REF, REF]))
    with pytest.raises(ValueError, match="1 references in 'reference' for 2 completions"):
        reward(**trl_call([CAND, CAND], [REF]))


def test_the_reward_scorer_refuses_strings_none_and_different_lengths(bleu):
    with pytest.raises(TypeError, match=r"references must be a list .* not one str"):
        bleu.rewards("No effusion.", "No effusion.")
    with pytest.raises(TypeError, match=r"candidates\[0\] is NoneType, not a string"):
        bleu.rewards([REF], [None])
    with pytest.raises(ValueError, match="1 references and 2 candidates"):
        bleu.rewards([REF], [CAND, CAND])


@pytest.mark.parametrize("bad", [float("nan"), "nan", float("inf"), "-inf", "zero", True])
def test_nan_and_other_non_numbers_are_refused_as_the_not_scored_value(bad, bleu):
    with pytest.raises(ValueError, match="not_scored must be a"):
        reward_file.compute_score("src", CAND, REF, metrics="bleu1", not_scored=bad)
    with pytest.raises(ValueError, match="not_scored must be a"):
        reward_file.reward_func([PROMPT + CAND], [PROMPT], [REF], metrics="bleu1", not_scored=bad)
    with pytest.raises(ValueError, match="not_scored must be a"):
        trl_reward("bleu1", scorer=bleu, not_scored=bad)
    with pytest.raises(ValueError, match="not_scored must be a"):
        trl_async_reward("bleu1", scorer=bleu, not_scored=bad)
    with pytest.raises(ValueError, match="not_scored must be a"):  # what the server's endpoint calls
        OpenRLHFBatch.of([], [], []).reply(RewardBatch([], [], [], {}), bad)


@pytest.mark.parametrize("bad", ["nan", "NaN", "inf", "", "zero"])
def test_nan_is_refused_from_the_environment_too(bad, monkeypatch):
    monkeypatch.setenv("RADSCOPE_REWARD_NOT_SCORED", bad)
    with pytest.raises(ValueError, match="RADSCOPE_REWARD_NOT_SCORED must be a"):
        reward_file.compute_score("src", CAND, REF, metrics="bleu1")
    with pytest.raises(ValueError, match="RADSCOPE_REWARD_NOT_SCORED must be a"):
        reward_file.reward_func([PROMPT + CAND], [PROMPT], [REF], metrics="bleu1")


def test_a_finite_not_scored_value_is_used(monkeypatch):
    monkeypatch.setenv("RADSCOPE_REWARD_NOT_SCORED", "-1")
    unscored = reward_file.compute_score("src", CAND, "MRI brain: no acute infarct.", metrics="clear")
    assert unscored == {"score": -1.0, "scored": 0.0}  # CLEAR does not apply to a brain MRI


@pytest.mark.parametrize("workers", [0, -3, 1.5, True])
def test_workers_below_one_are_refused(workers):
    with pytest.raises(ValueError, match="workers must be a whole number of at least 1"):
        RewardScorer("bleu1", workers=workers)
    with pytest.raises(ValueError, match="workers must be a whole number of at least 1"):
        Scorer("bleu1", workers=workers)


@pytest.mark.parametrize("max_chars", [-1, 0])
def test_max_chars_below_one_is_refused(max_chars):
    with pytest.raises(ValueError, match="max_chars must be a whole number of at least 1"):
        Scorer("bleu1", max_chars=max_chars)
    with pytest.raises(ValueError, match="max_chars must be a whole number of at least 1"):
        RewardScorer("bleu1", max_chars=max_chars)


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_serve_reward_refuses_workers_below_one_in_one_line(workers, capsys):
    with pytest.raises(SystemExit) as stopped:
        serve_reward(["--metrics", "bleu1", "--workers", workers])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--workers" in err and "is not a whole number of at least 1" in err and "\n" not in err
