"""Reading report pairs from files and writing results.

Readers accept CSV, TSV, JSONL and JSON with configurable column names. They are strict
wherever a guess could corrupt data: a quote left open, a ragged row, an undeclared encoding,
a header without rows or a NaN / Infinity cell raise ``InputError`` naming the file, the line
and the column, and every cell stays the text the file holds (an id ``2`` never becomes
``2.0``). A problem with one pair (an empty or oversized report) is not an error here: it is
reported per pair by the runner, so the rest of the batch still runs.

A run reads its input through ``PairFile`` (checked whole once, then read row by row as it is
scored) and writes its results through ``ResultsWriter`` (row by row as they are scored), so
neither the input nor the output is ever held whole.
"""
from __future__ import annotations

import codecs
import csv
import io
import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from radscope.engine.io.export import ColumnsOf, ExportTable, export_rows, write_csv
from radscope.engine.io.reports import ReportPair

if TYPE_CHECKING:  # pandas costs ~0.2 s to import; only the app's whole-table paths need it
    import pandas as pd

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


# Byte-order marks, longest first (the UTF-32 LE mark begins with the UTF-16 LE one).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"))


_MARK = "\ufeff"  # a byte-order mark, as decoded text


def decode_text(path: Path | str, raw: bytes) -> str:
    """Text of a file in UTF-8 (with or without a BOM) or UTF-16/32 (by its BOM, or UTF-16
    without one when every other byte is NUL, as in English text); anything else is refused
    with the encoding named, because a wrong guess would silently change the reports. A
    byte-order mark at the start of a later line (files joined with ``cat``) is dropped too,
    so that the id after it is the id written (``_without_marks``)."""
    codec, skip, name = _codec_of(path, raw[:_HEAD_BYTES])
    if name:
        return _strict_decode(path, raw[skip:], codec, name).replace("\n" + _MARK, "\n")
    try:
        return raw.decode("utf-8").replace("\n" + _MARK, "\n")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        guess = "Latin-1 / Windows-1252" if _is_cp1252(raw) else "an unknown encoding"
        raise InputError(f"{path}: line {line}, column {column}: not UTF-8 or UTF-16 text (byte "
                         f"0x{raw[exc.start]:02x}; it looks like {guess}); save the file as "
                         "UTF-8") from None


_HEAD_BYTES = 65536  # read to tell the encoding, and to refuse a binary file


def _codec_of(path: Path | str, head: bytes) -> tuple[str, int, str | None]:
    """(codec, bytes of byte-order mark to skip, the encoding's name when it is not plain
    UTF-8) from a file's first bytes; a binary file is refused."""
    for bom, codec, name in _BOMS:
        if head.startswith(bom):
            return codec, len(bom), name
    bomless = _bomless_utf16(head)
    if bomless:
        return bomless, 0, "UTF-16 (no byte-order mark)"
    if b"\x00" in head:
        raise InputError(f"{path}: this is a binary file (it holds NUL bytes), not CSV/TSV/JSONL/"
                         "JSON text")
    return "utf-8", 0, None


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
        raise InputError(_nul_message(path, name))
    return text


def _nul_message(path: Path | str, name: str) -> str:
    return f"{path}: {name} text that holds NUL characters (binary data); save the file as UTF-8 text"


@contextmanager
def _text_lines(path: Path, newline: str) -> Iterator[Iterator[str]]:
    """The file's lines, decoded as ``decode_text`` would (same checks, same messages) but read
    as they are needed instead of whole. ``newline`` as for ``open``."""
    try:
        raw = path.open("rb")
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    with raw:
        codec, skip, name = _codec_of(path, raw.read(_HEAD_BYTES))
        raw.seek(skip)
        text = io.TextIOWrapper(raw, encoding=codec, errors="strict", newline=newline)
        try:
            yield _without_marks(_without_nul(path, text, name) if name else text)
        except UnicodeDecodeError:
            decode_text(path, path.read_bytes())  # raises, naming the line and column
            raise InputError(f"{path}: not valid {name or 'UTF-8'} text; save the file as "
                             "UTF-8") from None


