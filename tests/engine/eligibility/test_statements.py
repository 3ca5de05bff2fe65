"""Text that is not a report is "cannot read" for every clinical metric; a terse report is read.

Issue 34 / 35: against 120 IU references, "I am sorry, but I cannot interpret medical images."
scored CLEAR 0.75 on average, "Write the findings and impression of this chest radiograph." got
CREPE's reward 0.39 and "I like turtles." 0.15 under ``radsem:0.7,crepe:0.3``. Every text here
is written for the test.
"""
from __future__ import annotations

import pytest

from radscope.engine.api import Scorer
from radscope.engine.eligibility.readable import no_finding
from radscope.engine.eligibility.statements import (
    INSTRUCTION,
    NOTHING,
    QUESTION,
    SELF,
    not_a_report,
    sentence_kind,
)
from radscope.engine.io.reports import ReportPair
from radscope.engine.rewards.scorer import RewardScorer

NOT_REPORTS = {
    # off-topic
    "I like turtles.": NOTHING,
    "The quick brown fox jumps over the lazy dog.": NOTHING,
    "The weather is fine today.": NOTHING,
    "I have a new car.": NOTHING,
    "The sky is clear.": NOTHING,
    "Things are getting better.": NOTHING,
    "lorem ipsum dolor sit amet": NOTHING,
    # refusals and replies about the writer
    "I am sorry, but I cannot interpret medical images.": SELF,
    "As an AI language model, I am not able to provide a diagnosis.": SELF,
    "Sorry, I can't help with that.": SELF,
    "I cannot see the image.": SELF,
    "Thank you.": SELF,
    "Unable to interpret the images.": NOTHING,
    # questions
    "What does this chest radiograph show?": QUESTION,
    "Is there a pneumothorax?": QUESTION,
    "Hello, how can I help you?": QUESTION,
    # the instruction echoed
    "Write the findings and impression of this chest radiograph.": INSTRUCTION,
    "Describe the chest radiograph.": INSTRUCTION,
    "Generate a radiology report for this image.": INSTRUCTION,
    "Please consult a radiologist.": INSTRUCTION,
    "Complete the report for this study.": INSTRUCTION,
    "Findings and impression of this chest radiograph.": NOTHING,
    "Chest radiograph, PA and lateral.": NOTHING,
    # keyboard mash, placeholders
    "asdf jkl qwerty zxcv": NOTHING,
    "sdkfj sdlkfj woieur qpwoei": NOTHING,
    "Ok.": NOTHING,
    "NaN": NOTHING,
    "XXXX": NOTHING,
    "See prior report.": NOTHING,
}

REPORTS = [
    # terse normal reports
    "No acute disease.", "Normal chest.", "Heart size normal. Lungs clear.", "Unremarkable.",
    "Normal.", "Negative.", "NAD.", "No acute cardiopulmonary abnormality.", "Clear lungs.",
    "No active disease.", "Negative chest x-ray.", "No acute findings.",
    "No acute cardiopulmonary process.", "Lungs are clear.", "Heart and lungs within normal limits.",
    "Normal study.", "No evidence of active disease.", "The examination is unremarkable.",
    "No abnormality detected.", "No significant abnormality.", "Normal chest radiograph.",
    # change only
    "Stable.", "No change.", "Unchanged.", "No interval change.", "Interval improvement.",
    "Stable appearance of the chest.",
    # findings, devices, limits
    "Cardiomegaly.", "Small left pleural effusion.", "Endotracheal tube in good position.",
    "No pneumothorax or effusion.", "Mild cardiomegaly, no edema.", "Right lower lobe pneumonia.",
    "Status post CABG.", "Sternotomy wires.", "Endotracheal tube 4 cm above the carina.", "Chest tube in place.", "Right PICC line tip in the SVC.",
    "Degenerative changes of the spine.", "Pneumothorax cannot be excluded.",
    "The left costophrenic angle cannot be evaluated.", "Right basilar airspace disease.",
    "Hyperinflated lungs, air trapping versus inspiratory XXXX.",
    "Findings of COPD with no acute changes.", "No evidence of acute thoracic XXXX.",
    # a measurement of a named place (ultrasound), and findings beyond the chest (reader-v16)
    "The spleen measures 13 cm.", "The endometrium is 6 mm thick.", "Osteopenia.",
    "Disc desiccation at L4-5.", "Patchy opacity in the right lower zone.",
    # a finding that opens with a word an instruction may open with (reader-v17)
    "Complete tear of the anterior cruciate ligament.",
    "Bilateral mosaic attenuation.",
    # a first person that states a finding; what gaming writes, still reports (scored)
    "I reviewed the images and the lungs are clear.",
    "Possible pneumothorax. Possible pleural effusion. Possible consolidation.",
    "There is a pneumothorax. There is no pneumothorax.",
    # a real report with a refusal or an instruction in it: its statements are read
    "I am sorry, but I cannot interpret medical images. The lungs are clear.",
    "FINDINGS: Write the report. The heart is enlarged. IMPRESSION: Cardiomegaly.",
]


