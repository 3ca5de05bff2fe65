"""Judge ensembles for VERT: several judges' scores of one pair averaged over those that gave
one. No production path runs an ensemble; the tests keep the rule written down."""
from __future__ import annotations

from collections.abc import Sequence


def ensemble_mean(scores: Sequence[float | None], min_judges: int = 1) -> float | None:
    """Mean of several judges' scores for one pair, over the judges that gave one.

    A judge whose score is unavailable is left out rather than counted as 0 (that would
    punish the pair for a parsing failure); with fewer than ``min_judges`` available scores
    the ensemble itself is unavailable (``None``).
    """
    available = [float(s) for s in scores if s is not None]
    if len(available) < max(1, min_judges):
        return None
    return sum(available) / len(available)


def ensemble_corpus(per_judge: Sequence[Sequence[float | None]],
                    min_judges: int = 1) -> list[float | None]:
    """``ensemble_mean`` pair by pair; ``per_judge[j][p]`` is judge j's score of pair p."""
    lengths = {len(scores) for scores in per_judge}
    if len(lengths) > 1:
        raise ValueError(f"judges scored different numbers of pairs: {sorted(lengths)}")
    return [ensemble_mean(pair_scores, min_judges) for pair_scores in zip(*per_judge, strict=True)]
