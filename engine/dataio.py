"""Reading report pairs from files and writing results.

Readers accept CSV, TSV, JSONL and JSON with configurable column names. A problem with the
file as a whole (not text, missing column, duplicate id) raises ``InputError`` naming the file,
the line and the column; a problem with one pair (an empty or oversized report) is not an
error here: it is reported per pair by the runner, so the rest of the batch still runs.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from engine.reports import ReportPair

FORMATS = ("csv", "tsv", "jsonl", "json")


class InputError(ValueError):
    """The input file cannot be read as report pairs; the message says what to fix."""


@dataclass(frozen=True)
class Columns:
    """Which input columns hold what. ``id=None`` numbers the rows instead."""

    id: str | None = "id"
    reference: str = "reference"
    candidate: str = "candidate"
    modality: str | None = None
    area: str | None = None


def detect_format(path: Path, fmt: str | None = None) -> str:
    if fmt:
        fmt = fmt.lower().lstrip(".")
        if fmt not in FORMATS:
            raise InputError(f"{path}: unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        return fmt
    suffix = path.suffix.lower().lstrip(".")
    if suffix in FORMATS:
        return suffix
    if suffix == "txt":
        return "tsv"
    raise InputError(f"{path}: cannot tell the format from the extension {path.suffix!r}; "
                     f"use .csv, .tsv, .jsonl or .json (or pass the format explicitly)")


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    if b"\x00" in raw[:65536]:
        raise InputError(f"{path}: this is a binary file, not CSV/TSV/JSONL/JSON text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}: line {line}: not valid UTF-8 text (byte offset {exc.start}); "
                         "save the file as UTF-8") from None


def read_table(path: str | Path, fmt: str | None = None) -> tuple[pd.DataFrame, list[int]]:
    """Read any supported file into a DataFrame of strings, plus the source line of each row."""
    path = Path(path)
    fmt = detect_format(path, fmt)
    text = _read_text(path)
    if not text.strip():
        raise InputError(f"{path}: the file is empty")
    if fmt in ("csv", "tsv"):
        return _read_delimited(path, text, "," if fmt == "csv" else "\t")
    if fmt == "jsonl":
        return _read_jsonl(path, text)
    return _read_json(path, text)


def _read_delimited(path: Path, text: str, sep: str) -> tuple[pd.DataFrame, list[int]]:
    # The csv module knows where each record starts, which pandas does not report; pandas
    # then builds the frame. Quoted fields may span lines.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    lines: list[int] = []
    rows: list[list[str]] = []
    try:
        header = next(reader)
        start = reader.line_num + 1
        for row in reader:
            if row and any(cell.strip() for cell in row):
                if len(row) != len(header):
                    raise InputError(f"{path}: line {start}: expected {len(header)} fields "
                                     f"(as in the header), found {len(row)}")
                rows.append(row)
                lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: {exc}") from None
    header = [h.strip() for h in header]
    dupes = {h for h in header if header.count(h) > 1}
    if dupes:
        raise InputError(f"{path}: line 1: duplicate column name(s) {sorted(dupes)}")
    return pd.DataFrame(rows, columns=header, dtype=object), lines


def _read_jsonl(path: Path, text: str) -> tuple[pd.DataFrame, list[int]]:
    records, lines = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number}: not valid JSON ({exc.msg} at column "
                             f"{exc.colno})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{path}: line {number}: expected a JSON object, found "
                             f"{type(obj).__name__}")
        records.append(obj)
        lines.append(number)
    return _records_frame(path, records), lines


def _read_json(path: Path, text: str) -> tuple[pd.DataFrame, list[int]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg} at column "
                         f"{exc.colno})") from None
    if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
        # {"study-1": {...}, ...}: the key becomes the "id" unless the record has one.
        records = [{"id": key, **value} if "id" not in value else value for key, value in data.items()]
    elif isinstance(data, dict) and isinstance(data.get("pairs"), list):
        records = data["pairs"]
    elif isinstance(data, list):
        records = data
    else:
        raise InputError(f"{path}: expected a JSON list of objects or an object of objects")
    for i, rec in enumerate(records):
        if not isinstance(rec, dict):
            raise InputError(f"{path}: item {i + 1}: expected a JSON object, found {type(rec).__name__}")
    # JSON has no useful line per record; the item number (1-based) stands in for it.
    return _records_frame(path, records), list(range(1, len(records) + 1))


def _records_frame(path: Path, records: list[dict[str, Any]]) -> pd.DataFrame:
    if not records:
        raise InputError(f"{path}: no records found")
    frame = pd.DataFrame.from_records(records)
    return frame.astype(object).where(frame.notna(), None)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value != value:  # NaN
        return ""
    return value if isinstance(value, str) else str(value)


def pairs_from_frame(frame: pd.DataFrame, columns: Columns, source: str = "input",
                     lines: Sequence[int] | None = None) -> list[ReportPair]:
    """Build pairs from a table, checking the mapped columns and the ids."""
    where = "line" if lines is not None else "row"
    lines = list(lines) if lines is not None else list(range(1, len(frame) + 1))
    wanted = {"reference": columns.reference, "candidate": columns.candidate}
    if columns.id:
        wanted["id"] = columns.id
    for role, col in (("modality", columns.modality), ("area", columns.area)):
        if col:
            wanted[role] = col
    missing = [f"{col!r} (the {role} column)" for role, col in wanted.items() if col not in frame.columns]
    if missing:
        hint = " (use --id-col to name another column, or --id-col none to number the rows)" \
            if columns.id and columns.id not in frame.columns else ""
        raise InputError(f"{source}: column {', '.join(missing)} not found; the file has columns: "
                         f"{', '.join(map(str, frame.columns))}{hint}")
    pairs: list[ReportPair] = []
    seen: dict[str, int] = {}
    for position, (_, row) in enumerate(frame.iterrows()):
        line = lines[position]
        if columns.id:
            pid = _cell(row[columns.id]).strip()
            if not pid:
                raise InputError(f"{source}: {where} {line}: column {columns.id!r} is empty; every "
                                 "pair needs an id")
            if pid in seen:
                raise InputError(f"{source}: {where} {line}: id {pid!r} in column {columns.id!r} was "
                                 f"already used on {where} {seen[pid]}")
            seen[pid] = line
        else:
            pid = str(position + 1)
        pairs.append(ReportPair(
            id=pid,
            reference=_cell(row[columns.reference]),
            candidate=_cell(row[columns.candidate]),
            modality=_cell(row[columns.modality]) or None if columns.modality else None,
            area=_cell(row[columns.area]) or None if columns.area else None,
        ))
    return pairs


def read_pairs(path: str | Path, columns: Columns | None = None, fmt: str | None = None) -> list[ReportPair]:
    """Read report pairs from a CSV, TSV, JSONL or JSON file."""
    frame, lines = read_table(path, fmt)
    where_lines = lines if detect_format(Path(path), fmt) != "json" else None
    return pairs_from_frame(frame, columns or Columns(), source=str(path), lines=where_lines)


# --- writing ---------------------------------------------------------------------------------


def write_jsonl(rows: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, default=_json_default) + "\n")
    return path


def write_json(obj: Any, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False, default=_json_default) + "\n",
                    encoding="utf-8")
    return path


def _json_default(value: Any) -> Any:
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def results_frame(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Flatten per-pair result rows to one table row per pair: score, error and signature per metric."""
    records = []
    for row in rows:
        rec: dict[str, Any] = {"id": row["id"]}
        for name, result in row["metrics"].items():
            rec[f"{name}_score"] = result.get("score")
            rec[f"{name}_error"] = result.get("error")
            rec[f"{name}_model"] = result.get("model")
            rec[f"{name}_signature"] = result.get("signature")
        records.append(rec)
    return pd.DataFrame.from_records(records)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe
    (OWASP's advice on CSV injection); numbers and other text are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_frame_csv(frame: pd.DataFrame, path: str | Path, sep: str = ",") -> Path:
    """Write a table as CSV (or TSV with ``sep="\\t"``) with every text cell and header
    neutralised: ids and reports come from users and may start with ``=``, ``+``, ``@`` ..."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    safe = frame.rename(columns=lambda c: neutralise_cell(str(c)))
    safe = safe.apply(lambda col: col if pd.api.types.is_numeric_dtype(col) else col.map(neutralise_cell))
    safe.to_csv(path, index=False, sep=sep)
    return path


def write_csv(rows: Sequence[Mapping[str, Any]], path: str | Path) -> Path:
    return write_frame_csv(results_frame(rows), path)
