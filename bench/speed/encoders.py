"""Encoder speed: int8 ONNX against fp32 torch of the same model, in one run.

``python -m bench encoders --metrics crepe,srr`` (runtime environment: ONNX only) or
``.venv-export/bin/python -m bench.speed.encoders --metrics crepe,srr`` (export environment:
ONNX and torch; what ``make bench-encoders`` runs). Both sides go through the same metric
code: the torch model is put in place of the onnxruntime session, so tokenisation,
length-sorted batching and scoring are identical and only the forward pass differs. The ratio
of the two is the figure to read; absolute numbers depend on the machine and its load.

Figures per metric and backend: median ms/pair scoring one pair at a time (after warm-up),
pairs/s scoring all pairs in one call (batched), and how far the int8 results are from fp32.
The torch checkpoint of a bundled demo model is written by ``make models`` to
``build/models/<id>/checkpoint``; without it, only ONNX is timed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

import numpy as np

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.base import Metric
from radscope.engine.metrics.framework.encoder_extraction import EncoderExtractor
from radscope.engine.metrics.framework.extraction import ExtractorMetric
from radscope.layout import repository_root

ROOT = repository_root()
CHECKPOINTS = ROOT / "build" / "models"
DEFAULTS = {"crepe_model": "crepe-minilm-demo", "srr_model": "srr-minilm-demo",
            "srr_view": "all", "encoder_device": "cpu", "encoder_precision": "auto",
            "encoder_threads": 2, "encoder_batch": 0}


def bench_pairs(path: str | None, n: int) -> list[ReportPair]:
    """``n`` pairs cycled from a JSONL file (reference/candidate fields), from the ReXRank IU
    X-ray test JSON (each study's report against the next study's: real chest-radiograph text
    of real lengths), or from the project's example pairs."""
    if path and path.endswith(".json"):
        studies = json.loads(Path(path).read_text(encoding="utf-8"))
        reports = [studies[key]["report"] for key in sorted(studies)]
        base = [ReportPair(str(i), reports[i], reports[i + 1]) for i in range(len(reports) - 1)]
    elif path:
        rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()
                if line.strip()]
        base = [ReportPair(str(i), r["reference"], r["candidate"]) for i, r in enumerate(rows)]
    else:
        from radscope.engine.io.examples import example_pairs

        base = [ex.pair for ex in example_pairs()]
    return [ReportPair(str(i), base[i % len(base)].reference, base[i % len(base)].candidate)
            for i in range(n)]


def build_metric(name: str, options: dict[str, Any]) -> ExtractorMetric[Any]:
    """The metric with its encoder extractor, without importing every other metric module."""
    ctx = RuntimeContext(options={**DEFAULTS, **options})
    if name == "crepe":
        from radscope.engine.metrics.crepe.metric import build as build_crepe

        metric: ExtractorMetric[Any] = build_crepe(ctx)
    elif name == "srr":
        from radscope.engine.metrics.srr.metric import build as build_srr

        metric = build_srr(ctx)
    else:
        raise ValueError(f"encoder benchmarks cover crepe and srr, not {name!r}")
    if not isinstance(metric.extractor, EncoderExtractor):
        raise ValueError(f"{name}: the options chose the {metric.extractor.kind} reader, not an encoder")
    return metric


def encoder_of(metric: ExtractorMetric[Any]) -> Any:
    """The metric's ONNX session (``build_metric`` checked that it reads with an encoder)."""
    return cast(EncoderExtractor, metric.extractor).encoder()


