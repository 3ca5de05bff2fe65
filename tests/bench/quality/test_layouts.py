"""Issue 24: every report as its radiologist wrote it. The project's layout corpus (the same
reports in six layouts with planted errors) and texts written in the shape of the cases the
issue names: PARROT #1 (brain MRI, cyst on the other side), PARROT #31 (CT angiography, an
invented segmental pulmonary embolism, enlarged nodes dropped) and IU CXR3707 (identical
findings, the impression changed). No ../shared data: every text here is the project's own."""
from __future__ import annotations

import pytest

from bench.quality.layouts import (
    CASES,
    ERRORS,
    LAYOUTS,
    can_see,
    corpus,
    detection_table,
    rules_metrics,
)
from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair, read_layout
from radscope.engine.metrics.framework.registry import production
from radscope.engine.reader.by_section import clinical_errors, clinical_summary, counted_errors, read_sections


@pytest.fixture(scope="module")
def metrics():
    return {m.name: m for m in rules_metrics()}


@pytest.fixture(scope="module")
def layout_table(metrics):
    return detection_table(corpus(), list(metrics.values()))


def test_the_corpus_has_six_layouts_and_every_planted_error():
    assert len(LAYOUTS) >= 6 and len(CASES) >= 10
    assert {"side", "missed", "invented", "severity", "impression-normal",
            "impression-side"} <= set(ERRORS)
    # Each layout reads back to the same findings and impression.
    ref = corpus(CASES[:1])
    texts = {item.layout: read_layout(item.pair.reference) for item in ref if item.error == "identical"}
    findings = {layout.findings.replace("\n", " ") for layout in texts.values()}
    assert all("moderate right pleural effusion" in f.lower() for f in findings)
    assert all(layout.impression for layout in texts.values())


def test_identical_pairs_score_perfect_in_every_layout(layout_table):
    assert layout_table["imperfect_identical"] == []


def test_each_error_is_detected_where_the_metric_can_see_it(layout_table, metrics):
    seen = 0
    for name, errors in layout_table["rates"].items():
        for error, layouts in errors.items():
            assert set(layouts) == set(LAYOUTS)
            for layout, cell in layouts.items():
                assert cell["can_see"] == can_see(metrics[name].card, metrics[name].parts, error)
                if cell["can_see"]:
                    seen += 1
                    assert cell["rate"] >= 0.9, (name, error, layout, cell)
    assert seen >= 3 * 6 * 6  # CREPE and VERT see all six errors, RadSEM four, CLEAR/SRR two


def test_cards_declare_what_they_read_and_can_see(metrics):
    assert metrics["radsem"].parts == ("findings",)
    for name in ("clear", "crepe", "vert", "srr"):
        assert metrics[name].parts == ("findings", "impression")
    for name in ("clear", "srr"):  # presence labels: a side swap keeps every label
        assert "side" not in metrics[name].card.sees
    assert {"side", "impression"} <= metrics["crepe"].card.sees


# --- the cases, written by the project in the same shape ------------------------------

BRAIN_MRI = """BRAIN MRI

INDICATION:
Headaches for two months.

PROTOCOL:
Axial T1, T2 FLAIR and diffusion-weighted sequences, after gadolinium injection.

RESULT:
A 12 mm arachnoid cyst is seen in the right temporal fossa, without mass effect.
No abnormal signal of the brain parenchyma.
The ventricles are normal in size.
No restricted diffusion.

CONCLUSION:
Right temporal arachnoid cyst, of no clinical consequence.
"""

CT_ANGIOGRAPHY = """THORACIC CT ANGIOGRAPHY

INDICATION:
Chest pain and dyspnea, D-dimers raised.

PROTOCOL:
Acquisition after iodinated contrast injection at the pulmonary arterial phase.

RESULT:
No filling defect in the pulmonary arteries.
Enlarged mediastinal lymph nodes, the largest measuring 18 mm in the subcarinal station.
The lung parenchyma is clear.
No pleural effusion.

CONCLUSION:
No pulmonary embolism.
Mediastinal lymphadenopathy to be explored.
"""

CT_ANGIOGRAPHY_CANDIDATE = CT_ANGIOGRAPHY.replace(
    "No filling defect in the pulmonary arteries.\nEnlarged mediastinal lymph nodes, the largest "
    "measuring 18 mm in the subcarinal station.",
    "Filling defect in a segmental artery of the right lower lobe, in keeping with pulmonary "
    "embolism.").replace("No pulmonary embolism.\nMediastinal lymphadenopathy to be explored.",
                         "Right segmental pulmonary embolism.")
assert CT_ANGIOGRAPHY_CANDIDATE.count("embolism") == 2

CHEST_FILM = """FINDINGS: The heart is normal in size. There is a right lower lobe airspace
opacity. No pleural effusion. No pneumothorax.
IMPRESSION: Right lower lobe pneumonia."""


def _score(metric, reference: str, candidate: str):
    result = metric.score_pair(ReportPair("t", reference, candidate))
    assert result.error is None, result.error
    return result


