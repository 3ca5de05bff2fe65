"""CLEAR rules extractor: negation / uncertainty scope, implicit negatives, attributes, schema.

Every sentence here is written for the test. Expected labels follow from reading each sentence
as a radiologist would (stated in the comment beside each case), not from running the code.
"""
import json
from pathlib import Path

import pytest

from radscope.engine.io.examples import example_pairs
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.clear.rules import read_report
from radscope.engine.metrics.clear.schema import (
    CONDITIONS,
    ClearPairExtraction,
    validate_condition_attributes,
    validate_presence,
)
from radscope.engine.metrics.clear.score import score_pair
from radscope.engine.reader.versions import READER_RULES_VERSION


def labels(text: str) -> dict[str, str]:
    return read_report(text).presence


def test_negation_reaches_every_item_of_a_list():
    # "no A or B": both denied.
    got = labels("No pneumothorax or effusion.")
    assert got["Pneumothorax"] == "negative"
    assert got["Pleural Effusion"] == "negative"


def test_without_evidence_of_is_negation():
    got = labels("Lungs expanded without evidence of pneumothorax or focal consolidation.")
    assert got["Pneumothorax"] == "negative"
    assert got["Consolidation"] == "negative"


def test_cannot_exclude_is_uncertain_not_negative():
    # A hedge neither affirms nor denies: CLEAR's "unclear".
    assert labels("Cannot exclude early pneumonia.")["Pneumonia"] == "unclear"
    assert labels("Pneumonia cannot be excluded.")["Pneumonia"] == "unclear"
    assert labels("Possible left lower lobe pneumonia.")["Pneumonia"] == "unclear"


def test_termination_word_stops_negation():
    # "but" opens a new statement: the opacity is affirmed, the consolidation denied.
    got = labels("No focal consolidation but there is a right lower lobe opacity.")
    assert got["Consolidation"] == "negative"
    assert got["Lung Opacity"] == "positive"


def test_pseudo_negation_is_not_negation():
    # "no change in" reports stability of a present effusion.
    assert labels("No change in the small left pleural effusion.")["Pleural Effusion"] == "positive"


def test_implicit_negatives():
    got = labels("Heart size is normal. The lungs are clear.")
    assert got["Cardiomegaly"] == "negative"
    for condition in ("Lung Opacity", "Consolidation", "Pneumonia", "Edema"):
        assert got[condition] == "negative", condition
    got = labels("No acute cardiopulmonary process.")
    for condition in ("Pneumothorax", "Pleural Effusion", "Pneumonia", "Edema", "Consolidation"):
        assert got[condition] == "negative", condition
    # Nothing said about fractures or devices: unclear, not negative.
    assert got["Fracture"] == "unclear" and got["Support Devices"] == "unclear"


def test_explicit_positive_beats_implicit_negative():
    # "lungs are clear" elsewhere must not cancel a stated atelectasis.
    got = labels("The lungs are clear. Mild left basilar atelectasis.")
    assert got["Atelectasis"] == "positive"


def test_heart_not_enlarged_is_negative():
    assert labels("The heart is not enlarged.")["Cardiomegaly"] == "negative"
    assert labels("The heart is mildly enlarged.")["Cardiomegaly"] == "positive"


def test_pericardial_effusion_is_not_pleural():
    assert labels("Small pericardial effusion.")["Pleural Effusion"] == "unclear"


def test_attributes_from_cue_words(clear_rules):
    pair = ReportPair("p", "FINDINGS: Small left pleural effusion, increased since the prior study. "
                           "Recommend follow-up radiograph.",
                      "FINDINGS: New moderate left pleural effusion.")
    extraction = clear_rules.read_pair(pair)
    ref = extraction.reference.attributes["Pleural Effusion"]
    cand = extraction.candidate.attributes["Pleural Effusion"]
    # "small" -> mild; "increased" -> worsening; a recommendation sentence follows the finding.
    assert ref["severity"] == "mild" and ref["change"] == "worsening"
    assert ref["recommendation"] == ["Recommend follow-up radiograph"]
    assert "left" in ref["descriptive location"][0]
    # "new" -> current first occurrence; "moderate" -> moderate.
    assert cand["first occurrence"] == "current" and cand["severity"] == "moderate"
    # Only the true positive gets attributes.
    assert set(extraction.reference.attributes) == {"Pleural Effusion"}


