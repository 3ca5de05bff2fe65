"""TRL's GRPOTrainer trains a tiny random-weight causal LM for two steps on CPU with RadScope's
rewards (one sync, one async), and the rewards it logs per completion equal the Scorer's on the
same completions. The model and its word-level tokenizer are built here (no hub): the
vocabulary is radiology words, so random generations are report-like text the metrics score."""
import math

import pytest
from datasets import Dataset
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import WhitespaceSplit
from transformers import PreTrainedTokenizerFast
from trl import GRPOConfig, GRPOTrainer

from radscope.engine.api import Scorer
from radscope.engine.rewards.scorer import trl_async_reward, trl_reward
from tests.rl.conftest import tiny_llama

WORDS = ("no yes acute pleural effusion pneumothorax consolidation cardiomegaly heart size is normal "
         "enlarged mild moderate small large left right bilateral lung lungs are clear opacity edema "
         "basilar atelectasis there the of and with without . , stable unchanged new").split()

REFERENCES = {
    "Report for case one :": "No acute cardiopulmonary process. Heart size is normal.",
    "Report for case two :": "Small left pleural effusion. Mild cardiomegaly.",
}


def tiny_tokenizer() -> PreTrainedTokenizerFast:
    specials = ["<pad>", "<eos>", "<unk>"]
    prompt_words = sorted({w for p in REFERENCES for w in p.split()} - set(WORDS))
    vocab = {t: i for i, t in enumerate(specials + WORDS + prompt_words)}
    tok = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>",
                                   unk_token="<unk>", padding_side="left")


@pytest.mark.slow
def test_grpo_two_steps_logs_the_scorers_rewards(tmp_path):
    import torch

    torch.manual_seed(0)
    tokenizer = tiny_tokenizer()
    model = tiny_llama(tokenizer)
    dataset = Dataset.from_dict({"prompt": list(REFERENCES) * 4,
                                 "reference": list(REFERENCES.values()) * 4})
    radsem = trl_reward("radsem")
    bleu1 = trl_async_reward("bleu1")
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=4,
                      num_generations=4, max_completion_length=12, learning_rate=1e-3,
                      logging_steps=1, report_to="none", use_cpu=True, save_strategy="no",
                      seed=0, temperature=1.0, log_completions=False)
    trainer = GRPOTrainer(model=model, reward_funcs=[radsem, bleu1], args=args, train_dataset=dataset,
                          processing_class=tokenizer)
    trainer.train()

    logged_rewards = [h for h in trainer.state.log_history if "rewards/radscope_radsem/mean" in h]
    assert len(logged_rewards) == 2  # two optimisation steps, each logged
    prompts = list(trainer._logs["prompt"])
    completions = list(trainer._logs["completion"])
    assert len(completions) >= 4 and len(prompts) == len(completions)  # the last generation batch
    references = [REFERENCES[p.strip()] for p in prompts]
    with Scorer("radsem,bleu1") as scorer:
        expected = scorer.score(references, completions)
    for name, metric in (("radscope_radsem", "radsem"), ("radscope_bleu1", "bleu1")):
        got = list(trainer._logs["rewards"][name])
        want = expected.array(metric).tolist()
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert (math.isnan(g) and math.isnan(w)) or g == pytest.approx(w, abs=1e-6), (name, got, want)
    # The texts differ, so the rewards are not all one value (the comparison is not vacuous).
    assert len({round(v, 6) for v in expected.array("bleu1").tolist()}) > 1
