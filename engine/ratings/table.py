"""A rating file read whole as rows of cell text, with every error naming the file, the line
(the physical line where the record starts, header = line 1, so a quoted report spanning lines
is counted right; for a JSON document, the item) and the column.

A user's own file is read by the pair readers' row reader (``dataio.read_rows``: the formats,
encodings and checks of ``radscope score``); a published set's CSV (``read_csv``) by the csv
module over ``dataio.decode_text``, since some of them hold a single column.
"""
from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from radscope.engine.io import dataio


class RatingsFormatError(dataio.InputError):
    """A rating file does not have the expected layout or holds an unreadable value."""

    def __init__(self, path: Path | str, problem: str, line: int | None = None,
                 column: str | None = None, where: str = "line") -> None:
        self.path, self.problem, self.line, self.column = str(path), problem, line, column
        place = self.path
        if line is not None:
            place += f", {where} {line}"
        if column is not None:
            place += f", column {column!r}"
        super().__init__(f"{place}: {problem}")


class RatingTable:
    """The rows of one rating file (CSV, TSV, JSONL or JSON), each a column -> text mapping."""

    def __init__(self, path: Path | str, lines: list[int], rows: list[dict[str, Any]],
                 where: str = "line") -> None:
        self.path, self.lines, self.rows, self.where = Path(path), lines, rows, where
        self.columns = list(dict.fromkeys(name for cells in rows for name in cells))

    @classmethod
    def read(cls, path: Path | str, fmt: str | None = None) -> RatingTable:
        """A CSV, TSV, JSONL or JSON file of at least two columns, as ``radscope score`` reads it."""
        path = Path(path)
        where = "item" if dataio.detect_format(path, fmt) == "json" else "line"
        read = list(dataio.read_rows(path, fmt))
        return cls(path, [line for line, _ in read], [cells for _, cells in read], where)

    @classmethod
    def read_csv(cls, path: Path) -> RatingTable:
        """A CSV file with a header row (one column is enough); blank lines are skipped."""
        try:
            text = dataio.decode_text(path, path.read_bytes())
        except FileNotFoundError:
            raise FileNotFoundError(f"{path}: file not found") from None
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        header: list[str] | None = None
        lines: list[int] = []
        rows: list[dict[str, Any]] = []
        end = 0  # the last physical line of the previous record
        try:
            for record in reader:
                start, end = end + 1, reader.line_num
                if not any(cell.strip() for cell in record):
                    continue
                if header is None:
                    header = [cell.strip() for cell in record]
                    repeated = sorted({h for h in header if header.count(h) > 1})
                    if repeated:
                        raise RatingsFormatError(path, f"duplicate column name(s) {repeated}", start)
                    continue
                if len(record) != len(header):
                    raise RatingsFormatError(path, f"expected {len(header)} fields (as in the header), "
                                                   f"found {len(record)}", start)
                lines.append(start)
                rows.append(dict(zip(header, record, strict=True)))
        except csv.Error as exc:
            raise RatingsFormatError(path, f"not a readable CSV file ({exc})", reader.line_num) from None
        if header is None:
            raise RatingsFormatError(path, "the file is empty")
        if not rows:
            raise RatingsFormatError(path, "the file has a header line but no rows")
        return cls(path, lines, rows)

    def __len__(self) -> int:
        return len(self.rows)

    def error(self, problem: str, row: int | None = None, column: str | None = None
              ) -> RatingsFormatError:
        line = None if row is None else self.lines[row]
        return RatingsFormatError(self.path, problem, line, column, self.where)

    def find_column(self, accepted: Sequence[str], what: str, required: bool = True) -> str | None:
        """The first column named one of ``accepted`` (case-insensitive)."""
        by_lower = {c.lower(): c for c in self.columns}
        for name in accepted:
            if name.lower() in by_lower:
                return by_lower[name.lower()]
        if required:
            raise self.error(f"no {what} column: expected one of {list(accepted)}, found columns "
                             f"{self.columns}")
        return None

    def column(self, name: str) -> str:
        """The file's spelling of a required column (matched case-insensitively)."""
        found = self.find_column([name], repr(name))
        assert found is not None  # find_column raised otherwise
        return found

    def require_columns(self, names: Sequence[str]) -> None:
        missing = [n for n in names if self.find_column([n], n, required=False) is None]
        if missing:
            raise self.error(f"missing column(s) {missing}: expected columns {list(names)}, found "
                             f"columns {self.columns}")

    def cells(self, column: str) -> list[str]:
        """The column's cells as text ('' where a record lacks it); a JSON object or list is an error."""
        out = []
        for row, cells in enumerate(self.rows):
            value = cells.get(column)
            if isinstance(value, (dict, list)):
                raise self.error(f"expected text, found a JSON {type(value).__name__}", row, column)
            out.append("" if value is None else str(value))
        return out

    def numbers(self, column: str, *, integer: bool = False, minimum: float | None = None,
                maximum: float | None = None) -> list[float]:
        """The column as finite numbers; the first empty, unreadable or out-of-range cell raises."""
        out = []
        for row, text in enumerate(self.cells(column)):
            if not text.strip():
                raise self.error("the cell is empty; every row needs a number here", row, column)
            try:
                value = float(text.strip())
            except ValueError:
                value = math.nan
            bad = not math.isfinite(value) or (integer and value != round(value)) \
                or (minimum is not None and value < minimum) or (maximum is not None and value > maximum)
            if bad:
                kind = "a whole number" if integer else "a number"
                limits = ""
                if minimum is not None or maximum is not None:
                    limits = (f" in [{'' if minimum is None else f'{minimum:g}'}, "
                              f"{'' if maximum is None else f'{maximum:g}'}]")
                raise self.error(f"expected {kind}{limits}, found {text!r}", row, column)
            out.append(value)
        return out

    def booleans(self, column: str) -> list[bool]:
        mapping = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
        out = []
        for row, text in enumerate(self.cells(column)):
            value = mapping.get(text.strip().lower())
            if value is None:
                raise self.error(f"expected True or False, found {text!r}", row, column)
            out.append(value)
        return out

    def texts(self, column: str) -> list[str]:
        """Report texts; an empty cell raises."""
        values = self.cells(column)
        for row, text in enumerate(values):
            if not text.strip():
                raise self.error("the report text is empty", row, column)
        return values


def locate(directory: Path, name: str) -> Path:
    """``directory/name``, or the one file of that name below it (a PhysioNet download nests its
    files under ``physionet.org/files/<dataset>/<version>/``)."""
    direct = directory / name
    if direct.is_file():
        return direct
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory}: not a folder (expected one holding {name})")
    found = sorted(directory.rglob(name))
    if not found:
        raise FileNotFoundError(f"{directory}: no file named {name} in this folder or below it")
    if len(found) > 1:
        raise FileNotFoundError(f"{directory}: several files named {name}: {[str(p) for p in found]}; "
                                "point at the folder of the one to use")
    return found[0]
