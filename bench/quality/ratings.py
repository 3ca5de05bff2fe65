"""Readers for published radiologist-rating sets, so users can check metrics against humans.

No rating data ships with RadScope (the sets are credentialed or carry licences that forbid
redistribution); users point these readers at their own copies. Two formats are read:

* **ReXVal** (PhysioNet ``rexval-dataset``): ``50_samples_gt_and_candidates.csv`` holds one row
  per study, a reference report and four candidate reports, one per column; the ratings file
  ``6_valid_raters_per_rater_error_categories.csv`` holds one row per (study, candidate, error
  category, rater, significance) with the number of errors that rater found.
* **RaTE-Eval Task 2** (paragraph-level human rating, Hugging Face ``Angelakeke/RaTE-Eval``):
  ``rate_<split>.csv`` with one human score per pair, and the report texts in
  ``gt_report_<split>.json`` / ``similar_report_<split>.json`` (see ``load_rate_eval``).

Every format error names the file, the line (the physical line in the file, header = line 1,
so quoted reports that span several lines are counted correctly) and the column.
"""
from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Self

import pandas as pd

from radscope.engine.io.reports import ReportPair

# --- errors and CSV access ---------------------------------------------------------------------


class RatingsFormatError(ValueError):
    """A rating file does not have the expected layout or contains an unreadable value."""

    def __init__(self, path: Path | str, problem: str, line: int | None = None,
                 column: str | None = None) -> None:
        self.path, self.problem, self.line, self.column = str(path), problem, line, column
        where = self.path
        if line is not None:
            where += f", line {line}"
        if column is not None:
            where += f", column {column!r}"
        super().__init__(f"{where}: {problem}")


def _record_start_lines(path: Path) -> list[int]:
    """1-based physical line on which each data record starts (header excluded).

    A quoted cell may contain newlines, so record i is not simply on line i + 2. Blank lines
    are skipped, as pandas skips them.
    """
    starts: list[int] = []
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        previous_end = 0
        for record in reader:
            if record:
                starts.append(previous_end + 1)
            previous_end = reader.line_num
    return starts[1:]


