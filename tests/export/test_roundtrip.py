"""Export round trip: small random checkpoints with the published layouts -> ONNX -> the same
numbers as torch (fp32 within 1e-4) through the runtime's own tokeniser and batching."""
import json

import numpy as np
import pytest
import torch
from transformers import BertConfig, BertForSequenceClassification

from radscope.engine.runtimes.encoder_session import CrepeEncoder, SentenceEmbedder, SrrEncoder
from radscope.models.__main__ import main as models_cli
from radscope.models.architectures import CrepeRegressor, MeanPoolEmbedder
from radscope.models.artifacts import resolve_artifact
from radscope.models.export import export_model
from radscope.models.resolve import ModelNotAvailable, file_sha256
from radscope.models.srr_labels import labels_for

TOL = 1e-4
PAIRS = [
    ("Small left pleural effusion.", "Small left pleural effusion."),
    ("No acute cardiopulmonary process.", "Moderate cardiomegaly with mild pulmonary edema. "
     "Large right pleural effusion, increased since the prior study."),
    ("Right lower lobe consolidation. Heart size is normal. No pneumothorax.", "Normal."),
    ("Port catheter on the left.", "Left-sided port catheter terminates in the SVC. " * 6),
    ("Stable mild cardiomegaly.", "Cardiomegaly."),
]


def tiny_config(**extra) -> BertConfig:
    return BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2,
                      num_attention_heads=4, intermediate_size=64, max_position_embeddings=128,
                      **extra)


def torch_inputs(encoder, items):
    enc = encoder.tokenize(items)
    width = max(len(e.ids) for e in enc)
    ids = torch.zeros(len(enc), width, dtype=torch.int64)
    mask, types = torch.zeros_like(ids), torch.zeros_like(ids)
    for row, e in enumerate(enc):
        ids[row, :len(e.ids)] = torch.tensor(e.ids)
        mask[row, :len(e.ids)] = 1
        types[row, :len(e.ids)] = torch.tensor(e.type_ids)
    return ids, mask, types


def _torch_one_by_one(module, encoder, items):
    with torch.no_grad():
        return np.concatenate([module(*torch_inputs(encoder, [item])).numpy() for item in items])


@pytest.mark.parametrize("with_pooler,softplus", [(True, False), (False, True)],
                         ids=["pooler", "cls-softplus"])
def test_crepe_layout_round_trip(checkpoint_dir, tmp_path, with_pooler, softplus):
    torch.manual_seed(0)
    model = CrepeRegressor(tiny_config(), with_pooler=with_pooler, softplus=softplus).eval()
    ckpt = checkpoint_dir("crepe-ckpt")
    model.save_checkpoint(ckpt)
    # The published parameter names and shapes (six Linear(hidden, 1) count and presence heads).
    from safetensors import safe_open

    with safe_open(str(ckpt / "model.safetensors"), "pt") as fh:
        keys = set(fh.keys())
        assert tuple(fh.get_tensor("error_regressors.5.weight").shape) == (1, 32)
    assert {f"error_presence.{i}.bias" for i in range(6)} <= keys
    assert ("bert.pooler.dense.weight" in keys) == with_pooler
    config = json.loads((ckpt / "config.json").read_text())
    assert config["architectures"] == ["BertForCategoryErrorRegression"]
    assert config["use_poisson_loss"] is softplus

    out = export_model(str(ckpt), tmp_path / "crepe-onnx", int8=True, max_length=128)
    assert not (out / "model.onnx.data").exists()  # one self-contained file
    art = resolve_artifact(str(out), "crepe")
    m = art.manifest
    assert m.labels == ["A", "B", "C", "D", "E", "F"] and m.pair_input
    assert m.softplus is softplus and m.pooling == ("pooler" if with_pooler else "cls")
    assert m.output_names == ["counts"] and m.max_length == 128
    assert m.files["fp32"]["sha256"] == file_sha256(out / "model.onnx")
    assert m.checksum == m.files["int8"]["sha256"]

    reloaded = CrepeRegressor.from_checkpoint(ckpt)
    encoder = CrepeEncoder(art, precision="fp32", threads=1)
    expected = _torch_one_by_one(lambda *a: reloaded(*a)[0], encoder, PAIRS)
    assert encoder.plan.batch_invariant
    alone = np.stack([encoder.raw_counts([p])[0] for p in PAIRS])
    for batch_size in (1, 2, 5):
        got = encoder.raw_counts(PAIRS, batch_size=batch_size)
        assert got.shape == (5, 6)
        np.testing.assert_allclose(got, expected, atol=TOL, rtol=0)
        np.testing.assert_array_equal(got, alone)  # fp32 on CPU: the same bits in any call
    twice = encoder.raw_counts(PAIRS + PAIRS[::-1], batch_size=5)  # each next to its copy
    np.testing.assert_array_equal(twice, np.concatenate([alone, alone[::-1]]))
    int8_encoder = CrepeEncoder(art, precision="int8", threads=1)
    int8 = int8_encoder.raw_counts(PAIRS)
    assert int8.shape == (5, 6) and np.all(np.isfinite(int8))
    # Per-row activation scales: each pair's counts are the same bits alone and with others.
    assert m.int8_activations == "per-row" and int8_encoder.plan.batch_invariant
    alone = np.stack([int8_encoder.raw_counts([p])[0] for p in PAIRS])
    np.testing.assert_array_equal(int8, alone)
    np.testing.assert_array_equal(int8_encoder.raw_counts(PAIRS + PAIRS, batch_size=3)[:5], alone)


