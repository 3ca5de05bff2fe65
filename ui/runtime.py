"""Models that stay loaded between requests: one RuntimeContext per distinct set of options.

A judge or an encoder takes seconds to load, so the app keeps the context (and the metrics
built in it) for each settings combination it has seen, up to ``max_contexts``; the least
recently used one is closed when another is needed.

No two requests use a model at the same time: every piece of work that may load or call a
judge or an encoder passes the ``ModelGate`` (first come, first served), a one-pair Compare
for its metric, a batch for one chunk at a time, so a Compare waits at most one chunk behind
a batch. Work that needs no model (word overlap, the rules readers) never passes the gate: it
is never stuck behind a model job or a batch (see docs/security.md, "Queues").
"""
from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.metrics.framework.base import Metric
from radscope.engine.metrics.framework.registry import MetricRegistry

log = logging.getLogger(__name__)


def normalise_options(registry: MetricRegistry, options: dict[str, Any] | None) -> dict[str, Any]:
    """Options worth keeping: names ``registry`` knows, set values that differ from the default."""
    known = registry.all_options()
    out: dict[str, Any] = {}
    for name, value in (options or {}).items():
        if name not in known or value is None or (isinstance(value, str) and not value.strip()):
            continue
        value = coerce_option(known[name], value)
        if value != known[name].default:
            out[name] = value
    return dict(sorted(out.items()))


def coerce_option(opt: Option, value: Any) -> Any:
    """Turn a UI value (numbers arrive as floats, text with spaces) into the option's type;
    raise ValueError with a readable message for an impossible value."""
    name = opt.name
    if isinstance(value, str):
        value = value.strip()
    try:
        if opt.type is bool:
            if isinstance(value, str):
                value = value.lower() in {"1", "true", "yes", "on"}
            value = bool(value)
        elif opt.type is int:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            value = int(value)
        elif opt.type is float:
            value = float(value)
        else:
            value = opt.type(value)
    except (TypeError, ValueError):
        raise ValueError(f"option {name!r} needs a {opt.type.__name__}, got {value!r}") from None
    if opt.choices and value not in opt.choices:
        raise ValueError(f"option {name!r} must be one of {', '.join(map(str, opt.choices))}; "
                         f"got {value!r}")
    return value


def options_key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, default=str)


@dataclass
class LoadedRuntime:
    """One settings combination: its context and the metrics already built in it."""

    key: str
    options: dict[str, Any]
    ctx: RuntimeContext
    metrics: dict[str, Metric] = field(default_factory=dict)
    last_used: float = field(default_factory=time.monotonic)

    def close(self) -> list[str]:
        """Close the metrics, then the context's shared models; returns what failed, one
        "what: Type: message" line each (also logged), so that the app can show it."""
        failed: list[str] = []
        for metric in self.metrics.values():
            try:
                metric.close()
            except Exception as exc:  # closing the others matters more; logged and reported
                log.warning("closing metric %s failed", metric.name, exc_info=True)
                failed.append(f"{metric.name}: {type(exc).__name__}: {exc}")
        self.metrics.clear()
        try:
            self.ctx.close()
        except Exception as exc:  # logged and reported like a metric's failure
            log.warning("closing the shared models of settings %s failed", self.key, exc_info=True)
            failed.append(f"shared models: {type(exc).__name__}: {exc}")
        return failed


class RuntimeCache:
    """Thread-safe map from normalised options to a LoadedRuntime (see the module docstring);
    metrics are built from ``registry``, the app's."""

    def __init__(self, registry: MetricRegistry, max_contexts: int = 2) -> None:
        self.registry = registry
        self.max_contexts = max(1, max_contexts)
        self._runtimes: dict[str, LoadedRuntime] = {}
        self._lock = threading.RLock()
        self._close_problems: list[str] = []  # failures while closing, until the app shows them

    def runtime(self, options: dict[str, Any] | None) -> LoadedRuntime:
        opts = normalise_options(self.registry, options)
        key = options_key(opts)
        with self._lock:
            found = self._runtimes.get(key)
            if found is None:
                found = LoadedRuntime(key, opts, RuntimeContext(options=dict(opts)))
                self._runtimes[key] = found
                self._evict()
            found.last_used = time.monotonic()
            return found

    def metric(self, options: dict[str, Any] | None, name: str) -> tuple[LoadedRuntime, Metric]:
        """The metric ``name`` built under ``options`` (built now if needed; errors propagate)."""
        runtime = self.runtime(options)
        with self._lock:
            if name not in runtime.metrics:
                runtime.metrics[name] = self.registry.get(name).build(runtime.ctx)
            return runtime, runtime.metrics[name]

    def _evict(self) -> None:
        while len(self._runtimes) > self.max_contexts:
            oldest = min(self._runtimes.values(), key=lambda r: r.last_used)
            del self._runtimes[oldest.key]
            self._close_problems += oldest.close()

    def loaded(self) -> list[LoadedRuntime]:
        with self._lock:
            return sorted(self._runtimes.values(), key=lambda r: -r.last_used)

    def close_all(self) -> int:
        """Unload everything; returns how many settings combinations were closed."""
        with self._lock:
            runtimes = list(self._runtimes.values())
            self._runtimes.clear()
        problems = [p for runtime in runtimes for p in runtime.close()]
        with self._lock:
            self._close_problems += problems
        return len(runtimes)

    def take_close_problems(self) -> list[str]:
        """What failed to close since the last call (evictions included), to show once."""
        with self._lock:
            problems, self._close_problems = self._close_problems, []
        return problems


MODEL_FREE_KINDS = ("lexical", "rules")  # extractor kinds that load no model


class ModelGate:
    """One model job at a time, in arrival order (a plain lock lets the batch that just let go
    take it again before a waiting Compare wakes up)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._waiting: deque[object] = deque()
        self._busy = False

    @contextmanager
    def held(self, needed: bool = True) -> Iterator[None]:
        """Hold the gate for the block when ``needed`` (model-free work passes straight on)."""
        if not needed:
            yield
            return
        ticket = object()
        with self._cond:
            self._waiting.append(ticket)
            self._cond.wait_for(lambda: not self._busy and self._waiting[0] is ticket)
            self._waiting.popleft()
            self._busy = True
        try:
            yield
        finally:
            with self._cond:
                self._busy = False
                self._cond.notify_all()


def needs_model(cache: RuntimeCache, options: dict[str, Any] | None, names: Iterable[str]) -> bool:
    """Whether scoring ``names`` under ``options`` may load or call a judge or an encoder
    model: any metric whose chosen extractor is not a model-free one (word overlap, the
    rules readers, whose optional sentence encoder is a thread-safe ONNX session)."""
    ctx = cache.runtime(options).ctx
    for name in names:
        spec = cache.registry.get(name)
        if spec.kind in MODEL_FREE_KINDS:
            continue
        if spec.extractors is None or spec.extractors.choose(ctx) not in MODEL_FREE_KINDS:
            return True
    return False