def _without_marks(lines: Iterable[str]) -> Iterator[str]:
    """The lines without a byte-order mark at their start: the mark of a second file joined to
    the first, which would otherwise stay in the next id (an invisible character)."""
    for line in lines:
        yield line[1:] if line.startswith(_MARK) else line


def _without_nul(path: Path, lines: Iterable[str], name: str) -> Iterator[str]:
    for line in lines:
        if "\x00" in line:
            raise InputError(_nul_message(path, name))
        yield line


def _whole_text(path: Path) -> str:
    """The whole file as text (a JSON document, or to locate a CSV quoting problem)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    return decode_text(path, raw)


def read_table(path: str | Path, fmt: str | None = None, max_columns: int | None = None,
               max_cells: int | None = None) -> tuple[pd.DataFrame, list[int]]:
    """Read any supported file into a DataFrame of strings, plus the source line of each row.

    Every cell is the text the file holds (JSON numbers keep their spelling, so an id ``2``
    stays ``"2"``), or None where the cell is null or absent. The whole file is held (the app
    shows and maps its columns); a run reads its pairs through ``PairFile`` instead. A file
    with more than ``max_columns`` columns, or more than ``max_cells`` rows times columns (a
    JSONL file whose records each bring new keys), is refused as soon as reading finds it.
    """
    import pandas as pd

    table = _Table(Path(path), fmt)
    lines: list[int] = []
    records: list[dict[str, Any]] = []
    keys: dict[str, None] = {}  # JSON / JSONL: every column any record has, in order of appearance
    for line, cells in table.rows():
        if table.header is None:
            keys.update(dict.fromkeys(cells))
        columns = len(table.header) if table.header is not None else len(keys)
        if max_columns is not None and columns > max_columns:
            raise InputError(f"{path}: {columns:,} columns or more; at most {max_columns:,} are read "
                             "here (keep the id, report and label columns you need)")
        if max_cells is not None and (len(records) + 1) * columns > max_cells:
            raise InputError(f"{path}: {len(records) + 1:,} rows of {columns:,} columns or more; at most "
                             f"{max_cells:,} cells (rows times columns) are read here")
        lines.append(line)
        records.append(cells)
    header = table.header if table.header is not None else list(keys)
    # One object block built from lists: per-column frame building is slow for wide files.
    return pd.DataFrame([[r.get(k) for k in header] for r in records] or None, columns=header,
                        dtype=object), lines


def read_rows(path: str | Path, fmt: str | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every row of a CSV, TSV, JSONL or JSON file as (line, cells), read as it is needed, with
    the checks and messages of the pair readers: the source line (for JSON, the item number)
    and each column's cell text (JSON numbers keep their spelling). For readers of tables that
    are not pair files (the rating files of ``radscope.engine.ratings``)."""
    return _Table(Path(path), fmt).rows()


