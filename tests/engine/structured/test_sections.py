"""Where "Structure report" (rules) files each finding: under the organ or device it is about.

The labelled set ``tests/fixtures/structure/sections.txt`` (reports written by the project, each
finding with the header(s) a radiologist files it under) must come out at >= 95 % of findings
exactly right, with every report also passing the conservation rule; the shapes that went wrong
before (a PARROT #31-like CT angiogram, an IU CXR1015-like radiograph, bilateral findings)
are checked one by one.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from radscope.engine.structured.organs import FINDINGS_HEADERS, statement_pieces
from radscope.engine.structured.rewrite import check_conservation, structure_by_rules

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "structure" / "sections.txt"
CODES = dict(zip("LPCHTMAO", FINDINGS_HEADERS, strict=True))


def labelled_reports() -> list[tuple[str, str, list[tuple[set[str], str]]]]:
    """(id, report text, [(expected headers, finding as listed)]) for each block of the file."""
    out = []
    for block in FIXTURE.read_text(encoding="utf-8").split("\n### ")[1:]:
        name, body = block.split("\n", 1)
        text, expected = body.split("--- expected\n")
        rows = []
        for line in expected.strip().splitlines():
            codes, finding = (part.strip() for part in line.split("|", 1))
            rows.append(({CODES[c] for c in codes.split("+")}, finding))
        out.append((name.strip(), text.strip(), rows))
    return out


def placed(text: str) -> dict[str, set[str]]:
    """Each listed finding -> the headers it is listed under."""
    out: dict[str, set[str]] = {}
    for header, items in structure_by_rules(text).report.findings.items():
        for item in items:
            out.setdefault(item, set()).add(header)
    return out


def test_the_labelled_set_is_big_enough_and_every_finding_is_listed():
    reports = labelled_reports()
    assert len(reports) >= 40
    assert sum(len(rows) for _, _, rows in reports) >= 150
    for name, text, rows in reports:
        listed = placed(text)
        assert sorted(listed) == sorted(f for _, f in rows), name  # every labelled finding, no other


def test_section_accuracy_is_at_least_95_percent():
    right = total = 0
    wrong = []
    for name, text, rows in labelled_reports():
        listed = placed(text)
        for expected, finding in rows:
            total += 1
            if listed.get(finding) == expected:
                right += 1
            else:
                wrong.append(f"{name}: {finding!r} under {sorted(listed.get(finding, []))}, "
                             f"expected {sorted(expected)}")
    accuracy = right / total
    print(f"section accuracy {right}/{total} = {accuracy:.1%}")
    assert accuracy >= 0.95, "\n".join(wrong)


@pytest.mark.parametrize("name, text", [(n, t) for n, t, _ in labelled_reports()],
                         ids=[n for n, _, _ in labelled_reports()])
def test_every_labelled_report_keeps_its_findings(name, text):
    result = structure_by_rules(text)
    assert check_conservation(text, result.report) == []


def test_parrot31_shaped_ct_angiogram():
    text = next(t for n, t, _ in labelled_reports() if n == "parrot31-shaped")
    report = structure_by_rules(text).report
    assert report.findings["Cardiovascular"][:2] == [
        "No pulmonary embolism up to the subsegmental arteries.", "Cardiomegaly."]
    assert not report.findings["Tubes/Catheters/Support Devices"]  # "septal lines" is no line
    assert report.exam_type == "CHEST CT ANGIOGRAPHY"
    assert report.comparison == ""  # the report gives none: empty, not "None"
    assert "Comparison:\n" in report.to_text() + "\n" and "None" not in report.to_text()
    assert report.technique.startswith("Helical acquisition")
    assert report.impression == [
        "Small bilateral pleural effusions, thickened septal lines and perihilar consolidation, "
        "in favour of venous congestion.", "No pulmonary embolism."]


def test_cxr1015_shaped_radiograph():
    text = next(t for n, t, _ in labelled_reports() if n == "cxr1015-shaped")
    report = structure_by_rules(text).report
    first = ("Patchy and streaky bibasilar opacities, a wedge-shaped density projected over the "
             "heart on the lateral view.")
    assert first in report.findings["Lungs and Airways"]
    assert first not in report.findings["Cardiovascular"]  # a projection is not what it is about
    assert report.findings["Pleura"] == ["No definite pleural effusion seen."]
    assert "No typical signs of pulmonary edema." in report.findings["Lungs and Airways"]


def test_bilateral_and_whole_organ_sentences_are_not_rewritten():
    report = structure_by_rules(
        "FINDINGS: The lungs are clear. Low-volume bilateral pleural effusion. Cardiac and "
        "mediastinal contours are within normal limits.").report
    assert report.findings["Lungs and Airways"] == ["The lungs are clear."]
    assert report.findings["Pleura"] == ["Low-volume bilateral pleural effusion."]
    both = "Cardiac and mediastinal contours are within normal limits."
    assert report.findings["Cardiovascular"] == [both]  # once per organ, as written
    assert report.findings["Hila and Mediastinum"] == [both]


def test_a_clause_is_cut_only_between_two_clauses_about_different_organs():
    pieces = statement_pieces("Within the abdominal cavity, no free fluid is seen.")
    assert [p.text for p in pieces] == ["Within the abdominal cavity, no free fluid is seen."]
    pieces = statement_pieces("No pleural effusion, small left apical pneumothorax.")
    assert len(pieces) == 1 and pieces[0].headers == ("Pleura",)
    pieces = statement_pieces("Mild cardiomegaly, the lungs are clear.")
    assert [(p.text, p.headers) for p in pieces] == [
        ("Mild cardiomegaly.", ("Cardiovascular",)), ("The lungs are clear.", ("Lungs and Airways",))]


def test_a_sentence_that_names_nothing_takes_its_sub_heading_or_the_sentence_it_points_to():
    report = structure_by_rules("FINDINGS:\nLIVER:\nNormal in size.\n\nA nodule in the right "
                                "upper lobe. It measures 8 mm.").report
    assert report.findings["Abdominal"] == ["LIVER: Normal in size."]
    assert report.findings["Lungs and Airways"] == ["A nodule in the right upper lobe.",
                                                   "It measures 8 mm."]
