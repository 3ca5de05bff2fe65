"""The shipped int8 ONNX file run on held-out items, for the model card's figures.

The card describes what users run, so the figures come from the exported file through
onnxruntime and the shipped tokenizer.json, cut into calls of one token length by the same
``length_groups`` as the app's encoder sessions; no torch here, so this module imports nothing
of the training loop.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from radscope.models.artifacts import Manifest
from radscope.models.padding import length_groups, pad_batch


def int8_outputs(directory: Path, items: Sequence[Any], batch_size: int = 32) -> tuple[Manifest, np.ndarray]:
    """The artifact's manifest and its raw outputs for ``items`` (texts or text pairs), in order."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    manifest = Manifest.load(directory)
    name = (manifest.files["int8"] if "int8" in manifest.files else manifest.files["fp32"])["name"]
    session = ort.InferenceSession(str(directory / name), providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(directory / manifest.tokenizer))
    tokenizer.enable_truncation(max_length=manifest.max_length, strategy="longest_first")
    tokenizer.no_padding()
    encodings = tokenizer.encode_batch(list(items))
    outputs: dict[int, np.ndarray] = {}
    # Calls of one token length, as the runtime makes them (no padding).
    for batch in length_groups([len(e.ids) for e in encodings], batch_size, 512):
        result = session.run(None, pad_batch([encodings[i] for i in batch]))[0]
        for row, i in enumerate(batch):
            outputs[i] = result[row]
    return manifest, np.stack([outputs[i] for i in range(len(encodings))])
