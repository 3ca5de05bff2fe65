"""CREPE: six per-category error counts regressed by a BERT pair encoder; the score is their sum.

``score`` holds the pure part (clipping, optional softplus, totals, corpus means) so that it is
tested without the encoder; ``metric`` runs the ONNX encoder and registers ``crepe``.
"""
from radscope.engine.metrics.crepe import stats
from radscope.engine.metrics.crepe.metric import (
                      CARD,
                      EXTRACTORS,
                      OPTIONS,
                      CrepeEncoderExtractor,
                      build,
                      export_columns,
)
from radscope.engine.metrics.framework.registry import MetricSpec

METRICS = [MetricSpec(name="crepe", card=CARD, build=build, kind="encoder", options=OPTIONS,
                      extractors=EXTRACTORS, encoder=CrepeEncoderExtractor,
                      statistics=stats.SPEC, export_columns=export_columns)]
