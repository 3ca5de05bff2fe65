"""The LLM writer of "Structure report" answers to the conservation rule: recorded answers.

An answer that rewords, drops or invents a finding is refused with its reasons and never
becomes a structured report; one that copies every sentence under its organ is accepted. The
judge here replays recorded answers (tests/fixtures/llm/structure.json), so the rule is tested
on what a model may answer, with no model running.
"""
from __future__ import annotations

import pytest

from radscope.engine.runtimes.judge import Judge
from radscope.engine.structured.rewrite import StructureRefused, structure_report
from tests.llm.conftest import ScriptedBackend, load_fixture


def ask(answer_name: str):
    fx = load_fixture("structure.json")
    return structure_report(fx["report"], Judge(ScriptedBackend([fx["answers"][answer_name]])))


def test_an_answer_that_copies_every_finding_is_shown():
    result = ask("kept")
    assert result.report.to_text() == (
        "Exam Type:\nHistory:\nTechnique:\nComparison:\n\nFindings:\n"
        "Lungs and Airways:\n- Lungs are clear.\n"
        "Pleura:\n- Small left pleural effusion.\n"
        "Cardiovascular:\n- Heart size normal.\n"
        "Tubes/Catheters/Support Devices:\n- Right internal jugular line ends in the SVC.\n"
        "Other:\n- Chest radiograph, two views, for cough.\n"
        "\nImpression:\n1. small left effusion.")
    data = result.to_json()
    assert data["structured"]["findings"]["Other"] == ["Chest radiograph, two views, for cough."]
    assert data["prompt"] == "structure.srrg@3" and data["model"] == "scripted-judge"


def test_a_reworded_answer_is_refused_with_its_reasons():
    with pytest.raises(StructureRefused) as refused:
        ask("reworded")
    problems = refused.value.problems
    assert "not in the report (under Lungs and Airways): 'The lungs are clear.'" in problems
    assert "left out: 'Heart size normal.'" in problems
    assert "impression item not in the report's impression: 'Line in satisfactory position.'" in problems
    assert "refused" in str(refused.value) and "scripted-judge" in str(refused.value)


def test_an_answer_that_drops_one_finding_and_invents_another_is_refused():
    with pytest.raises(StructureRefused) as refused:
        ask("dropped")
    assert refused.value.problems == [
        "not in the report (under Lungs and Airways): 'No pneumothorax.'",
        "left out: 'Heart size normal.'"]


def test_a_report_the_answer_cannot_hold_is_refused_before_the_judge_is_asked():
    backend = ScriptedBackend([])  # no answer recorded: asking it would fail the test
    long_sentence = "Small left pleural effusion " + "with adjacent atelectasis " * 10 + "."
    with pytest.raises(StructureRefused, match="longer than the 200 characters"):
        structure_report(f"FINDINGS: {long_sentence}", Judge(backend))
