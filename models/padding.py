"""Padding a batch of tokenized texts into BERT inputs.

One routine for the runtime (``radscope.engine.runtimes.encoder_session``) and for training
(``training``), so both sides feed a model identically; kept here, free of the engine,
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


def length_groups(lengths: Sequence[int], batch_size: int, max_tokens: int) -> list[list[int]]:
    """Indices cut into calls that each hold sequences of one length only (so ``pad_batch`` pads
    nothing), at most ``batch_size`` of them and at most ``max_tokens`` tokens (a longer one
    alone): a sequence's result then cannot depend on its neighbours through padding."""
    by_length: dict[int, list[int]] = {}
    for i, n in enumerate(lengths):
        by_length.setdefault(n, []).append(i)
    groups = []
    for n, indices in sorted(by_length.items()):
        per_call = max(1, min(batch_size, max_tokens // max(n, 1)))
        groups += [indices[s:s + per_call] for s in range(0, len(indices), per_call)]
    return groups
