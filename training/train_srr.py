"""Train the demonstration SRR-BERT-style utterance classifier and bundle it as int8 ONNX.

all-MiniLM-L6-v2 with a ``BertForSequenceClassification`` head over the 163
leaves-with-statuses labels (the layout of StanfordAIMI/SRR-BERT-Leaves-with-Statuses), trained
multi-label (binary cross-entropy per label) on synthetic utterances.

    radscope training.train_srr              # what `make models` runs (fixed seeds)

Writes the checkpoint to build/models/srr-minilm-demo/checkpoint, the artifact to
models/bundled/srr-minilm-demo/ and its MODEL_CARD.md.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import BertForSequenceClassification

from radscope.layout import repository_root
from radscope.models.architectures import _load_into, bert_config, load_state_dict, read_config
from radscope.models.srr_labels import LabelLevel, labels_for
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

MODEL_ID = "srr-minilm-demo"
WORK_DIR = repository_root() / "build" / "models" / MODEL_ID
LEVEL = LabelLevel.LEAVES_WITH_STATUSES


def targets(utterances: list[synth.SrrUtterance], labels: list[str]) -> torch.Tensor:
    index = {name: i for i, name in enumerate(labels)}
    y = torch.zeros(len(utterances), len(labels))
    for row, u in enumerate(utterances):
        for name in u.labels:
            y[row, index[name]] = 1.0
    return y


def predict(model: torch.nn.Module, encodings, batch_size: int = 128) -> np.ndarray:
    model.eval()
    out = np.zeros((len(encodings), model.config.num_labels), dtype=np.float32)
    with torch.no_grad():
        for idx in eval_batches([len(e.ids) for e in encodings], batch_size):
            out[idx] = model(**pad([encodings[i] for i in idx])).logits.numpy()
    return out


def evaluate(logits: np.ndarray, utterances: list[synth.SrrUtterance],
             labels: list[str]) -> dict[str, Any]:
    """Exact-set accuracy and micro P/R/F1 over labels at threshold 0.5 (logit > 0)."""
    pred = logits > 0
    truth = targets(utterances, labels).numpy() > 0.5
    tp = float(np.sum(pred & truth))
    fp = float(np.sum(pred & ~truth))
    fn = float(np.sum(~pred & truth))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"n_utterances": len(utterances),
            "exact_set_accuracy": round(float(np.mean(np.all(pred == truth, axis=1))), 4),
            "micro_precision": round(precision, 4), "micro_recall": round(recall, 4),
            "micro_f1": round(f1, 4)}


def build_model(labels: list[str]) -> BertForSequenceClassification:
    raw = read_config(backbone_dir())
    raw.update({"num_labels": len(labels), "problem_type": "multi_label_classification",
                "id2label": dict(enumerate(labels)),
                "label2id": {name: i for i, name in enumerate(labels)},
                "architectures": ["BertForSequenceClassification"]})
    model = BertForSequenceClassification(bert_config(raw))
    state = {f"bert.{k}": v for k, v in load_state_dict(backbone_dir()).items()}
    state.update({f"classifier.{k}": v for k, v in model.classifier.state_dict().items()})
    _load_into(model, state)
    return model


def main(argv: list[str] | None = None) -> int:
    p = training_parser("radscope training.train_srr", MODEL_ID, WORK_DIR,
                        n_train=6000, n_dev=500, seed=29, batch_size=16, lr=2e-4, head_lr=5e-3,
                        max_length=64, freeze=3)
    args = p.parse_args(argv)
    threads = cpu_threads(args.threads)
    seed_everything(args.seed, threads)
    started = time.perf_counter()
    labels = list(labels_for(LEVEL))

    train = synth.srr_dataset(args.n_train, args.seed)
    dev = synth.srr_dataset(args.n_dev, args.seed + 1)
    test = synth.srr_dataset(args.n_test, args.seed + 2)
    backbone = backbone_dir()
    tok = load_tokenizer(backbone / "tokenizer.json", args.max_length)
    enc_train = tok.encode_batch([u.text for u in train])
    enc_dev = tok.encode_batch([u.text for u in dev])
    enc_test = tok.encode_batch([u.text for u in test])
    y_train = targets(train, labels)

    model = build_model(labels)
    freeze_lower(model.bert, args.freeze)
    loss_fn = torch.nn.BCEWithLogitsLoss()

    def loss_of(idx: list[int]) -> torch.Tensor:
        return loss_fn(model(**pad([enc_train[i] for i in idx])).logits, y_train[idx])

    history = fit(model, [len(e.ids) for e in enc_train], loss_of, args,
                  ("classifier", "bert.pooler"), lambda: evaluate(predict(model, enc_dev), dev, labels),
                  started, loss_digits=5)

    test_torch = evaluate(predict(model, enc_test), test, labels)
    report = {"model": MODEL_ID, "args": vars(args), "threads": threads, "history": history,
              "test_torch_fp32": test_torch,
              "command": "radscope training.train_srr " + " ".join(argv or sys.argv[1:])}
    save_and_bundle(lambda path: model.save_pretrained(str(path)), report, args, task="srr",
                    max_length=128, int8_eval=lambda out: int8_figures(out, test),
                    started=started)
    return 0



def int8_figures(directory: Path, utterances: list[synth.SrrUtterance]) -> dict[str, Any]:
    """The test-set figures of the exported int8 file (see onnx_eval)."""
    manifest, logits = int8_outputs(directory, [u.text for u in utterances], batch_size=64)
    return evaluate(logits, utterances, manifest.labels)


if __name__ == "__main__":
    raise SystemExit(main())
