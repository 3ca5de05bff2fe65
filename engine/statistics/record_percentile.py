"""The percentile bootstrap over typed per-pair records: every corpus figure of a metric (CLEAR
F1@13, F1-SRR-BERT micro / macro, RadSEM class F1, ...) with its interval and paired tests.

It serves the figures that are not means of one per-pair score (``mean_bca`` serves those);
which record each metric keeps is declared on its spec (``MetricSpec.statistics``).

sacreBLEU's pattern: each metric turns one pair's result into a small frozen record of numbers
(``<metric>/stats.py``), and every corpus figure is a pure function of those records. Here the
records are reduced to *additive features* (one row of numbers per pair, e.g. a condition's
true-positive indicator), and each figure is a function of the features' sums (an F1 is
2 TP / (true + predicted) of summed counts; a mean is a summed value over a summed count).
That one shape gives, for every figure at once:

- the point value (sums over all pairs),
- a percentile bootstrap interval (pairs resampled with replacement: per resample a
  multinomial count per pair, drawn chunk of pairs by chunk of pairs as conditional binomials,
  so memory stays flat in n: never an n x resamples matrix), and
- a paired comparison: the paired bootstrap interval of the difference and the p-value read
  from that interval (``inverted_p``), one set of resamples for both.

``RecordTable`` keeps a metric's records as typed columns (8 bytes per number) instead of
Python objects, so a summary of a million pairs holds megabytes, not the result payloads.
Each record type has a ``STATS_VERSION``, which the metric class repeats as ``stats_version``
(a test checks that the two agree). From version 2 on it is part of the metric's signature
(``Metric.signature``), so a bump makes a resumed run score stored pairs again and a
comparison see the change; a stored payload that names another version, or does not fit the
record, is refused with a ``StatsError`` naming metric, pair and field, never read silently.
"""
from __future__ import annotations

import fnmatch
import math
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, Protocol, get_type_hints

import numpy as np

from radscope.engine.statistics.inverted_p import check_resamples, inverted_p_value, percentile_bounds

CONFIDENCE = 0.95
FIGURE_RESAMPLES = 1000  # resamples for figure intervals and tests (sacreBLEU's default)
DEFAULT_SEED = 0
# Pairs whose features are built and weighted at once (bounds memory with the resamples).
_ROW_CHUNK = 4096

Options = Mapping[str, str]
FigureDirection = Literal["higher", "lower", "descriptive", "metric"]


class StatsError(ValueError):
    """A stored result that does not fit its metric's statistics record."""


class StatsRecord(Protocol):
    """A frozen, slotted dataclass of numbers (float, int or tuple[float, ...]) per pair."""

    METRIC: ClassVar[str]
    STATS_VERSION: ClassVar[int]


@dataclass(frozen=True)
class CorpusStatistics:
    """What a metric's ``stats`` module declares (its ``MetricSpec.statistics``; looked up by
    metric name): its record type, the record's additive
    features, and the figures computed from summed features.

    ``features(table, start, stop, options)`` gives an (stop - start) x k float array, one row
    per pair; ``figures(sums, options)`` takes a (B, k) array of summed rows (with the pair
    count as ``sums[:, 0]``, which ``features`` must put first) and returns figure name ->
    (B,) array, NaN where a figure is undefined. ``nest`` turns the point figures into the
    nested corpus dict the summary has always shown (None for NaN; it may also read the
    records). ``headline`` names the figures the app's summary table shows."""

    metric: str
    record: type[StatsRecord]
    from_result: Callable[..., Any]  # (payload, pair=...) -> record, or StatsError
    features: Callable[[RecordTable, int, int, Options], np.ndarray]
    figures: Callable[[np.ndarray, Options], dict[str, np.ndarray]]
    nest: Callable[[Mapping[str, float], RecordTable, Options], dict[str, Any]]
    headline: tuple[str, ...] = ()
    # Options completed from the records themselves (e.g. SRR's label level); None: as given.
    settle: Callable[[RecordTable, Options], Options] | None = None
    # How point sums add floats: "pairwise" (NumPy's, as np.mean) or "sequential" (as Python's
    # sum), whichever the metric's figures were first defined with, so values stay identical.
    summation: str = "pairwise"
    # Each figure's direction, as (glob pattern, direction) pairs, first match wins: "higher" or
    # "lower" is better (error counts are lower-better), "descriptive" (a count of pairs or of
    # sentences: no verdict), "metric" (the metric's own direction: its per-pair score's mean).
    # A figure no pattern covers has no direction: ``direction_of`` refuses it.
    directions: tuple[tuple[str, FigureDirection], ...] = ()
    # The figure that is the mean of the per-pair score (or, where that depends on the options,
    # a function of them giving it): the summary's mean and the comparison's first row already
    # are that figure, so it gets their interval and is not compared twice.
    score_figure: str | Callable[[Options], str | None] | None = None

    def direction_of(self, figure: str) -> FigureDirection:
        """The declared direction of ``figure`` (StatsError when none is declared)."""
        for pattern, direction in self.directions:
            if fnmatch.fnmatchcase(figure, pattern):
                return direction
        raise StatsError(f"{self.metric}: figure {figure!r} declares no direction")

    def score_figure_for(self, options: Options) -> str | None:
        """The figure that equals the mean per-pair score under ``options`` (None: none does)."""
        figure = self.score_figure
        return figure(options) if callable(figure) else figure

    def options_for(self, table: RecordTable, options: Options) -> Options:
        return self.settle(table, options) if self.settle and len(table) else options


