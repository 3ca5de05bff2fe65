"""The metric registry: names to specs, options and builders.

The CLI builds its flags from the options the specs declare, and the UI builds its
checkboxes from the names, so a new metric plugs in by registering a spec and nothing else.
Metric modules live directly under ``engine.metrics`` (module or package) and expose a
module-level ``METRICS`` list of ``MetricSpec``; ``load_all`` imports them.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from engine.context import Option, RuntimeContext
from engine.metrics.base import Metric, MetricCard
from engine.metrics.extraction import ExtractorTable

MetricKind = Literal["lexical", "llm", "encoder", "rules"]


@dataclass(frozen=True)
class MetricSpec:
    name: str
    card: MetricCard
    build: Callable[[RuntimeContext], Metric]
    kind: MetricKind
    options: tuple[Option, ...] = ()
    extractors: ExtractorTable | None = None  # the metric's extractors by kind (engine.metrics.extraction)


_REGISTRY: dict[str, MetricSpec] = {}
_loaded = False


def register(spec: MetricSpec) -> None:
    if spec.name in _REGISTRY and _REGISTRY[spec.name] is not spec:
        raise ValueError(f"metric {spec.name!r} is registered twice")
    _REGISTRY[spec.name] = spec


def unregister(name: str) -> None:
    """Remove a metric (tests register stand-ins and take them away again)."""
    _REGISTRY.pop(name, None)


def load_all() -> None:
    """Import every metric module under ``engine.metrics`` so that its specs register."""
    global _loaded
    if _loaded:
        return
    import engine.metrics as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name in {"base", "registry"}:
            continue
        module = importlib.import_module(f"engine.metrics.{info.name}")
        for spec in getattr(module, "METRICS", ()):
            register(spec)
    _loaded = True


def names() -> list[str]:
    load_all()
    return list(_REGISTRY)


def get(name: str) -> MetricSpec:
    load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown metric {name!r}; known metrics: {', '.join(_REGISTRY)}") from None


def all_options() -> dict[str, Option]:
    """Every option declared by any metric, once each."""
    load_all()
    found: dict[str, Option] = {}
    for spec in _REGISTRY.values():
        for opt in spec.options:
            if opt.name in found and found[opt.name] != opt:
                raise ValueError(f"option {opt.name!r} is declared differently by two metrics")
            found[opt.name] = opt
    return found


def parse_metric_list(text: str | Iterable[str]) -> list[str]:
    """``"bleu, rouge"`` -> ``["bleu", "rouge"]``, checking that every name is registered."""
    items = text.split(",") if isinstance(text, str) else list(text)
    chosen = [s.strip().lower() for s in items if s.strip()]
    if not chosen:
        raise ValueError("no metric given; choose from: " + ", ".join(names()))
    unknown = [n for n in chosen if n not in names()]
    if unknown:
        raise ValueError(f"unknown metric(s): {', '.join(unknown)}; choose from: {', '.join(names())}")
    return list(dict.fromkeys(chosen))


def build(names_: Iterable[str], ctx: RuntimeContext) -> list[Metric]:
    return [get(n).build(ctx) for n in names_]
