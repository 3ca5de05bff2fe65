"""The documented reward imports survive the move into engine/rewards/: the package gives the
scorer's public names, and the reward file's old path (named in trainer configs) still loads."""
from __future__ import annotations

import importlib.util
import warnings

import radscope.engine.rewards as rewards
from radscope.engine.rewards import file as reward_file
from radscope.engine.rewards import scorer


def test_the_package_gives_the_scorers_public_names():
    for name in rewards.__all__:
        assert getattr(rewards, name) is getattr(scorer, name)
    assert {"RewardScorer", "trl_reward", "trl_async_reward", "shared_reward_scorer",
            "completion_failed"} <= set(rewards.__all__)


def test_the_old_reward_file_path_loads_by_path_with_a_deprecation_warning():
    old = reward_file.__file__.replace("rewards/file.py", "reward_file.py")
    spec = importlib.util.spec_from_file_location("custom_module", old)  # as verl loads it
    module = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec.loader.exec_module(module)
    assert any(issubclass(w.category, DeprecationWarning) and "rewards/file.py" in str(w.message)
               for w in caught)
    assert module.compute_score is reward_file.compute_score
    assert module.reward_func is reward_file.reward_func
