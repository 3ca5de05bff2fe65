"""The rewards shipped by a real local Ray, as the trainers ship them.

- verl: ``compute_score`` from the file loaded by path (``load_module``: not in ``sys.modules``),
  wrapped as ``get_custom_reward_fn`` wraps it, sent to an actor as the reward loop's ``remote``
  manager sends it to ``RewardComputeWorker``.
- OpenRLHF 0.9 (``openrlhf/utils/remote_rm_utils.py`` at 591b148, the last commit with it):
  ``RemoteRewardModel`` loads the file as module ``reward_func``, wraps ``ray.remote(reward_func)``
  and calls it on chunks of ``micro_rollout_batch_size`` samples; reproduced line for line below
  (OpenRLHF itself needs CUDA-era dependencies this environment does not have).
- ``ray.remote`` of the TRL rewards, and a ``RewardScorer`` passed to a task as an argument.

Every reward that comes back equals the one computed here, in the driver.
"""
from __future__ import annotations

import functools
import importlib.util
import os

import pytest

from radscope.engine.rewards import file as reward_file
from radscope.engine.rewards.scorer import RewardScorer, trl_async_reward, trl_reward

REFS = ["No acute cardiopulmonary process. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly.",
        "Right upper lobe pneumonia.",
        "Moderate right pneumothorax."]
CANDS = ["Heart size is normal. No pleural effusion.",
         "Moderate right pleural effusion. Heart size is normal.",
         "Left upper lobe pneumonia.",
         "Moderate right pneumothorax."]
PROMPT = "<|im_start|>user\nWrite the findings.<|im_end|>\n<|im_start|>assistant\n"


def by_path(name: str):
    spec = importlib.util.spec_from_file_location(name, reward_file.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def expected() -> list[float]:
    rewards = RewardScorer("radsem").rewards(REFS, CANDS).rewards
    assert None not in rewards and len(set(rewards)) > 1
    return [float(r) for r in rewards if r is not None]


def test_verl_remote_manager_ships_compute_score(local_ray, expected):
    raw = by_path(f"custom_module_{hash(os.path.abspath(reward_file.__file__))}").compute_score

    def _call_with_kwargs(raw_fn, extra_kwargs, *args, **kwargs):  # verl.trainer.ppo.reward
        return raw_fn(*args, **{**kwargs, **extra_kwargs})

    @local_ray.remote(num_cpus=1)
    class RewardComputeWorker:  # verl.experimental.reward_loop.reward_manager.remote
        def __init__(self, compute_score_fn):
            self.compute_score_fn = compute_score_fn

        def compute_score(self, **kwargs) -> dict:
            return self.compute_score_fn(**kwargs)

    worker = RewardComputeWorker.remote(functools.partial(_call_with_kwargs, raw, {"metrics": "radsem"}))
    results = local_ray.get([worker.compute_score.remote(data_source="iu", solution_str=c, ground_truth=r,
                                                         extra_info={"num_turns": None})
                             for r, c in zip(REFS, CANDS, strict=True)])
    assert [r["score"] for r in results] == pytest.approx(expected)
    assert [r["scored"] for r in results] == [1.0] * len(REFS)


def test_openrlhf_09_remote_reward_model_ships_reward_func(local_ray, expected):
    # RemoteRewardModel.__init__ and get_rewards (micro_rollout_batch_size=3), line for line
    reward_module = by_path("reward_func")
    custom_reward_func = local_ray.remote(reward_module.reward_func)
    queries = [PROMPT + c + "<|im_end|>" for c in CANDS]
    prompts, labels, batch_size = [PROMPT] * len(CANDS), list(REFS), 3
    num_chunks = (len(queries) + batch_size - 1) // batch_size
    r_refs = []
    for i in range(num_chunks):
        start_idx, end_idx = i * batch_size, min((i + 1) * batch_size, len(queries))
        r_refs.append(custom_reward_func.remote(queries[start_idx:end_idx], prompts[start_idx:end_idx],
                                                labels[start_idx:end_idx]))
    replies = local_ray.get(r_refs)
    assert [float(x) for reply in replies for x in reply["rewards"]] == pytest.approx(expected)


def test_trl_rewards_and_a_reward_scorer_as_ray_tasks(local_ray, expected):
    columns = {"prompts": ["p"] * len(CANDS), "completions": CANDS, "completion_ids": [[1]] * len(CANDS),
               "reference": REFS}
    sync_task = local_ray.remote(trl_reward("radsem"))
    assert local_ray.get(sync_task.remote(**columns)) == pytest.approx(expected)

    @local_ray.remote
    def awaited(reward, kwargs):
        import asyncio

        return asyncio.run(reward(**kwargs))

    assert local_ray.get(awaited.remote(trl_async_reward("radsem"), columns)) == pytest.approx(expected)

    @local_ray.remote
    def rewards_of(scorer, refs, cands):
        return scorer.rewards(refs, cands).rewards

    assert local_ray.get(rewards_of.remote(RewardScorer("radsem"), REFS, CANDS)) == pytest.approx(expected)
