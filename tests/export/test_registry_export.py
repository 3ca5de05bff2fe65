"""Export by registry id: the checkpoint and its separate tokenizer repository come from the
Hugging Face cache (offline), the label set from the registry entry (srr-bert-leaves: 55)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import torch
from transformers import BertConfig, BertForSequenceClassification

from radscope.models.srr_labels import labels_for
from training.common import backbone_dir

ROOT = Path(__file__).resolve().parents[2]
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _cache_repo(cache: Path, repo: str) -> Path:
    base = cache / f"models--{repo.replace('/', '--')}"
    (base / "refs").mkdir(parents=True)
    (base / "refs" / "main").write_text(COMMIT)
    snapshot = base / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    return snapshot


def test_srr_export_from_the_hub_cache_by_registry_id(tmp_path):
    cache = tmp_path / "hub"
    model_dir = _cache_repo(cache, "StanfordAIMI/SRR-BERT-Leaves")
    torch.manual_seed(3)
    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1,
                        num_attention_heads=4, intermediate_size=64,
                        max_position_embeddings=128, num_labels=55)
    BertForSequenceClassification(config).save_pretrained(str(model_dir))
    # The tokenizer repository ships vocab files only (no tokenizer.json).
    tok_dir = _cache_repo(cache, "microsoft/BiomedVLP-CXR-BERT-general")
    for name in ("vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copyfile(backbone_dir() / name, tok_dir / name)
    out = tmp_path / "export"
    env = {**os.environ, "HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-m", "radscope", "models", "export", "srr-bert-leaves",
                           "--out", str(out), "--max-length", "64"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["id"] == "srr-bert-leaves" and manifest["task"] == "srr"
    assert manifest["source"] == "hf:StanfordAIMI/SRR-BERT-Leaves"
    assert manifest["revision"] == "main" and manifest["label_level"] == "leaves"
    assert manifest["labels"] == list(labels_for("leaves"))
    assert manifest["checks"]["fp32_max_abs_diff"] <= 1e-4
    assert (out / "tokenizer.json").exists() and (out / "model.onnx").exists()
