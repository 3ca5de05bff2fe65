"""The user's own rated pairs: one file (CSV, TSV, JSONL or JSON, read as ``radscope score``
reads its input) with an id, a reference, a candidate and a rating per pair.

The rating is one number per pair: a quality score (higher is better) or an error count (lower
is better); the caller says which, since a wrong guess would flip every coefficient's sign.
Several radiologists' ratings of one pair are averaged into one row beforehand. Optional columns
``errors_A`` ... ``errors_F`` (all six or none) give the radiologists' error counts per category,
for the detection F1 of the metrics that count errors per category.
"""
from __future__ import annotations

from pathlib import Path

from radscope.engine.io import dataio
from radscope.engine.ratings.rated import CATEGORY_LETTERS, RatedPairs
from radscope.engine.ratings.table import RatingsFormatError, RatingTable

RATING_COLUMN = "rating"
CATEGORY_COLUMNS = {letter: f"errors_{letter}" for letter in CATEGORY_LETTERS}


def load_own(path: str | Path, *, lower_is_better: bool, columns: dataio.Columns | None = None,
             rating_column: str = RATING_COLUMN, fmt: str | None = None) -> RatedPairs:
    """The pairs of ``path`` with the number in ``rating_column`` (matched case-insensitively).

    The pairs are read and checked by ``dataio.read_pairs`` (format, encoding, the id,
    reference and candidate columns, empty or repeated ids); every rating must be a finite
    number, and an empty one is an error, never a pair silently dropped.
    """
    path = Path(path)
    if path.is_dir():
        raise dataio.InputError(f"{path}: is a folder; the own format is one file of rated pairs "
                                "(a ReXVal or RaTE-Eval folder needs --format rexval or rate-eval)")
    pairs = dataio.read_pairs(path, columns or dataio.Columns(), fmt)
    table = RatingTable.read(path, fmt)
    if len(table) != len(pairs):  # both read the same rows; a file changed between the reads
        raise dataio.InputError(f"{path}: the file changed while it was being read; run again")
    found = table.find_column([rating_column], "rating", required=False)
    if found is None:
        raise RatingsFormatError(path, f"no rating column {rating_column!r} (found columns {table.columns}); "
                                       "name the column that holds the radiologists' rating with --rating-col")
    ratings = table.numbers(found)
    return RatedPairs(pairs=pairs, ratings=ratings, lower_is_better=lower_is_better,
                      rating=f"column {found!r}, {'lower' if lower_is_better else 'higher'} is better",
                      source=str(path), category_counts=_category_counts(table))


def _category_counts(table: RatingTable) -> list[dict[str, float]] | None:
    found = {letter: table.find_column([name], name, required=False)
             for letter, name in CATEGORY_COLUMNS.items()}
    present = {letter: column for letter, column in found.items() if column is not None}
    if not present:
        return None
    if len(present) != len(CATEGORY_COLUMNS):
        missing = [CATEGORY_COLUMNS[letter] for letter in CATEGORY_LETTERS if letter not in present]
        raise table.error(f"per-category error counts need all six columns "
                          f"{list(CATEGORY_COLUMNS.values())}; missing {missing}")
    values = {letter: table.numbers(column, minimum=0) for letter, column in present.items()}
    return [{letter: values[letter][row] for letter in CATEGORY_LETTERS} for row in range(len(table))]