@pytest.mark.parametrize("text, kind", NOT_REPORTS.items())
def test_a_text_that_states_nothing_about_a_patient_is_not_a_report(text, kind):
    reason = not_a_report(text)
    assert reason is not None and reason.startswith("makes no statement about a patient"), text
    assert kind in reason, (text, reason)


@pytest.mark.parametrize("text", REPORTS)
def test_a_terse_or_odd_real_report_is_a_report(text):
    assert not_a_report(text) is None, text


def test_each_sentence_is_classified():
    assert sentence_kind("Is the heart enlarged?") == QUESTION
    assert sentence_kind("Write the findings.") == INSTRUCTION
    assert sentence_kind("I cannot assess the lungs on this image.") == SELF
    assert sentence_kind("The heart is enlarged.") is None
    # a mixed text names what each of its sentences is
    reason = not_a_report("Sorry. Is there an effusion? Describe the lungs. Turtles.")
    assert reason is not None and all(k in reason for k in (SELF, QUESTION, INSTRUCTION, NOTHING))


def test_the_rule_names_the_side_and_leaves_other_languages_to_a_judge():
    assert no_finding(ReportPair("p", "Lungs clear.", "I like turtles.")) == (
        f"cannot read: candidate report makes no statement about a patient: {NOTHING}")
    assert no_finding(ReportPair("p", "Write the report.", "Lungs clear.")).startswith(
        "cannot read: reference report makes no statement")
    assert no_finding(ReportPair("p", "Poumons clairs.", "Pas d'épanchement pleural.")) is None


FINDING_METRICS = ("clear", "crepe", "vert", "srr", "radsem")


@pytest.fixture(scope="module")
def scorer():
    with Scorer([*FINDING_METRICS, "bleu"], extractor="rules", workers=1) as scorer:
        yield scorer


def test_every_finding_metric_refuses_a_non_report_and_the_reward_gives_the_floor(scorer):
    reference = "The heart size is normal. The lungs are clear. No pleural effusion or pneumothorax."
    texts = list(NOT_REPORTS)
    scores = scorer.score([reference] * len(texts), texts)
    for text, record in zip(texts, scores.records, strict=True):
        for name in FINDING_METRICS:
            result = record["metrics"][name]
            assert result["score"] is None, (text, name, result)
            assert result["error"].startswith("cannot read: candidate report makes no statement"), (
                text, name, result)
        assert record["metrics"]["bleu"]["error"] is None  # wording metrics keep their number
    rewarder = RewardScorer("radsem:0.7,crepe:0.3", scorer=scorer)
    assert rewarder.rewards([reference] * len(texts), texts).rewards == [0.0] * len(texts)


def test_terse_reports_are_scored(scorer):
    reference = "Heart size normal. Lungs clear. No pneumothorax."
    texts = ["No acute disease.", "Normal chest.", "Heart size normal. Lungs clear.",
             "No acute cardiopulmonary abnormality.", "Small left pleural effusion."]
    scores = scorer.score([reference] * len(texts), texts)
    for name in FINDING_METRICS:
        assert all(status == "scored" for status in scores.statuses(name)), (name, scores.reasons(name))


def test_a_one_word_verdict_is_read_as_a_finding_and_perfect_against_itself(scorer):
    """"Unremarkable." is a report: the reader reads a whole-study verdict as one normal
    finding, so it scores perfect against its own copy in every finding metric (SRR-BERT's
    chest labels name none of it: not applicable, with its reason)."""
    texts = ["Unremarkable.", "Normal.", "Negative.", "NAD.", "Stable."]
    scores = scorer.score(texts, texts)
    for name in FINDING_METRICS:
        for status, reason, score in zip(scores.statuses(name), scores.reasons(name),
                                         scores.array(name), strict=True):
            if name == "srr":
                assert reason is not None and reason.startswith("not applicable"), reason
                continue
            assert status == "scored", (name, reason)
            assert score == (0.0 if name == "crepe" else 1.0), (name, score)
