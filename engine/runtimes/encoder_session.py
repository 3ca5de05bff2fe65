"""ONNX encoders at run time: onnxruntime + tokenizers only (never torch or transformers).

Public API:

* ``OnnxEncoder(artifact, device="auto", precision="auto", threads=0, batch_size=0)`` - one
  session and its tokenizer; ``run(items)`` returns the first output for every item (a
  string, or a ``(first, second)`` pair for pair models) in input order.
* ``CrepeEncoder.raw_counts(pairs) -> ndarray [n, 6]`` - the six count-head outputs for
  ``(reference, candidate)`` pairs (softplus and clipping are ``crepe.score``'s job).
* ``SrrEncoder.utterance_labels(texts) -> list[list[str]]`` - the labels whose sigmoid
  passes the threshold, per utterance.
* ``SentenceEmbedder(model="minilm-embedder").embed(texts) -> ndarray [n, 384]`` -
  L2-normalised all-MiniLM-L6-v2 sentence embeddings (mean pooling inside the graph), so
  cosine similarity is a plain dot product: ``embed(a) @ embed(b).T``. The model is
  bundled (models/bundled/minilm-embedder, int8, ~23 MB); nothing is downloaded.
* ``load_encoder(name, task, ctx=None)`` - resolve a registry id or artifact directory and
  build (or, with a RuntimeContext, share) the encoder.

One pair, one number: a sequence's outputs never depend on the other sequences of its call.
Inputs are tokenised once and grouped by exact token length; a call holds sequences of one
length only (up to ``batch_size``, and up to ``TOKENS_PER_CALL`` tokens), so nothing is ever
padded, and results are put back in input order. Batching so is allowed only where the model
computes each row on its own (``SessionPlan.batch_invariant``): int8 models whose activations
have one scale per row (``Manifest.int8_activations == "per-row"``, models/row_quant.py; all
bundled models) and fp32, on the CPU provider, where the tests check bit-identical outputs for
every batch composition and thread count. Older int8 exports quantise activations with one
scale per call (a neighbour moved a CREPE raw count by up to 0.18), and GPU kernels are not
checked, so there every sequence runs alone. The CUDA provider is used when onnxruntime-gpu is
installed and sees a GPU (``device="auto"``); otherwise the CPU provider. ``providers`` says
what the session really got.
"""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from radscope.engine.options.encoder_options import (
    ENCODER_BATCH,
    ENCODER_DEVICE,
    ENCODER_PRECISION,
    ENCODER_THREADS,
)
from radscope.models.artifacts import PER_ROW, OnnxArtifact, Precision, resolve_artifact
from radscope.models.padding import length_groups, pad_batch

Item = str | tuple[str, str]
log = logging.getLogger(__name__)
CUDA = "CUDAExecutionProvider"
CPU = "CPUExecutionProvider"
DEFAULT_BATCH = 32  # sequences of one length per call where batching cannot change results
# ... and at most this many tokens: sequences over 256 tokens run alone, since batching long
# ones was slower here (CREPE on 448-token report pairs: 17.0 pairs per CPU-second with a
# 512-token cap, 12.9 with 1024, 12.4 with 4096; docs/models.md)
TOKENS_PER_CALL = 512


def default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def choose_providers(device: str) -> list[Any]:
    """CUDA first when asked for (or auto and available), always with CPU as the fallback."""
    available = ort.get_available_providers()
    if device == "cuda" and CUDA not in available:
        raise RuntimeError("encoder_device=cuda but this onnxruntime has no CUDA provider "
                           f"(available: {available}); install onnxruntime-gpu instead of "
                           "onnxruntime")
    if device in ("auto", "cuda") and CUDA in available:
        return [(CUDA, {"device_id": 0}), CPU]
    return [CPU]


@dataclass(frozen=True)
class SessionPlan:
    """What a session for an artifact will run (file, precision, providers, batch, threads),
    decided from the manifest without loading the model: signatures and model cards come from
    here, so a run whose results are all stored never builds a session."""

    artifact: OnnxArtifact
    model_file: Path
    precision: str
    providers: list[Any]
    batch_size: int
    threads: int
    batch_invariant: bool

    @property
    def provider_names(self) -> list[str]:
        return [p[0] if isinstance(p, tuple) else p for p in self.providers]

    def describe(self, providers: list[str] | None = None) -> dict[str, Any]:
        m = self.artifact.manifest
        return {"path": str(self.artifact.path), "file": self.model_file.name,
                "precision": self.precision, "providers": providers or self.provider_names,
                "batch_size": self.batch_size, "batch_invariant": self.batch_invariant,
                "threads": self.threads,
                "max_length": m.max_length, "checksum": m.files[self.precision]["sha256"]}

    def device_text(self, providers: list[str] | None = None) -> str:
        """What ModelInfo.device shows: the device and the providers the session has."""
        providers = providers or self.provider_names
        device = "cuda" if providers and providers[0] == CUDA else "cpu"
        return f"{device} ({', '.join(providers)}; {self.precision}; {self.threads} threads)"


