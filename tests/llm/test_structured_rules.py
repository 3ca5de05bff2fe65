"""The rules rewrite of "Structure report": the SRRG layout, every finding kept, no judge.

Layout and conservation only (speed is measured by ``python -m bench
structure-rules``, section accuracy in tests/engine/structured/test_sections.py): every finding
sentence of the report listed once (once per organ when it is about two), in its own words,
nothing else listed, devices under their own header, the report's impression numbered as written,
the header from the report, head anatomy kept out of the chest headers, and the result names
the rules writer.
"""
from __future__ import annotations

import pytest

from bench.quality.llm_structure import PARROT_LIKE, structure_texts
from radscope.engine.structured.check import report_parts
from radscope.engine.structured.rewrite import (
    FINDINGS_HEADERS,
    RULES_WRITER,
    check_conservation,
    choose_writer,
    structure_by_rules,
)


@pytest.mark.parametrize("label, exam, text", structure_texts(), ids=lambda v: str(v)[:40])
def test_every_finding_sentence_is_kept_once_in_its_own_words(label, exam, text):
    result = structure_by_rules(text, exam)
    data = result.to_json()
    assert data["writer"] == "rules" and data["model"] == RULES_WRITER
    assert data["demo_grade"] is False
    assert check_conservation(text, result.report, exam) == []
    listed = {item for header in FINDINGS_HEADERS for item in result.report.findings[header]}
    whole = " ".join(text.split())
    assert all(item.rstrip(".").lower() in whole.lower() for item in listed), label
    assert "Impression:" in result.report.to_text()


def test_devices_the_report_impression_and_an_empty_comparison():
    text = ("FINDINGS: Endotracheal tube 4 cm above the carina. Small right pleural effusion. "
            "Mild cardiomegaly. No pneumothorax.\nIMPRESSION: 1. Small right effusion. "
            "2. Tube in good position.")
    report = structure_by_rules(text).report
    assert report.findings["Tubes/Catheters/Support Devices"] == [
        "Endotracheal tube 4 cm above the carina."]
    assert report.findings["Pleura"] == ["Small right pleural effusion.", "No pneumothorax."]
    assert report.findings["Cardiovascular"] == ["Mild cardiomegaly."]
    assert report.impression == ["Small right effusion.", "Tube in good position."]
    assert "1. Small right effusion.\n2. Tube in good position." in report.to_text()
    assert report.comparison == "" and "None" not in report.to_text()


def test_the_header_comes_from_the_report():
    text = ("EXAMINATION: Chest radiograph, PA and lateral.\nINDICATION: Cough.\n"
            "COMPARISON: Radiograph of 3 March.\nFINDINGS: The lungs are clear.\n"
            "RECOMMENDATION: Follow-up in six weeks.")
    result = structure_by_rules(text)
    assert result.report.exam_type == "Chest radiograph, PA and lateral."
    assert result.report.history == "Cough." and result.report.comparison == "Radiograph of 3 March."
    assert result.left_out == ["RECOMMENDATION: Follow-up in six weeks."]  # said, not dropped
    titled = structure_by_rules("THORACIC CT ANGIOGRAPHY\n\nRESULT:\nCardiomegaly.")
    assert titled.report.exam_type == "THORACIC CT ANGIOGRAPHY"
    assert structure_by_rules("FINDINGS: Cardiomegaly.", "CR Chest").report.exam_type == "CR Chest"


def test_without_an_impression_none_is_made_up():
    report = structure_by_rules("FINDINGS: Possible small nodule in the left lower lobe. "
                                "Moderate cardiomegaly. The lungs are otherwise clear.").report
    assert report.impression == []
    assert report.findings["Cardiovascular"] == ["Moderate cardiomegaly."]


def test_an_impression_run_into_the_findings_is_still_the_impression():
    text = ("Findings: Lungs are clear. Bony thorax and soft tissues grossly unremarkable "
            "Impression: Negative acute cardiopulmonary abnormality.")
    parts = report_parts(text)
    assert [s.text for s in parts.statements][-1] == \
        "Bony thorax and soft tissues grossly unremarkable"
    assert parts.impression == ("Negative acute cardiopulmonary abnormality.",)


def test_sub_headings_keep_their_level_or_side():
    report = structure_by_rules("FINDINGS:\nL4-L5:\nDisc protrusion with foraminal narrowing.\n\n"
                                "Right ear:\nNormal ossicular chain.").report
    assert report.findings["Musculoskeletal and Chest Wall"] == [
        "L4-L5: Disc protrusion with foraminal narrowing."]
    assert "Right ear: Normal ossicular chain." in report.findings["Other"]


def test_head_anatomy_and_abdomen_keep_out_of_the_chest_headers():
    ct_abdomen, mr_brain = (text for _, text in PARROT_LIKE[:2])
    abdomen = structure_by_rules(ct_abdomen, "CT Abdomen").report
    assert any("gallbladder" in item for item in abdomen.findings["Abdominal"])
    assert abdomen.history == "Right upper quadrant pain for two weeks."
    assert abdomen.technique.startswith("Contrast-enhanced CT")
    brain = structure_by_rules(mr_brain, "MR Brain").report
    assert not brain.findings["Cardiovascular"]  # "small vessel disease" of the brain
    assert brain.findings["Other"]


def test_the_rules_rewrite_is_the_default_without_a_capable_judge():
    assert choose_writer("auto", {}) == "rules"  # the default judge is the demo one
    assert choose_writer("auto", {"judge": "gemma3-270m-demo"}) == "rules"
    assert choose_writer("auto", {"judge": "/models/my-judge.gguf"}) == "llm"
    assert choose_writer("auto", {"judge_url": "http://127.0.0.1:8000/v1",
                                  "judge_model": "big-judge"}) == "llm"
    assert choose_writer("llm", {}) == "llm" and choose_writer("rules", {"judge": "x.gguf"}) == "rules"
    with pytest.raises(ValueError, match="unknown structured-report writer"):
        choose_writer("magic", {})


def test_an_empty_report_is_an_error():
    with pytest.raises(ValueError, match="empty"):
        structure_by_rules("   ")
