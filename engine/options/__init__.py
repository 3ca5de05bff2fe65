"""The options that are not one metric's own, in one place: the extractor choice, scoring outside the
intended studies, the report sections a metric reads, RadSEM's matcher, the ONNX encoders. They import only ``radscope.engine.context`` and
``radscope.engine.eligibility``, so the metrics and the runtimes (which must not import the metrics) both may
import them.
"""
