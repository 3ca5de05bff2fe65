"""Metric scope: the exam of a pair (given or detected from the text) and the out-of-scope rule.

Texts are written for these tests; the expected exams are read off the words they contain.
"""
from __future__ import annotations

import pytest

from radscope.engine.eligibility import applicability as a
from radscope.engine.metrics.framework.defaults import default_metrics, demo_grade_under
from radscope.engine.metrics.framework.registry import production


@pytest.mark.parametrize("value, code", [("CR", "XR"), ("DX", "XR"), ("X-ray", "XR"),
                                         ("MRI", "MR"), ("mr", "MR"), ("CT", "CT"),
                                         ("Ultrasound", "US"), ("PET", "NM"), ("", None),
                                         ("RX", "RX")])
def test_normalise_modality_keeps_unknown_spellings_visible(value, code):
    assert a.normalise_modality(value) == code


def test_normalise_areas_reads_lists_and_synonyms():
    assert a.normalise_areas("CHEST, ABDOMEN") == {"chest", "abdomen"}
    assert a.normalise_areas("Brain") == {"head"}
    assert a.normalise_areas("LOW-EXT, BONE") == {"extremity"}
    assert a.normalise_areas(None) == frozenset()


@pytest.mark.parametrize("text, modality, areas", [
    ("Axial T2 and FLAIR images show a hyperintense lesion in the left frontal lobe. No midline "
     "shift. The ventricles are normal.", "MR", {"head"}),
    ("A 6 mm solid nodule in the right upper lobe of the lung (image 42). Low-density lesion "
     "in the liver; the kidneys are normal.",
     "CT", {"chest", "abdomen"}),
    ("PA and lateral views of the chest. The lungs are clear. No pleural effusion. Costophrenic "
     "angles are sharp. Heart size is normal.", "XR", {"chest"}),
    # short chest-film reports rarely name the technique: modality unknown, area chest
    ("Heart size is normal. The lungs are clear. No pneumothorax.", None, {"chest"}),
])
def test_detector_reads_modality_and_area_from_cue_words(text, modality, areas):
    exam = a.exam_of(text)
    assert exam.modality == modality and exam.areas == areas and exam.source == "detected"


def test_a_modality_named_as_advice_or_an_earlier_study_does_not_count():
    text = ("The lungs are clear. A 2 cm right upper lobe mass. CT of the chest is recommended. "
            "Unchanged from the prior CT.")
    assert a.detect_modality(text) is None
    assert a.outside_intended_studies(a.CHEST_RADIOGRAPH, a.exam_of(text)) is None


# Issue 34: IU CXR2259, a chest film whose impression ends with a recommendation for a
# radiograph or a CT, was "not applicable: modality CT" for the chest-radiograph metrics. These
# chest films are written for the test; each advises, or refers to, a CT or an MRI.
_FILM_FINDINGS = ("Stable mild cardiomegaly. Prominent soft tissue density in the upper "
                  "mediastinum. No focal consolidation, pleural effusion or pneumothorax. ")


@pytest.mark.parametrize("advice", [
    "Recommend follow-up PA and lateral radiograph or CT thorax for further evaluation.",
    "Suggest CT of the chest with contrast.",
    "Consider chest CT to exclude a mediastinal mass.",
    "A follow-up CT in 3 months is advised.",
    "CT scan is the best way to determine whether there is mediastinal adenopathy.",
    "The mediastinal contour is better evaluated on the CT of last year.",
    "This was incompletely shown on the CT of the abdomen and pelvis.",
    "MRI may be obtained if clinically indicated.",
    "Non-contrast CT could be performed to rule out a hiatal hernia.",
    "Further evaluation with CT is warranted.",
])
def test_the_modality_is_what_was_examined_never_what_is_recommended(advice):
    text = "FINDINGS: " + _FILM_FINDINGS + "IMPRESSION: " + _FILM_FINDINGS.split(". ")[1] + ". " + advice
    assert a.detect_modality(text) is None, text
    assert a.outside_intended_studies(a.CHEST_RADIOGRAPH, a.exam_of(text)) is None


def test_film_wording_that_looks_like_ct_is_no_ct_evidence():
    # "soft tissue density" is film wording; "CT ratio" the cardiothoracic ratio; a finding
    # restated in the impression is one cue, not two
    for text in ("Retrocardiac soft tissue density is present. IMPRESSION: Retrocardiac soft "
                 "tissue density, likely a hiatal hernia.",
                 "Cardiomegaly, CT ratio 16/30. Lungs clear.",
                 "Large pericardial effusion suspected. IMPRESSION: Large pericardial effusion.",
                 "Granuloma in the superior segment of the right lower lobe. IMPRESSION: Granuloma "
                 "in the superior segment of the right lower lobe."):
        assert a.detect_modality(text) is None, text


