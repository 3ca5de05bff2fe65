"""The option that chooses how every metric reads reports: the rules reader or a model.

Kept apart from the judge options (``radscope.engine.metrics.framework.judging``) because the encoder metrics
declare it too, and they must register where the judge's dependencies are absent.
"""
from __future__ import annotations

from radscope.engine.context import Option

EXTRACTOR = Option("extractor", "rules",
                   "how the metrics read reports: rules (the offline reader, deterministic) or "
                   "llm (the judge for CLEAR, VERT and RadSEM; the ONNX encoders for CREPE and "
                   "SRR-BERT)", choices=("llm", "rules"))
