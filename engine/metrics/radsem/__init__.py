"""RadSEM: atomic finding sentences, matched Ref <-> Gen under a no-contradiction rule.

``schema`` holds the JSON Schemas that constrain the two model stages and the typed tag data;
``score`` is stage 3, the deterministic max-flow scorer. Neither module calls a model.
"""
# The registered metric. Importing it stays cheap: llama_cpp and openai are imported only
# when a judge is built.
from radscope.engine.metrics.framework.judging import JUDGE_OPTIONS
from radscope.engine.metrics.framework.registry import MetricSpec
from radscope.engine.metrics.radsem import stats
from radscope.engine.metrics.radsem.metric import CARD, EXTRACTORS, build, export_columns
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.options.radsem_matching import SIMILARITY_OPTION
from radscope.engine.options.sections import SECTIONS

METRICS = [MetricSpec(name="radsem", card=CARD, build=build, kind="llm",
                      options=(EXTRACTOR, SIMILARITY_OPTION, SECTIONS, *JUDGE_OPTIONS),
                      extractors=EXTRACTORS,
                      statistics=stats.SPEC, export_columns=export_columns)]
