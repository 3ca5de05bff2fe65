"""A wide file costs time linear in its size (issue 36): 100,000 columns (0.9 MB, one pair) used
to give no answer in 600 s (the duplicate-header check was quadratic in columns, and the app's
preview set its columns one by one). The bounds below are generous timing bounds for those
worst cases, not speed measurements; the app also bounds what it holds of an upload."""
from __future__ import annotations

import json
import time

import pytest

from radscope.engine.io import dataio
from radscope.engine.io.dataio import InputError
from radscope.ui.tabs.batch import handlers as batch_handlers
from radscope.ui.tabs.batch import logic as batch_logic
WIDE = 100_000
BOUND_S = 20.0


def _wide_csv(path, n, extra=()):
    names = ["id", "reference", "candidate", *[f"c{i}" for i in range(n - 3 - len(extra))], *extra]
    path.write_text(",".join(names) + "\n" + ",".join(["p1", "No effusion.", "No effusion."]
                                                     + ["x"] * (len(names) - 3)) + "\n",
                    encoding="utf-8")
    return path


def _wide_jsonl(path, n):
    record = {"id": "p1", "reference": "No effusion.", "candidate": "No effusion."}
    record.update({f"c{i}": "x" for i in range(n - 3)})
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def _timed(fn, *args):
    started = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - started


@pytest.mark.parametrize("make", [_wide_csv, _wide_jsonl], ids=["csv", "jsonl"])
def test_a_hundred_thousand_columns_read_in_linear_time(tmp_path, make):
    path = make(tmp_path / f"wide.{'csv' if make is _wide_csv else 'jsonl'}", WIDE)
    pairs, elapsed = _timed(dataio.read_pairs, path)
    assert [(p.id, p.candidate) for p in pairs] == [("p1", "No effusion.")]
    assert elapsed < BOUND_S


def test_a_duplicate_among_a_hundred_thousand_columns_is_named_quickly(tmp_path):
    path = _wide_csv(tmp_path / "dupe.csv", WIDE, extra=("c7",))
    started = time.perf_counter()
    with pytest.raises(InputError, match=r"line 1: duplicate column name\(s\) \['c7'\]"):
        dataio.read_pairs(path)
    assert time.perf_counter() - started < BOUND_S


def test_a_missing_column_among_a_hundred_thousand_is_a_short_message(tmp_path):
    path = _wide_csv(tmp_path / "wide.csv", WIDE)
    with pytest.raises(InputError) as caught:
        dataio.read_pairs(path, dataio.Columns(candidate="hypothesis"))
    message = str(caught.value)
    assert "'hypothesis' (the candidate column) not found" in message
    assert "(99,970 more)" in message and len(message) < 1_000


def test_the_app_refuses_a_hundred_thousand_columns_at_once(tmp_path):
    path = _wide_csv(tmp_path / "wide.csv", WIDE)
    out, elapsed = _timed(batch_handlers.on_upload, 6, str(path))
    assert f"{batch_logic.MAX_UPLOAD_COLUMNS:,} are read here" in out[0]
    assert elapsed < BOUND_S


def test_the_app_inspects_a_thousand_columns_quickly_and_shows_a_bounded_preview(tmp_path):
    path = _wide_csv(tmp_path / "wide.csv", batch_logic.MAX_UPLOAD_COLUMNS)
    out, elapsed = _timed(batch_handlers.on_upload, 6, str(path))
    assert elapsed < BOUND_S
    status, preview = out[0], out[1]["value"]
    assert "1 rows, columns: id, reference, candidate, c0" in status and "(970 more)" in status
    assert list(preview.columns) == ["id", "reference", "candidate"] + [f"c{i}" for i in range(47)]
    assert out[4]["value"] == "candidate"  # every column is still offered for mapping
    assert len(out[4]["choices"]) == batch_logic.MAX_UPLOAD_COLUMNS


def test_a_jsonl_whose_records_each_bring_new_keys_is_bounded(tmp_path):
    """Rows times the union of keys would grow quadratically with the file: refused early."""
    path = tmp_path / "sparse.jsonl"
    path.write_text("".join(json.dumps({"id": str(i), f"k{i}": "x"}) + "\n" for i in range(1_500)),
                    encoding="utf-8")
    with pytest.raises(InputError, match=r"at most 1,000,000 cells"):
        dataio.read_table(path, max_cells=1_000_000)
    with pytest.raises(InputError, match=r"1,001 columns or more; at most 1,000"):
        dataio.read_table(path, max_columns=1_000)
    frame, lines = dataio.read_table(path)  # unbounded where the caller holds the file anyway
    assert frame.shape == (1_500, 1_501) and lines[-1] == 1_500
