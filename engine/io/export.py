"""The flat results table, one row per pair, and the one CSV writer every export goes through.

The CLI's ``--csv`` and the app's Batch download are the same table (``ExportTable``): the id,
the texts (when the pairs are known), then per metric its score, error, model and signature and
the details a spreadsheet user wants in flat columns (each metric's spec declares them:
``MetricSpec.export_columns``, e.g. CLEAR presence per condition, CREPE category counts); a second system's
columns follow with ``_b`` appended.

Report text and ids come from users, so ``write_csv`` quotes every text cell and
``safe_cell`` puts an apostrophe before a formula leader (``= + - @``, tab, CR) at the start of
the cell and at the start of every line inside it (OWASP's advice on CSV injection): a cell
such as ``"No effusion.\\r=cmd|' /C calc'!A0"`` stays one cell of one row in Excel, LibreOffice
and Python's csv module, and no line of it starts like a formula.
"""
from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from radscope.engine.io.reports import ReportPair

FORMULA_LEADERS = ("=", "+", "-", "@", "\t", "\r")
# Every character some reader ends a line at (str.splitlines' set): a formula leader right after
# one is neutralised too, for a tool that splits lines before it reads quotes.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LEADER_AFTER_BREAK = re.compile(f"([{_LINE_BREAKS}])(?=[=+\\-@\t\r])")
LINE_END = "\r\n"  # RFC 4180, and what Excel writes


def safe_cell(value: Any) -> Any:
    """A cell as an export writes it: numbers stay numbers (NaN and None become empty), text
    that a spreadsheet would run as a formula gets an apostrophe before the leader, lists and
    objects become their JSON text (then neutralised like any text)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # a NumPy scalar
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "" if isinstance(value, float) and math.isnan(value) else value
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if text.startswith(FORMULA_LEADERS):
        text = "'" + text
    return _LEADER_AFTER_BREAK.sub(r"\1'", text)


def csv_writer(handle: IO[str], sep: str = ",") -> Any:
    """A csv writer that quotes every text cell (numbers stay bare), with CRLF row ends; give
    it rows of ``safe_cell`` values (``write_csv`` does)."""
    return csv.writer(handle, delimiter=sep, quoting=csv.QUOTE_NONNUMERIC, lineterminator=LINE_END)


def write_csv(handle: IO[str], header: Sequence[str], rows: Iterable[Sequence[Any]],
              sep: str = ",") -> int:
    """Write the header and rows (every cell through ``safe_cell``); the number of rows.
    ``handle`` must be opened with ``newline=""``."""
    writer = csv_writer(handle, sep)
    writer.writerow([safe_cell(h) for h in header])
    n = 0
    for row in rows:
        writer.writerow([safe_cell(c) for c in row])
        n += 1
    return n


# --- the table -------------------------------------------------------------------------------

Flat = dict[str, Any]
RESULT_FIELDS = ("score", "error", "model", "signature")  # every metric's first columns
TEXT_COLUMNS = ("reference", "candidate", "modality", "area")
SYSTEMS = (("metrics", ""), ("metrics_b", "_b"))  # the row key of each system, its column suffix


# Metric name -> the flat columns of its details (``MetricSpec.export_columns``, looked up by
# ``radscope.engine.metrics.framework.registry.export_columns_of``; passed in because engine.io sits below
# the metrics), None for a metric that declares none.
ColumnsOf = Callable[[str], Callable[[Mapping[str, Any]], Flat] | None]


def metric_columns(name: str, result: Mapping[str, Any], columns_of: ColumnsOf) -> Flat:
    """``<name>_score`` ... plus the metric's flat details, every column prefixed by its name."""
    out: Flat = {f"{name}_{k}": result.get(k) for k in RESULT_FIELDS}
    flatten = columns_of(name)
    if flatten is not None and result.get("error") is None:
        out.update({f"{name}_{k}": v for k, v in flatten(result).items()})
    return out


class ExportTable:
    """The columns of a results table, learnt from its rows (``add``, a first pass over them),
    then every row as cells in those columns (``cells``). A row is an output line: ``id``,
    ``metrics`` and, for a second system, ``metrics_b``; the pairs (when given) add the texts,
    and a second system's pairs its ``candidate_b``. ``columns_of`` gives each metric's detail
    columns (``registry.export_columns_of``)."""

    def __init__(self, with_texts: bool, columns_of: ColumnsOf) -> None:
        self.with_texts = with_texts
        self.columns_of = columns_of
        self._columns: dict[str, dict[str, None]] = {suffix: {} for _, suffix in SYSTEMS}

    def add(self, row: Mapping[str, Any]) -> None:
        for key, suffix in SYSTEMS:
            for name, result in (row.get(key) or {}).items():
                self._columns[suffix].update(dict.fromkeys(metric_columns(name, result or {}, self.columns_of)))

    @property
    def header(self) -> list[str]:
        head = ["id", *(TEXT_COLUMNS if self.with_texts else ())]
        for _, suffix in SYSTEMS:
            if suffix and self._columns[suffix] and self.with_texts:
                head.append(f"candidate{suffix}")
            head.extend(f"{c}{suffix}" for c in self._columns[suffix])
        return head

    def cells(self, row: Mapping[str, Any], pair: ReportPair | None = None,
              pair_b: ReportPair | None = None) -> list[Any]:
        values: Flat = {"id": row["id"]}
        if pair is not None:
            values.update(reference=pair.reference, candidate=pair.candidate,
                          modality=pair.modality, area=pair.area)
        if pair_b is not None:
            values["candidate_b"] = pair_b.candidate
        for key, suffix in SYSTEMS:
            for name, result in (row.get(key) or {}).items():
                values.update({f"{c}{suffix}": v for c, v in metric_columns(name, result or {}, self.columns_of).items()})
        return [values.get(c) for c in self.header]


def export_rows(rows: Iterable[Mapping[str, Any]], pairs: Iterable[ReportPair] | None,
                pairs_b: Iterable[ReportPair] | None, table: ExportTable) -> Iterator[list[Any]]:
    """Each row's cells, with its pair (and system B's) taken in step: the rows are in input
    order, and a pair whose id is not the row's is an error, never a shifted text."""
    sources = [iter(p) if p is not None else None for p in (pairs, pairs_b)]
    for row in rows:
        matched = [_next_pair(source, row["id"]) if source is not None else None for source in sources]
        yield table.cells(row, *matched)


def _next_pair(pairs: Iterator[ReportPair], pair_id: Any) -> ReportPair:
    pair = next(pairs, None)
    if pair is None or pair.id != pair_id:
        raise ValueError(f"the results and the pairs are not in the same order (result {pair_id!r}, "
                         f"pair {pair.id if pair else 'none'!r}); the export was not written")
    return pair


def write_results_csv(handle: IO[str], rows: Callable[[], Iterable[Mapping[str, Any]]],
                      columns_of: ColumnsOf, pairs: Iterable[ReportPair] | None = None,
                      pairs_b: Iterable[ReportPair] | None = None, sep: str = ",") -> int:
    """The results table as CSV (or TSV): ``rows()`` is called twice (the columns, then the
    cells), so a caller may read its rows from a file instead of holding them."""
    table = ExportTable(with_texts=pairs is not None, columns_of=columns_of)
    for row in rows():
        table.add(row)
    return write_csv(handle, table.header, export_rows(rows(), pairs, pairs_b, table), sep)