def test_per_row_rewrites_an_older_int8_export_in_place(checkpoint_dir, tmp_path):
    """An int8 file with one activation scale per batch (as exported before per-row scales)
    gets per-row scales and a manifest that says so, without its checkpoint."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from radscope.models.artifacts import Manifest
    from radscope.models.row_quant import per_row_artifact

    torch.manual_seed(3)
    ckpt = checkpoint_dir("crepe-old")
    CrepeRegressor(tiny_config(), with_pooler=True, softplus=False).eval().save_checkpoint(ckpt)
    out = export_model(str(ckpt), tmp_path / "old", int8=True, max_length=64)
    import onnx

    plain = onnx.load(str(out / "model.onnx"))
    del plain.graph.value_info[:]
    onnx.save(plain, str(tmp_path / "clean.onnx"))
    quantize_dynamic(str(tmp_path / "clean.onnx"), str(out / "model.int8.onnx"),
                     weight_type=QuantType.QInt8, per_channel=True)
    old = Manifest.load(out)
    old.int8_activations = None
    old.files["int8"]["sha256"] = old.checksum = file_sha256(out / "model.int8.onnx")
    old.save(out)
    before = CrepeEncoder(resolve_artifact(str(out), "crepe"), precision="int8", threads=1)
    assert not before.plan.batch_invariant and before.batch_size == 1

    assert per_row_artifact(out) is True and per_row_artifact(out) is False
    m = Manifest.load(out)
    assert m.int8_activations == "per-row" and m.checksum == file_sha256(out / "model.int8.onnx")
    after = CrepeEncoder(resolve_artifact(str(out), "crepe"), precision="int8", threads=1)
    fp32 = CrepeEncoder(resolve_artifact(str(out), "crepe"), precision="fp32", threads=1)
    alone = np.stack([after.raw_counts([p])[0] for p in PAIRS])
    np.testing.assert_array_equal(after.raw_counts(PAIRS, batch_size=5), alone)
    np.testing.assert_allclose(alone, fp32.raw_counts(PAIRS), atol=0.1)


def test_srr_sequence_classifier_163_labels_round_trip(checkpoint_dir, tmp_path):
    labels = list(labels_for("leaves_with_statuses"))
    torch.manual_seed(1)
    model = BertForSequenceClassification(tiny_config(
        num_labels=163, problem_type="multi_label_classification")).eval()
    ckpt = checkpoint_dir("srr-ckpt")
    model.save_pretrained(str(ckpt))
    assert models_cli(["export", str(ckpt), "--out", str(tmp_path / "srr-onnx"),
                       "--max-length", "64"]) == 0
    art = resolve_artifact(str(tmp_path / "srr-onnx"), "srr")
    assert art.manifest.labels == labels and art.manifest.label_level == "leaves_with_statuses"
    assert art.manifest.threshold == 0.5 and "int8" not in art.manifest.files
    texts = ["Small left pleural effusion.", "No pneumothorax.", "Heart size is normal.",
             "Left-sided PICC line terminates in the lower superior vena cava near the cavoatrial "
             "junction without complication.", "Normal."]
    encoder = SrrEncoder(art, precision="fp32", threads=1)
    with torch.no_grad():
        expected = np.concatenate([model(*torch_inputs(encoder, [t])).logits.numpy()
                                   for t in texts])
    for batch_size in (1, 3, 8):
        got = encoder.run(texts, batch_size=batch_size)
        assert got.shape == (5, 163)
        np.testing.assert_allclose(got, expected, atol=TOL, rtol=0)
    # Thresholding is sigmoid > 0.5, i.e. logit > 0.
    predicted = encoder.utterance_labels(texts)
    assert predicted == [[labels[j] for j in np.flatnonzero(row > 0)] for row in expected]


def test_sentence_embedder_round_trip(checkpoint_dir, tmp_path):
    from transformers import BertModel

    torch.manual_seed(2)
    bert = BertModel(tiny_config()).eval()
    ckpt = checkpoint_dir("embedder-ckpt")
    bert.save_pretrained(str(ckpt))
    out = export_model(str(ckpt), tmp_path / "emb", task="embedder", max_length=64)
    embedder = SentenceEmbedder(str(out), precision="fp32", threads=1)
    texts = ["No pneumothorax.", "Small left pleural effusion and mild cardiomegaly.", "Normal."]
    module = MeanPoolEmbedder.from_checkpoint(ckpt)
    expected = _torch_one_by_one(module, embedder, texts)
    got = embedder.embed(texts, batch_size=2)
    np.testing.assert_allclose(got, expected, atol=TOL, rtol=0)
    np.testing.assert_array_equal(got, np.stack([embedder.embed([t])[0] for t in texts]))
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_export_of_an_uncached_hub_model_names_the_download_command(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelNotAvailable, match="hf download gihuncho/crepe-biomedbert"):
        export_model("crepe-biomedbert")
