"""ReXVal (PhysioNet ``rexval-dataset``): six radiologists' error counts for 200 report pairs.

``50_samples_gt_and_candidates.csv`` holds one row per study: a reference report and four
candidate reports, one per column. ``6_valid_raters_per_rater_error_categories.csv`` holds one
row per (study, candidate, error category, rater, significance) with the number of errors that
rater found. The data is credentialed: bring your own copy.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from radscope.engine.io.reports import ReportPair
from radscope.engine.ratings.rated import CATEGORY_LETTERS, RatedPairs
from radscope.engine.ratings.table import RatingTable, locate

SAMPLES_FILE = "50_samples_gt_and_candidates.csv"
RATINGS_FILE = "6_valid_raters_per_rater_error_categories.csv"
CANDIDATE_TYPES = ("radgraph", "bertscore", "s_emb", "bleu")
RATING_COLUMNS = ("study_number", "candidate_type", "error_category", "rater_index",
                  "clinically_significant", "num_errors")

ErrorKind = Literal["total", "significant", "insignificant"]
ERROR_KINDS: tuple[ErrorKind, ...] = ("total", "significant", "insignificant")


@dataclass
class ReXValRating:
    """Radiologists' errors for one (study, candidate) pair, each a mean over its raters:
    ``significant`` / ``insignificant`` map categories A-F to the mean number of clinically
    significant / insignificant errors per rater."""

    pair_id: str
    study_id: str
    candidate_type: str
    n_raters: int
    significant: dict[str, float]
    insignificant: dict[str, float]

    def counts(self, kind: ErrorKind = "total") -> dict[str, float]:
        """Mean errors per category A-F of ``kind``."""
        if kind not in ERROR_KINDS:
            raise ValueError(f"kind must be one of {ERROR_KINDS}, not {kind!r}")
        return {letter: (self.significant[letter] if kind != "insignificant" else 0.0)
                + (self.insignificant[letter] if kind != "significant" else 0.0)
                for letter in CATEGORY_LETTERS}

    @property
    def total(self) -> float:
        return float(sum(self.counts("total").values()))


@dataclass
class ReXValData:
    """ReXVal pairs (studies in file order, candidates in column order) and their ratings."""

    pairs: list[ReportPair]
    ratings: dict[str, ReXValRating]
    samples_path: str = ""
    ratings_path: str = ""

    def human_scores(self, kind: ErrorKind = "total", category: str | None = None) -> list[float | None]:
        """Mean errors per pair, aligned with ``pairs`` (None where a pair has no rating);
        ``category`` ("A".."F") keeps one category. Lower: fewer errors found."""
        if category is not None and category not in CATEGORY_LETTERS:
            raise ValueError(f"category must be one of {CATEGORY_LETTERS}, not {category!r}")
        out: list[float | None] = []
        for pair in self.pairs:
            rating = self.ratings.get(pair.id)
            if rating is None:
                out.append(None)
                continue
            counts = rating.counts(kind)
            out.append(counts[category] if category else float(sum(counts.values())))
        return out

    def rated(self, kind: ErrorKind = "total") -> RatedPairs:
        """The rated pairs with their mean error counts of ``kind`` (lower is better)."""
        kept = [p for p in self.pairs if p.id in self.ratings]
        what = {"total": "all", "significant": "clinically significant",
                "insignificant": "clinically insignificant"}[kind]
        return RatedPairs(
            pairs=kept, ratings=[float(sum(self.ratings[p.id].counts(kind).values())) for p in kept],
            lower_is_better=True, rating=f"ReXVal: mean number of {what} errors per radiologist",
            source=self.ratings_path, category_counts=[self.ratings[p.id].counts(kind) for p in kept],
            n_unrated=len(self.pairs) - len(kept), significant_only=kind == "significant")


def load_rexval(directory: str | Path, study_number_base: int = 0) -> ReXValData:
    """Read a ReXVal copy: the two PhysioNet CSVs in ``directory`` (or anywhere below it).

    Pairs: one per (study, candidate column), id ``"<study_id>:<candidate_type>"``, reference
    ``gt_report``, candidate that column's report.

    ``study_number`` in the ratings file is not a study id but the position of the study's row
    in the samples file, counted from 0 (0-49 for the 50 published rows): the reading under
    which third-party analyses reproduce the paper's Kendall tau. ``study_number_base=1`` reads
    a copy numbered from 1; a study_number outside the samples file's rows is an error, never
    silently dropped.

    Each pair's errors are summed per category and significance for each rater, then averaged
    over the raters who rated that pair (a rater without a row for a category counts 0 there).
    Two rows for the same (study, candidate, category, rater, significance) are an error.
    """
    directory = Path(directory)
    samples = RatingTable.read_csv(locate(directory, SAMPLES_FILE))
    ratings = RatingTable.read_csv(locate(directory, RATINGS_FILE))
    pairs, study_ids = _pairs(samples)
    rated = _ratings(ratings, samples, study_ids, study_number_base)
    return ReXValData(pairs=pairs, ratings={p.id: rated[p.id] for p in pairs if p.id in rated},
                      samples_path=str(samples.path), ratings_path=str(ratings.path))


def _pairs(samples: RatingTable) -> tuple[list[ReportPair], list[str]]:
    samples.require_columns(["study_id", "gt_report"])
    study_col, ref_col = samples.column("study_id"), samples.column("gt_report")
    candidates = [c for c in CANDIDATE_TYPES if samples.find_column([c], c, required=False)]
    if not candidates:
        raise samples.error(f"no candidate report column: expected {list(CANDIDATE_TYPES)}, found "
                            f"columns {samples.columns}")
    study_ids = [s.strip() for s in samples.cells(study_col)]
    seen: set[str] = set()
    for row, study_id in enumerate(study_ids):
        if not study_id:
            raise samples.error("the study id is empty", row, study_col)
        if study_id in seen:
            raise samples.error(f"study id {study_id!r} appears twice", row, study_col)
        seen.add(study_id)
    references = samples.texts(ref_col)
    texts = {c: samples.texts(samples.column(c)) for c in candidates}
    pairs = [ReportPair(id=f"{study_id}:{cand}", reference=references[row], candidate=texts[cand][row],
                        extra={"dataset": "rexval", "study_id": study_id, "candidate_type": cand,
                               "study_number": str(row)})
             for row, study_id in enumerate(study_ids) for cand in candidates]
    return pairs, study_ids


def _ratings(ratings: RatingTable, samples: RatingTable, study_ids: list[str],
             base: int) -> dict[str, ReXValRating]:
    ratings.require_columns(RATING_COLUMNS)
    col = {name: ratings.column(name) for name in RATING_COLUMNS}
    studies = [int(n) - base for n in ratings.numbers(col["study_number"], integer=True)]
    for row, study in enumerate(studies):
        if not 0 <= study < len(study_ids):
            raise ratings.error(
                f"study_number {study + base} does not name a row of {samples.path.name} "
                f"({len(study_ids)} studies; study_number is the row position counted from {base})",
                row, col["study_number"])
    known = [c for c in CANDIDATE_TYPES if samples.find_column([c], c, required=False)]
    candidates = [c.strip() for c in ratings.cells(col["candidate_type"])]
    for row, cand in enumerate(candidates):
        if cand not in known:
            raise ratings.error(f"unknown candidate_type {cand!r}; the samples file has candidate "
                                f"columns {sorted(known)}", row, col["candidate_type"])
    letters = [CATEGORY_LETTERS[int(c) - 1] for c in
               ratings.numbers(col["error_category"], integer=True, minimum=1, maximum=6)]
    raters = [int(r) for r in ratings.numbers(col["rater_index"], integer=True)]
    significant = ratings.booleans(col["clinically_significant"])
    errors = ratings.numbers(col["num_errors"], minimum=0)

    sums: dict[tuple[int, str], dict[bool, dict[str, float]]] = defaultdict(
        lambda: {True: dict.fromkeys(CATEGORY_LETTERS, 0.0), False: dict.fromkeys(CATEGORY_LETTERS, 0.0)})
    raters_of: dict[tuple[int, str], set[int]] = defaultdict(set)
    seen: set[tuple[int, str, str, int, bool]] = set()
    for row in range(len(ratings)):
        key = (studies[row], candidates[row], letters[row], raters[row], significant[row])
        if key in seen:
            raise ratings.error("this (study_number, candidate_type, error_category, rater_index, "
                                "clinically_significant) combination already appeared on an earlier "
                                "line", row)
        seen.add(key)
        pair = (studies[row], candidates[row])
        sums[pair][significant[row]][letters[row]] += errors[row]
        raters_of[pair].add(raters[row])
    out = {}
    for (study, cand), by_significance in sums.items():
        n = len(raters_of[(study, cand)])
        mean = {sig: {k: v / n for k, v in counts.items()} for sig, counts in by_significance.items()}
        pair_id = f"{study_ids[study]}:{cand}"
        out[pair_id] = ReXValRating(pair_id=pair_id, study_id=study_ids[study], candidate_type=cand,
                                    n_raters=n, significant=mean[True], insignificant=mean[False])
    return out
