"""Hand-built per-pair details for every metric view, and stand-in metrics that return them.

The details are built with the metrics' own pure dataclasses and scorers (no model), so the
views are tested on exactly the JSON shapes the real metrics store. Stand-in metrics are named
``<family>-standin`` (e.g. ``clear-standin``) and declare that family (``MetricSpec.family``):
the view registry draws them with their family's
view, and the names never clash with real metrics. They live only in the registry that
``standin_registry()`` builds (the project's metrics plus this module's ``METRICS``), which the
tests that want them pass to the app; the project's own registry never holds them.
"""
from __future__ import annotations

import functools
import time
from typing import Any

from radscope.engine.context import ModelInfo, Option
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.base import Metric, MetricCard, PairScore
from radscope.engine.metrics.clear.schema import CONDITIONS, ClearPairExtraction, ClearReportExtraction
from radscope.engine.metrics.clear.score import score_pair as clear_score_pair
from radscope.engine.metrics.crepe.score import CrepeCounts
from radscope.engine.metrics.radsem.extract import RadsemExtraction
from radscope.engine.metrics.radsem.schema import RadsemPair, RadsemTags, UnmatchedSentence
from radscope.engine.metrics.radsem.score import score_tags
from radscope.engine.metrics.framework.registry import MetricRegistry, MetricSpec, production
from radscope.engine.metrics.srr.score import score_pair as srr_score_pair
from radscope.engine.metrics.vert.schema import CATEGORY_KEYS, CategoryErrors, JudgeAssessment
from radscope.engine.metrics.vert.score import compute_scores
from radscope.models.srr_labels import LabelLevel


def _presence(**positive_or_negative: str) -> dict[str, str]:
    labels = dict.fromkeys(CONDITIONS, "unclear")
    for key, value in positive_or_negative.items():
        labels[key.replace("_", " ")] = value
    return labels


def clear_extraction() -> ClearPairExtraction:
    """Reference: left effusion (small, new) + atelectasis; candidate: right effusion, atelectasis
    and an invented pneumothorax. Cardiomegaly negative in both."""
    ref_attrs = {
        "Pleural Effusion": {"first occurrence": "current", "change": "N/A", "severity": "mild",
                             "descriptive location": ["left"], "recommendation": ["N/A"]},
        "Atelectasis": {"first occurrence": "current", "change": "N/A", "severity": "N/A",
                        "descriptive location": ["left basilar"], "recommendation": ["N/A"]},
    }
    cand_attrs = {
        "Pleural Effusion": {"first occurrence": "current", "change": "N/A", "severity": "mild",
                             "descriptive location": ["right"], "recommendation": ["N/A"]},
        "Atelectasis": {"first occurrence": "current", "change": "N/A", "severity": "N/A",
                        "descriptive location": ["right basilar"], "recommendation": ["N/A"]},
    }
    reference = ClearReportExtraction(
        presence=_presence(Pleural_Effusion="positive", Atelectasis="positive",
                           Pneumothorax="negative", Cardiomegaly="negative"),
        attributes=ref_attrs)
    candidate = ClearReportExtraction(
        presence=_presence(Pleural_Effusion="positive", Atelectasis="positive",
                           Pneumothorax="positive", Cardiomegaly="negative"),
        attributes=cand_attrs)
    return ClearPairExtraction(reference=reference, candidate=candidate)


def clear_details() -> dict[str, Any]:
    data = clear_score_pair(clear_extraction()).to_json()
    data.pop("score")  # a reserved result key; the headline is the result's own score
    return data


CREPE_COUNTS = {"A": 1.25, "B": 0.5, "C": 0.75, "D": 0.0, "E": 0.25, "F": 0.0}  # total 2.75


def crepe_details() -> dict[str, Any]:
    return CrepeCounts(counts=dict(CREPE_COUNTS), total=sum(CREPE_COUNTS.values())).to_json()


def vert_assessment() -> JudgeAssessment:
    significant = {k: CategoryErrors(0) for k in CATEGORY_KEYS}
    significant["c"] = CategoryErrors(1, ["pleural effusion placed on the right instead of the left"])
    significant["a"] = CategoryErrors(1, ["invented pneumothorax"])
    insignificant = {k: CategoryErrors(0) for k in CATEGORY_KEYS}
    insignificant["d"] = CategoryErrors(1, ["'small' written as 'trace'"])
    return JudgeAssessment(
        explanation="The candidate puts the effusion on the wrong side and adds a pneumothorax.",
        significant=significant, insignificant=insignificant, matched_count=2,
        matched_findings=["no cardiomegaly", "basilar atelectasis"], overall_score=0.55,
        raw_format="json")


def vert_details() -> dict[str, Any]:
    assessment = vert_assessment()
    return {"assessment": assessment.to_json(), "scores": compute_scores(assessment).to_json(),
            "variant": "vert"}


SRR_REFERENCE = ["Simple pleural effusion (Present)", "Atelectasis (Present)",
                 "Simple pneumothorax (Absent)", "Cardiomegaly (Absent)"]
