"""Tests for engine.runs.store: runs, resumable per-pair results, threads and export order."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from radscope.engine.runs.store import ResultRow, RunConflictError, Store, UnknownRunError, default_db_path
from tests.reference.store import put_result, results_frame

METRICS = ["clear", "crepe"]
OPTIONS = {"clear_top5": True, "judge": {"model": "demo", "temperature": 0.0}}


def result(score, error=None, **details):
    return {"score": score, "error": error, "signature": "clear|v:1", "elapsed_ms": 12.5,
            "details": details}


def test_default_db_path_follows_radscope_home(monkeypatch, tmp_path):
    monkeypatch.setenv("RADSCOPE_HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / "radscope.sqlite"
    monkeypatch.delenv("RADSCOPE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".cache" / "radscope" / "radscope.sqlite"


def test_store_creates_parent_dir_and_uses_wal(tmp_path):
    path = tmp_path / "deep" / "er" / "runs.sqlite"
    with Store(path) as store:
        assert path.is_file()
        mode = store._conn().execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_resume_keeps_finished_pairs(tmp_path):
    path = tmp_path / "db.sqlite"
    pair_ids = [f"p{i}" for i in range(5)]
    store = Store(path)
    store.start_run("run1", "reports.csv (5 pairs)", METRICS, OPTIONS, pair_ids=pair_ids)
    for i in range(3):
        put_result(store, "run1", f"p{i}", "clear", result(0.1 * i))
    store.close()  # the batch is interrupted here

    store = Store(path)
    info = store.start_run("run1", "reports.csv (5 pairs)", METRICS, OPTIONS, pair_ids=pair_ids)
    assert info.status == "running" and info.n_pairs == 5 and info.n_results == 3
    assert store.done("run1") == {("p0", "clear"), ("p1", "clear"), ("p2", "clear")}
    frame = results_frame(store, "run1")
    assert list(frame["pair_id"]) == pair_ids
    assert list(frame["clear_score"][:3]) == pytest.approx([0.0, 0.1, 0.2])
    assert frame["clear_score"][3:].isna().all()
    assert frame["crepe_score"].isna().all()
    store.close()


def test_payload_round_trips_and_errors_are_kept(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("r", "two pairs", METRICS, {})
        put_result(store, "r", "a", "clear", result(0.75, rows=[{"condition": "edema", "ok": True}]))
        put_result(store, "r", "b", "clear", result(None, error="judge timed out"))
        put_result(store, "r", "b", "crepe", {"score": float("nan"), "details": {"counts": [1, 0]}})
        rows = list(store.results("r"))
        assert [(r.pair_id, r.metric) for r in rows] == [("a", "clear"), ("b", "clear"),
                                                          ("b", "crepe")]
        assert rows[0]["pair_id"] == "a" and rows[0]["payload"]["score"] == 0.75
        assert ResultRow.from_json(rows[0].to_json()) == rows[0]
        first = rows[0]
        assert first.score == 0.75 and first.error is None and first.signature == "clear|v:1"
        assert first.elapsed_ms == 12.5
        assert first.payload["details"] == {"rows": [{"condition": "edema", "ok": True}]}
        assert rows[1].score is None and rows[1].error == "judge timed out"
        assert rows[2].score is None and rows[2].payload["score"] is None  # NaN is not JSON
        # Errors count as done unless the caller wants to retry them.
        assert store.done("r") == {("a", "clear"), ("b", "clear"), ("b", "crepe")}
        assert store.done("r", include_errors=False) == {("a", "clear"), ("b", "crepe")}
        frame = results_frame(store, "r")
        assert list(frame.columns) == ["pair_id", "clear_score", "clear_error", "crepe_score",
                                       "crepe_error"]
        assert frame.loc[1, "clear_error"] == "judge timed out"
        assert frame.loc[0, "clear_error"] is None


def test_retried_result_replaces_the_old_one(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("r", "x", ["clear"], {})
        put_result(store, "r", "a", "clear", result(None, error="boom"))
        put_result(store, "r", "a", "clear", result(0.5))
        rows = list(store.results("r"))
        assert len(rows) == 1 and rows[0].score == 0.5 and rows[0].error is None


def test_conflicting_settings_raise_clear_errors(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("r", "x", METRICS, OPTIONS, pair_ids=["a", "b"])
        put_result(store, "r", "a", "clear", result(0.5))
        # Same metrics in another order and the same options (keys reordered): a resume.
        store.start_run("r", "x", list(reversed(METRICS)),
                        {"judge": {"temperature": 0.0, "model": "demo"}, "clear_top5": True})
        with pytest.raises(RunConflictError, match="options"):
            store.start_run("r", "x", METRICS, {**OPTIONS, "clear_top5": False})
        with pytest.raises(RunConflictError, match="metrics"):
            store.start_run("r", "x", METRICS + ["vert"], OPTIONS)
        with pytest.raises(RunConflictError, match="pairs"):
            store.start_run("r", "x", METRICS, OPTIONS, pair_ids=["b", "a"])
        assert store.done("r") == {("a", "clear")}  # nothing was lost by the refusals


def test_unknown_run_is_reported(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        with pytest.raises(UnknownRunError, match="start_run"):
            put_result(store, "missing", "a", "clear", result(0.1))
        with pytest.raises(UnknownRunError):
            results_frame(store, "missing")
        assert store.get_run("missing") is None


def test_export_follows_input_order_not_completion_order(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("r", "x", METRICS, {}, pair_ids=["p3", "p1", "p2"])
        for pair_id in ("p2", "p3", "p1"):
            for metric in ("crepe", "clear"):
                put_result(store, "r", pair_id, metric, result(float(pair_id[1])))
        # A pair that was never registered goes after the registered ones.
        put_result(store, "r", "extra", "clear", result(9.0))
        frame = results_frame(store, "r")
        assert list(frame["pair_id"]) == ["p3", "p1", "p2", "extra"]
        assert list(frame["clear_score"]) == [3.0, 1.0, 2.0, 9.0]
        assert [(r.pair_id, r.metric, r.position) for r in store.results("r")] == [
            ("p3", "clear", 0), ("p3", "crepe", 0), ("p1", "clear", 1), ("p1", "crepe", 1),
            ("p2", "clear", 2), ("p2", "crepe", 2), ("extra", "clear", 3)]


def test_pairs_registered_after_start_are_appended(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("r", "streamed input", ["clear"], {})
        store.put_pairs("r", ["b", "a"])
        store.put_pairs("r", ["a", "c"])  # "a" keeps its place, "c" goes last
        put_result(store, "r", "c", "clear", result(0.3))
        assert list(results_frame(store, "r")["pair_id"]) == ["b", "a", "c"]
        with pytest.raises(ValueError, match="repeat"):
            store.put_pairs("r", ["d", "d"])
        with pytest.raises(UnknownRunError):
            store.put_pairs("missing", ["x"])


def test_results_iterates_across_pages(tmp_path, monkeypatch):
    monkeypatch.setattr("radscope.engine.runs.store._PAGE_SIZE", 3)
    with Store(tmp_path / "db.sqlite") as store:
        ids = [f"p{i:02d}" for i in range(10)]
        store.start_run("r", "x", ["clear"], {}, pair_ids=ids)
        for pair_id in reversed(ids):
            put_result(store, "r", pair_id, "clear", result(1.0))
        assert [r.pair_id for r in store.results("r")] == ids


def test_four_threads_writing_at_once(tmp_path):
    path = tmp_path / "db.sqlite"
    store = Store(path)
    ids = [f"p{i}" for i in range(200)]
    store.start_run("r", "x", METRICS, {}, pair_ids=ids)
    failures: list[BaseException] = []
    start = threading.Barrier(4)

    def worker(k: int) -> None:
        try:
            start.wait()
            for pair_id in ids[k::4]:
                for metric in METRICS:
                    put_result(store, "r", pair_id, metric, result(k / 10))
                store.done("r")  # reads interleaved with the other threads' writes
        except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
            failures.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert len(store.done("r")) == 400
    frame = results_frame(store, "r")
    assert list(frame["pair_id"]) == ids
    assert list(frame["clear_score"]) == pytest.approx([(i % 4) / 10 for i in range(200)])
    store.close()
    # Everything was committed: a plain connection sees all rows.
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 400


def test_list_runs_and_finish(tmp_path):
    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("old", "a.csv", ["clear"], {}, pair_ids=["x"])
        store.start_run("new", "b.csv", ["crepe"], {"k": 1})
        put_result(store, "old", "x", "clear", result(None, error="bad"))
        store.finish_run("old")
        runs = {r.run_id: r for r in store.list_runs()}
        assert set(runs) == {"old", "new"}
        assert runs["old"].status == "finished" and runs["old"].finished_at
        assert (runs["old"].n_pairs, runs["old"].n_results, runs["old"].n_errors) == (1, 1, 1)
        assert runs["new"].status == "running" and runs["new"].options == {"k": 1}
        assert type(runs["new"]).from_json(runs["new"].to_json()) == runs["new"]
        with pytest.raises(UnknownRunError):
            store.finish_run("nope")


def test_put_result_accepts_dataclasses_with_to_json(tmp_path):
    from radscope.engine.metrics.framework.base import PairScore

    with Store(tmp_path / "db.sqlite") as store:
        store.start_run("r", "x", ["bleu"], {})
        put_result(store, "r", "a", "bleu", PairScore(score=0.25, details={"n": 4}, elapsed_ms=3.0))
        row = next(store.results("r"))
        assert row.score == 0.25 and row.payload["details"] == {"n": 4} and row.elapsed_ms == 3.0


def test_store_path_type(tmp_path):
    store = Store(str(tmp_path / "s.sqlite"))
    assert isinstance(store.path, Path)
    store.close()


def test_a_details_blob_id_is_never_given_again_after_compaction(tmp_path):
    """Another process keeps decompressed details by id: an id freed by compact must never
    name other results later, or that reader would show the old ones."""
    path = tmp_path / "db.sqlite"
    reader, writer = Store(path), Store(path)
    writer.start_run("a", "x", ["clear"], {}, pair_ids=["p"])
    put_result(writer, "a", "p", "clear", result(0.25))
    assert next(reader.results("a")).score == 0.25  # the reader now holds that blob
    writer.remove_run("a")
    writer.compact()
    writer.start_run("b", "x", ["clear"], {}, pair_ids=["p"])
    put_result(writer, "b", "p", "clear", result(0.75, note="new"))
    row = next(reader.results("b"))
    assert row.score == 0.75 and row.payload["score"] == 0.75 and row.payload["details"] == {"note": "new"}
    reader.close()
    writer.close()


def test_a_write_left_open_by_ctrl_c_is_rolled_back_and_the_run_can_be_marked(tmp_path):
    # Ctrl+C between BEGIN and the body (or inside COMMIT) left the connection in a transaction;
    # marking the run interrupted then failed as "cannot start a transaction within a transaction"
    store = Store(tmp_path / "db.sqlite")
    store.start_run("run1", "reports.csv (2 pairs)", METRICS, OPTIONS, pair_ids=["p0", "p1"])
    conn = store._conn()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE runs SET input = 'half-written' WHERE run_id = 'run1'")
    store.finish_run("run1", status="interrupted")
    info = store.get_run("run1")
    assert info.status == "interrupted" and info.input == "reports.csv (2 pairs)"
    store.close()


def test_an_interrupt_inside_a_write_rolls_it_back(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    store.start_run("run1", "reports.csv (2 pairs)", METRICS, OPTIONS, pair_ids=["p0", "p1"])
    with pytest.raises(KeyboardInterrupt), store._write() as conn:
        conn.execute("UPDATE runs SET input = 'half-written' WHERE run_id = 'run1'")
        raise KeyboardInterrupt
    assert not store._conn().in_transaction
    assert store.get_run("run1").input == "reports.csv (2 pairs)"
    store.close()
