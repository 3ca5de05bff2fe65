"""The OpenAI-compatible backend against a real server: llama-cpp-python's own
``python -m llama_cpp.server`` on 127.0.0.1, serving the same Gemma GGUF.

That server honours only ``{"type": "json_object", "schema": ...}`` (it ignores OpenAI's
``json_schema`` form), so these tests use ``--json-dialect json_object``.
"""
import subprocess
import sys

import pytest

from bench.speed.llm_mechanics import llama_server
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.clear.schema import attribute_answer_schema
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runtimes.judge import Judge
from radscope.engine.runtimes.openai_compat import OpenAICompatBackend
from radscope.engine.runtimes.prompts import load_prompt
from tests.llm.test_pipelines_tiny import assert_clear_structure

pytestmark = pytest.mark.slow

SERVER_PACKAGES = "sse-starlette, starlette-context, pydantic-settings (and python-dotenv)"


@pytest.fixture(scope="module")
def server(gemma_gguf):
    check = subprocess.run([sys.executable, "-c", "import llama_cpp.server.app"],
                           capture_output=True, text=True)
    if check.returncode != 0:
        pytest.skip(f"llama_cpp.server cannot start here: it needs {SERVER_PACKAGES} "
                    f"({check.stderr.strip().splitlines()[-1]})")
    try:
        with llama_server(gemma_gguf, n_ctx=4096, threads=1, alias="gemma3-270m-demo") as url:
            yield url
    except RuntimeError as exc:  # it exited or did not come up: the message says which
        pytest.fail(str(exc))


def test_remote_judge_answers_fit_the_schema(server):
    backend = OpenAICompatBackend(server, "gemma3-270m-demo", dialect="json_object",
                                  max_inflight=2, timeout_s=300)
    judge = Judge(backend, None)
    schema = attribute_answer_schema("severity")
    answer = judge.ask(load_prompt("clear.attr.severity"),
                       {"report": "FINDINGS: Moderate cardiomegaly.", "condition": "Cardiomegaly"},
                       schema, max_tokens=24)
    assert answer.value["answer"] in ("mild", "moderate", "severe", "mixed", "N/A")
    assert backend.signature_fields()["backend"].startswith("openai@127.0.0.1:")


def test_clear_through_the_server(server, ctx_factory):
    report = "FINDINGS: Small left pleural effusion.\nIMPRESSION: Left effusion."
    ctx = ctx_factory("unused", judge_url=server, judge_model="gemma3-270m-demo",
                      json_dialect="json_object", judge_timeout=600.0)
    run = run_batch([ReportPair("s1", report, report)], ["clear"], ctx, registry=production())
    r = run.rows[0]["metrics"]["clear"]
    assert r["error"] is None, r["error"]
    assert_clear_structure(r)
    assert "backend:openai@127.0.0.1:" in r["signature"] and "dialect:json_object" in r["signature"]
    assert r["model"] == "gemma3-270m-demo" and r["demo_grade"] is True
    assert run.summary["model_calls"] >= 1 and run.summary["cache_hits"] >= 1  # same report twice
