"""Types that metrics, runtimes, the runner and the UI all share, owned by none of them.

``Option`` (a user-settable setting that becomes a CLI flag and a UI control), ``RuntimeContext``
(one run's options, shared resources and counters), ``Closeable`` (what the context releases)
and ``ModelInfo`` (which model produced a number). The module imports nothing of ours, so the
runtimes can use these types without importing the metrics.
"""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Option:
    """A user-settable option; several metrics may share one (e.g. ``judge``)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    type: type = str

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@runtime_checkable
class Closeable(Protocol):
    """A shared resource that must be released when its run context closes."""

    def close(self) -> None: ...


@dataclass
class RuntimeContext:
    """Options plus shared, lazily built resources (judges, encoder sessions) and counters.

    One context serves one run: metrics that use the same judge share one runtime, and the
    counters (model calls, cache hits, tokens) cover the whole run.
    """

    options: dict[str, Any] = field(default_factory=dict)
    counters: Counter = field(default_factory=Counter)
    _resources: dict[Any, Any] = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def option(self, opt: Option) -> Any:
        """The value the run set for ``opt``, or its declared default."""
        value = self.options.get(opt.name)
        return opt.default if value is None else value

    def resource(self, key: Any, build: Callable[[], Any]) -> Any:
        """Return the shared resource under ``key``, building it once."""
        with self._lock:
            if key not in self._resources:
                self._resources[key] = build()
            return self._resources[key]

    def count(self, name: str, n: int = 1) -> None:
        with self._lock:
            self.counters[name] += n

    def close(self) -> None:
        """Close every shared resource that holds something (judge workers, ONNX sessions,
        caches): all of them implement ``Closeable``. Newest first (a judge before the cache it
        writes to); one that fails does not keep the others open, and its error is raised."""
        with self._lock, ExitStack() as stack:
            for value in self._resources.values():
                if isinstance(value, Closeable):
                    stack.callback(value.close)
            self._resources.clear()


@dataclass(frozen=True)
class ModelInfo:
    """Which model produced a number: shown next to every result."""

    id: str
    source: str = ""
    demo_grade: bool = False
    device: str = "cpu"
    detail: dict[str, Any] = field(default_factory=dict)