class _Table:
    """One input file read row by row as (line, cells): the source line (for JSON, the item
    number) and the column -> cell text mapping. CSV, TSV and JSONL are read as the rows are
    needed; a JSON document is parsed whole."""

    def __init__(self, path: Path, fmt: str | None = None):
        self.path = path
        self.fmt = detect_format(path, fmt)
        self.where = "row" if self.fmt == "json" else "line"  # JSON has no useful line per item
        self.header: list[str] | None = None  # CSV / TSV: known once rows() has begun

    def rows(self) -> Iterator[tuple[int, dict[str, Any]]]:
        if self.fmt in ("csv", "tsv"):
            return self._delimited("," if self.fmt == "csv" else "\t")
        if self.fmt == "jsonl":
            return self._jsonl()
        return self._json()

    def _delimited(self, sep: str) -> Iterator[tuple[int, dict[str, Any]]]:
        # The csv module (strict: a quote must close right before a separator or a line end)
        # knows where each record starts. Quoted fields may span lines, but not when they
        # swallow what look like whole rows.
        path = self.path
        header: list[str] = []
        n = 0
        with _text_lines(path, "") as lines:
            reader = csv.reader(lines, delimiter=sep, strict=True)
            try:
                first = next(reader, None)
                blank = first is None or (len(first) <= 1 and not "".join(first).strip())
                if blank and (first is None or not any("".join(row).strip() for row in reader)):
                    raise InputError(f"{path}: the file is empty")
                header = self._header(first or [""], sep)
                id_at = _id_position(header)
                start = reader.line_num + 1
                for row in reader:
                    if row and any(cell.strip() for cell in row):
                        _check_row(path, row, header, start, sep, id_at)
                        yield start, dict(zip(header, row, strict=True))
                        n += 1
                    start = reader.line_num + 1
            except csv.Error as exc:
                raise InputError(_quote_problem(path, _whole_text(path), sep, header)
                                 or f"{path}: line {reader.line_num}: {exc}") from None
        if not n:
            raise InputError(f"{path}: the file has a header line but no rows of pairs")

    def _header(self, first: list[str], sep: str) -> list[str]:
        header = [h.strip() for h in first]
        if len(header) < 2:
            other = next((c for c in ";,\t|" if c != sep and c in header[0]), None)
            hint = (f" (it holds {other!r}: is the file separated by {other!r} instead? save it "
                    "with commas as .csv, or with tabs as .tsv)") if other else ""
            raise InputError(f"{self.path}: line 1 holds a single column ({header[0][:60]!r}){hint}, "
                             f"so this is not a table of pairs; accepted: {_ACCEPTED}")
        dupes = {h for h, n in Counter(header).items() if n > 1}
        if dupes:
            raise InputError(f"{self.path}: line 1: duplicate column name(s) {sorted(dupes)}")
        self.header = header
        return header

    def _jsonl(self) -> Iterator[tuple[int, dict[str, Any]]]:
        path = self.path
        n = 0
        # Lines end at "\n" only: str.splitlines would also break at U+2028 and friends, which
        # JSON strings may hold unescaped.
        with _text_lines(path, "\n") as lines:
            for number, line in enumerate(lines, start=1):
                line = line.removesuffix("\n").removesuffix("\r")
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
                yield number, _json_cells(obj, path, f"line {number}")
                n += 1
        if not n:
            raise InputError(f"{path}: the file is empty")

    def _json(self) -> Iterator[tuple[int, dict[str, Any]]]:
        path = self.path
        text = _whole_text(path)
        if not text.strip():
            raise InputError(f"{path}: the file is empty")
        records = _json_records(path, text)
        del text
        for number, record in enumerate(records, start=1):
            yield number, _json_cells(record, path, f"item {number}")


_ACCEPTED = ("CSV or TSV with a header row (e.g. id, reference, candidate), JSONL (one JSON "
             "object per line) or JSON (a list of objects)")
# A line inside a multi-line quoted field that looks like a row of its own: as many fields as
# the header, with a short id-like cell where the id column is (the first column unless one is
# named like an id). It means a quote was probably left open and swallowed the rows after it.
_ID_LIKE = re.compile(r"^[A-Za-z0-9_.:/#-]{1,64}$")
_ID_NAME = re.compile(r"^(?:key|study|case|.*id)$", re.IGNORECASE)


def _id_position(header: list[str]) -> int:
    return next((i for i, name in enumerate(header) if _ID_NAME.match(name.strip())), 0)


def _check_row(path: Path, row: list[str], header: list[str], line: int, sep: str, id_at: int) -> None:
    if len(row) > len(header):
        raise InputError(f"{path}: line {line}, column {len(header) + 1}: expected {len(header)} "
                         f"fields (as in the header), found {len(row)}")
    if len(row) < len(header):
        raise InputError(f"{path}: line {line}, column {len(row) + 1} ({header[len(row)]!r}): "
                         f"expected {len(header)} fields (as in the header), found {len(row)}")
    offset = 0
    for number, cell in enumerate(row):
        if "\n" not in cell:
            continue
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


