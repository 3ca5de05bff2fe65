"""RadScope's reward file run by verl's own code, configured with the overrides docs/researchers.md
gives (composed by Hydra from verl's config folder, as ``python -m verl.trainer.main_ppo`` does).

- The reward loop (verl's default): ``RewardLoopWorker`` as an actor on a local Ray loads the file
  by path and scores one sample at a time, with the ``naive`` manager (a thread per call) and the
  ``remote`` manager (``RewardComputeWorker`` actors, to which Ray sends ``compute_score`` pickled
  by value).
- The batch manager: reached only with ``reward_model.use_reward_loop=False`` in verl releases
  that still have that switch; the reward loop knows no ``batch`` (``Unknown reward manager``).

Every reward verl returns equals the Scorer's on the text verl decoded. Two generations of verl's
configuration are handled: 0.9 (``reward.*`` keys, the reward loop only) and the earlier one
(top-level ``custom_reward_function``, ``reward_model.*``; main at b178a3c)."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import ray
import torch
import verl
import verl.trainer.ppo.reward as verl_reward
from hydra import compose, initialize_config_dir
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import WhitespaceSplit
from transformers import PreTrainedTokenizerFast
from verl import DataProto
from verl.experimental.reward_loop import RewardLoopWorker

from radscope.engine.rewards import file as reward_file
from radscope.engine.rewards.scorer import RewardScorer

CONFIG_DIR = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
REWARD_KEYS = hasattr(verl_reward, "resolve_reward_manager_cls")  # verl 0.9: everything under reward.*
METRICS = "radsem:0.7,bleu1:0.3"
PROMPT = "Write the findings of this chest radiograph:"
REFS = ["No acute cardiopulmonary process. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly.",
        "Right upper lobe pneumonia."]
CANDS = ["Heart size is normal. No pleural effusion.",
         "Moderate right pleural effusion. Heart size is normal.",
         "Right upper lobe pneumonia."]


def overrides(manager: str, tokenizer_dir: Path) -> list[str]:
    """The command-line overrides of docs/researchers.md for this verl, as Hydra reads them."""
    path = reward_file.__file__
    if REWARD_KEYS:
        return [f"reward.custom_reward_function.path={path}", "reward.custom_reward_function.name=compute_score",
                f'+reward.custom_reward_function.reward_kwargs.metrics="{METRICS}"',
                f"reward.reward_manager.name={manager}", "reward.num_workers=1",
                f"actor_rollout_ref.model.path={tokenizer_dir}"]
    return [f"custom_reward_function.path={path}", "custom_reward_function.name=compute_score",
            f'+custom_reward_function.reward_kwargs.metrics="{METRICS}"',
            f"reward_model.reward_manager={manager}", "reward_model.num_workers=1",
            f"reward_model.use_reward_loop={manager != 'batch'}",
            f"actor_rollout_ref.model.path={tokenizer_dir}"]


def verl_config(manager: str, tokenizer_dir: Path):
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base=None):
        return compose("ppo_trainer", overrides=overrides(manager, tokenizer_dir))


@pytest.fixture(scope="module")
def tokenizer_dir(tmp_path_factory) -> Path:
    """A word-level tokenizer of the test's words, saved where verl's hf_tokenizer loads it."""
    words = sorted({w for text in (PROMPT, *CANDS) for w in text.split()})
    vocab = {t: i for i, t in enumerate(["<pad>", "<eos>", "<unk>", *words])}
    tok = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = WhitespaceSplit()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")
    folder = tmp_path_factory.mktemp("tokenizer")
    fast.save_pretrained(folder)
    return folder


def rollouts(tokenizer_dir: Path) -> DataProto:
    """What verl's rollout hands the reward: prompts left-padded, responses (ending in EOS)
    right-padded, the mask over both, and each sample's ground truth."""
    tok = PreTrainedTokenizerFast.from_pretrained(tokenizer_dir)
    prompt = tok(PROMPT)["input_ids"]
    answers = [tok(c)["input_ids"] + [tok.eos_token_id] for c in CANDS]
    width = max(map(len, answers))
    responses = torch.tensor([a + [tok.pad_token_id] * (width - len(a)) for a in answers])
    prompts = torch.tensor([prompt] * len(CANDS))
    mask = torch.tensor([[1] * len(prompt) + [1] * len(a) + [0] * (width - len(a)) for a in answers])
    return DataProto.from_dict(
        tensors={"prompts": prompts, "responses": responses, "attention_mask": mask,
                 "input_ids": torch.cat([prompts, responses], dim=1)},
        non_tensors={"data_source": np.array(["radscope"] * len(CANDS), dtype=object),
                     "reward_model": np.array([{"ground_truth": r} for r in REFS], dtype=object),
                     "extra_info": np.array([{"index": i} for i in range(len(CANDS))], dtype=object)})


@pytest.fixture(scope="module")
def expected() -> list[float]:
    """The reward of each pair in process, on the text verl decodes (the candidate itself)."""
    rewards = RewardScorer(METRICS).rewards(REFS, CANDS).rewards
    assert all(r is not None for r in rewards) and len(set(rewards)) == len(rewards)
    return [float(r) for r in rewards if r is not None]


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("manager", ["naive", "remote"])
def test_the_reward_loop_scores_as_the_scorer(manager, local_ray, tokenizer_dir, expected):
    config = verl_config(manager, tokenizer_dir)
    worker_cls = RewardLoopWorker if hasattr(RewardLoopWorker, "remote") else ray.remote(RewardLoopWorker)
    worker = worker_cls.remote(config)
    outputs = ray.get(worker.compute_score_batch.remote(rollouts(tokenizer_dir)), timeout=600)
    assert [o["reward_score"] for o in outputs] == pytest.approx(expected, abs=1e-9)
    assert [o["reward_extra_info"]["scored"] for o in outputs] == [1.0, 1.0, 1.0]
    ray.kill(worker)


def test_the_reward_loop_has_no_batch_manager(tokenizer_dir):
    config = verl_config("batch", tokenizer_dir)
    if REWARD_KEYS:  # verl 0.9: the reward loop is the only path
        with pytest.raises(ValueError, match="Unknown reward manager: batch"):
            verl_reward.resolve_reward_manager_cls(config)
    else:
        from verl.experimental.reward_loop.reward_manager import get_reward_manager_cls

        with pytest.raises(ValueError, match="Unknown reward manager: batch"):
            get_reward_manager_cls(config.reward_model.reward_manager)


@pytest.mark.skipif(REWARD_KEYS, reason="verl 0.9 has no use_reward_loop switch: its batch manager is unreachable")
def test_the_batch_manager_with_the_reward_loop_off(tokenizer_dir, expected):
    config = verl_config("batch", tokenizer_dir)
    assert config.reward_manager.name == "batch" and config.reward_model.use_reward_loop is False
    tokenizer = PreTrainedTokenizerFast.from_pretrained(tokenizer_dir)
    manager = verl_reward.load_reward_manager(config, tokenizer, num_examine=0,
                                              **config.reward_model.get("reward_kwargs", {}))
    assert type(manager).__name__ == "BatchRewardManager"
    data = rollouts(tokenizer_dir)
    out = manager(data, return_dict=True)
    prompt_len = data.batch["prompts"].shape[-1]
    last = data.batch["attention_mask"][:, prompt_len:].sum(dim=-1) - 1
    got = out["reward_tensor"][torch.arange(len(CANDS)), last].tolist()
    assert got == pytest.approx(expected, abs=1e-6)  # float32 in verl's tensor
    assert float(out["reward_tensor"].sum()) == pytest.approx(sum(expected), abs=1e-5)  # nowhere else
