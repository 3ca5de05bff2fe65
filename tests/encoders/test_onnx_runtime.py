"""Runtime mechanics: providers, batching order, batch sizes, thread settings, and one pair, one
number: every bundled model gives a sequence the same bits whatever shares its call."""
import json
from types import SimpleNamespace

import numpy as np
import onnxruntime as ort
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.runtimes.encoder_session import (
    CPU,
    CUDA,
    DEFAULT_BATCH,
    choose_providers,
    load_encoder,
    plan_encoder,
)
from radscope.models.artifacts import resolve_artifact


def test_cpu_provider_and_cuda_fallback_rules():
    assert choose_providers("cpu") == [CPU]
    if CUDA in ort.get_available_providers():
        assert choose_providers("auto")[0][0] == CUDA
    else:
        assert choose_providers("auto") == [CPU]
        with pytest.raises(RuntimeError, match="onnxruntime-gpu"):
            choose_providers("cuda")


PAIRS = [("Normal.", "Large right pleural effusion, increased since the prior study. " * 3),
         ("Normal.", "Normal."),
         ("Mild cardiomegaly.", "Moderate cardiomegaly."),
         # of the same token length as the one two lines up (they may share a call):
         ("Mild cardiomegaly.", "Severe cardiomegaly."),
         ("Normal.", "Abnormal."),
         ("Small left pleural effusion.", "Small right pleural effusion."),
         ("Small left pleural effusion.", "Small left pleural effusion.")]
TEXTS = ["Small left pleural effusion.", "No pneumothorax.", "No edema.", "Heart size is normal.",
         "There is a small effusion on the left side.", "The patient is rotated.",
         "Mild cardiomegaly.", "Moderate cardiomegaly.", "Normal."]
BUNDLED = [("crepe-minilm-demo", "crepe", PAIRS), ("srr-minilm-demo", "srr", TEXTS),
           ("minilm-embedder", "embedder", TEXTS)]


def _compositions(items):
    """The same items alone, all together, reversed, in threes, and each with the others twice
    over (so every sequence shares a call with a neighbour of its own token length)."""
    n = len(items)
    yield "reversed", list(range(n))[::-1], 32
    yield "together", list(range(n)), 32
    yield "in threes", list(range(n)), 3
    yield "with copies", [i for i in range(n) for _ in range(2)][::-1], 32


@pytest.mark.parametrize("name,task,items", BUNDLED, ids=[b[0] for b in BUNDLED])
def test_results_come_back_in_input_order_whatever_the_batch(name, task, items):
    encoder = load_encoder(name, task, threads=2)
    assert encoder.plan.batch_invariant and encoder.batch_size > 1
    alone = np.stack([encoder.run([item])[0] for item in items])
    lengths = [len(e.ids) for e in encoder.tokenize(items)]
    assert len(set(lengths)) < len(lengths), "some items must share a call (same length)"
    for label, order, batch in _compositions(items):
        got = encoder.run([items[i] for i in order], batch_size=batch)
        for row, i in enumerate(order):
            # Equality, not closeness: one pair, one number.
            np.testing.assert_array_equal(got[row], alone[i], err_msg=f"{name}, {label}")


def test_a_pair_alone_and_in_a_batch_of_three_give_the_same_counts(crepe_encoder):
    # Issue 36: with one activation scale per batch this pair's count moved from 0.060 alone
    # to 0.199 in this batch of three (on an AMD EPYC); per-row scales make it identical.
    pairs = PAIRS[:3]
    alone = crepe_encoder.raw_counts([pairs[2]])
    for batch in (3, 32):
        np.testing.assert_array_equal(crepe_encoder.raw_counts(pairs, batch_size=batch)[2], alone[0])


@pytest.mark.parametrize("name,task,items", BUNDLED, ids=[b[0] for b in BUNDLED])
def test_results_do_not_depend_on_the_thread_count(name, task, items):
    one, two = (load_encoder(name, task, threads=t) for t in (1, 2))
    np.testing.assert_array_equal(one.run(items), two.run(items))


def test_an_export_with_one_scale_per_batch_runs_one_sequence_per_call(tmp_path):
    """An int8 export made before per-row scales (manifest without int8_activations) would
    change a sequence's output with its neighbours, so it never shares a call."""
    source = resolve_artifact("srr-minilm-demo", "srr").path
    for name in ("model.int8.onnx", "tokenizer.json"):
        (tmp_path / name).symlink_to(source / name)
    manifest = json.loads((source / "manifest.json").read_text())
    manifest.pop("int8_activations")
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    plan = plan_encoder(str(tmp_path), "srr", batch_size=8)
    assert not plan.batch_invariant and plan.batch_size == 1
    encoder = load_encoder(str(tmp_path), "srr", batch_size=8)
    calls = []
    real_run = encoder.session.run
    encoder.session = SimpleNamespace(run=lambda *a: calls.append(a[1]) or real_run(*a))
    encoder.run(TEXTS, batch_size=8)
    assert len(calls) == len(TEXTS) and all(len(f["input_ids"]) == 1 for f in calls)


def test_calls_hold_one_token_length_and_no_padding(srr_encoder):
    calls = []
    real_run = srr_encoder.session.run
    srr_encoder.session = SimpleNamespace(run=lambda *a: calls.append(a[1]) or real_run(*a))
    try:
        srr_encoder.run(TEXTS)
    finally:
        srr_encoder.session = real_run.__self__
    assert len(calls) < len(TEXTS)
    assert all(feed["attention_mask"].all() for feed in calls)


def test_session_settings_are_reported(srr_encoder):
    assert srr_encoder.providers == [CPU] or srr_encoder.providers[0] == CUDA
    assert srr_encoder.threads == 2 and srr_encoder.batch_size == DEFAULT_BATCH
    assert srr_encoder.device_text.startswith("cpu (CPUExecutionProvider; int8; 2 threads")
    assert srr_encoder.describe()["checksum"] == srr_encoder.manifest.checksum


def test_context_shares_one_session_per_model_and_settings():
    ctx = RuntimeContext(options={"encoder_device": "cpu", "encoder_precision": "auto",
                                  "encoder_threads": 1, "encoder_batch": 0})
    first = load_encoder("minilm-embedder", "embedder", ctx)
    assert load_encoder("minilm-embedder", "embedder", ctx) is first
    other = RuntimeContext(options={**ctx.options, "encoder_batch": 4})
    assert load_encoder("minilm-embedder", "embedder", other) is not first
    assert load_encoder("minilm-embedder", "embedder", other).batch_size == 4