def _json_records(path: Path, text: str) -> list[dict[str, Any]]:
    """The records of a JSON document: a list of objects, {"pairs": [...]}, or an object of
    objects keyed by id."""
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
    if not records:
        raise InputError(f"{path}: no records found")
    return records


def _json_cells(record: dict[str, Any], path: Path, where: str) -> dict[str, Any]:
    """The record's cells; a lone surrogate (a ``\\ud800`` escape, valid JSON but no text any
    file or database can hold) is refused here, naming the file, the line and the field."""
    for key, value in record.items():
        for text, what in ((key, "field name"), (value, f"field {key!r}")):
            if isinstance(text, str) and not _encodable(text):
                raise InputError(f"{path}: {where}: the {what} holds a lone surrogate escape (such as "
                                 "\\ud800), which is not text; fix or remove it")
    return {str(k): _json_cell(v) for k, v in record.items()}


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_cell(value: Any) -> Any:
    """A JSON value as cell text: numbers arrive as their text already (see ``_json_loads``).
    Objects and lists stay as they are, so that ``pairs_from_frame`` can refuse them where a
    report or an id is expected instead of scoring their JSON text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


# An id, modality or body area is a short label: one longer than this is refused with its row,
# so that a batch file cannot store megabytes beside each pair (the reports have their own limit).
LABEL_CELL_MAX = 1_000


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value != value:  # NaN
        return ""
    return value if isinstance(value, str) else str(value)


def name_list(names: Sequence[str], limit: int = 30) -> str:
    """Column names for a message: the first ``limit``, then how many more (a file may have
    100,000 columns)."""
    shown = ", ".join(names[:limit])
    return shown if len(names) <= limit else f"{shown}, … ({len(names) - limit:,} more)"


def pairs_from_frame(frame: pd.DataFrame, columns: Columns, source: str = "input",
                     lines: Sequence[int] | None = None) -> list[ReportPair]:
    """Build pairs from a table, checking the mapped columns and the ids."""
    where = "line" if lines is not None else "row"
    lines = list(lines) if lines is not None else list(range(1, len(frame) + 1))
    maker = _PairMaker(columns, source, where)
    maker.require(list(frame.columns))
    return [maker.pair(row, position, lines[position])
            for position, (_, row) in enumerate(frame.iterrows())]


class _PairMaker:
    """Turns rows into pairs: the mapped columns must exist, mapped cells must be text, and
    (``check_ids``) every pair needs an id used once."""

    def __init__(self, columns: Columns, source: str, where: str, check_ids: bool = True):
        self.columns, self.source, self.where = columns, source, where
        self.wanted = {"reference": columns.reference, "candidate": columns.candidate}
        if columns.id:
            self.wanted["id"] = columns.id
        for role, col in (("modality", columns.modality), ("area", columns.area)):
            if col:
                self.wanted[role] = col
        self.seen: dict[str, int] | None = {} if check_ids and columns.id else None

    def require(self, available: Sequence[Any]) -> None:
        """InputError when a mapped column is not among the file's columns."""
        missing = [f"{col!r} (the {role} column)" for role, col in self.wanted.items()
                   if col not in available]
        if missing:
            columns = self.columns
            hint = " (use --id-col to name another column, or --id-col none to number the rows)" \
                if columns.id and columns.id not in available else ""
            raise InputError(f"{self.source}: column {', '.join(missing)} not found; the file has "
                             f"columns: {name_list([str(c) for c in available])}{hint}")

    def pair(self, cells: Mapping[str, Any], position: int, line: int) -> ReportPair:
        source, where, columns = self.source, self.where, self.columns
        for role, col in self.wanted.items():
            value = cells.get(col)
            if isinstance(value, (dict, list)):
                raise InputError(f"{source}: {where} {line}: column {col!r} (the {role} column) holds "
                                 f"a JSON {'object' if isinstance(value, dict) else 'list'}, not text")
        for role, label in (("id", "an id"), ("modality", "a modality"), ("area", "a body area")):
            col = getattr(columns, role)
            size = len(_cell(cells.get(col))) if col else 0
            if size > LABEL_CELL_MAX:
                raise InputError(f"{source}: {where} {line}: column {col!r} (the {role} column) holds "
                                 f"{size:,} characters; {label} is at most {LABEL_CELL_MAX:,}")
        if columns.id:
            pid = _cell(cells.get(columns.id)).strip().strip(_MARK).strip()
            if not pid:
                raise InputError(f"{source}: {where} {line}: column {columns.id!r} is empty; every "
                                 "pair needs an id")
            if self.seen is not None:
                if pid in self.seen:
                    raise InputError(f"{source}: {where} {line}: id {pid!r} in column {columns.id!r} "
                                     f"was already used on {where} {self.seen[pid]}")
                self.seen[pid] = line
        else:
            pid = str(position + 1)
        return ReportPair(
            id=pid,
            reference=_cell(cells.get(columns.reference)),
            candidate=_cell(cells.get(columns.candidate)),
            modality=_cell(cells.get(columns.modality)) or None if columns.modality else None,
            area=_cell(cells.get(columns.area)) or None if columns.area else None,
        )


