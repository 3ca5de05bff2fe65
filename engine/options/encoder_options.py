"""Options shared by every ONNX-encoder metric (one definition, so the CLI gets one flag each).

Kept apart from ``onnx_encoder`` so that listing metrics and building CLI flags never imports
onnxruntime.
"""
from __future__ import annotations

from radscope.engine.context import Option

ENCODER_DEVICE = Option(
    "encoder_device", "auto",
    "where ONNX encoders run: auto (CUDA when onnxruntime-gpu sees a GPU, else CPU), cpu, cuda",
    choices=("auto", "cpu", "cuda"))
ENCODER_PRECISION = Option(
    "encoder_precision", "auto",
    "ONNX encoder weights: auto (int8 on CPU, fp32 on CUDA when exported), int8, fp32",
    choices=("auto", "int8", "fp32"))
ENCODER_THREADS = Option(
    "encoder_threads", 0, "onnxruntime intra-op threads per encoder (0: min(4, CPU count))",
    type=int)

ENCODER_BATCH = Option(
    "encoder_batch", 0,
    "most sequences of one token length per onnxruntime call (0: 32), where batching cannot "
    "change a result (per-row int8 or fp32 on CPU); other models run one sequence per call, so "
    "a pair's score never depends on the other pairs", type=int)

ENCODER_OPTIONS = (ENCODER_DEVICE, ENCODER_PRECISION, ENCODER_THREADS, ENCODER_BATCH)
