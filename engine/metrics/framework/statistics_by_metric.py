"""Which statistics record and corpus figures summarise a metric: the one its spec declares
(``MetricSpec.statistics``, else its family's), else the mean of its per-pair score. A lookup,
no bootstrap (``radscope.engine.statistics.record_percentile`` bootstraps the records it names).

It lives with the metrics, not in ``radscope.engine.statistics``, because the specs import every
metric's ``stats`` module, and those import ``radscope.engine.statistics``: one package may not
import the other both ways (the acyclic contract of .importlinter).
"""
from __future__ import annotations

from radscope.engine.metrics.framework.registry import statistics_of
from radscope.engine.statistics.record_percentile import CorpusStatistics, score_only


def statistics_for(metric: str) -> CorpusStatistics:
    """The statistics of ``metric``: its spec's, its family's, or the mean of its per-pair score."""
    return statistics_of(metric) or score_only(metric)