def test_output_passes_the_schema_checks(clear_rules):
    pair = ReportPair("p", "Endotracheal tube in place. Right lower lobe consolidation. No pneumothorax.",
                      "ET tube present. Right basilar consolidation, likely pneumonia.")
    extraction = clear_rules.read_pair(pair)
    data = extraction.to_json()
    for side in ("reference", "candidate"):
        assert validate_presence(data[side]["presence"]) == data[side]["presence"]
        for condition, attrs in data[side]["attributes"].items():
            validate_condition_attributes(condition, attrs)
    again = ClearPairExtraction.from_json(data)
    assert again.to_json() == data
    assert set(extraction.true_positives()) == {"Consolidation", "Support Devices"}
    scored = score_pair(extraction)
    assert scored.to_json()  # scoring accepts it
    assert len(data["reference"]["presence"]) == len(CONDITIONS)


def test_model_info_and_signature(clear_rules):
    info = clear_rules.model()
    assert info.id == READER_RULES_VERSION and info.demo_grade is False
    fields = clear_rules.signature_fields()
    assert fields["extractor"] == "rules" and len(fields["lexicon"]) == 12
    assert fields["reader"] == "radscope-reader"  # CLEAR is a view over the clinical reader


# The table the CLEAR rules extractor gave on the shipped examples before it became a view over
# the clinical reader (each pair, and each report against itself so every positive condition's
# attributes are in it), recorded from the extractor of commit 1a1d286.
RECORDED = Path(__file__).resolve().parents[3] / "fixtures" / "rules" / "clear_rules_examples.json"


def test_clear_on_the_reader_gives_the_recorded_table_on_the_examples(clear_rules):
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert len(recorded) == 3 * len(example_pairs())
    for example in example_pairs():
        pair = example.pair
        sides = {"pair": (pair.reference, pair.candidate),
                 "reference": (pair.reference, pair.reference),
                 "candidate": (pair.candidate, pair.candidate)}
        for name, (reference, candidate) in sides.items():
            got = clear_rules.read_pair(ReportPair(pair.id, reference, candidate)).to_json()
            assert got == recorded[f"{pair.id}/{name}"], f"{pair.id}/{name}"


def test_clear_reads_the_readers_sentences_and_clauses():
    from radscope.engine.reader.clauses import sentence_clauses
    from radscope.engine.reader.findings import read_report as reader_read

    text = "FINDINGS: Small left effusion; no pneumothorax.\nIMPRESSION: Mild cardiomegaly."
    reading = read_report(text)
    assert reading.sentences == list(reader_read(text).utterances)
    clauses = {c.text for s in reading.sentences for c in sentence_clauses(s)}
    assert {m.clause for m in reading.mentions} <= clauses
    assert reading.presence["Pleural Effusion"] == "positive"
    assert reading.presence["Pneumothorax"] == "negative"


@pytest.mark.parametrize("text, condition, expected", [
    ("Left chest tube has been removed.", "Support Devices", "negative"),
    ("Right PICC line with tip in the SVC.", "Support Devices", "positive"),
    ("Healed left rib fractures.", "Fracture", "positive"),
    ("No displaced rib fracture.", "Fracture", "negative"),
    ("Mild pulmonary vascular congestion.", "Edema", "positive"),
    ("Widened mediastinum.", "Enlarged Cardiomediastinum", "positive"),
    ("Right upper lobe nodule.", "Lung Lesion", "positive"),
    ("Left apical pleural thickening.", "Pleural Other", "positive"),
    # "borderline" grades the heart size (CLEAR's severity lexicon reads it as mild), it is no
    # hedge: the IU indexers code these reports Cardiomegaly/borderline.
    ("Heart size borderline enlarged.", "Cardiomegaly", "positive"),
    ("The heart is borderline in size.", "Cardiomegaly", "positive"),
    ("Borderline cardiomegaly.", "Cardiomegaly", "positive"),
    # blunting names the costophrenic angle, whatever noun (angle, sulcus, recess) follows
    ("Stable blunting of the lateral left costophrenic recess.", "Pleural Effusion", "positive"),
    ("Costophrenic sulci are blunted.", "Pleural Effusion", "positive"),
    ("The costophrenic recesses are sharp.", "Pleural Effusion", "negative"),
    # low lung volumes are a technique / inspiration finding, not atelectasis
    ("The lungs are hypoinflated.", "Atelectasis", "unclear"),
    # a normal vascular statement denies congestion instead of naming it
    ("Pulmonary vascular engorgement appears within limits of normal.", "Edema", "negative"),
    ("There is an 8 mm calcified nodule in the left midlung.", "Lung Lesion", "positive"),
    ("Calcified granuloma in the left upper lobe.", "Lung Lesion", "unclear"),
])
def test_mentions(text, condition, expected):
    assert labels(text)[condition] == expected