def plan_session(artifact: OnnxArtifact, *, device: str = "auto", precision: Precision = "auto",
                 threads: int = 0, batch_size: int = 0) -> SessionPlan:
    providers = choose_providers(device)
    if precision == "auto":
        # Dynamic int8 kernels are CPU kernels; on a GPU the fp32 graph is the fast one.
        on_gpu = providers[0] != CPU
        files = artifact.manifest.files
        precision = "fp32" if on_gpu and "fp32" in files else "int8"
        if precision == "int8" and "int8" not in files:
            precision = "fp32"
    model_file, chosen = artifact.model_path(precision)
    invariant = batch_invariant(artifact, chosen, providers)
    if batch_size > 1 and not invariant:
        log.warning("encoder %s (%s, %s): one sequence per call whatever encoder_batch says, "
                    "since batching would change its results", artifact.id, chosen,
                    _name(providers[0]))
    batch = (batch_size or DEFAULT_BATCH) if invariant else 1
    return SessionPlan(artifact, model_file, chosen, providers, batch,
                       threads or default_threads(), invariant)


def _name(provider: Any) -> str:
    return str(provider[0] if isinstance(provider, tuple) else provider)


def batch_invariant(artifact: OnnxArtifact, precision: str, providers: list[Any]) -> bool:
    """Whether a sequence's outputs stay bit-identical whatever else shares its call (sequences
    of one length, no padding): fp32 and per-row int8 on the CPU provider, as the tests check;
    not one-scale-per-call int8, and not GPU kernels, which nothing here has checked."""
    if _name(providers[0]) != CPU:
        return False
    return precision == "fp32" or artifact.manifest.int8_activations == PER_ROW


class OnnxEncoder:
    """One onnxruntime session plus the artifact's tokenizer, with length-sorted batching."""

    def __init__(self, artifact: OnnxArtifact, *, device: str = "auto",
                 precision: Precision = "auto", threads: int = 0, batch_size: int = 0) -> None:
        self.artifact = artifact
        self.manifest = artifact.manifest
        self.plan = plan_session(artifact, device=device, precision=precision, threads=threads,
                                 batch_size=batch_size)
        self.model_file, self.precision = self.plan.model_file, self.plan.precision
        self.batch_size = self.plan.batch_size
        providers = self.plan.providers
        options = ort.SessionOptions()
        self.threads = self.plan.threads
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Do not busy-wait between runs: the CPU is shared with the judge and the UI.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(self.model_file), options, providers=providers)
        self.providers: list[str] = self.session.get_providers()
        self.device = "cuda" if self.providers and self.providers[0] == CUDA else "cpu"
        log.info("encoder %s (%s): providers %s, %d threads, batch %d", artifact.id,
                 self.model_file.name, self.providers, self.threads, self.batch_size)
        self.tokenizer = Tokenizer.from_file(str(artifact.tokenizer_path))
        self.tokenizer.enable_truncation(max_length=self.manifest.max_length,
                                         strategy="longest_first")
        self.tokenizer.no_padding()
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        self.input_names = [i.name for i in self.session.get_inputs()]
        self._lock = threading.Lock()  # the tokenizer's truncation state is shared

    @property
    def device_text(self) -> str:
        """What ModelInfo.device shows: the device and the providers the session really has."""
        return self.plan.device_text(self.providers)

    def describe(self) -> dict[str, Any]:
        return self.plan.describe(self.providers)

    def tokenize(self, items: Sequence[Item]) -> list[Any]:
        with self._lock:
            return self.tokenizer.encode_batch(list(items))

    def run(self, items: Sequence[Item], batch_size: int | None = None) -> np.ndarray:
        """The model's first output for each item, in input order ([n, ...])."""
        batch_size = max(1, batch_size or self.batch_size) if self.plan.batch_invariant else 1
        if not items:
            return np.zeros((0, self.output_width()), dtype=np.float32)
        if self.session is None:
            raise RuntimeError(f"encoder {self.artifact.id} was closed")
        encodings = self.tokenize(items)
        results: list[np.ndarray | None] = [None] * len(encodings)
        for idx in length_groups([len(e.ids) for e in encodings], batch_size, TOKENS_PER_CALL):
            out = self.session.run(None, self._feed([encodings[i] for i in idx]))[0]
            for row, i in enumerate(idx):
                results[i] = out[row]
        return np.stack(results)  # type: ignore[arg-type]

    def output_width(self) -> int:
        if self.manifest.task == "crepe":
            return 6
        if self.manifest.task == "srr":
            return len(self.manifest.labels)
        return int(self.manifest.dim or 0)

    def _feed(self, encodings: Sequence[Any]) -> dict[str, np.ndarray]:
        feed = pad_batch(encodings, self.pad_id)
        return {name: feed[name] for name in self.input_names}

    @property
    def closed(self) -> bool:
        return self.session is None

    def close(self) -> None:
        """Drop the session (onnxruntime frees its memory with the last reference)."""
        self.session = None