class PairFile:
    """The report pairs of a file, read as a run needs them instead of held whole.

    The first pass (``check``, or the first ``len`` / iteration) reads the whole file and
    raises ``InputError`` for anything ``read_pairs`` refuses (format, encoding, mapped
    columns, empty or repeated ids) before any work starts, and counts the pairs; it holds
    the ids (to find a repeated one) and nothing else. Every later iteration reads the file
    again, row by row for CSV, TSV and JSONL (a JSON document is parsed whole each time), and
    fails if the file changed since it was checked.
    """

    def __init__(self, path: str | Path, columns: Columns | None = None, fmt: str | None = None):
        self.path = Path(path)
        self.columns = columns or Columns()
        self.fmt = fmt
        detect_format(self.path, fmt)  # an unknown format fails at once
        self._count: int | None = None
        self._stamp: tuple[int, int] | None = None

    def check(self) -> int:
        """Read and check the whole file once; the number of pairs."""
        if self._count is None:
            stamp = self._file_stamp()
            self._count = sum(1 for _ in self._pairs(check=True))
            self._stamp = stamp
        return self._count

    def __len__(self) -> int:
        return self.check()

    def __iter__(self) -> Iterator[ReportPair]:
        expected = self.check()
        self._unchanged()
        n = 0
        for pair in self._pairs(check=False):
            n += 1
            yield pair
        if n != expected:
            raise self._changed()
        self._unchanged()

    def _pairs(self, check: bool) -> Iterator[ReportPair]:
        """The file's pairs in order. Checking, a problem with a row is raised only after the
        whole file has parsed, as ``read_pairs`` does: a file-level error (and, for JSON, a
        mapped column no record has) comes first."""
        table = _Table(self.path, self.fmt)
        maker = _PairMaker(self.columns, str(self.path), table.where, check_ids=check)
        keys: dict[str, None] = {}  # JSON / JSONL: every column any record has
        problem: InputError | None = None
        for position, (line, cells) in enumerate(table.rows()):
            if table.header is not None:
                if position == 0:
                    maker.require(table.header)
            else:
                keys.update(dict.fromkeys(cells))
            if problem is None:
                try:
                    pair = maker.pair(cells, position, line)
                except InputError as exc:
                    if not check:
                        raise
                    problem, maker.seen = exc, None
                    continue
                yield pair
        if table.header is None:
            maker.require(list(keys))
        if problem is not None:
            raise problem

    def _file_stamp(self) -> tuple[int, int]:
        try:
            st = self.path.stat()
        except OSError:
            return (-1, -1)  # reading will say what is wrong
        return (st.st_size, st.st_mtime_ns)

    def _unchanged(self) -> None:
        if self._file_stamp() != self._stamp:
            raise self._changed()

    def _changed(self) -> InputError:
        return InputError(f"{self.path}: the file changed while it was being scored; run the "
                          "command again on the finished file")


