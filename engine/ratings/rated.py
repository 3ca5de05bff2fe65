"""``RatedPairs``: report pairs with one human rating each, which every reader gives and the
agreement reads, and the six error categories that per-category counts use."""
from __future__ import annotations

from dataclasses import dataclass

from radscope.engine.io.reports import ReportPair

# ReXVal numbers its six error categories 1-6; RadScope (CREPE, VERT) names them A-F.
CATEGORY_LETTERS = ("A", "B", "C", "D", "E", "F")
CATEGORY_MEANINGS = {
    "A": "a finding stated that the reference does not support",
    "B": "a finding of the reference left out",
    "C": "a finding put in the wrong place or position",
    "D": "a finding given the wrong severity",
    "E": "a comparison with a prior study that the reference does not make",
    "F": "a change from a prior study, described in the reference, left out",
}


@dataclass
class RatedPairs:
    """``ratings[i]`` is the human rating of ``pairs[i]``; ``lower_is_better`` says its
    direction (True for error counts). ``category_counts[i]``, when the source has them, are
    the human error counts of pair i per category A-F (for detection F1). ``rating`` says what
    the number is, ``source`` where it came from; ``n_unrated`` pairs had no rating and are
    left out. ``significant_only``: the category counts are of clinically significant errors
    only (a judge's are then compared on its significant errors alone)."""

    pairs: list[ReportPair]
    ratings: list[float]
    lower_is_better: bool
    rating: str
    source: str
    category_counts: list[dict[str, float]] | None = None
    n_unrated: int = 0
    significant_only: bool = False

    def __post_init__(self) -> None:
        sizes = {len(self.pairs), len(self.ratings)}
        if self.category_counts is not None:
            sizes.add(len(self.category_counts))
        if len(sizes) != 1:
            raise ValueError(f"{self.source}: {len(self.pairs)} pairs but {len(self.ratings)} ratings"
                             + ("" if self.category_counts is None else
                                f" and {len(self.category_counts)} category counts"))
