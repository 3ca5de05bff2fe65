"""SRR-BERT's per-pair statistics record (both reports' label sets as label indices, with the
level and view they were read at) and its corpus figures: micro and macro precision, recall
and F1 at the stored level and its upper level, from per-label counts. The nested corpus
dict is ``score.corpus_scores`` on the decoded label sets, as before. ``STATS_VERSION`` is
bumped when the record's meaning changes; stored results of another version are refused."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from radscope.engine.metrics.srr.score import corpus_scores
from radscope.engine.statistics import record_percentile as cs
from radscope.models.srr_labels import (
    LabelLevel,
    StatusView,
    apply_view,
    labels_for,
    labels_to_upper,
    view_vocabulary,
)

METRIC = "srr"
_LEVELS = tuple(LabelLevel)
_VIEWS = tuple(StatusView)


@dataclass(frozen=True, slots=True)
class SrrStats:
    """One pair: level and view (indices in LabelLevel / StatusView) and each report's labels
    as indices into ``labels_for(level)``."""

    METRIC: ClassVar[str] = METRIC
    STATS_VERSION: ClassVar[int] = 1
    level: int
    view: int
    reference: tuple[float, ...]
    candidate: tuple[float, ...]

    @classmethod
    def from_result(cls, payload: Mapping[str, Any], pair: str = "?") -> SrrStats:
        cs.check_version(METRIC, payload, cls, pair)
        try:
            level = LabelLevel(cs.require(METRIC, payload, pair, "level"))
            view = StatusView(cs.require(METRIC, payload, pair, "view"))
        except ValueError as exc:
            raise cs.StatsError(f"{METRIC}: pair {pair}: {exc}") from exc
        index = {label: i for i, label in enumerate(labels_for(level))}
        sides = []
        for side in ("reference_labels", "candidate_labels"):
            labels = cs.require(METRIC, payload, pair, side)
            unknown = [x for x in labels if x not in index]
            if unknown:
                raise cs.StatsError(f"{METRIC}: pair {pair}: field {side!r} has labels outside "
                                    f"the {level.value} vocabulary: {unknown}")
            sides.append(tuple(float(index[x]) for x in labels))
        return cls(_LEVELS.index(level), _VIEWS.index(view), sides[0], sides[1])


def _setting(table: cs.RecordTable) -> tuple[LabelLevel, StatusView]:
    levels = {int(v) for v in np.unique(table.column("level"))}
    views = {int(v) for v in np.unique(table.column("view"))}
    if len(levels) > 1 or len(views) > 1:
        raise ValueError("pairs mix SRR-BERT label levels or status views; score them separately")
    return _LEVELS[levels.pop()], _VIEWS[views.pop()]


def _label_sets(table: cs.RecordTable, start: int, stop: int) -> tuple[list[list[str]], list[list[str]]]:
    level, _ = _setting(table)
    names = labels_for(level)
    out = []
    for side in ("reference", "candidate"):
        values, lengths = table.ragged(side, start, stop)
        ends = np.cumsum(lengths)
        out.append([[names[int(i)] for i in values[e - n:e]] for e, n in zip(ends, lengths, strict=True)])
    return out[0], out[1]


def _levels(table: cs.RecordTable) -> tuple[tuple[str, LabelLevel], ...]:
    level, _ = _setting(table)
    return (("upper", level),) if level.is_upper else (("leaf", level), ("upper", level.upper_level))


def features(table: cs.RecordTable, start: int, stop: int, options: cs.Options) -> np.ndarray:
    """pairs; per level (leaf, upper): per label of the view's vocabulary TP, reference,
    candidate indicators."""
    level, view = _setting(table)
    refs, cands = _label_sets(table, start, stop)
    parts = [np.ones((stop - start, 1))]
    for name, at in _levels(table):
        vocab = {label: i for i, label in enumerate(view_vocabulary(at, view))}
        block = np.zeros((stop - start, 3, len(vocab)))
        for row, (ref, cand) in enumerate(zip(refs, cands, strict=True)):
            if name == "upper" and not level.is_upper:
                ref, cand = labels_to_upper(ref), labels_to_upper(cand)
            r = {vocab[x] for x in apply_view(ref, at, view)}
            c = {vocab[x] for x in apply_view(cand, at, view)}
            block[row, 0, list(r & c)] = 1
            block[row, 1, list(r)] = 1
            block[row, 2, list(c)] = 1
        parts.append(block.reshape(stop - start, -1))
    return np.hstack(parts)


def figures(sums: np.ndarray, options: cs.Options) -> dict[str, np.ndarray]:
    """Micro and macro (over labels either side used) P, R, F1 per level."""
    out = {"n_reports": sums[:, 0]}
    offset = 1
    for name in _level_names(options):
        width = options_width(options, name)
        block = sums[:, offset:offset + 3 * width].reshape(-1, 3, width)
        offset += 3 * width
        tp, ref, pred = block[:, 0], block[:, 1], block[:, 2]
        active = (ref + pred) > 0
        p, r = cs.ratio(tp, pred, 0.0), cs.ratio(tp, ref, 0.0)
        f = cs.ratio(2 * tp, ref + pred, 0.0)
        any_active = active.any(axis=1)
        micro_p = cs.ratio(tp.sum(axis=1), pred.sum(axis=1), 0.0)
        micro_r = cs.ratio(tp.sum(axis=1), ref.sum(axis=1), 0.0)
        values = {"micro.precision": micro_p, "micro.recall": micro_r,
                  "micro.f1": cs.ratio(2 * tp.sum(axis=1), (ref + pred).sum(axis=1), 0.0)}
        for key, per_label in (("precision", p), ("recall", r), ("f1", f)):
            values[f"macro.{key}"] = cs.masked_mean(per_label, active)
        for key, v in values.items():
            out[f"{name}.{key}"] = np.where(any_active, v, np.nan)
    return out


def options_width(options: cs.Options, name: str) -> int:
    level, view = LabelLevel(options["level"]), StatusView(options["view"])
    at = level if name == "leaf" or level.is_upper else level.upper_level
    return len(view_vocabulary(at, view))


def _level_names(options: cs.Options) -> tuple[str, ...]:
    return ("upper",) if LabelLevel(options["level"]).is_upper else ("leaf", "upper")


def nest(figs: Mapping[str, float], table: cs.RecordTable, options: cs.Options) -> dict[str, Any]:
    """``corpus_scores`` on the stored label sets, as SRR has always reported them."""
    if not len(table):
        return {}
    level, view = _setting(table)
    refs, cands = _label_sets(table, 0, len(table))
    return corpus_scores(refs, cands, level, view).to_json()


def with_setting(table: cs.RecordTable, options: cs.Options) -> dict[str, str]:
    """The options with the level and view the records were read at."""
    level, view = _setting(table)
    return {**options, "level": level.value, "view": view.value}


def aggregate(stats: Sequence[SrrStats], options: cs.Options) -> dict[str, float]:
    """Micro and macro F1-SRR-BERT (P, R, F1) at both levels of these pairs."""
    return cs.aggregate(SPEC, stats, options)


SPEC = cs.CorpusStatistics(
    METRIC, SrrStats, SrrStats.from_result, features, figures, nest,
    headline=("leaf.micro.f1", "leaf.macro.f1"), settle=with_setting,
    directions=(("n_reports", "descriptive"), ("*.precision", "higher"), ("*.recall", "higher"),
                ("*.f1", "higher")))
