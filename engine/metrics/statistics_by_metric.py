"""Which statistics record and corpus figures belong to which metric, by metric name: a lookup
table, no bootstrap (``radscope.engine.statistics.record_percentile`` bootstraps the records it names).

It lives with the metrics, not in ``radscope.engine.statistics``, because it imports every metric's
``stats`` module, and those import ``radscope.engine.statistics``: one package may not import the other
both ways (the acyclic contract of .importlinter).

Each metric package declares its ``CorpusStatistics`` in its ``stats`` module; this table
names them explicitly (no registration on import, so a lookup can never run before a module
that would have registered). A metric without a record of its own (the lexical baselines, a
test's stand-in) is summarised by the mean of its per-pair score.
"""
from __future__ import annotations

from radscope.engine.metrics.clear import stats as clear_stats
from radscope.engine.metrics.crepe import stats as crepe_stats
from radscope.engine.metrics.radsem import stats as radsem_stats
from radscope.engine.metrics.srr import stats as srr_stats
from radscope.engine.metrics.vert import stats as vert_stats
from radscope.engine.statistics.record_percentile import CorpusStatistics, score_only

DECLARED: dict[str, CorpusStatistics] = {
    module.SPEC.metric: module.SPEC
    for module in (clear_stats, crepe_stats, radsem_stats, srr_stats, vert_stats)}


def statistics_for(metric: str) -> CorpusStatistics:
    """The statistics of ``metric``: its own, its family's, or the mean of its per-pair score."""
    if metric in DECLARED:
        return DECLARED[metric]
    for sep in ("-", "_", ":"):  # a variant named after its family ("clear-standin")
        family = metric.split(sep, 1)[0]
        if family in DECLARED:
            return DECLARED[family]
    return score_only(metric)
