"""Padding a batch of tokenized texts into BERT inputs.

One routine for the runtime (``radscope.engine.runtimes.onnx_encoder``) and for training
(``radscope.models.training``), so both sides feed a model identically; kept here, free of the engine,
because ``models`` never imports ``engine``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def pad_batch(encodings: Sequence[Any], pad_id: int = 0) -> dict[str, np.ndarray]:
    """BERT inputs for one batch, padded to its own longest member (training uses it too, so
    both sides feed the model identically)."""
    width = max(len(e.ids) for e in encodings)
    ids = np.full((len(encodings), width), pad_id, dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for row, enc in enumerate(encodings):
        n = len(enc.ids)
        ids[row, :n] = enc.ids
        mask[row, :n] = 1
        types[row, :n] = enc.type_ids
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
