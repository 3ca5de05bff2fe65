"""The metric registry: names to specs, options and builders, as an instance passed around.

The CLI builds its flags from the options the specs declare, and the UI builds its
checkboxes from the names, so a new metric plugs in by declaring a spec and nothing else: the
spec also says which family's panel and corpus plot draw it (``family``), which statistics
record summarises it (``statistics``) and which flat columns the exports give it
(``export_columns``). Code that meets a metric only by the name on a result asks ``spec_for`` /
``family_of`` here, never splits the name (docs/adding-a-metric.md).
Metric modules live directly under ``radscope.engine.metrics`` (module or package) and expose a
module-level ``METRICS`` list of ``MetricSpec``; ``production()`` collects them once.

A registry is built once and never changes: the runner, the CLI, the API and the app receive
one, and a test that needs more metrics (stand-ins) builds its own with ``with_modules`` or
``with_specs`` instead of adding to the production one. A registry built from modules only
crosses to a worker process by its module names (each worker imports them again), because
spec builders may be lambdas that cannot be pickled.
"""
from __future__ import annotations

import functools
import importlib
import pickle
import pkgutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.metrics.framework.base import Metric, MetricCard
from radscope.engine.metrics.framework.extraction import ExtractorTable

if TYPE_CHECKING:
    from radscope.engine.metrics.framework.encoder_extraction import EncoderExtractor
    from radscope.engine.statistics.record_percentile import CorpusStatistics

MetricKind = Literal["lexical", "llm", "encoder", "rules"]
# A result's details as the flat columns a spreadsheet user wants (engine.io.export)
ExportColumns = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class MetricSpec:
    name: str
    card: MetricCard
    build: Callable[[RuntimeContext], Metric]
    # The model the metric can run beyond the rules reader: "llm" (a judge), "encoder" (an ONNX
    # encoder), or none ("lexical", "rules"). Which extractor a run uses is the table's choice
    # under the run's options: the rules reader runs CREPE and SRR too under --extractor rules.
    kind: MetricKind
    options: tuple[Option, ...] = ()
    extractors: ExtractorTable | None = None  # the metric's extractors by kind (engine.metrics.framework.extraction)
    # An encoder metric's encoder extractor: its ``model_option`` and the ``default_model`` that
    # ``auto`` stands for, read without loading any model (engine.metrics.framework.defaults)
    encoder: type[EncoderExtractor] | None = None
    # The family it belongs to: the app draws it with that family's panel and corpus plot, and
    # what it does not declare below it takes from that family's spec ("" = its own name).
    family: str = ""
    # Its per-pair statistics record and corpus figures (``<package>.stats.SPEC``); None: the
    # family's, else the mean of its per-pair score.
    statistics: CorpusStatistics | None = None
    # Its details as flat export columns (prefixed with its name by the export); None: the
    # family's, else the score, error, model and signature only.
    export_columns: ExportColumns | None = None

    def __post_init__(self) -> None:
        if not self.family:
            object.__setattr__(self, "family", self.name)


def _specs_of(modules: Iterable[str]) -> list[MetricSpec]:
    """The ``METRICS`` lists of the named modules, in order."""
    return [spec for name in modules for spec in getattr(importlib.import_module(name), "METRICS", ())]