def read_pairs(path: str | Path, columns: Columns | None = None, fmt: str | None = None) -> list[ReportPair]:
    """Read report pairs from a CSV, TSV, JSONL or JSON file, all in memory (a run reads a
    ``PairFile`` instead)."""
    return list(PairFile(path, columns, fmt)._pairs(check=True))


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


class ResultsWriter:
    """Per-pair result rows written as they arrive: one JSON line per pair and, optionally,
    the flat results table as CSV (``engine.io.export``: the same columns as the app's Batch
    download, the texts from ``pairs`` when given). The CSV's columns depend on every row, so
    it is written by ``finish`` from the JSON lines (spooled to a temporary file when no JSONL
    path is given), with the pairs read again in step; nothing is held whole.

    Each file is written under a ``.partial`` name beside it and moved into place by
    ``finish``; ``close`` without ``finish`` (an interrupted run) removes the partial files,
    so a file at the output path is always complete.
    """

    def __init__(self, jsonl: str | Path | None, csv_path: str | Path | None,
                 pairs: Iterable[ReportPair] | None = None, *, columns_of: ColumnsOf):
        self._files: list[tuple[Path | None, Path, Any]] = []  # (final path or None, partial, handle)
        self._csv_path = Path(csv_path) if csv_path else None
        self._pairs = pairs
        self._table = ExportTable(with_texts=pairs is not None, columns_of=columns_of)
        self._jsonl = None
        if jsonl:
            self._jsonl = self._open(jsonl)
        elif csv_path:  # the CSV is built from the JSON lines: spool them
            fd, name = tempfile.mkstemp(suffix=".jsonl", prefix="radscope-rows-")
            self._jsonl = os.fdopen(fd, "w", encoding="utf-8")
            self._files.append((None, Path(name), self._jsonl))
        self._rows_path = self._files[-1][1] if self._files else None  # the JSON lines being written
        self.n_rows = 0

    def _open(self, path: str | Path) -> Any:
        final = Path(path)
        final.parent.mkdir(parents=True, exist_ok=True)
        partial = final.with_name(final.name + ".partial")
        handle = partial.open("w", encoding="utf-8", newline="")
        self._files.append((final, partial, handle))
        return handle

    def write(self, rows: Iterable[Mapping[str, Any]]) -> None:
        for row in rows:
            if self._jsonl is not None:
                self._jsonl.write(json.dumps(row, ensure_ascii=False, default=_json_default) + "\n")
            if self._csv_path is not None:
                self._table.add(row)
            self.n_rows += 1

    def _written_rows(self) -> Iterator[dict[str, Any]]:
        """The rows written so far, read back from the JSON lines."""
        assert self._jsonl is not None and self._rows_path is not None
        self._jsonl.flush()
        with self._rows_path.open(encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line)

    def _write_csv(self) -> None:
        assert self._csv_path is not None
        handle = self._open(self._csv_path)
        write_csv(handle, self._table.header, export_rows(self._written_rows(), self._pairs, None,
                                                          self._table))

    def finish(self) -> None:
        """Write the CSV, then move every complete file into place."""
        if self._csv_path is not None:
            self._write_csv()
        for final, partial, handle in self._files:
            handle.close()
            if final is None:
                partial.unlink(missing_ok=True)
            else:
                os.replace(partial, final)
        self._files.clear()

    def close(self) -> None:
        """Discard what was not finished."""
        for _, partial, handle in self._files:
            handle.close()
            partial.unlink(missing_ok=True)
        self._files.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
