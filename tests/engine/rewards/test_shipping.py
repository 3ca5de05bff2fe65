"""The rewards travel as Ray sends them: pickled with cloudpickle, loaded in a fresh process.

verl (``load_extern_object``) and OpenRLHF 0.9 (``spec_from_file_location("reward_func", ...)``)
load the reward file by path into a module that is not in ``sys.modules``, so cloudpickle (Ray's
pickler) sends its functions by value: code and globals. A module-level lock there made that fail
(``cannot pickle '_thread.lock' object``). Here each adapter is pickled so, unpickled and called
in a new interpreter that never loaded the file, and its rewards are compared with the Scorer's.
The same through a real local Ray is in ``tests/ray/test_ray_rewards.py``.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import cloudpickle
import pytest

from radscope.engine.rewards import file as reward_file
from radscope.engine.rewards import scorer as rewards
from radscope.engine.api import Scorer
from radscope.engine.rewards.scorer import RewardScorer, trl_async_reward, trl_reward

ROOT = Path(__file__).resolve().parents[3]
REFS = ["No acute cardiopulmonary process. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly."]
CANDS = ["Heart size is normal. No pleural effusion.",
         "Moderate right pleural effusion. Heart size is normal."]
PROMPT = "<|im_start|>user\nWrite the findings.<|im_end|>\n<|im_start|>assistant\n"

# The receiving side: a fresh interpreter reads a list of pickled calls from stdin, runs each
# (awaiting coroutines, as TRL does with async rewards) and prints the results as JSON.
RECEIVER = """
import asyncio, inspect, json, pickle, sys
calls = pickle.loads(sys.stdin.buffer.read())
assert not any(name.startswith(("custom_module", "reward_func")) for name in sys.modules), "file loaded"
out = []
for fn, args, kwargs in calls:
    result = fn(*args, **kwargs)
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    if isinstance(result, dict) and "rewards" in result:  # OpenRLHF's reply: tensors or lists
        result = {k: ([float(x) for x in v] if k != "extra_logs" else
                      {n: [float(x) for x in t] for n, t in v.items()}) for k, v in result.items()}
    out.append(result)
print(json.dumps(out))
"""


def load_by_path(name: str | None) -> Any:
    """verl's ``load_module(path)`` (no module name: ``custom_module_<hash>``, left out of
    ``sys.modules``) or OpenRLHF's (``"reward_func"``, also left out)."""
    spec_name = name or f"custom_module_{hash(os.path.abspath(reward_file.__file__))}"
    spec = importlib.util.spec_from_file_location(spec_name, reward_file.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sys.modules.get(spec_name) is not module  # so cloudpickle must send its functions by value
    return module


def run_elsewhere(calls: list[tuple[Any, tuple[Any, ...], dict[str, Any]]]) -> list[Any]:
    """Pickle ``calls`` as Ray does and run them in a new interpreter."""
    payload = cloudpickle.dumps(calls)
    done = subprocess.run([sys.executable, "-c", RECEIVER], input=payload, capture_output=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def expected() -> dict[str, list[float]]:
    with Scorer("radsem,bleu1") as scorer:
        scores = scorer.score(REFS, CANDS)
    return {m: scores.array(m).tolist() for m in ("radsem", "bleu1")}


def test_the_reward_file_travels_by_value_and_scores_elsewhere(expected):
    verl, openrlhf = load_by_path(None), load_by_path("reward_func")
    # verl wraps the function: partial(_call_with_kwargs, raw_fn, reward_kwargs) (get_custom_reward_fn)
    with_kwargs = functools.partial(lambda raw, extra, *a, **k: raw(*a, **{**k, **extra}),
                                    verl.compute_score, {"metrics": "radsem"})
    calls = [
        (with_kwargs, (), {"data_source": "iu", "solution_str": CANDS[0], "ground_truth": REFS[0],
                           "extra_info": {"num_turns": None, "rollout_reward_scores": {}}}),
        (verl.compute_score, (), {"data_sources": ["iu", "iu"], "solution_strs": CANDS,
                                  "ground_truths": REFS, "extra_infos": [{}, {}], "metrics": "radsem"}),
        (openrlhf.reward_func, ([PROMPT + CANDS[1] + "<|im_end|>"], [PROMPT], [REFS[1]]),
         {"metrics": "radsem"}),
    ]
    per_sample, batch, openrlhf_reply = run_elsewhere(calls)
    assert per_sample == {"score": pytest.approx(expected["radsem"][0]), "scored": 1.0}
    assert batch == pytest.approx(expected["radsem"])
    assert openrlhf_reply["rewards"] == pytest.approx(expected["radsem"][1:])
    assert openrlhf_reply["extra_logs"]["scored"] == [1.0]


def test_the_trl_rewards_travel_and_score_elsewhere(expected):
    sync, asynchronous = trl_reward("radsem"), trl_async_reward("bleu1")
    trl_call = {"prompts": ["Write the report."] * 2, "completions": CANDS,
                "completion_ids": [[1], [2]], "reference": REFS}
    got_sync, got_async = run_elsewhere([(sync, (), trl_call), (asynchronous, (), trl_call)])
    assert got_sync == pytest.approx(expected["radsem"])
    assert got_async == pytest.approx(expected["bleu1"])


def test_a_reward_scorer_sends_its_recipe_and_is_built_once_where_it_lands(monkeypatch):
    """What travels is the metrics, weights and options; the process it lands in builds its own,
    once (two unpickled copies are the same object)."""
    monkeypatch.setattr(rewards, "_shared", {})
    scorer = RewardScorer("radsem:0.7,bleu1:0.3", extractor="rules")
    first = cloudpickle.loads(cloudpickle.dumps(scorer))
    second = cloudpickle.loads(cloudpickle.dumps(scorer))
    assert first is second and first is not scorer
    assert first.weights == scorer.weights and first.scorer.context.options == {"extractor": "rules"}
    assert first.rewards(REFS, CANDS).rewards == scorer.rewards(REFS, CANDS).rewards


def test_a_reward_scorer_around_a_given_scorer_says_it_cannot_travel():
    with Scorer("bleu1") as scorer, pytest.raises(TypeError, match="cannot be sent to another process"):
        cloudpickle.dumps(RewardScorer("bleu1", scorer=scorer))