class MetricRegistry:
    """Metric name -> spec, fixed at construction; a name declared twice is an error, and so is
    an option two metrics declare differently (the CLI and the app show one control each)."""

    def __init__(self, specs: Iterable[MetricSpec], modules: Sequence[str] | None = None) -> None:
        self._specs: dict[str, MetricSpec] = {}
        for spec in specs:
            if spec.name in self._specs and self._specs[spec.name] is not spec:
                raise ValueError(f"metric {spec.name!r} is registered twice")
            self._specs[spec.name] = spec
            _SEEN[spec.name] = spec
        self._options: dict[str, Option] = {}
        for spec in self._specs.values():
            for opt in spec.options:
                if opt.name in self._options and self._options[opt.name] != opt:
                    raise ValueError(f"option {opt.name!r} is declared differently by two metrics")
                self._options[opt.name] = opt
        self._modules = None if modules is None else tuple(modules)

    @classmethod
    def from_modules(cls, modules: Iterable[str]) -> MetricRegistry:
        """The specs of the named modules' ``METRICS`` lists (importing them)."""
        modules = tuple(modules)
        return cls(_specs_of(modules), modules)

    def with_modules(self, modules: Iterable[str]) -> MetricRegistry:
        """A new registry: these specs plus those of the named modules."""
        modules = tuple(modules)
        if self._modules is None:
            return MetricRegistry([*self._specs.values(), *_specs_of(modules)])
        return MetricRegistry.from_modules((*self._modules, *modules))

    def with_specs(self, specs: Iterable[MetricSpec]) -> MetricRegistry:
        """A new registry: these specs plus ``specs`` (it cannot go to worker processes)."""
        return MetricRegistry([*self._specs.values(), *specs])

    def __reduce__(self) -> tuple[Any, ...]:
        if self._modules is None:
            raise pickle.PicklingError("a metric registry built from loose specs cannot go to a "
                                       "worker process; build it with from_modules/with_modules")
        return (MetricRegistry.from_modules, (self._modules,))

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def names(self) -> list[str]:
        return list(self._specs)

    def get(self, name: str) -> MetricSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise KeyError(f"unknown metric {name!r}; known metrics: {', '.join(self._specs)}") from None

    def all_options(self) -> dict[str, Option]:
        """Every option declared by any metric, once each (a copy: the registry stays fixed)."""
        return dict(self._options)

    def parse_metric_list(self, text: str | Iterable[str]) -> list[str]:
        """``"bleu, rouge"`` -> ``["bleu", "rouge"]``, checking that every name is registered."""
        items = text.split(",") if isinstance(text, str) else list(text)
        chosen = [s.strip().lower() for s in items if s.strip()]
        known = ", ".join(self._specs)
        if not chosen:
            raise ValueError("no metric given; choose from: " + known)
        unknown = [n for n in chosen if n not in self._specs]
        if unknown:
            raise ValueError(f"unknown metric(s): {', '.join(unknown)}; choose from: {known}")
        return list(dict.fromkeys(chosen))

    def build(self, names: Iterable[str], ctx: RuntimeContext) -> list[Metric]:
        return [self.get(n).build(ctx) for n in names]


def metric_modules() -> list[str]:
    """Every metric package directly under ``radscope.engine.metrics`` (each declares METRICS), in
    name order; the framework package declares none. Packages only: a stray module there (a
    wheel built over a stale ``build/`` folder keeps the modules of an older tree) is never
    imported."""
    import radscope.engine.metrics as package

    return [f"radscope.engine.metrics.{info.name}" for info in pkgutil.iter_modules(package.__path__)
            if info.ispkg and info.name != "framework"]


@functools.cache
def production() -> MetricRegistry:
    """The project's metrics, collected once per process (the entry points' default)."""
    return MetricRegistry.from_modules(metric_modules())


# Every spec a registry of this process was built with, by name: results, summaries and stored
# runs name their metric only, and a test's stand-in lives in its own registry, not production's.
_SEEN: dict[str, MetricSpec] = {}


def spec_for(name: str) -> MetricSpec | None:
    """The spec of the metric called ``name`` (a registry built in this process, else the
    project's); None for a name no registry declares (a stored run of a metric since removed)."""
    return _SEEN.get(name) or (production().get(name) if name in production() else None)


def family_of(name: str) -> str:
    """The family ``name`` declares (its own name when it declares none or is unknown)."""
    spec = spec_for(name)
    return spec.family if spec is not None else name


def statistics_of(name: str) -> CorpusStatistics | None:
    """The statistics record ``name`` declares, else its family's (None: none declared)."""
    return _declared(name, "statistics")


def export_columns_of(name: str) -> ExportColumns | None:
    """The export columns ``name`` declares, else its family's (None: none declared)."""
    return _declared(name, "export_columns")


def _declared(name: str, field: str) -> Any:
    spec = spec_for(name)
    if spec is None:
        return None
    own = getattr(spec, field)
    if own is not None or spec.family == spec.name:
        return own
    family = spec_for(spec.family)
    return None if family is None else getattr(family, field)