SRR_CANDIDATE = ["Simple pleural effusion (Present)", "Atelectasis (Uncertain)",
                 "Simple pneumothorax (Present)", "Cardiomegaly (Absent)"]


def srr_details() -> dict[str, Any]:
    return srr_score_pair(SRR_REFERENCE, SRR_CANDIDATE, LabelLevel.LEAVES_WITH_STATUSES).to_json()


def radsem_extraction() -> RadsemExtraction:
    ref = ["Small left pleural effusion.", "Left basilar atelectasis.", "No pneumothorax.",
           "Heart size is normal."]
    gen = ["Small right pleural effusion.", "Basilar atelectasis.", "No pneumothorax.",
           "Normal heart size."]
    pairs = [
        RadsemPair(ref[1], gen[1], "abnormal", "part-whole", "equivalent", None, "partial"),
        RadsemPair(ref[2], gen[2], "normal", "equivalent", None, "equivalent", None),
        RadsemPair(ref[3], gen[3], "normal", "equivalent", None, None, None),
    ]
    unmatched = [UnmatchedSentence("Ref", ref[0], "abnormal"),
                 UnmatchedSentence("Gen", gen[0], "abnormal")]
    return RadsemExtraction(ref, gen, RadsemTags(pairs, unmatched))


def radsem_details() -> dict[str, Any]:
    extraction = radsem_extraction()
    scored = score_tags(extraction.tags).to_json()
    scored.pop("score")
    return {**scored, "extraction": extraction.to_json()}


DETAILS = {"clear": clear_details, "crepe": crepe_details, "vert": vert_details,
           "srr": srr_details, "radsem": radsem_details}
HEADLINE = {"clear": lambda: clear_score_pair(clear_extraction()).score,
            "crepe": lambda: sum(CREPE_COUNTS.values()),
            "vert": lambda: 0.55,
            "srr": lambda: srr_score_pair(SRR_REFERENCE, SRR_CANDIDATE,
                                          LabelLevel.LEAVES_WITH_STATUSES).score,
            "radsem": lambda: score_tags(radsem_extraction().tags).score}
DIRECTION = {"crepe": "lower"}


def result_for(family: str, demo_grade: bool = False) -> dict[str, Any]:
    """A full per-pair result dict (standard keys + details) as the runner would produce it."""
    return {"score": HEADLINE[family](), "direction": DIRECTION.get(family, "higher"),
            "signature": f"{family}-standin|v:1", "error": None,
            "model": "standin-model" if family != "clear" else "rules-v3", "demo_grade": demo_grade,
            "elapsed_ms": 12.0, **DETAILS[family]()}


STANDIN_OPTION = Option("standin_note", "", "test-only option of the stand-in metrics")
CALLS: dict[str, int] = {}  # pairs scored per stand-in metric (tests check resume with it)


class StandInMetric(Metric):
    """Returns the hand-built details for every pair (text ignored); a pair whose candidate
    contains FAIL raises, to exercise per-metric errors. ``delay_s`` slows each pair down so
    a test can stop a batch half-way."""

    version = "0"

    def __init__(self, family: str, card: MetricCard, delay_s: float = 0.0) -> None:
        self.family = family
        self.card = card
        self.delay_s = delay_s

    def model(self) -> ModelInfo:
        return ModelInfo(id=f"{self.family}-standin-model", source="test", demo_grade=True)

    def score_pair(self, pair: ReportPair) -> PairScore:
        CALLS[self.name] = CALLS.get(self.name, 0) + 1
        if self.delay_s:
            time.sleep(self.delay_s)
        if "FAIL" in pair.candidate:
            raise RuntimeError("stand-in failure requested by the input")
        return PairScore(score=HEADLINE[self.family](), details=DETAILS[self.family]())


def standin_specs() -> list[MetricSpec]:
    specs = []
    for family in DETAILS:
        name = f"{family}-standin"
        card = MetricCard(name=name, title=f"{family.upper()} stand-in", measures="test data only",
                          inputs="ignored", direction=DIRECTION.get(family, "higher"),
                          range=(0.0, None if family == "crepe" else 1.0), paper="-", models="-",
                          limits="returns fixed, hand-built details")
        specs.append(MetricSpec(name=name, card=card, kind="rules", options=(STANDIN_OPTION,),
                                build=lambda ctx, f=family, c=card: StandInMetric(f, c),
                                family=family))
    slow = MetricCard(name="slow-standin", title="Slow stand-in", measures="test data only",
                      inputs="ignored", direction="higher", range=(0.0, 1.0), paper="-", models="-",
                      limits="sleeps 0.1 s per pair")
    specs.append(MetricSpec(name="slow-standin", card=slow, kind="rules",
                            build=lambda ctx: StandInMetric("crepe", slow, delay_s=0.1)))
    return specs


METRICS = standin_specs()


@functools.cache
def standin_registry() -> MetricRegistry:
    """The project's metrics plus the stand-ins (built from module names, so it also reaches
    worker processes)."""
    return production().with_modules([__name__])
