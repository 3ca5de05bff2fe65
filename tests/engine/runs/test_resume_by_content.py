"""Resume is keyed by content: a stored result is reused only for an unchanged pair under the
same metric signature; older stores without content hashes are migrated and recomputed; a
finished run's store file holds every result without its -wal file."""
import shutil
import sqlite3

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import input_run_id, resume_or_new_run_id, run_batch
from radscope.engine.runs.store import DamagedStoreError, Store
from tests.reference.store import write_schema_2_store


def _pairs(candidate_b: str = "Small left pleural effusion.") -> list[ReportPair]:
    return [ReportPair("a", "No pleural effusion. Heart size normal.", "No pleural effusion."),
            ReportPair("b", "No pleural effusion. Heart size normal.", candidate_b)]


def _run(pairs, store, run_id="r1"):
    ctx = RuntimeContext()
    try:
        return run_batch(pairs, ["bleu", "rouge"], ctx, store=store, run_id=run_id, registry=production())
    finally:
        ctx.close()


def _stored(store, run_id):
    return {(r.pair_id, r.metric): r for r in store.results(run_id)}


def test_edited_pair_is_recomputed_and_unedited_one_is_not(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    first = _run(_pairs(), store)
    before = _stored(store, "r1")
    edited = _pairs(candidate_b="No pleural effusion. Heart size normal.")
    second = _run(edited, store)
    after = _stored(store, "r1")
    assert second.summary["resumed"] == {"reused": 2, "recomputed": 2, "retried": 0}
    for metric in ("bleu", "rouge"):
        assert after[("a", metric)].created_at == before[("a", metric)].created_at  # reused
        assert after[("b", metric)].created_at != before[("b", metric)].created_at  # recomputed
        assert after[("b", metric)].content_hash == edited[1].content_hash()
    assert first.rows[1]["metrics"]["rouge"]["score"] < 1.0
    assert second.rows[1]["metrics"]["rouge"]["score"] == pytest.approx(1.0)
    third = _run(edited, store)
    assert third.summary["resumed"] == {"reused": 4, "recomputed": 0, "retried": 0}


def _as_schema_2(tmp_path, with_content_hash=True):
    """The run ``r1`` on ``_pairs()`` as a store written before the compact store holds it."""
    fresh = Store(tmp_path / "fresh.sqlite")
    _run(_pairs(), fresh)
    rows = [(r.pair_id, r.metric, r.payload, r.content_hash if with_content_hash else None)
            for r in fresh.results("r1")]
    info = fresh.get_run("r1")
    fresh.close()
    path = tmp_path / "old.sqlite"
    write_schema_2_store(path, "r1", info.metrics, info.options, rows)
    if not with_content_hash:  # a version 1 store had no content hashes at all
        with sqlite3.connect(path) as conn:
            conn.execute("ALTER TABLE results DROP COLUMN content_hash")
            conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    return path, rows


def test_version_1_store_is_migrated_and_its_results_recomputed(tmp_path):
    path, _ = _as_schema_2(tmp_path, with_content_hash=False)
    store = Store(path)
    assert store._conn().execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("3",)
    again = _run(_pairs(), store)
    assert again.summary["resumed"] == {"reused": 0, "recomputed": 4, "retried": 0}
    assert _run(_pairs(), store).summary["resumed"] == {"reused": 4, "recomputed": 0, "retried": 0}


def test_schema_2_store_reads_as_before_and_resumes_in_the_compact_form(tmp_path):
    path, rows = _as_schema_2(tmp_path)
    store = Store(path)
    info = store.get_run("r1")
    assert (info.status, info.n_pairs, info.n_results) == ("finished", 2, 4)
    assert [(r.pair_id, r.metric, r.payload, r.content_hash) for r in store.results("r1")] == rows
    assert {(r.pair_id, r.metric) for r in store.results_for("r1", ["b"])} == {("b", "bleu"), ("b", "rouge")}
    conn = store._conn()
    answered = _run(_pairs(), store)  # the same finished run: read back, nothing written
    assert answered.answered_from_store and answered.summary["stored"] == 0
    assert answered.summary["resumed"] == {"reused": 4, "recomputed": 0, "retried": 0}
    assert conn.execute("SELECT COUNT(*) FROM results").fetchone() == (4,)
    edited = _run(_pairs(candidate_b="No pleural effusion."), store)  # written to: rows move
    assert edited.summary["resumed"] == {"reused": 2, "recomputed": 2, "retried": 0}
    assert conn.execute("SELECT COUNT(*) FROM results").fetchone() == (0,)
    assert conn.execute("SELECT COUNT(*) FROM scores").fetchone() == (4,)
    kept = [(r.pair_id, r.metric, r.payload, r.content_hash) for r in store.results("r1")]
    assert [k for k in kept if k[0] == "a"] == [r for r in rows if r[0] == "a"]


def test_same_input_without_an_id_resumes_its_unfinished_run(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    ctx = RuntimeContext()
    metrics = production().build(["bleu"], ctx)
    base = input_run_id(_pairs(), metrics)
    assert base == input_run_id(_pairs(), metrics) != input_run_id(_pairs("Other."), metrics)
    assert resume_or_new_run_id(store, base) == base
    store.start_run(base, "pairs.csv", ["bleu"], {})  # started, never finished
    assert resume_or_new_run_id(store, base) == base
    store.finish_run(base)
    assert resume_or_new_run_id(store, base) == base  # a finished run answers again
    assert resume_or_new_run_id(store, base, fresh=True) == f"{base}-2"  # unless asked for a new one
    ctx.close()


def test_finished_run_is_complete_in_the_sqlite_file_alone(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    _run(_pairs(), store)
    copy = tmp_path / "copy" / "db.sqlite"
    copy.parent.mkdir()
    shutil.copy(tmp_path / "db.sqlite", copy)  # the -wal file is left behind
    store.close()
    assert len(_stored(Store(copy), "r1")) == 4


@pytest.mark.parametrize("content", [b"this is not a database" * 50, b""])
def test_garbage_or_truncated_store_is_a_message(tmp_path, content):
    good = tmp_path / "good.sqlite"
    store = Store(good)
    _run(_pairs(), store)
    store.close()
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(content or good.read_bytes()[:3000])
    with pytest.raises(DamagedStoreError, match=r"bad.sqlite: not a usable RadScope store"):
        Store(bad)
