"""VERT and its sibling LLM-judge scores (GREEN, GREEN-F1, formula, rubric).

One judge call per pair yields an assessment (error counts per category, matched findings and,
for VERT, the judge's own overall score). ``schema`` defines that assessment, ``parse`` reads it
from the judge's text (JSON or GREEN-style sections) and ``score`` turns it into numbers; all
three are pure so they can be tested on recorded answers without a model.
"""
# The registered metric. Importing it stays cheap: llama_cpp and openai are imported only
# when a judge is built.
from radscope.engine.metrics.framework.judging import JUDGE_OPTIONS
from radscope.engine.metrics.framework.registry import MetricSpec
from radscope.engine.metrics.vert import stats
from radscope.engine.metrics.vert.metric import CARD, EXTRACTORS, VERT_FEWSHOT, VERT_VARIANT, build
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.options.sections import SECTIONS

METRICS = [MetricSpec(name="vert", card=CARD, build=build, kind="llm",
                      options=(VERT_VARIANT, VERT_FEWSHOT, EXTRACTOR, SECTIONS, *JUDGE_OPTIONS),
                      extractors=EXTRACTORS,
                      statistics=stats.SPEC)]
