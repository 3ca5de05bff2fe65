"""RL-trainer tests need TRL and torch: they run in the RL environment (`make test-rl`, i.e.
.venv-trl/bin/python -m pytest tests/rl). In the runtime environment (.venv, no torch) this
folder is skipped instead of failing to import."""
import importlib.util

if importlib.util.find_spec("trl") is None or importlib.util.find_spec("torch") is None:
    collect_ignore_glob = ["test_*.py"]


def tiny_llama(tokenizer, max_positions: int = 64):
    """A random-weight one-layer Llama over ``tokenizer``'s vocabulary: small enough to train
    on CPU in seconds, real enough for GRPOTrainer."""
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=max_positions, pad_token_id=tokenizer.pad_token_id,
                         eos_token_id=tokenizer.eos_token_id, bos_token_id=tokenizer.eos_token_id)
    return LlamaForCausalLM(config)
