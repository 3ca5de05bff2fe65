"""The clinical reader and its three views on hand-written pairs.

Each category test starts from one base report and makes one edit, so the expected counts are
known by construction: the edited category goes to 1 and every other stays 0.
"""
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.crepe.score import CATEGORY_KEYS
from radscope.engine.metrics.framework.registry import production
from radscope.engine.reader.pair.align import read_pair
from radscope.engine.reader.findings import read_report
from radscope.engine.reader.by_section import read_sections

BASE = "Small left pleural effusion. Mild cardiomegaly. No pneumothorax."


def crepe_counts(reference: str, candidate: str) -> dict[str, float]:
    metric = production().get("crepe").build(RuntimeContext(options={"extractor": "rules"}))
    result = metric.score_pair(ReportPair("t", reference, candidate))
    assert result.error is None
    assert result.score == sum(result.details["counts"].values())
    return result.details["counts"]


def only(category: str | None) -> dict[str, float]:
    return {key: float(key == category) for key in CATEGORY_KEYS}


@pytest.mark.parametrize("candidate, category", [
    (BASE, None),  # the same report: no error
    ("Small right pleural effusion. Mild cardiomegaly. No pneumothorax.", "C"),  # side swap
    ("Mild cardiomegaly. No pneumothorax.", "B"),  # the effusion removed
    (BASE + " Right upper lobe nodule.", "A"),  # a nodule invented
    ("Large left pleural effusion. Mild cardiomegaly. No pneumothorax.", "D"),  # severity
    (BASE + " Compared with the prior study, increased.", "E"),  # a comparison added
])
def test_one_edit_raises_its_category_and_nothing_else(candidate, category):
    assert crepe_counts(BASE, candidate) == only(category)


def test_a_dropped_comparison_raises_f():
    reference = "Small left pleural effusion, increased compared with the prior study. Mild cardiomegaly."
    assert crepe_counts(reference, "Small left pleural effusion. Mild cardiomegaly.") == only("F")


def test_a_denied_finding_is_an_omission_and_an_asserted_denial_a_false_finding():
    assert crepe_counts("Left pneumothorax.", "No pneumothorax.") == only("B")
    assert crepe_counts("No pneumothorax.", "Left pneumothorax.") == only("A")


def test_a_change_about_nothing_named_is_no_finding_but_stays_a_comparison():
    reading = read_report("Small left pleural effusion. These are newly developed compared "
                          "with the prior study. The nodule is unchanged.")
    assert [f.text for f in reading.findings] == ["Small left pleural effusion.",
                                                  "The nodule is unchanged."]
    assert any("left out" in note for note in reading.notes)
    assert len(reading.comparisons) == 2  # the comparison is still read
    assert [f.text for f in read_report("Mild cardiomegaly. The findings are generally "
                                        "similar.").findings] == ["Mild cardiomegaly."]


def test_the_reader_reads_each_attribute():
    findings = read_report("Possible small right upper lobe nodule measuring 5 mm. "
                           "No pleural effusion.").findings
    nodule, effusion = findings
    assert nodule.polarity == "uncertain" and nodule.laterality == ("right",)
    assert nodule.severity == "mild" and nodule.size == ("5 mm",) and not nodule.normal
    assert effusion.polarity == "negative" and effusion.normal


def test_a_pair_is_read_once_however_many_views_use_it():
    reference, candidate = "Moderate right pleural effusion.", "Mild right pleural effusion."
    read_pair.cache_clear()
    read_sections.cache_clear()
    ctx = RuntimeContext(options={"extractor": "rules"})
    metrics = [production().get(name).build(ctx) for name in ("crepe", "vert")]
    for metric in metrics:
        metric.score_pair(ReportPair("t", reference, candidate))
    info = read_sections.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert read_pair.cache_info().misses == 1  # the findings, aligned once


def test_vert_rules_error_list_and_scores():
    ctx = RuntimeContext(options={"extractor": "rules"})
    metric = production().get("vert").build(ctx)
    candidate = "Small right pleural effusion. Mild cardiomegaly. Right upper lobe nodule."
    result = metric.score_pair(ReportPair("t", BASE, candidate))
    assessment, scores = result.details["assessment"], result.details["scores"]
    significant = assessment["significant_errors"]
    assert significant["a"]["errors"] == ["not in the reference: 'Right upper lobe nodule.'"]
    assert significant["c"]["errors"] == [
        "other side (left vs right): reference 'Small left pleural effusion.', "
        "candidate 'Small right pleural effusion.'"]
    assert [significant[k]["count"] for k in "abcdef"] == [1, 0, 1, 0, 0, 0]
    # "No pneumothorax." is left out: a normal statement, an insignificant omission.
    assert assessment["insignificant_errors"]["b"]["errors"] == ["left out: 'No pneumothorax.'"]
    assert assessment["matched_findings"] == {"count": 1, "findings": ["Mild cardiomegaly."]}
    # M = 1, S = 2, I = 1: formula 1 / (1 + 4 + 0.5), GREEN 1 / 3, GREEN-F1 2 / 4.
    assert scores["formula"] == pytest.approx(1 / 5.5) == result.score
    assert scores["green"] == pytest.approx(1 / 3) and scores["green_f1"] == pytest.approx(0.5)
    assert result.details["reader"]["name"] == "rules"
    assert metric.signature().startswith("vert|v:1|extractor:rules|reader:radscope-reader|")


def test_vert_rules_refuses_the_rubric_variant():
    ctx = RuntimeContext(options={"extractor": "rules", "vert_variant": "rubric"})
    with pytest.raises(ValueError, match="needs an LLM judge"):
        production().get("vert").build(ctx)


def test_a_pair_with_nothing_to_read_is_an_error_not_a_score():
    ctx = RuntimeContext(options={"extractor": "rules"})
    for name in ("crepe", "vert"):
        result = production().get(name).build(ctx).score_pair(ReportPair("t", "See above.", "See above."))
        assert result.score is None and "cannot read" in result.error


def test_crepe_details_keep_the_reading_the_counts_came_from():
    metric = production().get("crepe").build(RuntimeContext(options={"extractor": "rules"}))
    swapped = "Small right pleural effusion. Mild cardiomegaly. No pneumothorax."
    reading = metric.score_pair(ReportPair("t", BASE, swapped)).details["reading"]
    assert [f["laterality"] for f in reading["reference"]["findings"]] == [["left"], [], []]
    assert reading["reference"]["findings"][0]["severity"] == "mild"
    assert reading["links"][0] == {"ref": 0, "cand": 0, "conflicts": ["laterality"],
                                   "similarity": 1.0}
    assert reading["only_reference"] == [] and reading["only_candidate"] == []
    assert reading["comparisons_made"] == [] and reading["comparisons_dropped"] == []


def test_a_finding_called_normal_in_a_clause_of_its_own_is_an_omission():
    # Two clauses, two findings: the flip of the first ("normal in size") must not hide behind
    # the second ("sulci and cisterns widened", which lies inside the same brain region).
    reference = "Bilateral ventricles are enlarged, and the cerebral sulci and cisterns are widened."
    flipped = "Bilateral ventricles are normal in size, and the cerebral sulci and cisterns are widened."
    paraphrase = ("Bilateral ventricles are increased in size, and the cerebral sulci and "
                  "cisterns are widened.")
    assert crepe_counts(reference, paraphrase) == only(None)
    counts = crepe_counts(reference, flipped)
    assert counts["B"] >= 1 and counts["C"] == counts["D"] == 0
