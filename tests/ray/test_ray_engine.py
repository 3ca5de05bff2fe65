"""``--engine ray`` on a local Ray: the same rows and summary as the local runner, and a resume
after the job is killed that scores only the blocks that were not stored."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from radscope.engine.commands import main
from tests.ray.conftest import METRICS, N_PAIRS, comparable_summary, read_rows

ROOT = Path(__file__).resolve().parents[2]
BLOCK = 100


def score_args(corpus: Path, work: Path, *extra: str) -> list[str]:
    return ["score", "--input", str(corpus), "--metrics", METRICS, "--extractor", "rules",
            "--out", str(work / "out.jsonl"), "--csv", str(work / "out.csv"),
            "--summary", str(work / "summary.json"), "--db", str(work / "store.sqlite"),
            "--no-progress", "--engine", "ray", "--block-size", str(BLOCK), *extra]


def test_ray_rows_and_summary_equal_one_worker(local_ray, corpus, one_worker, tmp_path):
    assert main(score_args(corpus, tmp_path)) == 0
    rows = read_rows(tmp_path / "out.jsonl")
    assert len(rows) == N_PAIRS
    assert rows == one_worker["rows"]
    # The marked pairs are marked as on one machine (and not scored).
    by_id = {r["id"]: r["metrics"] for r in rows}
    assert by_id["p7"]["bleu"]["score"] is None and by_id["p7"]["bleu"]["error"].startswith("input:")
    assert by_id["p1999"]["radsem"]["error"].startswith("input:")
    assert by_id["p1234"]["clear"]["error"].startswith("cannot read")
    assert comparable_summary(tmp_path / "summary.json") == one_worker["summary"]
    engine = json.loads((tmp_path / "summary.json").read_text())["engine"]
    assert engine["blocks"] == engine["blocks_scored"] == N_PAIRS // BLOCK
    # The CSV is the app's export table (every cell quoted): the pair's texts, then each metric.
    header = (tmp_path / "out.csv").read_text().splitlines()[0]
    assert header.startswith('"id","reference","candidate"') and '"bleu_score","bleu_error"' in header


def test_an_identical_rerun_on_ray_answers_from_the_finished_run(local_ray, corpus, tmp_path):
    """Run again, a finished Ray run is read back: nothing scored or stored, the run not reopened,
    its kept summary unchanged."""
    from radscope.engine.runs.store import Store

    assert main(score_args(corpus, tmp_path)) == 0
    with Store(tmp_path / "store.sqlite") as store:
        (run,) = store.list_runs()
        kept = store.run_summary(run.run_id)
    (tmp_path / "out.jsonl").unlink()  # so the rows are written again, not left as they were
    assert main(score_args(corpus, tmp_path)) == 0
    again = json.loads((tmp_path / "summary.json").read_text())
    assert again["answered_from_store"] is True and again["stored"] == 0
    assert len(read_rows(tmp_path / "out.jsonl")) == N_PAIRS
    with Store(tmp_path / "store.sqlite") as store:
        assert [r.status for r in store.list_runs()] == ["finished"]
        assert store.run_summary(run.run_id) == kept


def stored_results(db: Path) -> int:
    """Results stored so far, read without taking the writer's lock."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not written yet
        return 0


def test_killed_job_resumes_with_only_the_missing_blocks(corpus, one_worker, tmp_path):
    per_block = BLOCK * len(METRICS.split(","))
    # One actor scores the blocks one after the other, so the job is killed with part stored.
    job = subprocess.Popen([sys.executable, "-m", "radscope", *score_args(
        corpus, tmp_path, "--ray-cpus", "2", "--cpu-actors", "1")], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while stored_results(tmp_path / "store.sqlite") < 3 * per_block:
        assert job.poll() is None, "the job ended before it could be killed"
        assert time.monotonic() < deadline, "no block stored within 300 s"
        time.sleep(0.05)
    os.killpg(job.pid, signal.SIGKILL)  # the driver and the Ray it started, at once
    job.wait(timeout=60)
    stored = stored_results(tmp_path / "store.sqlite")
    assert stored % per_block == 0, "a block is stored whole or not at all"
    stored_blocks = stored // per_block
    assert 3 <= stored_blocks < N_PAIRS // BLOCK
    assert not (tmp_path / "out.jsonl").exists()

    rerun = subprocess.run([sys.executable, "-m", "radscope", *score_args(corpus, tmp_path, "--ray-cpus", "2")],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert "resuming" in rerun.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["engine"]["blocks_stored_before"] == stored_blocks
    assert summary["engine"]["blocks_scored"] == N_PAIRS // BLOCK - stored_blocks
    assert summary["resumed"]["reused"] == stored
    assert read_rows(tmp_path / "out.jsonl") == one_worker["rows"]
    assert comparable_summary(tmp_path / "summary.json") == one_worker["summary"]


def test_python_api_on_ray_gives_the_scorer_records(local_ray, tmp_path):
    from radscope.engine.api import Scorer
    from radscope.engine.cluster.ray_runner import RaySettings, score_on_ray
    from radscope.engine.io.examples import example_pairs

    examples = [e.pair for e in example_pairs()]
    references = [p.reference for p in examples] * 5
    candidates = [p.candidate for p in reversed(examples)] * 5
    ids = [f"x{i}" for i in range(len(references))]
    on_ray = score_on_ray("bleu,radsem", references, candidates, ids, store=tmp_path / "s.sqlite",
                          settings=RaySettings(block_size=7), extractor="rules")
    with Scorer("bleu,radsem", extractor="rules") as scorer:
        local = scorer.score(references, candidates, ids)
    assert on_ray.signatures == local.signatures
    for metric in ("bleu", "radsem"):
        assert on_ray.array(metric).tolist() == local.array(metric).tolist()
    assert untimed(on_ray.records) == untimed(local.records)


def untimed(records: list[dict]) -> list[dict]:
    return [{**r, "metrics": {m: {k: v for k, v in d.items() if k != "elapsed_ms"}
                              for m, d in r["metrics"].items()}} for r in records]