def test_parrot_1_shape_cyst_on_the_other_side(metrics):
    layout = read_layout(BRAIN_MRI)
    assert "arachnoid cyst" in layout.findings and "T2 FLAIR" not in layout.findings
    assert "Right temporal arachnoid cyst" in layout.impression
    moved = BRAIN_MRI.replace("right temporal fossa", "left temporal fossa").replace(
        "Right temporal", "Left temporal")
    for name in ("radsem", "vert"):  # any modality
        assert _score(metrics[name], BRAIN_MRI, BRAIN_MRI).score == 1.0
        assert _score(metrics[name], BRAIN_MRI, moved).score < 1.0, name
    counted = counted_errors(read_sections(*_viewed(metrics["vert"], BRAIN_MRI, moved)))
    summary = clinical_errors(counted)
    assert summary["side"] == 1  # stated in the result and the conclusion: counted once
    assert len(counted.repeated) == 1


def test_parrot_31_shape_invented_embolism_and_dropped_nodes(metrics):
    radsem = _score(metrics["radsem"], CT_ANGIOGRAPHY, CT_ANGIOGRAPHY_CANDIDATE)
    assert radsem.score < 0.7
    sentences = radsem.details["extraction"]["ref_sentences"]
    assert not any("ANGIOGRAPHY" in s for s in sentences)  # the title is no finding
    assert any("lymph node" in s.lower() for s in sentences)
    vert = _score(metrics["vert"], CT_ANGIOGRAPHY, CT_ANGIOGRAPHY_CANDIDATE)
    assert vert.score < 0.5
    summary = vert.details["clinical_errors"]
    assert summary["invented"] >= 1 and summary["missed"] >= 1


def test_iu_3707_shape_impression_changed_with_identical_findings(metrics):
    normal = CHEST_FILM.replace("Right lower lobe pneumonia.", "No acute cardiopulmonary process.")
    swapped = CHEST_FILM.replace("Right lower lobe pneumonia.", "Left lower lobe pneumonia.")
    for candidate, kind in ((normal, "missed"), (swapped, "side")):
        for name in ("crepe", "vert"):
            result = _score(metrics[name], CHEST_FILM, candidate)
            assert result.score != (0.0 if name == "crepe" else 1.0), (name, kind)
            assert result.details["clinical_errors"][kind] == 1
            assert result.details["clinical_errors"]["impression"] == 1
        radsem = _score(metrics["radsem"], CHEST_FILM, candidate)
        assert radsem.score == 1.0  # findings identical: RadSEM reads findings only, and says so
        left_out = radsem.details["sections"]["not_compared"]
        assert [e["section"] for e in left_out] == ["impression"]
        assert left_out[0]["why"].startswith("impression not compared: RadSEM reads findings only")
        assert set(left_out[0]) == {"section", "why"}  # no reading of a section it did not score


def test_the_sections_option_scores_one_section_and_names_it():
    pair = ReportPair("t", CHEST_FILM, CHEST_FILM.replace("Right lower lobe pneumonia.",
                                                          "Left lower lobe pneumonia."))
    spec = production().get("radsem")
    default = spec.build(RuntimeContext(options={"extractor": "rules"}))
    impression = spec.build(RuntimeContext(options={"extractor": "rules", "sections": "impression"}))
    assert "sections" not in default.signature() and "sections:impression" in impression.signature()
    result = impression.score_pair(pair)
    assert result.score < 1.0 and result.details["sections"]["read"] == ["impression"]
    assert result.details["sections"]["not_compared"][0]["section"] == "findings"
    crepe = production().get("crepe").build(RuntimeContext(options={"extractor": "rules",
                                                                   "sections": "findings"}))
    only_findings = crepe.score_pair(pair)
    assert only_findings.score == 0.0  # the error is in the impression, which it was told to skip
    why = only_findings.details["sections"]["not_compared"][0]["why"]
    assert why.startswith("impression not compared: CREPE") and why.endswith("findings only")
    with pytest.raises(ValueError, match="unknown sections"):
        spec.build(RuntimeContext(options={"extractor": "rules", "sections": "history"}))


def _viewed(metric, reference: str, candidate: str) -> tuple[str, str]:
    viewed = metric._view(ReportPair("t", reference, candidate))
    return viewed.reference, viewed.candidate


def test_the_clinical_summary_leads_with_the_errors_found():
    swapped = CHEST_FILM.replace("right lower lobe airspace", "left lower lobe airspace").replace(
        "Right lower lobe pneumonia.", "Left lower lobe pneumonia.")
    summary = clinical_summary(CHEST_FILM, swapped)
    assert summary["clinical_errors"]["side"] == 1  # findings and impression: one side conflict
    assert summary["clinical_errors"]["impression"] == 0 and len(summary["repeated_errors"]) == 1
    assert summary["reader"].startswith("rules reader") and len(summary["errors"]) == 1
    assert sum(clinical_summary(CHEST_FILM, CHEST_FILM)["clinical_errors"].values()) == 0


def test_only_an_abnormal_impression_is_made_normal():
    """PARROT's planted "impression made normal" needs an impression that states an abnormal
    finding: a normal one replaced by "No significant abnormality." is no error to detect."""
    from bench.quality.layouts import _states_abnormal

    assert _states_abnormal("Acute left frontal infarct. No hemorrhage.")
    assert _states_abnormal("Moderate right pleural effusion.")
    assert not _states_abnormal("No evidence of recent hemorrhagic or ischemic lesions. "
                                "No arterial occlusion on the circle of Willis.")
    assert not _states_abnormal("Normal renal ultrasound.")
    assert not _states_abnormal("")
