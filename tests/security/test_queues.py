"""Queues: one visitor's batch does not hold up another visitor's one-pair Compare.

Ordering, not timing (speed is measured by ``tests/security/bench_queue.py``): while a batch
of slow stand-in pairs runs, a Compare from another client is answered before the batch ends,
both when no model is involved and when both use the same (stand-in) model, which the batch
then holds one chunk at a time. Before, every such event shared one Gradio slot, and the
Compare waited for the whole batch.
"""
from __future__ import annotations

import csv
import tempfile
import threading
import time
from pathlib import Path

import pytest
from gradio_client import Client

from radscope.engine.context import Option
from radscope.engine.metrics.framework.base import MetricCard
from radscope.engine.metrics.framework.registry import MetricSpec
from tests.ui.conftest import _GRADIO_TMP, serve
from tests.ui.standins import StandInMetric, standin_registry

MODEL_CARD = MetricCard(name="slow-model-standin", title="Slow model stand-in", measures="test data only",
                        inputs="ignored", direction="higher", range=(0.0, 1.0), paper="-", models="-",
                        limits="sleeps 0.05 s per pair, as if an encoder read it")


class SlowStandInEncoder:
    """What an encoder metric declares (``MetricSpec.encoder``): its model option and default."""

    model_option = Option("slow_standin_model", "slow-standin-encoder", "test only: the stand-in's model")
    default_model = "slow-standin-encoder"


# kind "encoder": the app treats it as a model, so it passes the model gate.
METRICS = [MetricSpec(name="slow-model-standin", card=MODEL_CARD, kind="encoder",
                      options=(SlowStandInEncoder.model_option,), encoder=SlowStandInEncoder,
                      build=lambda ctx: StandInMetric("crepe", MODEL_CARD, delay_s=0.05))]
NONE = "(none)"


def registry():
    return standin_registry().with_modules([__name__])


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("queues"), None, registry()) as served:
        yield served


def client(url: str) -> Client:
    return Client(url, verbose=False, analytics_enabled=False, download_files=tempfile.mkdtemp(dir=_GRADIO_TMP))


def pairs_file(path: Path, n: int) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "reference", "candidate"])
        writer.writerows([f"p{i}", "No pleural effusion.", f"Small effusion {i}."] for i in range(n))
    return path


def batch_while_comparing(app, tmp_path, batch_metric: str, compare_metric: str, n: int) -> None:
    from gradio_client import handle_file

    first, second = client(app.url), client(app.url)
    try:
        path = pairs_file(tmp_path / "pairs.csv", n)
        job = first.submit(handle_file(str(path)), "id", "reference", "candidate", NONE, NONE, NONE,
                           [batch_metric], "", 1, api_name="/batch")
        deadline = time.monotonic() + 120
        while len(job.outputs()) < 2:  # "Starting run…", then the first progress: it runs
            assert time.monotonic() < deadline and not job.done(), "the batch never started"
            time.sleep(0.1)
        # The page's route (its panels stream as each metric finishes), then the API's.
        second.predict("No pleural effusion.", "Small pleural effusion.", "", "", [compare_metric], None,
                       api_name="/compare_panels")
        result = second.predict("No pleural effusion.", "Small pleural effusion.", compare_metric,
                                api_name="/compare")
        assert result[compare_metric]["error"] is None
        assert not job.done(), "the Compare was answered only after the whole batch"
        job.result(timeout=300)
    finally:
        first.close()
        second.close()


def test_a_model_free_compare_is_not_held_up_by_a_batch(app, tmp_path):
    batch_while_comparing(app, tmp_path, "slow-standin", "bleu", 60)  # 6 s of batch


def test_a_batch_lets_a_model_compare_in_between_two_chunks(app, tmp_path):
    batch_while_comparing(app, tmp_path, "slow-model-standin", "slow-model-standin", 200)  # 10 s


def test_the_gate_serves_waiters_in_arrival_order():
    """A batch that lets go of the gate and asks again at once queues behind the Compare that
    was waiting (a plain lock would let the batch take it straight back)."""
    from radscope.ui.runtime import ModelGate

    gate, order = ModelGate(), []
    waiting = threading.Event()

    def compare() -> None:
        waiting.set()
        with gate.held():
            order.append("compare")

    with gate.held():  # the batch's first chunk
        worker = threading.Thread(target=compare)
        worker.start()
        waiting.wait(5)
        time.sleep(0.2)  # the compare is queued now
    with gate.held():  # the batch's next chunk
        order.append("batch chunk 2")
    worker.join(5)
    assert order == ["compare", "batch chunk 2"]
    with gate.held(needed=False):  # model-free work passes straight on, even while held
        order.append("free")
