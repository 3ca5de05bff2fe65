"""`radscope models fetch` for the published encoders against the fake Hub: checkpoint
download, export to int8 ONNX in the export environment, verification against torch,
registration; then CREPE and SRR-BERT score pairs with the fetched models, offline."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hub.conftest import (
    CREPE_ID,
    SRR_ID,
    TOKENIZER_REPO,
    disk_bytes,
    needs_export_env,
    run_engine,
    run_models,
)

pytestmark = needs_export_env

PAIRS = [{"id": "p1", "reference": "Small right pleural effusion. No pneumothorax.",
          "candidate": "No pleural effusion. No pneumothorax."},
         {"id": "p2", "reference": "Cardiomegaly. Left lower lobe opacity.",
          "candidate": "Cardiomegaly. Left lower lobe opacity."}]


@pytest.mark.parametrize("model_id, metric, option", [(CREPE_ID, "crepe", "--crepe-model"),
                                                      (SRR_ID, "srr", "--srr-model")])
def test_fetch_encoder_exports_registers_and_scores(env, hub, tmp_path, model_id, metric, option):
    proc, seconds = run_models(env, "fetch", model_id)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"{option} {model_id}" in proc.stdout
    models = Path(env["RADSCOPE_MODELS"])
    manifest = json.loads((models / model_id / "manifest.json").read_text())
    assert manifest["id"] == model_id and manifest["checks"]["fp32_max_abs_diff"] <= 1e-4
    assert {"fp32", "int8"} <= set(manifest["files"])
    receipt = json.loads((models / "fetched" / f"{model_id}.json").read_text())
    assert [s["name"] for s in receipt["steps"]] == ["download", "export environment", "export",
                                                     "verify", "register"]
    if metric == "srr":  # the tokenizer came from its own repository's vocabulary files
        assert any(p[1].startswith(f"/{TOKENIZER_REPO}/resolve/") for p in hub.requests)
        assert manifest["label_level"] == "leaves_with_statuses" and len(manifest["labels"]) == 163
    print(f"\nfake {model_id}: fetch {seconds:.1f} s, steps "
          f"{[(s['name'], s['seconds']) for s in receipt['steps']]}, checkpoint "
          f"{disk_bytes(Path(env['HF_HUB_CACHE'])) / 1e6:.1f} MB, export {disk_bytes(models / model_id) / 1e6:.1f} MB")

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p) + "\n" for p in PAIRS))
    out = tmp_path / "r.jsonl"
    scored = run_engine({**env, "HF_HUB_OFFLINE": "1"}, "score", "--input", str(pairs), "--metrics", metric,
                        option, model_id, "--out", str(out), "--no-progress")
    assert scored.returncode == 0, scored.stderr
    rows = [json.loads(line)["metrics"][metric] for line in out.read_text().splitlines()]
    for row in rows:
        assert row["error"] is None and row["model"] == model_id and row["demo_grade"] is False
        assert isinstance(row["score"], float)
    assert model_id in rows[0]["signature"]
