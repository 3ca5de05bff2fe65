"""The app survives its judge: a segfault in the judge worker costs one /compare answer (which
says so), the app keeps serving, and a judge that is missing or broken is a message naming it."""
from __future__ import annotations

import os
import signal
import time
import uuid

import pytest

from tests.conftest import judge_workers

pytestmark = pytest.mark.slow

REFERENCE = "Small left pleural effusion. Heart size is normal. Case {}."
CANDIDATE = "Small left pleural effusion. Case {}."
OPTIONS = {"extractor": "llm", "judge": "gemma3-270m-demo", "judge_threads": 1}


def _judge_workers() -> list[int]:
    """Judge worker processes started by this (the app's) process."""
    return judge_workers(os.getpid())


def _vert(client, case: str, options: dict) -> dict:
    """/compare with VERT on a pair no earlier call asked about (so the call cache cannot answer)."""
    out = client.predict(REFERENCE.format(case), CANDIDATE.format(case), "vert", "", "", options,
                         api_name="/compare")
    return out["vert"]


def test_a_crashed_judge_costs_one_answer_and_the_app_keeps_serving(client):
    # The app is shared with other tests, which may hold judge workers of their own: a seed no
    # other test uses gives this test a judge (and a worker) of its own, found by difference.
    options = {**OPTIONS, "judge_seed": int(uuid.uuid4().int % 1_000_000) + 1}
    others = set(_judge_workers())
    first = _vert(client, uuid.uuid4().hex, options)
    assert first["model"] == "gemma3-270m-demo"
    assert "judge process" not in (first["error"] or "")
    workers = sorted(set(_judge_workers()) - others)
    assert len(workers) == 1, workers
    os.kill(workers[0], signal.SIGSEGV)
    for _ in range(50):  # wait until the kernel has reaped it
        if workers[0] not in _judge_workers():
            break
        time.sleep(0.1)
    crashed = _vert(client, uuid.uuid4().hex, options)
    assert crashed["score"] is None and crashed["model"] == "gemma3-270m-demo"
    assert "judge process crashed" in crashed["error"] and "SIGSEGV" in crashed["error"]
    assert crashed["error"].endswith("restarted [crash: runtime]")  # the failure's category last
    again = _vert(client, uuid.uuid4().hex, options)
    assert "judge process" not in (again["error"] or "")
    assert again["score"] is not None or again["error"].startswith(("judge answer unusable", "judge: "))
    new_workers = sorted(set(_judge_workers()) - others)
    assert len(new_workers) == 1 and new_workers != workers
    # and the judge-free metrics never noticed
    plain = client.predict("No acute findings.", "No acute findings.", "bleu", "", "", {},
                           api_name="/compare")
    assert plain["bleu"]["error"] is None


def test_a_judge_that_is_not_a_model_is_a_message_naming_it(client, tmp_path):
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF" + os.urandom(2048))
    out = client.predict("Small effusion.", "Small effusion.", "vert", "", "",
                         {"extractor": "llm", "judge": str(bad)}, api_name="/compare")
    result = out["vert"]
    assert result["score"] is None and result["model"] == str(bad)
    assert "failed to start" in result["error"] and "broken.gguf" in result["error"]
