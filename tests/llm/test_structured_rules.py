"""The rules rewrite of "Structure report": the SRRG layout from the clinical reader, no judge.

Layout only (speed is measured by ``python -m radscope.engine.bench structure-rules``, not here): every
finding the reader found is listed once under its organ system, devices under their own
header, the report's impression numbered, comparison wording dropped, head anatomy kept out of
the chest headers, and the result names the rules reader as its writer.
"""
from __future__ import annotations

import pytest

from radscope.engine.bench.llm_structure import PARROT_LIKE, structure_texts
from radscope.engine.reader.findings import read_report
from radscope.engine.structured_report import (
    FINDINGS_HEADERS,
    RULES_WRITER,
    choose_writer,
    finding_header,
    structure_by_rules,
)


@pytest.mark.parametrize("label, exam, text", structure_texts(), ids=lambda v: str(v)[:40])
def test_every_reader_finding_is_listed_once_under_a_header(label, exam, text):
    result = structure_by_rules(text, exam)
    data = result.to_json()
    assert data["writer"] == "rules" and data["model"] == RULES_WRITER
    assert data["demo_grade"] is False
    listed = [item for header in FINDINGS_HEADERS for item in result.report.findings[header]]
    assert sorted(listed) == sorted({f.text for f in read_report(text).findings})
    assert result.report.comparison == "" and result.report.exam_type == exam
    assert "Impression:" in result.report.to_text()


def test_devices_sides_and_the_report_impression():
    text = ("FINDINGS: Endotracheal tube 4 cm above the carina. Small right pleural effusion. "
            "Mild cardiomegaly. No pneumothorax.\nIMPRESSION: 1. Small right effusion. "
            "2. Tube in good position.")
    report = structure_by_rules(text).report
    assert report.findings["Tubes/Catheters/Support Devices"] == [
        "Endotracheal tube 4 cm above the carina."]
    assert "Small right pleural effusion." in report.findings["Pleura"]
    assert "No pneumothorax." in report.findings["Pleura"]  # no site: its finding word places it
    assert report.findings["Cardiovascular"] == ["Mild cardiomegaly."]
    assert report.impression == ["Small right effusion.", "Tube in good position."]
    assert "1. Small right effusion.\n2. Tube in good position." in report.to_text()


def test_without_an_impression_the_abnormal_findings_are_numbered_definite_first():
    report = structure_by_rules("FINDINGS: Possible small nodule in the left lower lobe. "
                                "Moderate cardiomegaly. The lungs are otherwise clear.").report
    assert report.impression[0] == "Moderate cardiomegaly."
    assert any("nodule" in item for item in report.impression[1:])


def test_head_anatomy_and_abdomen_keep_out_of_the_chest_headers():
    ct_abdomen, mr_brain = (text for _, text in PARROT_LIKE[:2])
    abdomen = structure_by_rules(ct_abdomen, "CT Abdomen").report
    assert any("gallbladder" in item for item in abdomen.findings["Abdominal"])
    assert abdomen.history == "Right upper quadrant pain for two weeks."
    assert abdomen.technique.startswith("Contrast-enhanced CT")
    brain = structure_by_rules(mr_brain, "MR Brain").report
    assert not brain.findings["Cardiovascular"]  # "small vessel disease" of the brain
    assert finding_header(["periventricular", "vessel"], False) == "Other"
    assert finding_header([], True) == "Tubes/Catheters/Support Devices"


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
