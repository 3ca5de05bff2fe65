"""The runner stores a chunk's results in one transaction, and keeps what finished when it is
stopped inside a chunk."""
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runs.store import Store

PAIRS = [ReportPair(f"p{i}", "Small left pleural effusion.", f"Left effusion, {i} cm.")
         for i in range(20)]


class Stop(Exception):
    pass


def test_a_run_stopped_inside_a_chunk_keeps_its_finished_results_and_resumes(tmp_path):
    store = Store(tmp_path / "r.sqlite")

    def stop_after_five(done: int, total: int) -> None:
        if done == 5:
            raise Stop()

    with pytest.raises(Stop):
        run_batch(PAIRS, ["bleu"], RuntimeContext(), store=store, run_id="r",
                  progress=stop_after_five, registry=production())  # 20 pairs: all in one 32-pair chunk
    assert sorted(store.done("r")) == [(f"p{i}", "bleu") for i in range(5)]

    resumed = run_batch(PAIRS, ["bleu"], RuntimeContext(), store=store, run_id="r", registry=production())
    whole = run_batch(PAIRS, ["bleu"], RuntimeContext(), registry=production())
    strip = [{k: v for k, v in row["metrics"]["bleu"].items() if k != "elapsed_ms"}
             for row in resumed.rows]
    assert strip == [{k: v for k, v in row["metrics"]["bleu"].items() if k != "elapsed_ms"}
                     for row in whole.rows]
    assert store.get_run("r").n_results == 20
    store.close()
