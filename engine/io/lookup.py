"""Finding a part of a per-pair result by its shape.

Metrics merge their details into the result dict, either flat or under a key of their choosing;
the views and the exports look up the structure they need by the keys it has, so that either
layout works.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def find_section(obj: Any, keys: Iterable[str], depth: int = 3) -> dict[str, Any] | None:
    """The first dict (breadth first, ``obj`` itself included) that has all ``keys``."""
    wanted = set(keys)
    level: list[Any] = [obj]
    for _ in range(depth + 1):
        nxt: list[Any] = []
        for item in level:
            if isinstance(item, Mapping):
                if wanted <= set(item):
                    return dict(item)
                nxt.extend(v for v in item.values() if isinstance(v, (Mapping, list)))
            elif isinstance(item, list):
                nxt.extend(v for v in item[:50] if isinstance(v, (Mapping, list)))
        level = nxt
    return None
