"""`radscope models fetch` for a GGUF judge against the fake Hub: download with progress,
verify, self-check, then scoring with it offline; a dropped connection, a cancelled download,
a wrong checksum and an unreachable Hub."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.hub.conftest import (
    JUDGE_FILE,
    JUDGE_ID,
    JUDGE_REPO,
    ROOT,
    disk_bytes,
    hub_env,
    run_engine,
    run_models,
)

PAIR = {"id": "p1", "reference": "Small right pleural effusion. No pneumothorax.",
        "candidate": "No pleural effusion. No pneumothorax."}


def _blobs(env: dict[str, str]) -> list[Path]:
    folder = Path(env["HF_HUB_CACHE"]) / f"models--{JUDGE_REPO.replace('/', '--')}" / "blobs"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_fetch_judge_downloads_verifies_self_checks_then_scores_offline(env, hub, tmp_path):
    proc, seconds = run_models(env, "fetch", JUDGE_ID)
    assert proc.returncode == 0, proc.stderr
    size = len(hub.repos[JUDGE_REPO].files[JUDGE_FILE])
    assert f"{JUDGE_ID}: download" in proc.stderr and "MB/s" in proc.stderr  # progress lines
    assert "self-check" in proc.stdout and "--judge qwen2.5-7b-instruct" in proc.stdout
    receipt = json.loads((Path(env["RADSCOPE_MODELS"]) / "fetched" / f"{JUDGE_ID}.json").read_text())
    assert [s["name"] for s in receipt["steps"]] == ["download", "verify", "self-check"]
    assert receipt["files"][0]["size"] == size and receipt["source"]["commit"] == hub.repos[JUDGE_REPO].commit
    print(f"\nfake judge ({size / 1e6:.1f} MB): fetch {seconds:.1f} s, steps "
          f"{[(s['name'], s['seconds']) for s in receipt['steps']]}, disk {disk_bytes(Path(env['HF_HUB_CACHE'])) / 1e6:.1f} MB")

    # a second fetch answers from the receipt, with the Hub unreachable
    offline = {**env, "HF_HUB_OFFLINE": "1"}
    again, _ = run_models(offline, "fetch", JUDGE_ID)
    assert again.returncode == 0 and "fetched before" in again.stdout

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps(PAIR) + "\n")
    out = tmp_path / "r.jsonl"
    scored = run_engine(offline, "score", "--input", str(pairs), "--metrics", "vert",
                        "--extractor", "llm", "--judge", JUDGE_ID,
                        "--judge-threads", "1", "--out", str(out), "--no-progress")
    assert scored.returncode == 0, scored.stderr
    vert = json.loads(out.read_text())["metrics"]["vert"]
    assert vert["model"] == JUDGE_ID and f"judge:{JUDGE_ID}" in vert["signature"]
    assert vert["demo_grade"] is False


def test_dropped_connection_resumes_with_a_range_request(env, hub):
    size = len(hub.repos[JUDGE_REPO].files[JUDGE_FILE])
    hub.drop_after[JUDGE_FILE] = size // 3
    proc, _ = run_models(env, "fetch", JUDGE_ID, "--no-self-check")
    assert proc.returncode == 0, proc.stderr
    first, second = hub.ranges(JUDGE_FILE)
    assert first is None and second.startswith("bytes=")
    assert 0 < int(second[6:-1]) <= size // 3  # what arrived before the drop is kept
    assert "connection lost" in proc.stderr


def test_cancelled_download_resumes_where_it_stopped(env, hub):
    """Cancel after the first chunk; the next fetch asks only for the rest."""
    script = (
        "import threading\n"
        "from radscope.models.fetch import fetch\n"
        "from radscope.models.progress import Cancelled\n"
        "stop = threading.Event()\n"
        "def report(p):\n"
        "    if p.step == 'download' and p.done > 0: stop.set()\n"
        "try:\n"
        f"    fetch({JUDGE_ID!r}, report, stop, self_check=False)\n"
        "except Cancelled as exc:\n"
        "    print('CANCELLED', exc)\n")
    first = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=300)
    assert "CANCELLED" in first.stdout and "'download'" in first.stdout, first.stderr
    parts = [p for p in _blobs(env) if p.name.endswith(".radscope-part")]
    assert len(parts) == 1
    kept = parts[0].stat().st_size
    assert 0 < kept < len(hub.repos[JUDGE_REPO].files[JUDGE_FILE])
    proc, _ = run_models(env, "fetch", JUDGE_ID, "--no-self-check")
    assert proc.returncode == 0, proc.stderr
    assert hub.ranges(JUDGE_FILE)[-1] == f"bytes={kept}-"


def test_wrong_checksum_is_refused_and_nothing_is_kept(env, hub):
    hub.bad_etag[JUDGE_FILE] = "0" * 64
    proc, _ = run_models(env, "fetch", JUDGE_ID, "--no-self-check")
    assert proc.returncode == 2
    assert "step 'verify' failed" in proc.stderr and "does not match the Hub ETag hash" in proc.stderr
    assert "What to do:" in proc.stderr
    assert _blobs(env) == []  # neither the blob nor a part file
    assert not (Path(env["RADSCOPE_MODELS"]) / "fetched" / f"{JUDGE_ID}.json").exists()


def test_offline_fails_fast_with_the_command_to_run(tmp_path, hub):
    for label, env in (("HF_HUB_OFFLINE", hub_env(tmp_path / "a", hub.url, HF_HUB_OFFLINE="1")),
                       ("no endpoint", hub_env(tmp_path / "b", "http://127.0.0.1:9"))):
        proc, seconds = run_models(env, "fetch", JUDGE_ID)
        assert proc.returncode == 2, (label, proc.stderr)
        assert seconds < 5, (label, seconds)
        assert f"radscope models fetch {JUDGE_ID}" in proc.stderr, (label, proc.stderr)
        assert "step 'download' failed" in proc.stderr


def test_offline_fetch_checks_and_records_a_file_already_in_the_cache(env, hub):
    """A cache filled elsewhere (copied, or preloaded by a Space) is verified offline."""
    assert run_models(env, "fetch", JUDGE_ID, "--no-self-check")[0].returncode == 0
    receipt = Path(env["RADSCOPE_MODELS"]) / "fetched" / f"{JUDGE_ID}.json"
    receipt.unlink()
    served = len(hub.requests)
    proc, _ = run_models({**env, "HF_HUB_OFFLINE": "1"}, "fetch", JUDGE_ID, "--no-self-check")
    assert proc.returncode == 0, proc.stderr
    assert len(hub.requests) == served  # nothing asked of the Hub
    data = json.loads(receipt.read_text())
    assert data["files"][0]["sha256"] == data["source"]["etag"]  # checked against the blob's ETag


def test_a_second_fetch_of_the_same_model_waits_its_turn(env, hub):
    from filelock import FileLock

    receipts = Path(env["RADSCOPE_MODELS"]) / "fetched"
    receipts.mkdir(parents=True)
    with FileLock(str(receipts / f".{JUDGE_ID}.lock")):  # as a running fetch holds it
        proc, _ = run_models(env, "fetch", JUDGE_ID)
    assert proc.returncode == 2 and "another fetch of this model is running" in proc.stderr
    assert not any(m == "GET" for m, _, _ in hub.requests)
