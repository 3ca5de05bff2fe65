"""Runtime mechanics: providers, batching order, batch sizes, thread settings."""
import numpy as np
import onnxruntime as ort
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.runtimes.onnx_encoder import CPU, CUDA, choose_providers, load_encoder


def test_cpu_provider_and_cuda_fallback_rules():
    assert choose_providers("cpu") == [CPU]
    if CUDA in ort.get_available_providers():
        assert choose_providers("auto")[0][0] == CUDA
    else:
        assert choose_providers("auto") == [CPU]
        with pytest.raises(RuntimeError, match="onnxruntime-gpu"):
            choose_providers("cuda")


def test_results_come_back_in_input_order_whatever_the_batch(crepe_encoder):
    pairs = [("Normal.", "Large right pleural effusion, increased since the prior study. " * 3),
             ("Normal.", "Normal."),
             ("Mild cardiomegaly.", "Moderate cardiomegaly.")]
    one_by_one = np.stack([crepe_encoder.raw_counts([p])[0] for p in pairs])
    np.testing.assert_array_equal(crepe_encoder.raw_counts(pairs), one_by_one)
    reordered = crepe_encoder.raw_counts(pairs[::-1])[::-1]
    np.testing.assert_array_equal(reordered, one_by_one)
    # int8 in batches of 3: each row is quantised with its neighbours, so only close.
    np.testing.assert_allclose(crepe_encoder.raw_counts(pairs, batch_size=3), one_by_one,
                               atol=0.1)


def test_session_settings_are_reported(srr_encoder):
    assert srr_encoder.providers == [CPU] or srr_encoder.providers[0] == CUDA
    assert srr_encoder.threads == 2 and srr_encoder.batch_size == 1
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
