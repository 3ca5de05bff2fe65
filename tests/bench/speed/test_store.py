"""The store benchmark runs end to end on pairs built from the example reports (no data needed)."""
import json

from bench.speed.store import synthetic_rows
from tests.conftest import run_bench


def test_built_pairs_are_distinct_and_repeatable():
    rows = synthetic_rows(500)
    assert len({(r["reference"], r["candidate"]) for r in rows}) == 500
    assert rows == synthetic_rows(500)
    assert all(r["reference"] and r["candidate"] for r in rows)


def test_the_second_run_answers_from_the_store(tmp_path):
    out = tmp_path / "store.json"
    proc = run_bench("store", "--n", "60", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    first, second = report["first"], report["second"]
    assert report["n_pairs"] == 60 and first["stored_results"] == 60 * len(report["metrics"])
    assert second["answered_from_store"] and second["stored_results"] == 0
    assert report["second_grew_store_by"] == 0 and second["run_id"] == first["run_id"]
    rows = report["second_with_rows"]
    assert rows["answered_from_store"] and rows["stored_results"] == 0
    assert report["second_with_rows_grew_store_by"] == 0
    assert report["bytes_per_pair"] > 0 and first["peak_rss_mb"] > 0
    assert "answered from the store: True" in proc.stdout
