"""RadSEM: atomic finding sentences, matched Ref <-> Gen under a no-contradiction rule.

``schema`` holds the JSON Schemas that constrain the two model stages and the typed tag data;
``score`` is stage 3, the deterministic max-flow scorer. Neither module calls a model.
"""
# The registered metric. Importing it stays cheap: llama_cpp and openai are imported only
# when a judge is built.
from engine.options.sections import SECTIONS
from engine.metrics.registry import MetricSpec
from engine.options.extractor import EXTRACTOR
from engine.metrics.judging import JUDGE_OPTIONS
from engine.metrics.radsem.metric import CARD, EXTRACTORS, build
from engine.options.radsem_matching import SIMILARITY_OPTION

METRICS = [MetricSpec(name="radsem", card=CARD, build=build, kind="llm",
                      options=(EXTRACTOR, SIMILARITY_OPTION, SECTIONS, *JUDGE_OPTIONS),
                      extractors=EXTRACTORS)]
