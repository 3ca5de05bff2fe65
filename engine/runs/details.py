"""Stored results' details (each metric's whole per-pair result dict) as small blobs.

Each dict is written as one JSON line; the lines of one metric stored together (a chunk of a
run) are compressed as one blob with zlib, against a preset dictionary made from earlier
results of the same metric: one metric's results repeat the same keys, labels and signature
from pair to pair, so each pair costs little more than what is its own.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

DICTIONARY_BYTES = 32 * 1024  # zlib looks back at most 32 KiB, so a longer dictionary is wasted
MIN_SAMPLES = 4  # results of one metric needed before a dictionary is made from them
_LEVEL = 9


def to_json(data: dict[str, Any]) -> str:
    """The details as the store writes them (``data`` is already JSON-safe): one line, since
    JSON escapes every newline inside a string."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def compress(text: str, dictionary: bytes | None) -> bytes:
    """``text`` compressed with zlib, against ``dictionary`` when there is one."""
    packer = zlib.compressobj(_LEVEL, zdict=dictionary) if dictionary else zlib.compressobj(_LEVEL)
    return packer.compress(text.encode("utf-8", "surrogatepass")) + packer.flush()


def decompress(blob: bytes, dictionary: bytes | None) -> str:
    """The text back from ``compress``'s blob and the same dictionary."""
    unpacker = zlib.decompressobj(zdict=dictionary) if dictionary else zlib.decompressobj()
    raw = unpacker.decompress(blob) + unpacker.flush()
    return raw.decode("utf-8", "surrogatepass")


def make_dictionary(samples: Sequence[str]) -> bytes | None:
    """A preset dictionary from one metric's results (the successful ones, which carry the
    metric's usual keys); None when there are too few to be representative."""
    if len(samples) < MIN_SAMPLES:
        return None
    return "".join(samples).encode("utf-8", "surrogatepass")[-DICTIONARY_BYTES:]
