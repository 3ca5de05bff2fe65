"""The training scripts end to end on a few synthetic examples: train, export int8, card.

Tiny and short (3 steps, one epoch), so the figures mean nothing; what is checked is that a run is
reproducible (same seed, same history and same ONNX bytes) and produces an artifact the
runtime loads. `make models` runs the same scripts at full size.
"""
import json

import pytest

from radscope.engine.runtimes.encoder_session import CrepeEncoder, SrrEncoder
from radscope.models.artifacts import resolve_artifact
from training import train_crepe
from training import train_srr
TINY = ["--n-train", "24", "--n-dev", "8", "--n-test", "8", "--epochs", "1", "--max-steps", "3",
        "--threads", "2"]


@pytest.mark.parametrize("script, encoder_class", [(train_crepe, CrepeEncoder),
                                                   (train_srr, SrrEncoder)])
def test_training_is_reproducible_and_bundles_a_loadable_model(tmp_path, script, encoder_class):
    runs = []
    for name in ("a", "b"):
        work, out = tmp_path / f"work_{name}", tmp_path / f"out_{name}"
        assert script.main([*TINY, "--work", str(work), "--out", str(out)]) == 0
        runs.append((json.loads((work / "results.json").read_text()), out))
    (first, out_a), (second, out_b) = runs
    assert first["history"] == second["history"] and len(first["history"]) == 1
    assert first["test_onnx_int8"] == second["test_onnx_int8"]
    assert (out_a / "model.int8.onnx").read_bytes() == (out_b / "model.int8.onnx").read_bytes()
    assert "demonstration" in (out_a / "MODEL_CARD.md").read_text().lower()
    encoder = encoder_class(resolve_artifact(str(out_a)), threads=1)
    assert encoder.manifest.id == script.MODEL_ID and encoder.precision == "int8"