class TorchSession:
    """Stands in for an onnxruntime session: same feed dict in, same arrays out."""

    def __init__(self, module: Any, input_names: list[str]) -> None:
        self.module = module
        self.input_names = input_names

    def run(self, _outputs: Any, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        import torch

        with torch.inference_mode():
            args = [torch.from_numpy(feed[name]) for name in self.input_names]
            return [self.module(*args).numpy()]


def torch_module(task: str, checkpoint: Path) -> Any:
    """The fp32 torch model behind a bundled artifact, reduced to the exported output."""
    from radscope.models.architectures import CountsOnly, CrepeRegressor, LogitsOnly, load_sequence_classifier

    if task == "crepe":
        return CountsOnly(CrepeRegressor.from_checkpoint(checkpoint)).eval()
    return LogitsOnly(load_sequence_classifier(checkpoint)).eval()


def time_metric(metric: Metric, pairs: list[ReportPair], warmup: int) -> dict[str, Any]:
    metric.score_pairs(pairs[:warmup])
    single = []
    for pair in pairs:
        start = time.perf_counter()
        out = metric.score_pairs([pair])
        single.append((time.perf_counter() - start) * 1000)
        if out[0].error:
            raise RuntimeError(f"{metric.name}: {out[0].error}")
    start = time.perf_counter()
    batched = metric.score_pairs(pairs)
    seconds = time.perf_counter() - start
    return {"ms_per_pair_median": round(statistics.median(single), 3),
            "ms_per_pair_p90": round(sorted(single)[int(0.9 * (len(single) - 1))], 3),
            "pairs_per_s_batched": round(len(pairs) / seconds, 2),
            "_results": batched}


def _agreement(name: str, onnx_results: list[Any], torch_results: list[Any]) -> dict[str, Any]:
    if name == "crepe":
        diff = [abs(a.score - b.score) for a, b in zip(onnx_results, torch_results, strict=True)]
        return {"mean_abs_diff_total": round(float(np.mean(diff)), 4),
                "max_abs_diff_total": round(float(np.max(diff)), 4)}
    same = [a.details["reference_labels"] == b.details["reference_labels"]
            and a.details["candidate_labels"] == b.details["candidate_labels"]
            for a, b in zip(onnx_results, torch_results, strict=True)]
    diff = [abs(a.score - b.score) for a, b in zip(onnx_results, torch_results, strict=True)]
    return {"same_label_sets": round(float(np.mean(same)), 4),
            "mean_abs_diff_f1": round(float(np.mean(diff)), 4)}


def run(metric_names: list[str], n: int, warmup: int, threads: int, data: str | None,
        checkpoints: Path, models: dict[str, str] | None = None) -> dict[str, Any]:
    pairs = bench_pairs(data, n)
    report: dict[str, Any] = {
        "benchmark": "encoders", "n_pairs": n, "threads": threads,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "platform": platform.platform()},
        "data": data or "assets/examples.json (cycled)", "metrics": {}}
    try:
        import torch

        torch.set_num_threads(threads)
        report["torch"] = torch.__version__
    except ImportError:
        report["torch"] = None
    for name in metric_names:
        options = {"encoder_threads": threads, **(models or {})}
        metric = build_metric(name, options)
        onnx = time_metric(metric, pairs, warmup)
        enc = encoder_of(metric)
        entry: dict[str, Any] = {"model": enc.artifact.id, "signature": metric.signature(),
                                 "onnx": {"precision": enc.precision, "providers": enc.providers,
                                          "batch_size": enc.batch_size,
                                          **{k: v for k, v in onnx.items() if k != "_results"}}}
        checkpoint = checkpoints / enc.artifact.id / "checkpoint"
        if report["torch"] is None:
            entry["torch"] = "not installed here: run in the export environment (make bench-encoders)"
        elif not checkpoint.exists():
            entry["torch"] = f"no checkpoint at {checkpoint}: run `make models` first"
        else:
            twin = build_metric(name, options)
            twin_enc = encoder_of(twin)
            twin_enc.session = TorchSession(torch_module(enc.manifest.task, checkpoint),
                                            twin_enc.input_names)
            twin_enc.batch_size = 16  # fp32 pads exactly, so it batches like ONNX fp32 would
            timed = time_metric(twin, pairs, warmup)
            entry["torch"] = {"precision": "fp32", "batch_size": 16, **{k: v for k, v in timed.items()
                                                       if k != "_results"}}
            entry["speedup_onnx_int8_over_torch_fp32"] = {
                "single": round(timed["ms_per_pair_median"] / onnx["ms_per_pair_median"], 2),
                "batched": round(onnx["pairs_per_s_batched"] / timed["pairs_per_s_batched"], 2)}
            entry["agreement_int8_vs_fp32"] = _agreement(name, onnx["_results"], timed["_results"])
        report["metrics"][name] = entry
        print(_line(name, entry), flush=True)
    return report


def _line(name: str, entry: dict[str, Any]) -> str:
    o = entry["onnx"]
    text = (f"{name:<6} onnx-{o['precision']}: {o['ms_per_pair_median']:.2f} ms/pair, "
            f"{o['pairs_per_s_batched']:.1f} pairs/s")
    if isinstance(entry["torch"], dict):
        t, s = entry["torch"], entry["speedup_onnx_int8_over_torch_fp32"]
        text += (f" | torch-fp32: {t['ms_per_pair_median']:.2f} ms/pair, "
                 f"{t['pairs_per_s_batched']:.1f} pairs/s | speed-up x{s['single']} single, "
                 f"x{s['batched']} batched | {entry['agreement_int8_vs_fp32']}")
    else:
        text += f" | torch: {entry['torch']}"
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--metrics", default="crepe,srr", help="crepe, srr or both")
    p.add_argument("--n", type=int, default=64, help="pairs to time")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=2, help="threads for onnxruntime and torch alike")
    p.add_argument("--data", help="JSONL of pairs (reference, candidate) or the ReXRank IU X-ray "
                                  "test JSON; default: the example pairs")
    p.add_argument("--checkpoints", default=str(CHECKPOINTS),
                   help="folder with <model id>/checkpoint torch checkpoints (from make models)")
    p.add_argument("--crepe-model", default=DEFAULTS["crepe_model"])
    p.add_argument("--srr-model", default=DEFAULTS["srr_model"])
    p.add_argument("--out", help="JSON report path")


def cmd_encoders(args: argparse.Namespace) -> int:
    names = [s.strip() for s in args.metrics.split(",") if s.strip()]
    report = run(names, args.n, args.warmup, args.threads, args.data, Path(args.checkpoints),
                 {"crepe_model": args.crepe_model, "srr_model": args.srr_model})
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"report written to {args.out}")
    return 0


def add_commands(subparsers: Any) -> None:
    p = subparsers.add_parser("encoders", help="crepe/srr speed: int8 ONNX vs fp32 torch")
    add_arguments(p)
    p.set_defaults(func=cmd_encoders)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.encoders",
                                     description=__doc__.splitlines()[0])
    add_arguments(parser)
    return cmd_encoders(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
