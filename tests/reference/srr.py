"""SRR-BERT corpus scores recomputed from stored per-pair label sets (optionally in another
status view): the reference for the run summary's SRR figures."""
from __future__ import annotations

from collections.abc import Sequence

from radscope.engine.metrics.srr.score import SrrCorpusScore, SrrPairScore, corpus_scores
from radscope.models.srr_labels import LabelLevel, StatusView


def corpus_from_pairs(pairs: Sequence[SrrPairScore],
                      view: StatusView | None = None) -> SrrCorpusScore:
    """Recompute corpus scores from stored per-pair results (optionally in another view)."""
    levels = {pair.level for pair in pairs}
    if len(levels) > 1:
        raise ValueError(f"pairs mix SRR-BERT label levels {sorted(levels)}; score them separately")
    if view is None:
        views = {pair.view for pair in pairs}
        if len(views) > 1:
            raise ValueError(f"pairs mix status views {sorted(views)}; pass view= explicitly")
        view = StatusView(views.pop()) if views else StatusView.ALL
    level = LabelLevel(levels.pop()) if levels else LabelLevel.LEAVES_WITH_STATUSES
    return corpus_scores([pair.reference_labels for pair in pairs],
                         [pair.candidate_labels for pair in pairs], level, view)
