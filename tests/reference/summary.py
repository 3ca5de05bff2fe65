"""A metric's corpus aggregates rebuilt from stored result payloads through the run summary,
as a resumed run would see them."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from radscope.engine.metrics.framework.base import Metric
from radscope.engine.runs.summary import SummaryBuilder
from radscope.engine.statistics import record_percentile as corpus_stats


def stored_corpus(metric: Metric, payloads: Sequence[Mapping[str, Any]],
                  n_resamples: int = corpus_stats.FIGURE_RESAMPLES) -> dict[str, Any]:
    """The corpus aggregates of stored result payloads (as a run's summary gives them)."""
    builder = SummaryBuilder([metric], n_resamples=n_resamples)
    for payload in payloads:
        builder.add_row({metric.name: dict(payload)})
    return builder.summary(Counter())["metrics"][metric.name]["corpus"]
