"""CLEAR: compare two reports as a table of 13 chest X-ray conditions by attributes.

Stage 1 labels each condition positive / negative / unclear in both reports; stage 2 extracts
five attributes for the conditions positive in both (true positives); stage 3 turns the two
tables into scores. ``schema`` holds the fixed vocabulary and the JSON Schemas that constrain
model output; ``score`` holds the pure stage-3 scoring. Model calls live elsewhere, so the
scores can be recomputed from stored extractions without a model.
"""
# The registered metric. Importing it stays cheap: llama_cpp and openai are imported only
# when a judge is built.
from radscope.engine.metrics.clear import stats
from radscope.engine.metrics.clear.llm import CLEAR_LLM_SIMILARITY, CLEAR_MODE
from radscope.engine.metrics.clear.metric import CARD, CLEAR_TOP5, EXTRACTORS, build, export_columns
from radscope.engine.metrics.framework.judging import JUDGE_OPTIONS
from radscope.engine.metrics.framework.registry import MetricSpec
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.options.intended_studies import FORCE_APPLICABILITY
from radscope.engine.options.sections import SECTIONS

METRICS = [MetricSpec(name="clear", card=CARD, build=build, kind="llm",
                      options=(EXTRACTOR, CLEAR_MODE, CLEAR_LLM_SIMILARITY, CLEAR_TOP5,
                               FORCE_APPLICABILITY, SECTIONS, *JUDGE_OPTIONS), extractors=EXTRACTORS,
                      statistics=stats.SPEC, export_columns=export_columns)]