class _CsvTable:
    """A CSV read as strings, with error messages that point at file, line and column."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        except pd.errors.EmptyDataError as exc:
            raise RatingsFormatError(path, "the file is empty") from exc
        except (pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise RatingsFormatError(path, f"not a readable CSV file ({exc})") from exc
        frame.columns = [str(c).strip() for c in frame.columns]
        self.frame = frame
        self._lines: list[int] | None = None

    def line(self, row: int) -> int:
        if self._lines is None:
            self._lines = _record_start_lines(self.path)
        return self._lines[row] if row < len(self._lines) else row + 2

    def error(self, problem: str, row: int | None = None, column: str | None = None
              ) -> RatingsFormatError:
        line = None if row is None else self.line(row)
        return RatingsFormatError(self.path, problem, line, column)

    def find_column(self, accepted: Sequence[str], what: str, required: bool = True) -> str | None:
        """The first column whose name matches one of ``accepted`` (case-insensitive)."""
        by_lower = {c.lower(): c for c in self.frame.columns}
        for name in accepted:
            if name.lower() in by_lower:
                return by_lower[name.lower()]
        if required:
            raise self.error(f"no {what} column: expected one of {list(accepted)}, "
                             f"found columns {list(self.frame.columns)}")
        return None

    def column(self, name: str) -> str:
        """The actual spelling of a required column (matched case-insensitively)."""
        found = self.find_column([name], name)
        assert found is not None
        return found

    def require_columns(self, names: Sequence[str]) -> None:
        missing = [n for n in names if self.find_column([n], n, required=False) is None]
        if missing:
            raise self.error(f"missing column(s) {missing}: expected columns {list(names)}, "
                             f"found columns {list(self.frame.columns)}")

    def numbers(self, column: str, *, integer: bool = False, minimum: float | None = None,
                maximum: float | None = None) -> pd.Series:
        """The column as numbers; the first unreadable or out-of-range cell raises."""
        raw = self.frame[column].str.strip()
        values = pd.to_numeric(raw, errors="coerce")
        bad = values.isna()
        if integer:
            bad |= values.notna() & (values != values.round())
        if minimum is not None:
            bad |= values < minimum
        if maximum is not None:
            bad |= values > maximum
        if bad.any():
            row = int(bad.to_numpy().nonzero()[0][0])
            kind = "an integer" if integer else "a number"
            limits = ""
            if minimum is not None or maximum is not None:
                limits = f" in [{'' if minimum is None else f'{minimum:g}'}, " \
                         f"{'' if maximum is None else f'{maximum:g}'}]"
            raise self.error(f"expected {kind}{limits}, found {raw.iloc[row]!r}", row, column)
        return values.astype(int) if integer else values.astype(float)

    def booleans(self, column: str) -> pd.Series:
        mapping = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
        raw = self.frame[column].str.strip().str.lower()
        values = raw.map(mapping)
        bad = values.isna()
        if bad.any():
            row = int(bad.to_numpy().nonzero()[0][0])
            raise self.error(f"expected True or False, found {self.frame[column].iloc[row]!r}",
                             row, column)
        return values.astype(bool)

    def texts(self, column: str) -> list[str]:
        """Non-empty report texts; an empty cell raises."""
        values = self.frame[column].tolist()
        for row, text in enumerate(values):
            if not text.strip():
                raise self.error("the report text is empty", row, column)
        return values


def _locate(directory: Path, name: str) -> Path:
    """``directory/name``, or the single file of that name below it (a PhysioNet download
    nests files under ``physionet.org/files/<dataset>/<version>/``)."""
    direct = directory / name
    if direct.is_file():
        return direct
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory}: not a directory (expected one holding {name})")
    found = sorted(directory.rglob(name))
    if not found:
        raise FileNotFoundError(f"{directory}: no file named {name} in this directory or below it")
    if len(found) > 1:
        raise FileNotFoundError(f"{directory}: several files named {name}: "
                                f"{[str(p) for p in found]}; point at the one to use")
    return found[0]


# --- ReXVal ------------------------------------------------------------------------------------

REXVAL_SAMPLES_FILE = "50_samples_gt_and_candidates.csv"
REXVAL_RATINGS_FILE = "6_valid_raters_per_rater_error_categories.csv"
REXVAL_CANDIDATE_TYPES = ("radgraph", "bertscore", "s_emb", "bleu")
REXVAL_RATING_COLUMNS = ("study_number", "candidate_type", "error_category", "rater_index",
                         "clinically_significant", "num_errors")
# ReXVal numbers its six error categories 1-6; RadScope (CREPE) names them A-F.
ERROR_CATEGORY_LETTERS = {1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F"}
ERROR_CATEGORY_MEANINGS = {
    "A": "a finding stated that the reference does not support",
    "B": "a finding of the reference left out",
    "C": "a finding put in the wrong place or position",
    "D": "a finding given the wrong severity",
    "E": "a comparison with a prior study that the reference does not make",
    "F": "a change from a prior study, described in the reference, left out",
}
LETTERS = tuple(ERROR_CATEGORY_LETTERS.values())


@dataclass
class ReXValRating:
    """Radiologists' errors for one (study, candidate) pair, each a mean over the raters.

    ``significant`` / ``insignificant`` map categories A-F to the mean number of clinically
    significant / insignificant errors per rater.
    """

    pair_id: str
    study_id: str
    candidate_type: str
    n_raters: int
    significant: dict[str, float]
    insignificant: dict[str, float]

    @property
    def total_significant(self) -> float:
        return float(sum(self.significant.values()))

    @property
    def total_insignificant(self) -> float:
        return float(sum(self.insignificant.values()))

    @property
    def total(self) -> float:
        return self.total_significant + self.total_insignificant

    def to_json(self) -> dict[str, Any]:
        return {"pair_id": self.pair_id, "study_id": self.study_id,
                "candidate_type": self.candidate_type, "n_raters": self.n_raters,
                "significant": dict(self.significant), "insignificant": dict(self.insignificant),
                "total_significant": self.total_significant,
                "total_insignificant": self.total_insignificant, "total": self.total}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(pair_id=data["pair_id"], study_id=data["study_id"],
                   candidate_type=data["candidate_type"], n_raters=int(data["n_raters"]),
                   significant={k: float(v) for k, v in data["significant"].items()},
                   insignificant={k: float(v) for k, v in data["insignificant"].items()})


HumanScoreKind = Literal["total", "significant", "insignificant"]


@dataclass
class ReXValData:
    """ReXVal report pairs (studies in file order, candidates in column order) and ratings."""

    pairs: list[ReportPair]
    ratings: dict[str, ReXValRating]
    samples_path: str = ""
    ratings_path: str = ""

    def human_scores(self, kind: HumanScoreKind = "total", category: str | None = None
                     ) -> list[float | None]:
        """Mean errors per pair, aligned with ``pairs`` (None where a pair has no rating).

        ``kind`` picks significant, insignificant or both; ``category`` ("A".."F") restricts
        to one error category. Lower means the radiologists found fewer errors.
        """
        if category is not None and category not in LETTERS:
            raise ValueError(f"category must be one of {LETTERS}, not {category!r}")
        out: list[float | None] = []
        for pair in self.pairs:
            rating = self.ratings.get(pair.id)
            if rating is None:
                out.append(None)
                continue
            parts = []
            if kind in ("total", "significant"):
                parts.append(rating.significant)
            if kind in ("total", "insignificant"):
                parts.append(rating.insignificant)
            if not parts:
                raise ValueError(f"kind must be total, significant or insignificant, not {kind!r}")
            out.append(float(sum(p[category] if category else sum(p.values()) for p in parts)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"pairs": [_pair_to_json(p) for p in self.pairs],
                "ratings": {k: v.to_json() for k, v in self.ratings.items()},
                "samples_path": self.samples_path, "ratings_path": self.ratings_path}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(pairs=[_pair_from_json(p) for p in data["pairs"]],
                   ratings={k: ReXValRating.from_json(v) for k, v in data["ratings"].items()},
                   samples_path=data.get("samples_path", ""),
                   ratings_path=data.get("ratings_path", ""))


def _pair_to_json(pair: ReportPair) -> dict[str, Any]:
    return {"id": pair.id, "reference": pair.reference, "candidate": pair.candidate,
            "modality": pair.modality, "area": pair.area, "extra": dict(pair.extra)}


def _pair_from_json(data: dict[str, Any]) -> ReportPair:
    return ReportPair(id=data["id"], reference=data["reference"], candidate=data["candidate"],
                      modality=data.get("modality"), area=data.get("area"),
                      extra=dict(data.get("extra") or {}))


def load_rexval(directory: str | Path, study_number_base: int = 0) -> ReXValData:
    """Read a ReXVal copy: the two PhysioNet CSVs in ``directory`` (or anywhere below it).

    Pairs: one per (study, candidate column), id ``"<study_id>:<candidate_type>"``, reference =
    ``gt_report``, candidate = that column's report.

    ``study_number`` in the ratings file is not a study id: it is the position of the study's
    row in the samples file, counted from 0 (so 0-49 for the 50 published rows). The dataset
    notes give no join key; this reading is the one under which third-party analyses reproduce
    the paper's Kendall tau, and a published derivative of the ratings also numbers the studies
    from 0. Pass ``study_number_base=1`` for a copy re-numbered from 1; a study_number outside
    the samples file's rows is reported as an error, never silently dropped.

    Ratings: for each pair, the errors each rater reported are summed per category and
    significance, then averaged over the raters who rated that pair (a rater with no row for
    some category counts 0 there). Duplicate rows for the same (study, candidate, category,
    rater, significance) are an error rather than being added twice.
    """
    directory = Path(directory)
    samples = _CsvTable(_locate(directory, REXVAL_SAMPLES_FILE))
    ratings = _CsvTable(_locate(directory, REXVAL_RATINGS_FILE))
    pairs, row_of_pair = _rexval_pairs(samples)
    rated = _rexval_ratings(ratings, samples, pairs, row_of_pair, study_number_base)
    return ReXValData(pairs=pairs, ratings=rated, samples_path=str(samples.path),
                      ratings_path=str(ratings.path))


def _rexval_pairs(samples: _CsvTable) -> tuple[list[ReportPair], dict[tuple[int, str], str]]:
    samples.require_columns(["study_id", "gt_report"])
    study_col, ref_col = samples.column("study_id"), samples.column("gt_report")
    candidates = [c for c in REXVAL_CANDIDATE_TYPES
                  if samples.find_column([c], c, required=False) is not None]
    if not candidates:
        raise samples.error(f"no candidate report column: expected {list(REXVAL_CANDIDATE_TYPES)}, "
                            f"found columns {list(samples.frame.columns)}")
    study_ids = [s.strip() for s in samples.frame[study_col]]
    for row, study_id in enumerate(study_ids):
        if not study_id:
            raise samples.error("the study id is empty", row, study_col)
        if study_id in study_ids[:row]:
            raise samples.error(f"study id {study_id!r} appears twice", row, study_col)
    references = samples.texts(ref_col)
    pairs: list[ReportPair] = []
    row_of_pair: dict[tuple[int, str], str] = {}
    texts = {c: samples.texts(samples.column(c)) for c in candidates}
    for row, study_id in enumerate(study_ids):
        for cand in candidates:
            pair_id = f"{study_id}:{cand}"
            pairs.append(ReportPair(
                id=pair_id, reference=references[row], candidate=texts[cand][row],
                extra={"dataset": "rexval", "study_id": study_id, "candidate_type": cand,
                       "study_number": str(row)}))
            row_of_pair[(row, cand)] = pair_id
    return pairs, row_of_pair


def _rexval_ratings(ratings: _CsvTable, samples: _CsvTable, pairs: list[ReportPair],
                    row_of_pair: dict[tuple[int, str], str], base: int) -> dict[str, ReXValRating]:
    ratings.require_columns(REXVAL_RATING_COLUMNS)
    col = {name: ratings.column(name) for name in REXVAL_RATING_COLUMNS}
    n_rows = len(samples.frame)
    study_row = ratings.numbers(col["study_number"], integer=True) - base
    outside = (study_row < 0) | (study_row >= n_rows)
    if outside.any():
        row = int(outside.to_numpy().nonzero()[0][0])
        raise ratings.error(
            f"study_number {study_row.iloc[row] + base} does not name a row of {samples.path.name} "
            f"({n_rows} studies; study_number is the row position counted from {base})",
            row, col["study_number"])
    candidate = ratings.frame[col["candidate_type"]].str.strip()
    known = {cand for (_, cand) in row_of_pair}
    unknown = ~candidate.isin(known)
    if unknown.any():
        row = int(unknown.to_numpy().nonzero()[0][0])
        raise ratings.error(f"unknown candidate_type {candidate.iloc[row]!r}; the samples file has "
                            f"candidate columns {sorted(known)}", row, col["candidate_type"])
    table = pd.DataFrame({
        "study_row": study_row,
        "candidate": candidate,
        "letter": ratings.numbers(col["error_category"], integer=True, minimum=1, maximum=6
                                  ).map(ERROR_CATEGORY_LETTERS),
        "rater": ratings.numbers(col["rater_index"], integer=True),
        "significant": ratings.booleans(col["clinically_significant"]),
        "errors": ratings.numbers(col["num_errors"], minimum=0),
    })
    key = ["study_row", "candidate", "letter", "rater", "significant"]
    repeated = table.duplicated(subset=key)
    if repeated.any():
        row = int(repeated.to_numpy().nonzero()[0][0])
        raise ratings.error("this (study_number, candidate_type, error_category, rater_index, "
                            "clinically_significant) combination already appeared on an earlier "
                            "line", row)

    pair_key = ["study_row", "candidate"]
    n_raters = table.groupby(pair_key)["rater"].nunique()
    sums = table.pivot_table(index=pair_key, columns=["significant", "letter"], values="errors",
                             aggfunc="sum", fill_value=0.0)
    means = sums.div(n_raters, axis=0)
    study_ids = {int(p.extra["study_number"]): p.extra["study_id"] for p in pairs}
    out: dict[str, ReXValRating] = {}
    for (row, cand), values in means.iterrows():
        pair_id = row_of_pair[(int(row), str(cand))]
        counts = {sig: {letter: float(values.get((sig, letter), 0.0)) for letter in LETTERS}
                  for sig in (True, False)}
        out[pair_id] = ReXValRating(pair_id=pair_id, study_id=study_ids[int(row)],
                                    candidate_type=str(cand),
                                    n_raters=int(n_raters.loc[(row, cand)]),
                                    significant=counts[True], insignificant=counts[False])
    # Keep the pairs' order so that iterating ratings follows the input.
    return {p.id: out[p.id] for p in pairs if p.id in out}


# --- RaTE-Eval Task 2 --------------------------------------------------------------------------

RATE_TASK2_DIR = "Task2_paragraph_rate"
RATE_SCORE_COLUMNS = ("score", "scores", "rate", "rating", "human_score", "human_rating",
                      "avg_score", "mean_score", "label")
RATE_ID_COLUMNS = ("id", "pair_id", "idx", "index", "key", "report_id", "Unnamed: 0")
RATE_REFERENCE_COLUMNS = ("gt_report", "gt", "reference", "reference_report", "ground_truth", "ref")
RATE_CANDIDATE_COLUMNS = ("similar_report", "candidate", "candidate_report", "prediction",
                          "predicted", "pred", "hypothesis", "hyp")
_TEXT_KEYS = ("report", "text", "content", "paragraph", "gt_report", "similar_report", "findings")


@dataclass
class RaTEEvalData:
    """RaTE-Eval paragraph pairs and their human scores (``scores`` keyed by pair id).

    The score is kept exactly as published; read the dataset card for its scale and direction.
    """

    pairs: list[ReportPair]
    scores: dict[str, float]
    split: str = "test"
    rate_path: str = ""
    text_source: str = "json"  # where the report texts came from: "json" or "csv"

    def human_scores(self) -> list[float | None]:
        """Scores aligned with ``pairs``."""
        return [self.scores.get(p.id) for p in self.pairs]

    def to_json(self) -> dict[str, Any]:
        return {"pairs": [_pair_to_json(p) for p in self.pairs], "scores": dict(self.scores),
                "split": self.split, "rate_path": self.rate_path, "text_source": self.text_source}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(pairs=[_pair_from_json(p) for p in data["pairs"]],
                   scores={k: float(v) for k, v in data["scores"].items()},
                   split=data.get("split", "test"), rate_path=data.get("rate_path", ""),
                   text_source=data.get("text_source", "json"))


@dataclass
class _Reports:
    texts: list[str]
    keys: list[str] | None = field(default=None)  # dict keys, when the JSON was a dict


def load_rate_eval(directory: str | Path, split: str = "test") -> RaTEEvalData:
    """Read RaTE-Eval Task 2 (paragraph-level rating) from ``directory``.

    ``directory`` is the ``Task2_paragraph_rate`` folder itself or the dataset root that holds
    it. Expected layout, for ``split`` = ``test`` (or ``train``)::

        rate_test.csv            one row per pair: the human score, optionally an id and texts
        gt_report_test.json      reference reports
        similar_report_test.json candidate reports

    ``rate_<split>.csv``: the score column is the first of ``RATE_SCORE_COLUMNS`` present
    (case-insensitive; e.g. ``Score``); an id column (``RATE_ID_COLUMNS``, e.g. ``id``) is
    optional. Report JSON files hold either a list (entry *i* belongs to CSV row *i*) or an
    object keyed by pair id (looked up by the CSV id column; without one, the object's order is
    the row order and its keys become the pair ids). An entry is a string, a list of sentence
    strings (joined with spaces) or an object with a text field (``report``, ``text``, ...).
    When a JSON file is absent, the texts are read from CSV columns instead
    (``RATE_REFERENCE_COLUMNS`` / ``RATE_CANDIDATE_COLUMNS``, e.g. ``gt_report`` and
    ``similar_report``). Pair ids are the CSV id, else the JSON keys, else the 0-based row.
    """
    root = Path(directory)
    base = root
    rate_name = f"rate_{split}.csv"
    if not (base / rate_name).is_file() and (root / RATE_TASK2_DIR / rate_name).is_file():
        base = root / RATE_TASK2_DIR
    rate_path = base / rate_name
    if not rate_path.is_file():
        raise FileNotFoundError(
            f"{root}: no {rate_name} here or in {RATE_TASK2_DIR}/ (expected {rate_name}, "
            f"gt_report_{split}.json and similar_report_{split}.json)")
    table = _CsvTable(rate_path)
    n = len(table.frame)
    score_col = table.find_column(RATE_SCORE_COLUMNS, "human score")
    assert score_col is not None  # find_column raised otherwise
    scores = table.numbers(score_col).tolist()
    id_col = table.find_column(RATE_ID_COLUMNS, "id", required=False)
    csv_ids = [s.strip() for s in table.frame[id_col]] if id_col else None
    if csv_ids is not None:
        for row, pair_id in enumerate(csv_ids):
            if not pair_id:
                raise table.error("the pair id is empty", row, id_col)

    sides: dict[str, _Reports] = {}
    used_json = False
    for side, stem, accepted in (("reference", "gt_report", RATE_REFERENCE_COLUMNS),
                                 ("candidate", "similar_report", RATE_CANDIDATE_COLUMNS)):
        json_path = base / f"{stem}_{split}.json"
        if json_path.is_file():
            sides[side] = _read_report_json(json_path, n, csv_ids, table)
            used_json = True
            continue
        column = table.find_column(accepted, f"{side} report", required=False)
        if column is None:
            raise FileNotFoundError(
                f"{base}: no {json_path.name}, and {rate_path.name} has no {side} report column "
                f"(expected one of {list(accepted)}, found columns {list(table.frame.columns)})")
        sides[side] = _Reports(table.texts(column))

    ids = _rate_pair_ids(csv_ids, sides, n, base)
    seen: set[str] = set()
    for row, pair_id in enumerate(ids):
        if pair_id in seen:
            raise table.error(f"pair id {pair_id!r} appears twice", row, id_col)
        seen.add(pair_id)
    pairs = [ReportPair(id=pair_id, reference=sides["reference"].texts[row],
                        candidate=sides["candidate"].texts[row],
                        extra={"dataset": "rate-eval-task2", "split": split, "row": str(row)})
             for row, pair_id in enumerate(ids)]
    return RaTEEvalData(pairs=pairs, scores=dict(zip(ids, (float(s) for s in scores), strict=True)),
                        split=split, rate_path=str(rate_path),
                        text_source="json" if used_json else "csv")


def _rate_pair_ids(csv_ids: list[str] | None, sides: dict[str, _Reports], n: int,
                   base: Path) -> list[str]:
    if csv_ids is not None:
        return csv_ids
    keyed = [s.keys for s in sides.values() if s.keys is not None]
    if keyed:
        if len(keyed) == 2 and keyed[0] != keyed[1]:
            raise RatingsFormatError(base, "gt_report and similar_report JSON objects have "
                                           "different keys or key order, and the CSV has no id "
                                           "column to match them by")
        return list(keyed[0])
    return [str(row) for row in range(n)]


def _read_report_json(path: Path, n_rows: int, csv_ids: list[str] | None,
                      table: _CsvTable) -> _Reports:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise RatingsFormatError(path, f"not valid JSON ({exc.msg})", exc.lineno,
                                 f"character {exc.colno}") from exc
    if isinstance(data, list):
        if len(data) != n_rows:
            raise RatingsFormatError(path, f"holds {len(data)} reports but {table.path.name} has "
                                           f"{n_rows} rows; a list must have one entry per row")
        return _Reports([_report_text(item, path, f"entry {i}") for i, item in enumerate(data)])
    if isinstance(data, dict):
        if csv_ids is not None:
            texts = []
            for row, pair_id in enumerate(csv_ids):
                if pair_id not in data:
                    raise RatingsFormatError(
                        path, f"no report for id {pair_id!r}, which {table.path.name} has on "
                              f"line {table.line(row)}")
                texts.append(_report_text(data[pair_id], path, f"key {pair_id!r}"))
            return _Reports(texts)
        if len(data) != n_rows:
            raise RatingsFormatError(path, f"holds {len(data)} reports but {table.path.name} has "
                                           f"{n_rows} rows and no id column to match them by")
        keys = [str(k) for k in data]
        return _Reports([_report_text(v, path, f"key {k!r}") for k, v in data.items()], keys)
    raise RatingsFormatError(path, f"expected a JSON list or object of reports, found "
                                   f"{type(data).__name__}")


def _report_text(item: Any, path: Path, where: str) -> str:
    if isinstance(item, str):
        text = item
    elif isinstance(item, list) and all(isinstance(s, str) for s in item):
        text = " ".join(s.strip() for s in item if s.strip())
    elif isinstance(item, dict):
        found = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), None)
        if found is None:
            raise RatingsFormatError(path, f"{where}: an object without a text field (expected "
                                           f"one of {list(_TEXT_KEYS)}, found {sorted(item)})")
        text = found
    else:
        raise RatingsFormatError(path, f"{where}: expected a report string, found "
                                       f"{type(item).__name__}")
    if not text.strip():
        raise RatingsFormatError(path, f"{where}: the report text is empty")
    return text
