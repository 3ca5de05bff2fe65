"""Reading report pairs from files and writing results.

Readers accept CSV, TSV, JSONL and JSON with configurable column names. They are strict
wherever a guess could corrupt data: a quote left open, a ragged row, an undeclared encoding,
a header without rows or a NaN / Infinity cell raise ``InputError`` naming the file, the line
and the column, and every cell stays the text the file holds (an id ``2`` never becomes
``2.0``). A problem with one pair (an empty or oversized report) is not an error here: it is
reported per pair by the runner, so the rest of the batch still runs.
"""
from __future__ import annotations

import codecs
import csv
import io
import json
import re
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
    return decode_text(path, raw)


# Byte-order marks, longest first (the UTF-32 LE mark begins with the UTF-16 LE one).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"))


def decode_text(path: Path | str, raw: bytes) -> str:
    """Text of a file in UTF-8 (with or without a BOM) or UTF-16/32 (by its BOM, or UTF-16
    without one when every other byte is NUL, as in English text); anything else is refused
    with the encoding named, because a wrong guess would silently change the reports."""
    for bom, codec, name in _BOMS:
        if raw.startswith(bom):
            return _strict_decode(path, raw[len(bom):], codec, name)
    utf16 = _bomless_utf16(raw)
    if utf16:
        return _strict_decode(path, raw, utf16, "UTF-16 (no byte-order mark)")
    if b"\x00" in raw[:65536]:
        raise InputError(f"{path}: this is a binary file (it holds NUL bytes), not CSV/TSV/JSONL/"
                         "JSON text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        guess = "Latin-1 / Windows-1252" if _is_cp1252(raw) else "an unknown encoding"
        raise InputError(f"{path}: line {line}, column {column}: not UTF-8 or UTF-16 text (byte "
                         f"0x{raw[exc.start]:02x}; it looks like {guess}); save the file as "
                         "UTF-8") from None


def _bomless_utf16(raw: bytes) -> str | None:
    """'utf-16-le' / 'utf-16-be' when NULs fill exactly one byte of (nearly) every pair."""
    sample = raw[:4096]
    if len(sample) < 8 or len(sample) % 2:
        return None
    even, odd = sample[0::2], sample[1::2]
    for zeros, other, codec in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros.count(0) >= 0.9 * len(zeros) and other.count(0) == 0:
            return codec
    return None


def _is_cp1252(raw: bytes) -> bool:
    try:
        raw.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return True


def _strict_decode(path: Path | str, raw: bytes, codec: str, name: str) -> str:
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: declared {name} by its first bytes, but byte offset "
                         f"{exc.start} is not valid {name}; save the file as UTF-8") from None
    if "\x00" in text:
        raise InputError(f"{path}: {name} text that holds NUL characters (binary data); save "
                         "the file as UTF-8 text")
    return text


def read_table(path: str | Path, fmt: str | None = None) -> tuple[pd.DataFrame, list[int]]:
    """Read any supported file into a DataFrame of strings, plus the source line of each row.

    Every cell is the text the file holds (JSON numbers keep their spelling, so an id ``2``
    stays ``"2"``), or None where the cell is null or absent.
    """
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


_ACCEPTED = ("CSV or TSV with a header row (e.g. id, reference, candidate), JSONL (one JSON "
             "object per line) or JSON (a list of objects)")
# A line inside a multi-line quoted field that looks like a row of its own: as many fields as
# the header, with a short id-like cell where the id column is (the first column unless one is
# named like an id). It means a quote was probably left open and swallowed the rows after it.
_ID_LIKE = re.compile(r"^[A-Za-z0-9_.:/#-]{1,64}$")
_ID_NAME = re.compile(r"^(?:key|study|case|.*id)$", re.IGNORECASE)


def _id_position(header: list[str]) -> int:
    return next((i for i, name in enumerate(header) if _ID_NAME.match(name.strip())), 0)


def _read_delimited(path: Path, text: str, sep: str) -> tuple[pd.DataFrame, list[int]]:
    # The csv module (strict: a quote must close right before a separator or a line end) knows
    # where each record starts, which pandas does not report; pandas then builds the frame.
    # Quoted fields may span lines, but not when they swallow what look like whole rows.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    lines: list[int] = []
    rows: list[list[str]] = []
    header: list[str] = []
    try:
        header = [h.strip() for h in next(reader)]
        if len(header) < 2:
            other = next((c for c in ";,\t|" if c != sep and c in header[0]), None)
            hint = (f" (it holds {other!r}: is the file separated by {other!r} instead? save it "
                    "with commas as .csv, or with tabs as .tsv)") if other else ""
            raise InputError(f"{path}: line 1 holds a single column ({header[0][:60]!r}){hint}, so "
                             f"this is not a table of pairs; accepted: {_ACCEPTED}")
        start = reader.line_num + 1
        for row in reader:
            if row and any(cell.strip() for cell in row):
                _check_row(path, row, header, start, sep)
                rows.append(row)
                lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(_quote_problem(path, text, sep, header)
                         or f"{path}: line {reader.line_num}: {exc}") from None
    dupes = {h for h in header if header.count(h) > 1}
    if dupes:
        raise InputError(f"{path}: line 1: duplicate column name(s) {sorted(dupes)}")
    if not rows:
        raise InputError(f"{path}: the file has a header line but no rows of pairs")
    return pd.DataFrame(rows, columns=header, dtype=object), lines


