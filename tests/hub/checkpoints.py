"""Random-weight checkpoints with the published file layouts, written with numpy alone.

The runtime environment has no torch, so ``model.safetensors`` is written by hand (the format
is an 8-byte header length, a JSON header of names, dtypes, shapes and offsets, then the raw
little-endian tensors). The parameter names are those of transformers' ``BertModel``:

* CREPE (``BertForCategoryErrorRegression``): ``bert.*`` with a pooler, ``error_regressors.{0..5}``
  and ``error_presence.{0..5}``, each a ``Linear(hidden, 1)``;
* SRR-BERT: ``BertForSequenceClassification`` (``bert.*`` + ``classifier``) whose config names
  the 163 leaves-with-statuses labels in ``id2label``, with a separate tokenizer repository of
  vocabulary files only, as ``microsoft/BiomedVLP-CXR-BERT-general`` ships.

The tokenizer is the bundled MiniLM WordPiece one (30,522 pieces), so the vocabulary size
matches the embedding matrix.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER_JSON = ROOT / "models" / "bundled" / "minilm-embedder" / "tokenizer.json"
HIDDEN, LAYERS, HEADS, FFN, POSITIONS = 32, 1, 4, 64, 128


def safetensors_bytes(tensors: dict[str, np.ndarray]) -> bytes:
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw + b"".join(blobs)


def bert_config(vocab_size: int, **extra: object) -> dict[str, object]:
    return {"model_type": "bert", "vocab_size": vocab_size, "hidden_size": HIDDEN,
            "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "intermediate_size": FFN,
            "max_position_embeddings": POSITIONS, "type_vocab_size": 2, "hidden_act": "gelu",
            "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
            "layer_norm_eps": 1e-12, "initializer_range": 0.02, "pad_token_id": 0, **extra}


def bert_weights(rng: np.random.Generator, vocab_size: int, prefix: str) -> dict[str, np.ndarray]:
    def normal(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.02, shape).astype(np.float32)

    def norm(name: str) -> dict[str, np.ndarray]:
        return {f"{name}.weight": np.ones(HIDDEN, np.float32), f"{name}.bias": np.zeros(HIDDEN, np.float32)}

    def linear(name: str, out: int, inp: int) -> dict[str, np.ndarray]:
        return {f"{name}.weight": normal(out, inp), f"{name}.bias": normal(out)}

    w = {"embeddings.word_embeddings.weight": normal(vocab_size, HIDDEN),
         "embeddings.position_embeddings.weight": normal(POSITIONS, HIDDEN),
         "embeddings.token_type_embeddings.weight": normal(2, HIDDEN), **norm("embeddings.LayerNorm")}
    for i in range(LAYERS):
        layer = f"encoder.layer.{i}"
        for part in ("query", "key", "value"):
            w.update(linear(f"{layer}.attention.self.{part}", HIDDEN, HIDDEN))
        w.update(linear(f"{layer}.attention.output.dense", HIDDEN, HIDDEN))
        w.update(norm(f"{layer}.attention.output.LayerNorm"))
        w.update(linear(f"{layer}.intermediate.dense", FFN, HIDDEN))
        w.update(linear(f"{layer}.output.dense", HIDDEN, FFN))
        w.update(norm(f"{layer}.output.LayerNorm"))
    w.update(linear("pooler.dense", HIDDEN, HIDDEN))
    return {prefix + k: v for k, v in w.items()}


def vocab_size() -> int:
    return len(json.loads(TOKENIZER_JSON.read_text(encoding="utf-8"))["model"]["vocab"])


def crepe_files(seed: int = 7) -> dict[str, bytes]:
    rng = np.random.default_rng(seed)
    n = vocab_size()
    weights = bert_weights(rng, n, "bert.")
    for head in ("error_regressors", "error_presence"):
        for i in range(6):
            weights[f"{head}.{i}.weight"] = rng.normal(0.0, 0.5, (1, HIDDEN)).astype(np.float32)
            weights[f"{head}.{i}.bias"] = np.full(1, 0.3, np.float32)
    config = bert_config(n, architectures=["BertForCategoryErrorRegression"], num_error_categories=6,
                         use_poisson_loss=False, use_presence_loss=True, presence_loss_weight=0.5)
    return {"config.json": json.dumps(config, indent=2).encode(),
            "model.safetensors": safetensors_bytes(weights),
            "tokenizer.json": TOKENIZER_JSON.read_bytes(),
            "README.md": b"Random-weight test checkpoint in the CREPE layout.\n"}


def srr_files(labels: list[str], seed: int = 11) -> dict[str, bytes]:
    rng = np.random.default_rng(seed)
    n = vocab_size()
    weights = bert_weights(rng, n, "bert.")
    weights["classifier.weight"] = rng.normal(0.0, 0.5, (len(labels), HIDDEN)).astype(np.float32)
    weights["classifier.bias"] = rng.normal(-1.0, 1.0, len(labels)).astype(np.float32)
    config = bert_config(n, architectures=["BertForSequenceClassification"],
                         problem_type="multi_label_classification",
                         id2label={str(i): name for i, name in enumerate(labels)},
                         label2id={name: i for i, name in enumerate(labels)})
    return {"config.json": json.dumps(config, indent=2).encode(),
            "model.safetensors": safetensors_bytes(weights)}


def vocab_only_tokenizer_files() -> dict[str, bytes]:
    """vocab.txt + tokenizer_config.json, the way a BERT tokenizer repository without
    tokenizer.json looks (the exporter builds tokenizer.json from them)."""
    vocab = json.loads(TOKENIZER_JSON.read_text(encoding="utf-8"))["model"]["vocab"]
    ordered = sorted(vocab, key=vocab.get)
    return {"vocab.txt": ("\n".join(ordered) + "\n").encode(),
            "tokenizer_config.json": json.dumps({"do_lower_case": True, "tokenizer_class": "BertTokenizer",
                                                 "model_max_length": 512}).encode(),
            "special_tokens_map.json": json.dumps({"unk_token": "[UNK]", "sep_token": "[SEP]",
                                                   "pad_token": "[PAD]", "cls_token": "[CLS]",
                                                   "mask_token": "[MASK]"}).encode()}
