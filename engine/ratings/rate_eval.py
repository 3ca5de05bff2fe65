"""RaTE-Eval Task 2 (paragraph-level human rating; Hugging Face ``Angelakeke/RaTE-Eval``): one
human score per report pair. Bring your own copy.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from radscope.engine.io.reports import ReportPair
from radscope.engine.ratings.rated import RatedPairs
from radscope.engine.ratings.table import RatingsFormatError, RatingTable

TASK2_DIR = "Task2_paragraph_rate"
SCORE_COLUMNS = ("score", "scores", "rate", "rating", "human_score", "human_rating", "avg_score",
                 "mean_score", "label")
ID_COLUMNS = ("id", "pair_id", "idx", "index", "key", "report_id", "Unnamed: 0")
REFERENCE_COLUMNS = ("gt_report", "gt", "reference", "reference_report", "ground_truth", "ref")
CANDIDATE_COLUMNS = ("similar_report", "candidate", "candidate_report", "prediction", "predicted",
                     "pred", "hypothesis", "hyp")
_TEXT_KEYS = ("report", "text", "content", "paragraph", "gt_report", "similar_report", "findings")


@dataclass
class RaTEEvalData:
    """RaTE-Eval paragraph pairs and their human scores (``scores`` keyed by pair id), kept as
    published; the dataset card gives their scale."""

    pairs: list[ReportPair]
    scores: dict[str, float]
    split: str = "test"
    rate_path: str = ""
    text_source: str = "json"  # where the report texts came from: "json" or "csv"

    def human_scores(self) -> list[float | None]:
        """Scores aligned with ``pairs``."""
        return [self.scores.get(p.id) for p in self.pairs]

    def rated(self, lower_is_better: bool = False) -> RatedPairs:
        """The pairs with their scores (higher is better unless said otherwise)."""
        kept = [p for p in self.pairs if p.id in self.scores]
        return RatedPairs(pairs=kept, ratings=[self.scores[p.id] for p in kept],
                          lower_is_better=lower_is_better,
                          rating=f"RaTE-Eval Task 2 ({self.split}): human score", source=self.rate_path,
                          n_unrated=len(self.pairs) - len(kept))


@dataclass
class _Reports:
    texts: list[str]
    keys: list[str] | None = None  # the object's keys, when the JSON was an object


def load_rate_eval(directory: str | Path, split: str = "test") -> RaTEEvalData:
    """Read RaTE-Eval Task 2 from ``directory`` (the ``Task2_paragraph_rate`` folder or the
    dataset root holding it). For ``split`` = ``test``::

        rate_test.csv            one row per pair: the human score, optionally an id and texts
        gt_report_test.json      reference reports
        similar_report_test.json candidate reports

    The score column is the first of ``SCORE_COLUMNS`` present (case-insensitive); an id column
    (``ID_COLUMNS``) is optional. A report JSON file holds a list (entry *i* is CSV row *i*) or
    an object keyed by pair id (looked up by the CSV's ids; without them, the object's order is
    the row order and its keys the pair ids). An entry is a string, a list of sentences (joined
    with spaces) or an object with a text field (``report``, ``text``, ...). Without a JSON
    file, the texts come from CSV columns (``REFERENCE_COLUMNS`` / ``CANDIDATE_COLUMNS``).
    Pair ids: the CSV's, else the JSON keys, else the 0-based row.
    """
    root = Path(directory)
    name = f"rate_{split}.csv"
    base = root if (root / name).is_file() or not (root / TASK2_DIR / name).is_file() else root / TASK2_DIR
    rate_path = base / name
    if not rate_path.is_file():
        raise FileNotFoundError(f"{root}: no {name} here or in {TASK2_DIR}/ (expected {name}, "
                                f"gt_report_{split}.json and similar_report_{split}.json)")
    table = RatingTable.read_csv(rate_path)
    score_col = table.find_column(SCORE_COLUMNS, "human score")
    assert score_col is not None  # find_column raised otherwise
    scores = table.numbers(score_col)
    id_col = table.find_column(ID_COLUMNS, "id", required=False)
    csv_ids = [s.strip() for s in table.cells(id_col)] if id_col else None
    for row, pair_id in enumerate(csv_ids or []):
        if not pair_id:
            raise table.error("the pair id is empty", row, id_col)

    sides: dict[str, _Reports] = {}
    for side, stem, accepted in (("reference", "gt_report", REFERENCE_COLUMNS),
                                 ("candidate", "similar_report", CANDIDATE_COLUMNS)):
        json_path = base / f"{stem}_{split}.json"
        if json_path.is_file():
            sides[side] = _read_report_json(json_path, csv_ids, table)
            continue
        column = table.find_column(accepted, f"{side} report", required=False)
        if column is None:
            raise FileNotFoundError(
                f"{base}: no {json_path.name}, and {rate_path.name} has no {side} report column "
                f"(expected one of {list(accepted)}, found columns {table.columns})")
        sides[side] = _Reports(table.texts(column))

    ids = _pair_ids(csv_ids, sides, len(table), base)
    seen: set[str] = set()
    for row, pair_id in enumerate(ids):
        if pair_id in seen:
            raise table.error(f"pair id {pair_id!r} appears twice", row, id_col)
        seen.add(pair_id)
    pairs = [ReportPair(id=pair_id, reference=sides["reference"].texts[row],
                        candidate=sides["candidate"].texts[row],
                        extra={"dataset": "rate-eval-task2", "split": split, "row": str(row)})
             for row, pair_id in enumerate(ids)]
    from_json = any((base / f"{stem}_{split}.json").is_file() for stem in ("gt_report", "similar_report"))
    return RaTEEvalData(pairs=pairs, scores=dict(zip(ids, scores, strict=True)), split=split,
                        rate_path=str(rate_path), text_source="json" if from_json else "csv")


def _pair_ids(csv_ids: list[str] | None, sides: dict[str, _Reports], n: int, base: Path) -> list[str]:
    if csv_ids is not None:
        return csv_ids
    keyed = [s.keys for s in sides.values() if s.keys is not None]
    if len(keyed) == 2 and keyed[0] != keyed[1]:
        raise RatingsFormatError(base, "gt_report and similar_report JSON objects have different keys "
                                       "or key order, and the CSV has no id column to match them by")
    return list(keyed[0]) if keyed else [str(row) for row in range(n)]


def _read_report_json(path: Path, csv_ids: list[str] | None, table: RatingTable) -> _Reports:
    n_rows = len(table)
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
    if not isinstance(data, dict):
        raise RatingsFormatError(path, f"expected a JSON list or object of reports, found "
                                       f"{type(data).__name__}")
    if csv_ids is None:
        if len(data) != n_rows:
            raise RatingsFormatError(path, f"holds {len(data)} reports but {table.path.name} has "
                                           f"{n_rows} rows and no id column to match them by")
        keys = [str(k) for k in data]
        return _Reports([_report_text(v, path, f"key {k!r}") for k, v in data.items()], keys)
    texts = []
    for row, pair_id in enumerate(csv_ids):
        if pair_id not in data:
            raise RatingsFormatError(path, f"no report for id {pair_id!r}, which {table.path.name} has "
                                           f"on line {table.lines[row]}")
        texts.append(_report_text(data[pair_id], path, f"key {pair_id!r}"))
    return _Reports(texts)


def _report_text(item: Any, path: Path, where: str) -> str:
    if isinstance(item, str):
        text = item
    elif isinstance(item, list) and all(isinstance(s, str) for s in item):
        text = " ".join(s.strip() for s in item if s.strip())
    elif isinstance(item, dict):
        found = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), None)
        if found is None:
            raise RatingsFormatError(path, f"{where}: an object without a text field (expected one "
                                           f"of {list(_TEXT_KEYS)}, found {sorted(item)})")
        text = found
    else:
        raise RatingsFormatError(path, f"{where}: expected a report string, found {type(item).__name__}")
    if not text.strip():
        raise RatingsFormatError(path, f"{where}: the report text is empty")
    return text