@pytest.mark.parametrize("text", [
    "Non-contrast CT of the chest. A low-density lesion in the right upper lobe. Follow-up CT in "
    "6 months is recommended.",
    "Plain scan: high-density shadow in the right lower lobe, mediastinal lymph nodes enlarged. "
    "Consider a contrast-enhanced MRI.",
    "Axial T2 and FLAIR images: a hyperintense lesion in the left frontal lobe. Recommend CT "
    "to exclude calcification.",
])
def test_a_study_that_recommends_another_keeps_its_own_modality(text):
    assert a.detect_modality(text) == ("MR" if "FLAIR" in text else "CT")


def test_a_size_in_millimetres_is_no_ct_evidence():
    """Issue 24: an IU chest radiograph measuring its nodules in millimetres was taken for a CT
    (and three chest-film metrics answered "not applicable")."""
    text = ("The heart is enlarged. There is an oval 17 mm nodular opacity projecting over the "
            "left 5th rib and a 10 mm nodular density over the right 4th rib. No pneumothorax. "
            "17 mm nodular opacity in the left lung and 10 mm nodular opacity in the right lung; "
            "these could be further characterised with CT.")
    assert a.detect_modality(text) is None
    assert a.outside_intended_studies(a.CHEST_RADIOGRAPH, a.exam_of(text)) is None
    # CT's own density words still name a CT without the sizes.
    ct = ("A high-density shadow is seen in the right lower lobe, measuring 22 x 32 mm. Mixed "
          "density in the surgical area.")
    assert a.detect_modality(ct) == "CT"


def test_given_values_win_over_the_text():
    exam = a.exam_of("The lungs are clear.", modality="CT", area="Chest")
    assert (exam.modality, exam.areas, exam.source) == ("CT", {"chest"}, "given")
    mixed = a.exam_of("Axial FLAIR and T2 images of the brain.", area="Head")
    assert (mixed.modality, mixed.source) == ("MR", "mixed")


def test_outside_intended_studies_names_what_differs_and_how_it_was_known():
    mri = a.Exam("MR", frozenset({"head"}), "given")
    assert a.outside_intended_studies(a.CHEST_RADIOGRAPH, mri) == (
        "designed for chest radiographs; this study is modality MR and body area head (as given)")
    assert a.outside_intended_studies(a.ANY, mri) is None
    assert a.outside_intended_studies(a.CHEST_RADIOGRAPH, a.Exam(None, frozenset(), "detected")) is None
    assert "modality CT" in a.outside_intended_studies(a.CHEST_RADIOGRAPH,
                                           a.Exam("CT", frozenset({"chest"}), "detected"))


def test_cards_declare_their_scope():
    scopes = {name: production().get(name).card.intended_studies for name in ("clear", "crepe", "srr", "vert",
                                                               "radsem", "bleu", "rouge")}
    assert scopes["clear"] == scopes["crepe"] == scopes["srr"] == a.CHEST_RADIOGRAPH
    assert scopes["vert"] == scopes["radsem"] == scopes["bleu"] == scopes["rouge"] == a.ANY


def test_default_metrics_are_the_real_offline_ones():
    names = default_metrics(production())
    # offline, every metric reads with the rules reader: no demo-grade model among them
    assert sorted(names) == ["bleu", "bleu1", "clear", "crepe", "radsem", "rouge", "srr", "vert"]
    llm = {"extractor": "llm"}  # the bundled demo encoders and the demo judge
    assert demo_grade_under(production().get("crepe"), llm) and demo_grade_under(production().get("srr"), llm)
    assert demo_grade_under(production().get("vert"), llm)
    assert demo_grade_under(production().get("crepe"), {"crepe_model": "crepe-minilm-demo"})
    assert not demo_grade_under(production().get("crepe"), {**llm, "crepe_model": "rules"})
    assert sorted(default_metrics(production(), llm)) == [
        "bleu", "bleu1", "rouge"]
    # with the LLM extractor, CLEAR and RadSEM use the judge: demo-grade with the demo judge
    assert demo_grade_under(production().get("clear"), {"extractor": "llm"})
    assert not demo_grade_under(production().get("clear"), {"extractor": "llm", "judge_url": "http://h:8000/v1"})
    assert not demo_grade_under(production().get("vert"), {"judge": "/models/my-judge.gguf"})


def test_bench_figures_compare_detected_with_labelled_exams():
    from bench.quality.applicability import scope_figures

    items = [("Axial FLAIR and T2 images: white matter hyperintensities. Ventricles normal.",
              "MR", "BRAIN"),
             ("Heart size is normal. The lungs are clear.", "CR", "CHEST"),
             ("A 6 mm solid nodule in the right upper lobe of the lung (image 42).", "CT", "CHEST")]
    figures = scope_figures(items)
    # modality: MR right, CR unknown (wrong), CT right -> 2/3; every area found; the scope
    # decision is right for the MR (out) and the radiograph (in), and for the CT (out).
    assert figures["n"] == 3 and figures["modality_accuracy"] == 66.7
    assert figures["area_overlap"] == 100.0 and figures["scope_accuracy"] == 100.0
    assert figures["scope_labelled_vs_detected"] == {"out/out": 2, "in/in": 1}