# --- records -------------------------------------------------------------------------------


def field_kinds(record: type) -> dict[str, str]:
    """Field name -> "f" (float), "i" (int) or "t" (tuple of floats) for a record type."""
    kinds = {}
    hints = get_type_hints(record)
    for f in fields(record):
        hint = hints[f.name]
        if hint in (float, int):
            kinds[f.name] = "f" if hint is float else "i"
        elif hint == tuple[float, ...]:
            kinds[f.name] = "t"
        else:
            raise TypeError(f"{record.__name__}.{f.name}: a statistics record holds numbers only "
                            f"(float, int, tuple[float, ...]), not {hint}")
    return kinds


def check_version(metric: str, payload: Mapping[str, Any], record: type[StatsRecord],
                  pair: str) -> None:
    """Refuse a payload whose stored statistics version differs from the record's."""
    stored = payload.get("stats_version")
    if stored is not None and stored != record.STATS_VERSION:
        raise StatsError(f"{metric}: pair {pair}: statistics version {stored} is not the current "
                         f"{record.STATS_VERSION}; score the pair again")


def require(metric: str, payload: Mapping[str, Any], pair: str, *path: str) -> Any:
    """``payload[path[0]][path[1]]...`` or a StatsError naming metric, pair and field."""
    value: Any = payload
    for depth, key in enumerate(path):
        if not isinstance(value, Mapping) or key not in value:
            raise StatsError(f"{metric}: pair {pair}: stored result lacks field "
                             f"{'.'.join(path[:depth + 1])!r}")
        value = value[key]
    return value


def number(metric: str, pair: str, name: str, value: Any, *, allow_none: bool = False) -> float:
    """A stored number as float (None -> NaN where allowed), or a StatsError."""
    if value is None and allow_none:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StatsError(f"{metric}: pair {pair}: field {name!r} must be a number, got {value!r}")
    return float(value)


