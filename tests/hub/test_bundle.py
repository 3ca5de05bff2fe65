"""`models pack` on a connected machine and `models unpack` on an offline one: the models
arrive with their checksums and score there; a damaged bundle installs nothing."""
from __future__ import annotations

import json
import tarfile
from pathlib import Path

from tests.hub.conftest import (
    CREPE_ID,
    JUDGE_ID,
    disk_bytes,
    hub_env,
    needs_export_env,
    run_engine,
    run_models,
)
from tests.hub.test_fetch_encoders import PAIRS


@needs_export_env
def test_pack_then_unpack_offline_and_score(env, tmp_path):
    fetched, _ = run_models(env, "fetch", JUDGE_ID, CREPE_ID)
    assert fetched.returncode == 0, fetched.stderr[-3000:]
    bundle = tmp_path / "bundle.tar"
    packed, pack_s = run_models(env, "pack", JUDGE_ID, CREPE_ID, "--out", str(bundle))
    assert packed.returncode == 0, packed.stderr
    with tarfile.open(bundle) as tar:
        names = tar.getnames()
        index = json.loads(tar.extractfile("radscope-bundle.json").read())
    assert f"gguf/{JUDGE_ID}/Qwen2.5-7B-Instruct-Q4_K_M.gguf" in names
    assert f"models/{CREPE_ID}/model.int8.onnx" in names
    assert all(len(f["sha256"]) == 64 for m in index["models"].values() for f in m["files"])

    offline = hub_env(tmp_path / "air-gapped", "http://127.0.0.1:9", HF_HUB_OFFLINE="1")
    unpacked, unpack_s = run_models(offline, "unpack", str(bundle))
    assert unpacked.returncode == 0, unpacked.stderr
    assert f"--crepe-model {CREPE_ID}" in unpacked.stdout and f"--judge {JUDGE_ID}" in unpacked.stdout
    print(f"\nbundle {bundle.stat().st_size / 1e6:.1f} MB: pack {pack_s:.1f} s, unpack {unpack_s:.1f} s, "
          f"installed {disk_bytes(tmp_path / 'air-gapped') / 1e6:.1f} MB")
    again, _ = run_models(offline, "fetch", JUDGE_ID, CREPE_ID)
    assert again.returncode == 0 and again.stdout.count("fetched before") == 2, again.stderr

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p) + "\n" for p in PAIRS))
    out = tmp_path / "r.jsonl"
    scored = run_engine(offline, "score", "--input", str(pairs), "--metrics", "crepe,vert",
                        "--crepe-model", CREPE_ID, "--extractor", "llm", "--judge", JUDGE_ID,
                        "--judge-threads", "1",
                        "--out", str(out), "--no-progress")
    assert scored.returncode == 0, scored.stderr
    row = json.loads(out.read_text().splitlines()[0])["metrics"]
    assert row["crepe"]["model"] == CREPE_ID and row["crepe"]["error"] is None
    assert row["vert"]["model"] == JUDGE_ID


def test_damaged_bundle_installs_nothing(env, tmp_path):
    fetched, _ = run_models(env, "fetch", JUDGE_ID, "--no-self-check")
    assert fetched.returncode == 0, fetched.stderr
    bundle = tmp_path / "bundle.tar"
    assert run_models(env, "pack", JUDGE_ID, "--out", str(bundle))[0].returncode == 0
    raw = bytearray(bundle.read_bytes())
    raw[-20_000] ^= 0xFF  # a flipped byte inside the GGUF
    bundle.write_bytes(bytes(raw))
    offline = hub_env(tmp_path / "air-gapped", "http://127.0.0.1:9", HF_HUB_OFFLINE="1")
    proc, _ = run_models(offline, "unpack", str(bundle))
    assert proc.returncode == 2 and "nothing was installed" in proc.stderr, proc.stderr
    assert not (tmp_path / "air-gapped" / "models" / "fetched").exists()
    hf_cache = tmp_path / "air-gapped" / "hf"
    assert not hf_cache.exists() or not any(p.is_file() for p in hf_cache.rglob("*"))


def test_pack_refuses_a_model_that_was_not_fetched(env, tmp_path):
    proc, _ = run_models(env, "pack", CREPE_ID, "--out", str(tmp_path / "b.tar"))
    assert proc.returncode == 2 and f"radscope models fetch {CREPE_ID}" in proc.stderr
    assert not Path(tmp_path / "b.tar").exists()
