"""The embedded judge runs in a supervised worker process: a crash, a hang or a bad model costs
the calls in flight, never the caller's process, and the worker comes back.

Every test here uses a real llama.cpp worker on a real GGUF (the packaged Gemma demo judge or
the suite's tiny GGUF) and real signals.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from radscope.engine.metrics.framework.judging import JudgeUnavailable, judge_for
from radscope.engine.runs.store import Store
from radscope.engine.runtimes.callcache import CACHE_FILE
from radscope.engine.runtimes.judge_worker import (
    IsolatedLlamaBackend,
    JudgeTimedOut,
    WorkerLoad,
    describe_exit,
)
from radscope.engine.runtimes.llamacpp import LlamaCppBackend, LlamaSettings
from radscope.models.llama_load import weight_repacking_allowed
from tests.conftest import judge_workers
from tests.llm.conftest import THREADS

ROOT = Path(__file__).resolve().parents[2]
AMX_INFO = ("CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | AVX512 = 1 | AVX512_VNNI = 1 | AMX_INT8 = 1 | "
            "LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 |")
PLAIN_INFO = "CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 |"

PAIRS = [
    ("p1", "Small left pleural effusion. Heart size normal.", "Small left pleural effusion."),
    ("p2", "Right lower lobe consolidation.", "No focal consolidation."),
    ("p3", "Mild cardiomegaly. No pneumothorax.", "Mild cardiomegaly."),
    ("p4", "Endotracheal tube 4 cm above the carina.", "Endotracheal tube in place."),
]


def _load(path: Path, model_id: str = "gemma3-270m-demo", demo: bool = True) -> WorkerLoad:
    return WorkerLoad(str(path), model_id=model_id, sha256="0" * 64, demo_grade=demo,
                      settings={"n_threads": THREADS})


# --------------------------------------------------------------------------- AMX guard


def test_weight_repacking_is_off_exactly_where_llama_cpp_reports_amx(monkeypatch):
    monkeypatch.delenv("RADSCOPE_LLAMA_REPACK", raising=False)
    assert weight_repacking_allowed(AMX_INFO) is False
    assert weight_repacking_allowed(PLAIN_INFO) is True
    monkeypatch.setenv("RADSCOPE_LLAMA_REPACK", "1")
    assert weight_repacking_allowed(AMX_INFO) is True
    monkeypatch.setenv("RADSCOPE_LLAMA_REPACK", "0")
    assert weight_repacking_allowed(PLAIN_INFO) is False


def test_a_judge_loaded_without_repacking_has_no_extra_buffer_types(tiny_gguf, monkeypatch):
    """What an AMX machine gets: the model parameters llama.cpp loads with say no repacking,
    and the model still answers."""
    monkeypatch.setenv("RADSCOPE_LLAMA_REPACK", "0")
    backend = LlamaCppBackend(tiny_gguf, model_id="tiny", sha256="0" * 64,
                              settings=LlamaSettings(n_threads=THREADS))
    try:
        assert backend.repack is False
        assert backend._llama.model_params.use_extra_bufts is False
        assert backend.model_info().detail["weight_repacking"] is False
        out = backend.complete([{"role": "user", "content": "hi"}], None, 4, 0)
        assert out.completion_tokens > 0
    finally:
        backend.close()
    import llama_cpp.llama_cpp as low

    assert low.llama_model_default_params().use_extra_bufts is True  # the swap was undone


# --------------------------------------------------------------------------- worker basics


def test_the_worker_answers_like_the_in_process_backend(tiny_gguf):
    messages = [{"role": "user", "content": "Findings: small effusion."}]
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    direct = LlamaCppBackend(tiny_gguf, model_id="tiny", sha256="0" * 64,
                             settings=LlamaSettings(n_threads=THREADS))
    try:
        expected = direct.complete(messages, schema, 40, 0)
    finally:
        direct.close()
    isolated = IsolatedLlamaBackend(_load(tiny_gguf, "tiny", demo=False))
    try:
        assert isolated.pid != os.getpid()
        assert isolated.complete(messages, schema, 40, 0) == expected
        assert isolated.identity()["model"] == "tiny"
        assert "isolated worker" in isolated.model_info().detail["process"]
    finally:
        isolated.close()
    assert isolated.pid is None


def test_a_file_that_is_not_a_model_is_refused_with_a_readable_message(tmp_path, ctx_factory):
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF" + os.urandom(4000))
    with pytest.raises(JudgeUnavailable, match=r"judge 'broken.gguf' failed to start: .*"):
        judge_for(ctx_factory(bad))


def test_a_stopped_worker_times_out_and_a_new_one_serves_the_next_call(gemma_gguf):
    backend = IsolatedLlamaBackend(_load(gemma_gguf), call_timeout_s=6)
    messages = [{"role": "user", "content": "Describe a normal chest radiograph in detail."}]
    first_pid = backend.pid
    stopper = threading.Timer(0.3, os.kill, (first_pid, signal.SIGSTOP))
    try:
        stopper.start()
        with pytest.raises(JudgeTimedOut, match=r"did not answer within 6 s.*; restarted"):
            backend.complete(messages, None, 400, 0)
        assert backend.pid != first_pid and backend.restarts == 1
        out = backend.complete(messages, None, 8, 0)
        assert out.completion_tokens > 0
    finally:
        stopper.cancel()
        backend.close()
    with pytest.raises(ProcessLookupError):  # the stopped worker was killed, not left behind
        for _ in range(50):
            os.kill(first_pid, 0)
            time.sleep(0.1)


def test_exit_descriptions():
    assert describe_exit(-11) == "signal 11, SIGSEGV"
    assert describe_exit(-9).startswith("signal 9, SIGKILL: killed, perhaps for lack of memory")
    assert describe_exit(3) == "exit status 3"


# --------------------------------------------------------------------------- a crash mid-batch


def _write_pairs(path: Path) -> None:
    path.write_text("".join(json.dumps({"id": i, "reference": r, "candidate": c}) + "\n"
                            for i, r, c in PAIRS), encoding="utf-8")


def _stored(db: Path, run_id: str) -> dict[str, dict]:
    with Store(db) as store:
        return {row.pair_id: row.payload for row in store.results(run_id)}


@pytest.mark.slow
def test_a_segfault_in_the_judge_costs_only_the_pair_in_flight(tmp_path):
    """SIGSEGV to the worker while a 4-pair VERT batch runs: the CLI exits 0, the pair in flight
    carries the crash, the others are scored, and resuming the run scores only that pair."""
    pairs, db = tmp_path / "pairs.jsonl", tmp_path / "store.sqlite"
    _write_pairs(pairs)
    env = {**os.environ, "RADSCOPE_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "radscope", "score", "--input", str(pairs), "--metrics", "vert",
               "--extractor", "llm", "--judge", "gemma3-270m-demo", "--judge-threads",
               str(THREADS), "--db", str(db),
               "--run-id", "crash-run", "--no-progress"]
    cli = subprocess.Popen(command + ["--out", str(tmp_path / "first.jsonl")], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = None
    deadline = time.monotonic() + 600
    calls = tmp_path / "home" / CACHE_FILE  # each answered call lands here at once
    while time.monotonic() < deadline and cli.poll() is None:
        workers = judge_workers(cli.pid)
        if workers and _answered(calls) >= 1:  # one pair done, the next one in flight
            time.sleep(0.5)
            killed = workers[0]
            os.kill(killed, signal.SIGSEGV)
            break
        time.sleep(0.2)
    out, err = cli.communicate(timeout=600)
    assert killed is not None, f"the batch ended before the worker could be killed:\n{err}"
    assert cli.returncode == 0, err
    first = [json.loads(line) for line in (tmp_path / "first.jsonl").read_text().splitlines()]
    crashed = {row["id"] for row in first
               if "judge process crashed" in (row["metrics"]["vert"]["error"] or "")}
    assert len(crashed) == 1, [row["metrics"]["vert"]["error"] for row in first]
    (victim,) = crashed
    error = next(r for r in first if r["id"] == victim)["metrics"]["vert"]["error"]
    assert "signal 11, SIGSEGV" in error and error.endswith("restarted [crash: runtime]")
    for row in first:
        result = row["metrics"]["vert"]
        if row["id"] != victim:
            assert "judge process" not in (result["error"] or "")
            assert result["score"] is not None or result["error"].startswith(("judge answer unusable", "judge: "))
    before = _stored(db, "crash-run")
    again = subprocess.run(command + ["--out", str(tmp_path / "second.jsonl")], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "model calls: " in again.stdout
    after = _stored(db, "crash-run")
    for pid in before:
        if pid == victim:
            assert "judge process crashed" not in (after[pid]["error"] or "")
        else:  # finished work was kept as it was, not recomputed
            assert after[pid] == before[pid]
    calls = int(again.stdout.split("model calls: ")[1].split()[0])
    assert 1 <= calls <= 3  # the victim's call(s) only; the others came from the store


def _answered(calls: Path) -> int:
    """Judge calls answered so far (the call cache is written as each call returns; the run
    store only once per chunk)."""
    if not calls.exists():
        return 0
    try:
        with sqlite3.connect(calls, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM calls").fetchone()[0])
    except sqlite3.Error:
        return 0
