"""Encoder resolution: bundled -> exported under $RADSCOPE_MODELS -> an error naming the command."""
import json
import shutil

import pytest

from radscope.models.artifacts import Manifest, export_dir, resolve_artifact
from radscope.models.resolve import MODELS_DIR, ModelNotAvailable, file_sha256


def test_bundled_models_resolve_with_their_manifests():
    for model_id, task in (("minilm-embedder", "embedder"), ("crepe-minilm-demo", "crepe"),
                           ("srr-minilm-demo", "srr")):
        art = resolve_artifact(model_id, task)
        assert art.source == "bundled"
        assert art.path == (MODELS_DIR / "bundled" / model_id).resolve()
        assert art.manifest.task == task and art.demo_grade
        path, precision = art.model_path()
        assert precision == "int8" and path.name == "model.int8.onnx"
        # The bundled files are the ones the manifest describes, and small enough to commit.
        assert art.verify()
        assert path.stat().st_size <= 30 * 1024 * 1024
        assert art.tokenizer_path.exists()
        card = (art.path / "MODEL_CARD.md").read_text(encoding="utf-8")
        if task != "embedder":
            assert "not the published CREPE / SRR-BERT" in card
            assert "Exact command" in card and "Held-out results" in card
        # Only the four artifact files are committed beside each other.
        assert sorted(p.name for p in art.path.iterdir()) == [
            "MODEL_CARD.md", "manifest.json", "model.int8.onnx", "tokenizer.json"]


def test_exported_directory_is_used_when_no_bundled_copy(tmp_path, monkeypatch):
    monkeypatch.setenv("RADSCOPE_MODELS", str(tmp_path))
    target = export_dir("crepe-biomedbert")
    assert target == tmp_path / "crepe-biomedbert"
    shutil.copytree(MODELS_DIR / "bundled" / "crepe-minilm-demo", target)
    manifest = Manifest.load(target)
    manifest.id = "crepe-biomedbert"
    manifest.save(target)
    art = resolve_artifact("crepe-biomedbert", "crepe")
    assert art.source == "exported" and art.path == target.resolve()
    assert art.id == "crepe-biomedbert" and not art.demo_grade  # published weights


def test_missing_export_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("RADSCOPE_MODELS", str(tmp_path))
    with pytest.raises(ModelNotAvailable, match=r"radscope models export srr-bert-leaves"):
        resolve_artifact("srr-bert-leaves", "srr")


def test_task_mismatch_and_unknown_names_are_errors(tmp_path):
    with pytest.raises(ValueError, match="not a srr model"):
        resolve_artifact("crepe-minilm-demo", "srr")
    with pytest.raises(ModelNotAvailable, match="neither an artifact directory nor a registry id"):
        resolve_artifact("no-such-encoder")
    with pytest.raises(ModelNotAvailable, match="radscope models export"):
        resolve_artifact(str(tmp_path))  # a directory without manifest.json


def test_local_artifact_directory_and_checksum(tmp_path):
    copy = tmp_path / "mine"
    shutil.copytree(MODELS_DIR / "bundled" / "minilm-embedder", copy)
    art = resolve_artifact(str(copy), "embedder")
    assert art.source == "local" and art.verify()
    # A changed model file no longer matches the manifest's checksum.
    data = json.loads((copy / "manifest.json").read_text())
    assert data["files"]["int8"]["sha256"] == file_sha256(copy / "model.int8.onnx")
    with (copy / "model.int8.onnx").open("ab") as fh:
        fh.write(b"\0")
    assert not art.verify()


def test_manifest_round_trips_through_json():
    manifest = Manifest.load(MODELS_DIR / "bundled" / "srr-minilm-demo")
    again = Manifest.from_json(json.loads(json.dumps(manifest.to_json())))
    assert again == manifest
    assert len(manifest.labels) == 163 and manifest.label_level == "leaves_with_statuses"
    assert manifest.input_names == ["input_ids", "attention_mask", "token_type_ids"]