class CrepeEncoder(OnnxEncoder):
    """CREPE pair regressor: ``[CLS] reference [SEP] candidate [SEP]`` -> six raw counts."""

    def raw_counts(self, pairs: Sequence[tuple[str, str]],
                   batch_size: int | None = None) -> np.ndarray:
        return self.run([(ref, cand) for ref, cand in pairs], batch_size).astype(np.float64)


def srr_threshold(manifest: Any) -> float:
    """The sigmoid threshold of an SRR model: the manifest's, else 0.5."""
    return float(manifest.threshold if manifest.threshold is not None else 0.5)


class SrrEncoder(OnnxEncoder):
    """SRR-BERT utterance classifier: sigmoid over labels, threshold from the manifest."""

    @property
    def labels(self) -> list[str]:
        return list(self.manifest.labels)

    @property
    def threshold(self) -> float:
        return srr_threshold(self.manifest)

    def probabilities(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        logits = self.run(list(texts), batch_size).astype(np.float64)
        return 1.0 / (1.0 + np.exp(-logits))

    def utterance_labels(self, texts: Sequence[str],
                         batch_size: int | None = None) -> list[list[str]]:
        if not texts:
            return []
        probs = self.probabilities(texts, batch_size)
        names = self.labels
        return [[names[j] for j in np.flatnonzero(row > self.threshold)] for row in probs]


class SentenceEmbedder(OnnxEncoder):
    """all-MiniLM-L6-v2 sentence embeddings (mean-pooled, L2-normalised) from the bundled model."""

    def __init__(self, model: str | OnnxArtifact = "minilm-embedder", **kwargs: Any) -> None:
        artifact = model if isinstance(model, OnnxArtifact) else resolve_artifact(model, "embedder")
        super().__init__(artifact, **kwargs)

    def embed(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        """[n, dim] float32, unit length per row (cosine similarity = dot product)."""
        return self.run(list(texts), batch_size).astype(np.float32)


ENCODER_CLASSES: dict[str, type[OnnxEncoder]] = {
    "crepe": CrepeEncoder, "srr": SrrEncoder, "embedder": SentenceEmbedder}


def encoder_settings(ctx: Any | None = None, *, device: str | None = None,
                     precision: str | None = None, threads: int | None = None,
                     batch_size: int | None = None) -> dict[str, Any]:
    """Session settings from explicit values, else the run context's options, else auto."""
    if ctx is not None:
        device = device or ctx.option(ENCODER_DEVICE)
        precision = precision or ctx.option(ENCODER_PRECISION)
        threads = threads if threads is not None else ctx.option(ENCODER_THREADS)
        batch_size = batch_size if batch_size is not None else ctx.option(ENCODER_BATCH)
    return {"device": device or "auto", "precision": precision or "auto",
            "threads": int(threads or 0), "batch_size": int(batch_size or 0)}


def plan_encoder(name: str, task: str, ctx: Any | None = None, **settings: Any) -> SessionPlan:
    """The session ``load_encoder`` would build, without building it (no model is read)."""
    return plan_session(resolve_artifact(name, task), **encoder_settings(ctx, **settings))


def load_encoder(name: str, task: str, ctx: Any | None = None, **settings: Any) -> OnnxEncoder:
    """Resolve ``name`` and build its encoder; with a RuntimeContext, one per (model, settings)."""
    chosen = encoder_settings(ctx, **settings)
    artifact = resolve_artifact(name, task)
    cls = ENCODER_CLASSES[task]

    def build() -> OnnxEncoder:
        return cls(artifact, **chosen)

    if ctx is None:
        return build()
    key = ("onnx_encoder", str(artifact.path), *chosen.values())
    return ctx.resource(key, build)
