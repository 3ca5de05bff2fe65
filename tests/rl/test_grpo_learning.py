"""A real GRPOTrainer run that learns from RadScope's reward: a tiny random-weight model chooses,
for each reference, one of a fixed set of candidate reports, and after training it chooses the
clinically right one.

The candidates are those of ``tests/engine/rewards/test_learning.py``: for each reference, the right
report, seven siblings with one planted error each, all in another layout than the reference, and
the canned normal report. The model's completion is one token, ``C0`` ... ``C8``, naming a candidate; the reward function
turns it into that candidate's text and hands it to ``trl_reward`` (any other token is scored as
the text it is, which no reader can read: the floor). The right candidate sits at a different
slot for each reference (the siblings in a seeded random order around it), so the model must
learn which slot each prompt wants, not one slot for all.

Sixty steps (seconds on 2 cores) raise every prompt's probability of its right slot and
the mean from about 0.05 to about 0.8 (0.77 on 2026-11-28). A learning rate twice as high made
the policy settle on a sibling for most prompts instead (measured with 8 candidates): the impression-only errors earn 0.85 against the right report's
1.0 with radsem:0.7,crepe:0.3, and once a group's samples all agree GRPO has no signal left.
"""
import random

import pytest
import torch
from datasets import Dataset
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import WhitespaceSplit
from transformers import PreTrainedTokenizerFast
from trl import GRPOConfig, GRPOTrainer

from radscope.engine.rewards.scorer import trl_reward
from tests.rl.conftest import tiny_llama
from tests.engine.rewards.test_learning import REWARDS, groups

REWARD = REWARDS[0]  # radsem:0.7,crepe:0.3, the documented example

N_CASES = 6
SLOTS = [f"C{i}" for i in range(9)]


def fixed_sets() -> list[dict]:
    """One group per case (the first layout pair), its candidates in a seeded random order."""
    rng = random.Random(0)
    chosen, seen_cases = [], set()
    for group in groups():
        if group.case in seen_cases or group.case == "fracture":  # left out as when it was a blind spot
            continue
        seen_cases.add(group.case)
        siblings = list(group.siblings.values())
        rng.shuffle(siblings)
        right = (3 * len(chosen)) % len(SLOTS)  # a different slot for each prompt
        candidates = [*siblings[:right], group.right, *siblings[right:]]
        chosen.append({"prompt": f"case{len(chosen)}", "reference": group.reference,
                       "candidates": candidates, "right": right})
        if len(chosen) == N_CASES:
            break
    return chosen


def slot_tokenizer() -> PreTrainedTokenizerFast:
    words = ["<pad>", "<eos>", "<unk>", *SLOTS, *(f"case{i}" for i in range(N_CASES))]
    tok = Tokenizer(WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>",
                                   unk_token="<unk>", padding_side="left")


def right_slot_probabilities(model, tokenizer, sets) -> list[float]:
    """The model's probability of the right slot as its first completion token, per prompt."""
    with torch.no_grad():
        out = []
        for s in sets:
            ids = tokenizer(s["prompt"], return_tensors="pt")["input_ids"]
            probs = torch.softmax(model(input_ids=ids).logits[0, -1], dim=-1)
            out.append(float(probs[tokenizer.convert_tokens_to_ids(SLOTS[s["right"]])]))
    return out


@pytest.mark.slow
def test_grpo_learns_to_pick_the_right_report(tmp_path):
    torch.manual_seed(0)
    sets = fixed_sets()
    tokenizer = slot_tokenizer()
    model = tiny_llama(tokenizer, 16)
    before = right_slot_probabilities(model, tokenizer, sets)
    radscope = trl_reward(REWARD)

    def chosen_report(prompts, completions, candidates, **columns):
        """The candidate each completion names (C0 ... C8); any other text is scored as it is."""
        texts = [cands[SLOTS.index(c.strip())] if c.strip() in SLOTS else c
                 for c, cands in zip(completions, candidates, strict=True)]
        return radscope(prompts=prompts, completions=texts, **columns)

    dataset = Dataset.from_list([{k: s[k] for k in ("prompt", "reference", "candidates")} for s in sets] * 20)
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=60, per_device_train_batch_size=32,
                      num_generations=16, max_completion_length=1, learning_rate=1e-2,
                      logging_steps=5, report_to="none", use_cpu=True, save_strategy="no", seed=0,
                      temperature=1.0, log_completions=False)
    trainer = GRPOTrainer(model=model, reward_funcs=[chosen_report], args=args, train_dataset=dataset,
                          processing_class=tokenizer)
    trainer.train()

    after = right_slot_probabilities(trainer.model, tokenizer, sets)
    logged = [h["reward"] for h in trainer.state.log_history if "reward" in h]
    print("reward logged every 5 steps:", [round(r, 3) for r in logged])
    print("P(right slot) before:", [round(p, 3) for p in before], "after:", [round(p, 3) for p in after])
    assert logged[-1] > logged[0], logged  # the mean reward the trainer logged went up
    assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)  # for every prompt
    assert sum(after) / len(after) > 0.25 > 0.1 > sum(before) / len(before), (before, after)
