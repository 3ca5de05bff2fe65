"""CSV exports never hand a spreadsheet a formula and never cut a row: every text cell is quoted,
and a formula leader (= + - @ tab CR) at the start of a cell or of any line inside it gets an
apostrophe (OWASP's advice on CSV injection). The CLI's --csv and the app's download both go
through engine.io.export, so the same checks hold for both.

"A row is a row" is checked with three readers: Python's csv module, pandas' C parser, and a
spreadsheet-style reader written here (a record ends at CR, LF or CRLF outside quotes, as in
Excel and LibreOffice), which is what a bare CR in an unquoted cell used to break.
"""
from __future__ import annotations

import csv
import io
import json
import tempfile

import pandas as pd
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.export import FORMULA_LEADERS, safe_cell, write_csv
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import export_columns_of, production
from radscope.engine.runs.runner import run_batch
from radscope.ui.tabs.batch import logic as batch_logic
from tests.conftest import run_cli

FORMULA_IDS = ['=HYPERLINK("http://example.invalid","open")', "+1+1", "-2+3", "@SUM(A1:A9)",
               "=cmd|' /C calc'!A0"]
CR_CANDIDATE = "No effusion.\r=cmd|' /C calc'!A0"
CR_ID = "pair\r=1+1"
LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def spreadsheet_rows(text: str, sep: str = ",") -> list[list[str]]:
    """Records as a spreadsheet reads them: quotes group a cell (a doubled quote is one quote),
    and outside quotes a record ends at CR, LF or CRLF."""
    rows: list[list[str]] = []
    row: list[str] = []
    cell: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == '"' and text[i + 1:i + 2] == '"':
                cell.append('"')
                i += 1
            elif ch == '"':
                quoted = False
            else:
                cell.append(ch)
        elif ch == '"':
            quoted = True
        elif ch == sep:
            row.append("".join(cell))
            cell = []
        elif ch in "\r\n":
            row.append("".join(cell))
            rows.append(row)
            row, cell = [], []
            if ch == "\r" and text[i + 1:i + 2] == "\n":
                i += 1
        else:
            cell.append(ch)
        i += 1
    if cell or row:
        row.append("".join(cell))
        rows.append(row)
    return rows


def assert_one_row_per_pair(path, n_pairs: int) -> list[dict[str, str]]:
    """The file read three ways gives the header and one row per pair, every row as wide as
    the header, and no cell nor line inside a cell starts like a formula."""
    text = path.read_bytes().decode("utf-8")
    with path.open(newline="", encoding="utf-8") as fh:
        records = list(csv.reader(fh))
    sheet = spreadsheet_rows(text)
    assert len(records) == len(sheet) == n_pairs + 1
    assert sheet == records
    assert all(len(r) == len(records[0]) for r in records)
    assert len(pd.read_csv(path, dtype=str, keep_default_na=False)) == n_pairs
    for row in records:
        for cell in row:
            for line in _lines(cell):
                assert not line.startswith(FORMULA_LEADERS), (cell, line)
    for line in _lines(text):  # a tool that splits lines before it reads quotes sees no formula
        assert not line.lstrip('"').startswith(FORMULA_LEADERS), line
    return [dict(zip(records[0], r, strict=True)) for r in records[1:]]


def _lines(text: str) -> list[str]:
    for brk in LINE_BREAKS:
        text = text.replace(brk, "\n")
    return text.split("\n")


@pytest.mark.parametrize("value", [*FORMULA_IDS, "\t=1+1", "\r1+1"])
def test_formula_cells_get_an_apostrophe(value):
    assert safe_cell(value) == "'" + value


@pytest.mark.parametrize("value, expected", [
    (CR_CANDIDATE, "No effusion.\r'=cmd|' /C calc'!A0"),
    ("Line one.\n+1\r\n-2\u2028@x", "Line one.\n'+1\r\n'-2\u2028'@x"),
    ("a\r\r=x", "a\r'\r'=x")])
def test_a_formula_after_a_line_break_inside_a_cell_is_neutralised(value, expected):
    assert safe_cell(value) == expected


@pytest.mark.parametrize("value", ["pair-1", "lungs = clear", "", " =1", 1.5, -0.25, 3])
def test_other_cells_are_left_alone(value):
    assert safe_cell(value) == value


