"""CSV exports never hand a spreadsheet a formula: cells that start with = + - @ tab or CR
get a leading apostrophe (OWASP's advice on CSV injection), in the CLI's --csv and in the
app's download (both go through engine.io.dataio.write_frame_csv)."""
from __future__ import annotations

import csv
import json

import pandas as pd
import pytest

from radscope.engine.io.dataio import neutralise_cell, write_frame_csv
from tests.conftest import run_cli

FORMULA_IDS = ['=HYPERLINK("http://example.invalid","open")', "+1+1", "-2+3", "@SUM(A1:A9)",
               "=cmd|' /C calc'!A0"]


@pytest.mark.parametrize("value", FORMULA_IDS + ["\t=1+1", "\r=1+1"])
def test_formula_cells_get_an_apostrophe(value):
    assert neutralise_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["pair-1", "lungs = clear", "", " =1", 1.5, -0.25, None])
def test_other_cells_are_left_alone(value):
    assert neutralise_cell(value) == value


def test_cli_csv_of_formula_like_ids_comes_out_neutralised(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": pid, "reference": "No pleural effusion.",
                                         "candidate": "Small left pleural effusion."}) + "\n"
                             for pid in FORMULA_IDS), encoding="utf-8")
    out_csv = tmp_path / "r.csv"
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out",
                   str(tmp_path / "r.jsonl"), "--csv", str(out_csv), "--no-progress",
                   "--db", str(tmp_path / "db.sqlite"))
    assert proc.returncode == 0, proc.stderr
    with out_csv.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["id"] for r in rows] == ["'" + pid for pid in FORMULA_IDS]
    for row in rows:  # numbers stay numbers; nothing else starts like a formula
        assert float(row["bleu_score"]) >= 0
        assert not any(v.startswith(("=", "+", "@", "\t", "\r")) for v in row.values())
    # The JSONL keeps the ids exactly as given: only the spreadsheet format is defused.
    ids = [json.loads(line)["id"] for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert ids == FORMULA_IDS


def test_headers_and_text_columns_are_neutralised_numbers_are_not(tmp_path):
    frame = pd.DataFrame({"id": ["@x", "ok"], "=col": ["-err", None], "score": [-0.5, 1.0]})
    path = write_frame_csv(frame, tmp_path / "t.tsv", sep="\t")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["id", "'=col", "score"]
    assert lines[1].split("\t") == ["'@x", "'-err", "-0.5"]
