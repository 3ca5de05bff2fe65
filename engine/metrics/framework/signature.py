"""Reproducibility signatures, in the spirit of sacreBLEU's.

A signature names everything that can change a metric's value: metric and scorer version,
extractor, model and its revision or file hash, quantisation, prompt ids and versions,
decoding settings and options. It is stored with every result and printed with corpus
scores; two numbers with different signatures are never compared silently.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "+".join(_text(v) for v in value)
    if isinstance(value, Mapping):
        return ",".join(f"{k}={_text(v)}" for k, v in value.items())
    return str(value).replace("|", "/")


def make_signature(name: str, version: str, fields: Mapping[str, Any]) -> str:
    """``name|v:version|key:value|...`` with keys in the order the metric gives them."""
    parts = [name, f"v:{version}"]
    parts += [f"{key}:{_text(value)}" for key, value in fields.items()]
    return "|".join(parts)


def parse_signature(signature: str) -> dict[str, str]:
    """Inverse of ``make_signature`` (values stay strings)."""
    name, *rest = signature.split("|")
    out = {"name": name}
    for part in rest:
        key, _, value = part.partition(":")
        out[key] = value
    return out


def signature_differences(a: str, b: str) -> dict[str, tuple[str | None, str | None]]:
    """The fields on which two signatures disagree (empty when the setups are the same)."""
    fa, fb = parse_signature(a), parse_signature(b)
    return {key: (fa.get(key), fb.get(key)) for key in dict.fromkeys([*fa, *fb])
            if fa.get(key) != fb.get(key)}