class RecordTable(Sequence[Any]):
    """Records of one type stored column by column (array.array), read back as records or
    as NumPy columns. Tuple fields are stored flat with one length per record."""

    def __init__(self, record: type, records: Sequence[Any] = ()) -> None:
        self.record = record
        self.kinds = field_kinds(record)
        self._columns: dict[str, array] = {}
        self._lengths: dict[str, array] = {}
        for name, kind in self.kinds.items():
            self._columns[name] = array("q" if kind == "i" else "d")
            if kind == "t":
                self._lengths[name] = array("I")
        self._n = 0
        self._offset_cache: dict[str, np.ndarray] = {}
        for r in records:
            self.append(r)

    def append(self, record: Any) -> None:
        if type(record) is not self.record:
            raise TypeError(f"expected {self.record.__name__}, got {type(record).__name__}")
        for name, kind in self.kinds.items():
            value = getattr(record, name)
            if kind == "t":
                self._columns[name].extend(value)
                self._lengths[name].append(len(value))
            else:
                self._columns[name].append(value)
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._n))]
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError(index)
        values = {}
        for name, kind in self.kinds.items():
            if kind == "t":
                offsets = self._offsets(name)
                values[name] = tuple(self._columns[name][offsets[index]:offsets[index + 1]])
            else:
                values[name] = self._columns[name][index]
        return self.record(**values)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(self._n))

    def column(self, name: str, start: int = 0, stop: int | None = None) -> np.ndarray:
        """A scalar field's values for records start..stop (a copy: a live view of the
        column would stop it from growing)."""
        return np.frombuffer(self._columns[name], dtype=np.int64 if self.kinds[name] == "i"
                             else np.float64)[start:stop].copy()

    def ragged(self, name: str, start: int = 0, stop: int | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """A tuple field's flat values for records start..stop and each record's length."""
        offsets = self._offsets(name)
        stop = self._n if stop is None else stop
        values = np.frombuffer(self._columns[name], dtype=np.float64)
        lengths = np.frombuffer(self._lengths[name], dtype=np.uint32)[start:stop]
        return values[offsets[start]:offsets[stop]].copy(), lengths.astype(np.int64)

    def _offsets(self, name: str) -> np.ndarray:
        cached = self._offset_cache.get(name)
        if cached is None or cached.size != self._n + 1:  # records were added since
            lengths = np.frombuffer(self._lengths[name], dtype=np.uint32)
            cached = np.concatenate(([0], np.cumsum(lengths, dtype=np.int64)))
            self._offset_cache[name] = cached
        return cached

    def nbytes(self) -> int:
        """Bytes held by the columns (what a summary keeps per pair)."""
        return sum(a.itemsize * len(a) for a in (*self._columns.values(), *self._lengths.values()))


def as_table(spec: CorpusStatistics, stats: Sequence[Any]) -> RecordTable:
    return stats if isinstance(stats, RecordTable) else RecordTable(spec.record, stats)


# --- the mean of per-pair scores (metrics without a record of their own) ------------------


@dataclass(frozen=True, slots=True)
class ScoreStats:
    """The per-pair score: what the lexical metrics (and any metric without a record of
    its own) aggregate."""

    METRIC: ClassVar[str] = "*"
    STATS_VERSION: ClassVar[int] = 1
    score: float


def score_only(metric: str) -> CorpusStatistics:
    """The statistics of a metric without a record of its own: the mean of its per-pair score."""
    def from_result(payload: Mapping[str, Any], pair: str = "?") -> ScoreStats:
        return ScoreStats(number(metric, pair, "score", payload.get("score")))

    def features(table: RecordTable, start: int, stop: int, options: Options) -> np.ndarray:
        score = table.column("score", start, stop)
        return np.column_stack([np.ones_like(score), score])

    def figures(sums: np.ndarray, options: Options) -> dict[str, np.ndarray]:
        return {"mean": ratio(sums[:, 1], sums[:, 0])}

    return CorpusStatistics(metric, ScoreStats, from_result, features, figures,
                            nest=lambda figs, table, options: {}, headline=(),
                            directions=(("mean", "metric"),), score_figure="mean")


# --- figures --------------------------------------------------------------------------------


def ratio(numerator: np.ndarray, denominator: np.ndarray, empty: float = math.nan) -> np.ndarray:
    """numerator / denominator, ``empty`` where the denominator is 0."""
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    out = np.full(np.broadcast(num, den).shape, empty)
    np.divide(num, den, out=out, where=den != 0)
    return out


def masked_mean(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per row, the mean of the values where ``mask`` holds (NaN where none does): the same
    summation as np.mean over the kept values, so point figures equal those computed that way."""
    out = np.full(values.shape[0], np.nan)
    for row in np.flatnonzero(mask.any(axis=1)):
        out[row] = np.mean(values[row, mask[row]])
    return out


def optional(value: float) -> float | None:
    """A point figure for JSON: NaN (undefined) becomes None."""
    return None if value is None or math.isnan(value) else float(value)


def feature_sums(spec: CorpusStatistics, table: RecordTable, options: Options) -> np.ndarray:
    """Column sums of the features over every pair, a chunk of pairs at a time."""
    total: np.ndarray | None = None
    for start in range(0, len(table), _ROW_CHUNK):
        part = spec.features(table, start, min(len(table), start + _ROW_CHUNK), options)
        if spec.summation == "sequential":
            first = np.zeros((1, part.shape[1])) if total is None else total[None, :]
            total = np.cumsum(np.vstack([first, part]), axis=0)[-1]
            continue
        # Column by column on contiguous columns: the same summation a 1-D np.sum does.
        chunk = np.array([np.sum(np.ascontiguousarray(part[:, j])) for j in range(part.shape[1])])
        total = chunk if total is None else total + chunk
    return total if total is not None else np.zeros(0)


def point_figures(spec: CorpusStatistics, stats: Sequence[Any], options: Options) -> dict[str, float]:
    """Every corpus figure of ``stats`` (empty when there is no pair)."""
    table = as_table(spec, stats)
    if not len(table):
        return {}
    options = spec.options_for(table, options)
    sums = feature_sums(spec, table, options)
    return {name: float(v[0]) for name, v in spec.figures(sums[None, :], options).items()}


def aggregate(spec: CorpusStatistics, stats: Sequence[Any], options: Options) -> dict[str, float]:
    """Module-level ``aggregate`` of every metric's stats module."""
    return point_figures(spec, stats, options)


# --- resampling -----------------------------------------------------------------------------


def _multinomial_chunks(n: int, n_resamples: int, rng: np.random.Generator
                        ) -> Iterator[tuple[int, int, np.ndarray]]:
    """Per chunk of pairs, each resample's count of every pair in it, for resamples that draw n
    pairs with replacement: the count landing in a chunk is binomial given what is left, and
    is spread over the chunk's pairs uniformly. Exactly the multinomial bootstrap, with only
    resamples x chunk counts held at once."""
    left = np.full(n_resamples, n, dtype=np.int64)
    for start in range(0, n, _ROW_CHUNK):
        stop = min(n, start + _ROW_CHUNK)
        size = stop - start
        rest = n - start
        drawn = left if size == rest else rng.binomial(left, size / rest)
        left = left - drawn
        cell = np.repeat(np.arange(n_resamples) * size, drawn) + rng.integers(0, size, int(drawn.sum()))
        yield start, stop, np.bincount(cell, minlength=n_resamples * size).reshape(n_resamples, size).astype(float)


def _weighted(counts: np.ndarray, features: np.ndarray) -> np.ndarray:
    """counts @ features, skipping the feature columns that are zero in this chunk (most of a
    CLEAR row: rare conditions, attributes of absent true positives)."""
    used = np.flatnonzero(features.any(axis=0))
    out = np.zeros((counts.shape[0], features.shape[1]))
    out[:, used] = counts @ features[:, used]
    return out


def figure_intervals(spec: CorpusStatistics, stats: Sequence[Any], options: Options,
                     n_resamples: int = FIGURE_RESAMPLES, seed: int = DEFAULT_SEED,
                     confidence: float = CONFIDENCE) -> dict[str, dict[str, float | None]]:
    """Figure name -> {"value", "ci_low", "ci_high"}: percentile bootstrap over pairs."""
    table = as_table(spec, stats)
    points = point_figures(spec, table, options)
    if not points:
        return {}
    options = spec.options_for(table, options)
    rng = np.random.default_rng(seed)
    sums: np.ndarray | None = None
    for start, stop, counts in _multinomial_chunks(len(table), n_resamples, rng):
        part = _weighted(counts, spec.features(table, start, stop, options))
        sums = part if sums is None else sums + part
    assert sums is not None
    resampled = spec.figures(sums, options)
    out = {}
    for name, value in points.items():
        low, high = percentile_bounds(resampled[name], confidence) if math.isfinite(value) else (None, None)
        out[name] = {"value": optional(value), "ci_low": low, "ci_high": high}
    return out


@dataclass(frozen=True)
class FigureComparison:
    """System B against A on one figure: B - A with its paired bootstrap interval and the
    p-value read from that interval (None where the figure is undefined on either side)."""

    a: float | None
    b: float | None
    diff: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "diff": self.diff, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "p_value": self.p_value}


def paired_figures(spec: CorpusStatistics, stats_a: Sequence[Any], stats_b: Sequence[Any],
                   options: Options, n_resamples: int = FIGURE_RESAMPLES,
                   seed: int = DEFAULT_SEED, confidence: float = CONFIDENCE
                   ) -> dict[str, FigureComparison]:
    """Every figure of B against A on aligned records (``stats_a[i]`` and ``stats_b[i]`` are
    the two systems on the same reference).

    One paired bootstrap per figure: pairs are resampled with both systems' records together
    (as ``figure_intervals`` resamples them), the interval of B - A is the percentile interval
    of the resampled differences, and the p-value is that interval read backwards
    (``inverted_p``: the smallest alpha whose interval leaves out 0), so the interval excludes
    0 exactly when p < 1 - ``confidence``."""
    check_resamples(n_resamples, confidence)
    table_a, table_b = as_table(spec, stats_a), as_table(spec, stats_b)
    n = len(table_a)
    if n != len(table_b):
        raise ValueError(f"paired statistics differ in length: {n} vs {len(table_b)}")
    if n == 0:
        return {}
    options = spec.options_for(table_a, options)
    point_a, point_b = point_figures(spec, table_a, options), point_figures(spec, table_b, options)
    rng = np.random.default_rng(seed)
    boot_a = boot_b = None
    for start, stop, counts in _multinomial_chunks(n, n_resamples, rng):
        part_a = _weighted(counts, spec.features(table_a, start, stop, options))
        part_b = _weighted(counts, spec.features(table_b, start, stop, options))
        boot_a = part_a if boot_a is None else boot_a + part_a
        boot_b = part_b if boot_b is None else boot_b + part_b
    assert boot_a is not None and boot_b is not None
    figs_a, figs_b = spec.figures(boot_a, options), spec.figures(boot_b, options)
    out = {}
    for name in point_a:
        a, b = point_a[name], point_b.get(name, math.nan)
        if not (math.isfinite(a) and math.isfinite(b)):
            out[name] = FigureComparison(optional(a), optional(b), None, None, None, None)
            continue
        resampled = figs_b[name] - figs_a[name]
        low, high = percentile_bounds(resampled, confidence)
        out[name] = FigureComparison(a, b, b - a, low, high,
                                     inverted_p_value(resampled, n_resamples))
    return out
