"""Running the same command again: an identical finished run answers from the store and stores
nothing; an edited input scores only its edited pairs (the others' results are taken from the
earlier run of that input); changed options are a new run; ``fresh`` starts one on purpose."""
from __future__ import annotations

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import input_run_id, resume_or_new_run_id, run_batch
from radscope.engine.runs.store import Store

METRICS = ["bleu", "clear"]
LABEL = "pairs.jsonl"


def _pairs(edited: str | None = None) -> list[ReportPair]:
    pairs = [ReportPair(f"p{i}", f"FINDINGS: Heart size normal. IMPRESSION: Small left effusion {i} mm.",
                        f"FINDINGS: Heart size normal. IMPRESSION: Left effusion, {i + 1} mm.")
             for i in range(6)]
    if edited is not None:
        pairs[2] = ReportPair("p2", pairs[2].reference, edited)
    return pairs


def _run(store: Store, pairs: list[ReportPair], fresh: bool = False, **options):
    """As the command line runs it: the run id from the input, the metrics and their signatures."""
    ctx = RuntimeContext(options=options)
    registry = production()
    try:
        metrics = registry.build(METRICS, ctx)
        run_id = resume_or_new_run_id(store, input_run_id(pairs, metrics), fresh=fresh)
        return run_batch(pairs, METRICS, ctx, registry=registry, store=store, run_id=run_id,
                         input_label=LABEL, metrics=metrics, reuse_earlier=not fresh)
    finally:
        ctx.close()


def _without_times(rows):
    return [(r["id"], {m: {k: v for k, v in res.items() if k != "elapsed_ms"} for m, res in r["metrics"].items()})
            for r in rows]


def _rows(store: Store, run_id: str):
    return [(r.pair_id, r.metric, r.payload, r.content_hash, r.created_at) for r in store.results(run_id)]


def test_an_identical_rerun_answers_from_the_finished_run_and_stores_nothing(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    first = _run(store, _pairs())
    assert not first.answered_from_store and first.summary["stored"] == 12
    stored_before, size_before = _rows(store, first.run_id), store.size_bytes()
    finished_at = store.get_run(first.run_id).finished_at
    again = _run(store, _pairs())
    assert again.run_id == first.run_id and again.answered_from_store
    assert again.summary["stored"] == 0
    assert again.summary["resumed"] == {"reused": 12, "recomputed": 0, "retried": 0}
    assert again.rows == first.rows  # the stored results, timings included
    assert [r.run_id for r in store.list_runs()] == [first.run_id]
    assert store.get_run(first.run_id).finished_at == finished_at  # not even its status was written
    assert _rows(store, first.run_id) == stored_before
    assert store.size_bytes() == size_before
    store.close()


def test_a_rerun_that_wants_no_rows_answers_with_the_summary_the_run_kept(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    first = _run(store, _pairs())
    ctx, registry = RuntimeContext(), production()
    again = run_batch(_pairs(), METRICS, ctx, registry=registry, store=store, run_id=first.run_id,
                      input_label=LABEL, keep_rows=False)
    ctx.close()
    assert again.answered_from_store and again.rows == [] and again.summary["stored"] == 0
    assert again.summary["metrics"] == first.summary["metrics"]
    assert again.summary["resumed"] == {"reused": 12, "recomputed": 0, "retried": 0}
    store.close()


def test_one_edited_pair_is_the_only_one_scored_again(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    first = _run(store, _pairs())
    edited = _run(store, _pairs(edited="FINDINGS: Heart size normal. IMPRESSION: No effusion."))
    assert edited.run_id != first.run_id and not edited.answered_from_store
    assert edited.summary["resumed"]["from_earlier_run"] == 10  # 5 unchanged pairs x 2 metrics
    assert edited.summary["earlier_run"] == first.run_id
    assert edited.summary["stored"] == 12
    old = {(r[0], r[1]): r for r in _rows(store, first.run_id)}
    new = {(r[0], r[1]): r for r in _rows(store, edited.run_id)}
    for key, row in new.items():
        if key[0] == "p2":  # scored again: its own details and hash
            assert row[2] != old[key][2] and row[3] == _pairs("FINDINGS: Heart size normal. IMPRESSION: "
                                                             "No effusion.")[2].content_hash()
        else:  # the earlier run's result, the same details
            assert row[2:4] == old[key][2:4]
    # Its rows as scoring every pair afresh gives them, timings aside.
    alone = run_batch(_pairs(edited="FINDINGS: Heart size normal. IMPRESSION: No effusion."), METRICS,
                      RuntimeContext(), registry=production())
    assert _without_times(edited.rows) == _without_times(alone.rows)
    # The copied results share the earlier run's details: the second run adds no details blob
    # for the unchanged pairs, only one per metric for the edited one.
    conn = store._conn()
    assert conn.execute("SELECT COUNT(DISTINCT details) FROM scores s JOIN run_keys k USING (run_no)"
                        " WHERE k.run_id = ? AND s.position <> 2", (edited.run_id,)).fetchone()[0] == \
        conn.execute("SELECT COUNT(DISTINCT details) FROM scores s JOIN run_keys k USING (run_no)"
                     " WHERE k.run_id = ?", (first.run_id,)).fetchone()[0]
    store.close()


def test_changed_options_are_a_new_run_scored_in_full(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    first = _run(store, _pairs())
    other = _run(store, _pairs(), sections="findings")  # clear's signature names the sections
    assert other.run_id != first.run_id and not other.answered_from_store
    assert other.summary["resumed"] == {"reused": 0, "recomputed": 0, "retried": 0}
    assert other.summary["stored"] == 12
    assert {r.run_id for r in store.list_runs()} == {first.run_id, other.run_id}
    store.close()


def test_fresh_scores_an_identical_input_again_as_a_new_run(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    first = _run(store, _pairs())
    fresh = _run(store, _pairs(), fresh=True)
    assert fresh.run_id == f"{first.run_id}-2" and not fresh.answered_from_store
    assert fresh.summary["stored"] == 12
    store.close()


def test_only_a_caller_that_asks_takes_results_from_an_earlier_run(tmp_path):
    # The app (and the API) do not ask: in the public app another visitor's run of a file with
    # the same name must neither answer for this one nor reveal that it exists.
    store = Store(tmp_path / "db.sqlite")
    first = _run(store, _pairs())
    edited = _pairs(edited="FINDINGS: Heart size normal. IMPRESSION: No effusion.")
    ctx = RuntimeContext()
    run = run_batch(edited, METRICS, ctx, registry=production(), store=store, input_label=LABEL)
    ctx.close()
    assert run.run_id != first.run_id and "from_earlier_run" not in run.summary["resumed"]
    assert "earlier_run" not in run.summary and run.summary["stored"] == 12
    store.close()