def test_none_and_nan_are_empty_and_numbers_stay_bare():
    buffer = io.StringIO(newline="")
    write_csv(buffer, ["id", "=col", "score"], [["@x", None, -0.5], ["ok", float("nan"), 1]])
    assert buffer.getvalue() == '"id","\'=col","score"\r\n"\'@x","",-0.5\r\n"ok","",1\r\n'


def _pairs_file(path, pairs):
    path.write_text("".join(json.dumps({"id": p.id, "reference": p.reference,
                                        "candidate": p.candidate}) + "\n" for p in pairs),
                    encoding="utf-8")
    return path


HOSTILE = [ReportPair(pid, "No pleural effusion.", "Small left pleural effusion.") for pid in FORMULA_IDS] + [
    ReportPair("cr-candidate", "No effusion.", CR_CANDIDATE),
    ReportPair(CR_ID, "No effusion.\n=SUM(1)", "No effusion.")]


def test_cli_csv_of_formula_ids_and_a_bare_cr_keeps_one_row_per_pair(tmp_path):
    pairs = _pairs_file(tmp_path / "pairs.jsonl", HOSTILE)
    out_csv = tmp_path / "r.csv"
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out",
                   str(tmp_path / "r.jsonl"), "--csv", str(out_csv), "--no-progress",
                   "--db", str(tmp_path / "db.sqlite"))
    assert proc.returncode == 0, proc.stderr
    rows = assert_one_row_per_pair(out_csv, len(HOSTILE))
    assert [r["id"] for r in rows] == ["'" + pid for pid in FORMULA_IDS] + ["cr-candidate", "pair\r'=1+1"]
    assert rows[-2]["candidate"] == "No effusion.\r'=cmd|' /C calc'!A0"
    assert all(float(r["bleu_score"]) >= 0 for r in rows)  # numbers stay numbers
    # The JSONL keeps the ids exactly as given: only the spreadsheet format is defused.
    ids = [json.loads(line)["id"] for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert ids == [p.id for p in HOSTILE]


def test_app_download_of_a_bare_cr_candidate_keeps_one_row_per_pair(tmp_path):
    ctx = RuntimeContext()
    run_a = run_batch(HOSTILE, ["bleu"], ctx, registry=production())
    run_b = run_batch(HOSTILE, ["bleu"], ctx, registry=production())
    _, csv_path, _ = batch_logic.write_downloads(run_a, run_b, {}, tmp_path / "out", pairs=HOSTILE,
                                                 pairs_b=HOSTILE)
    rows = assert_one_row_per_pair(csv_path, len(HOSTILE))
    assert rows[-2]["candidate"] == rows[-2]["candidate_b"] == "No effusion.\r'=cmd|' /C calc'!A0"
    assert rows[-1]["id"] == "pair\r'=1+1" and rows[-1]["reference"] == "No effusion.\n'=SUM(1)"


def test_tsv_export_quotes_tabs_and_line_breaks(tmp_path):
    path = tmp_path / "t.tsv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        write_csv(fh, ["id", "text"], [["a\tb", "x\ry"], ["\t=1", "z"]], sep="\t")
    with path.open(newline="", encoding="utf-8") as fh:
        assert list(csv.reader(fh, delimiter="\t")) == [["id", "text"], ["a\tb", "x\ry"], ["'\t=1", "z"]]
    assert spreadsheet_rows(path.read_bytes().decode("utf-8"), "\t")[1:] == [
        ["a\tb", "x\ry"], ["'\t=1", "z"]]


def test_results_writer_without_jsonl_spools_and_leaves_nothing_behind(tmp_path, monkeypatch):
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    row = {"id": "=a", "metrics": {"bleu": {"score": 0.5, "error": None, "model": None,
                                            "signature": "bleu|v:1"}}}
    with dataio.ResultsWriter(None, tmp_path / "o.csv", columns_of=export_columns_of) as writer:
        writer.write([row])
        writer.finish()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv", "spool"]
    assert not list(spool.iterdir())
    assert (tmp_path / "o.csv").read_bytes().decode("utf-8") == (
        '"id","bleu_score","bleu_error","bleu_model","bleu_signature"\r\n'
        '"\'=a",0.5,"","","bleu|v:1"\r\n')