def _check_row(path: Path, row: list[str], header: list[str], line: int, sep: str) -> None:
    if len(row) > len(header):
        raise InputError(f"{path}: line {line}, column {len(header) + 1}: expected {len(header)} "
                         f"fields (as in the header), found {len(row)}")
    if len(row) < len(header):
        raise InputError(f"{path}: line {line}, column {len(row) + 1} ({header[len(row)]!r}): "
                         f"expected {len(header)} fields (as in the header), found {len(row)}")
    offset = 0
    id_at = _id_position(header)
    for number, cell in enumerate(row):
        inner = cell.split("\n")
        for k, piece in enumerate(inner[1:], start=1):
            fields = piece.split(sep)
            if len(fields) == len(header) and _ID_LIKE.match(fields[id_at].strip()):
                raise InputError(
                    f"{path}: line {line}, column {number + 1} ({header[number]!r}): this quoted "
                    f"field runs over {len(inner)} lines and holds what looks like a row of its "
                    f"own at line {line + offset + k} ({piece[:60]!r}); is a quote left open?")
        offset += len(inner) - 1


def _quote_problem(path: Path, text: str, sep: str, header: list[str]) -> str | None:
    """Where a quote goes wrong: one never closed, or one closed with text right after it."""
    line, column, field = 1, 0, 0
    opened: tuple[int, int, int] | None = None
    i, n = 0, len(text)

    def name(index: int) -> str:
        return f" ({header[index]!r})" if index < len(header) else ""

    at_field_start = True
    while i < n:
        ch = text[i]
        column += 1
        if opened is None:
            if ch == '"' and at_field_start:
                opened = (line, column, field)
            at_field_start = ch in (sep, "\n", "\r")
            if ch == sep:
                field += 1
        elif ch == '"':
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == '"':
                i += 1
                column += 1
            elif nxt in (sep, "\n", "\r", ""):
                opened = None
            else:
                o_line, o_col, o_field = opened
                return (f"{path}: line {line}, column {o_field + 1}{name(o_field)}: the quote opened "
                        f"at line {o_line} (character {o_col}) closes at character {column} of line "
                        f"{line}, but text follows it; is a quote left open, or one not doubled?")
        if ch == "\n":
            line, column = line + 1, 0
            if opened is None:
                field = 0
        i += 1
    if opened is not None:
        o_line, o_col, o_field = opened
        return (f"{path}: line {o_line}, column {o_field + 1}{name(o_field)}: the quote at character "
                f"{o_col} is never closed (the field would run to the end of the file)")
    return None


def _json_loads(text: str) -> Any:
    """JSON with numbers kept as the text the file holds and Infinity / NaN refused."""
    def refuse(token: str) -> Any:
        raise _NonFinite(token)
    return json.loads(text, parse_int=str, parse_float=str, parse_constant=refuse)


class _NonFinite(ValueError):
    """A bare NaN / Infinity token: not JSON, and never a report or an id."""


def _non_finite_message(path: Path, text: str, token: str, line: int | None = None) -> str:
    match = re.search(rf"(?<![\w\"]){re.escape(token)}(?![\w\"])", text)
    if line is None:
        line = text.count("\n", 0, match.start()) + 1 if match else 1
        column = match.start() - text.rfind("\n", 0, match.start()) if match else 1
    else:
        column = match.start() + 1 if match else 1
    return (f"{path}: line {line}, column {column}: {token} is not a JSON value (a cell must be "
            "text, a number or null)")


def _read_jsonl(path: Path, text: str) -> tuple[pd.DataFrame, list[int]]:
    records, lines = [], []
    # Lines end at "\n" only: str.splitlines would also break at U+2028 and friends, which
    # JSON strings may hold unescaped.
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        try:
            obj = _json_loads(line)
        except _NonFinite as exc:
            raise InputError(_non_finite_message(path, line, str(exc), number)) from None
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
        data = _json_loads(text)
    except _NonFinite as exc:
        raise InputError(_non_finite_message(path, text, str(exc))) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg} at column "
                         f"{exc.colno})") from None
    if isinstance(data, dict) and data and all(isinstance(v, dict) for v in data.values()):
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
    texts = [{str(k): _json_cell(v) for k, v in rec.items()} for rec in records]
    frame = pd.DataFrame.from_records(texts).astype(object)
    return frame.where(frame.notna(), None)


def _json_cell(value: Any) -> Any:
    """A JSON value as cell text: numbers arrive as their text already (see ``_json_loads``).
    Objects and lists stay as they are, so that ``pairs_from_frame`` can refuse them where a
    report or an id is expected instead of scoring their JSON text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


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
        for role, col in wanted.items():
            if isinstance(row[col], (dict, list)):
                raise InputError(f"{source}: {where} {line}: column {col!r} (the {role} column) holds "
                                 f"a JSON {'object' if isinstance(row[col], dict) else 'list'}, not text")
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
