"""ONNX sessions are released: closing a run context closes its encoders, and the app's cache
of loaded settings closes the ones it evicts (real onnxruntime sessions on the bundled model)."""
from __future__ import annotations

import pytest

from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runtimes.encoder_session import OnnxEncoder
from radscope.ui.runtime import RuntimeCache

PAIR = ReportPair("p", "Small left pleural effusion.", "Small right pleural effusion.")
DEMO = {"crepe_model": "crepe-minilm-demo"}


def _encoders(runtime) -> list[OnnxEncoder]:
    return [v for v in runtime.ctx._resources.values() if isinstance(v, OnnxEncoder)]


def test_evicted_settings_close_their_onnx_sessions():
    cache = RuntimeCache(production(), max_contexts=1)
    try:
        first, metric = cache.metric({**DEMO, "encoder_threads": 1}, "crepe")
        assert metric.score_pairs([PAIR])[0].error is None
        (encoder,) = _encoders(first)
        assert not encoder.closed
        cache.metric({**DEMO, "encoder_threads": 2}, "crepe")  # new settings evict the first
        assert encoder.closed and encoder.session is None
        with pytest.raises(RuntimeError, match="was closed"):
            encoder.run([("a", "b")])
    finally:
        cache.close_all()


def test_closing_the_cache_closes_every_session():
    cache = RuntimeCache(production(), max_contexts=2)
    runtime, metric = cache.metric(DEMO, "crepe")
    metric.score_pairs([PAIR])
    encoders = _encoders(runtime)
    assert encoders and not any(e.closed for e in encoders)
    assert cache.close_all() == 1
    assert all(e.closed for e in encoders)
