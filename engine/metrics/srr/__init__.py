"""SRR-BERT and F1-SRR-BERT: finding labels per report utterance, compared as label sets.

``labels`` holds the label vocabularies and the leaf -> upper mapping; ``score`` compares the
label sets of a reference and a candidate (per pair) and aggregates stored label sets over a
corpus. Both are pure; ``metric`` runs the ONNX utterance classifier and registers ``srr``.
"""
from radscope.engine.metrics.framework.registry import MetricSpec
from radscope.engine.metrics.srr import stats
from radscope.engine.metrics.srr.metric import (
                      CARD,
                      EXTRACTORS,
                      OPTIONS,
                      SrrEncoderExtractor,
                      build,
                      export_columns,
)

METRICS = [MetricSpec(name="srr", card=CARD, build=build, kind="encoder", options=OPTIONS,
                      extractors=EXTRACTORS, encoder=SrrEncoderExtractor,
                      statistics=stats.SPEC, export_columns=export_columns)]
