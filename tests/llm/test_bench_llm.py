"""The fast-vs-faithful agreement figure of the LLM benchmark, on hand-made result rows."""
from bench.quality.llm import attribute_agreement


def _row(attributes):
    side = {"presence": {}, "attributes": attributes}
    return {"metrics": {"clear": {"extraction": {"reference": side, "candidate": side}}}}


def test_attribute_agreement_counts_cells_present_in_both_modes():
    fast = [_row({"Edema": {"severity": "mild", "descriptive location": ["Left base", "hilum"]}})]
    faithful = [_row({"Edema": {"severity": "moderate", "descriptive location": ["hilum", "left base"],
                                "change": "stable"}})]
    # Per report: severity differs, location agrees as a set of lower-cased phrases, change is
    # only in one mode (not counted). Two reports -> 4 cells, 2 agree.
    assert attribute_agreement(fast, faithful) == {"cells": 4, "agreement": 0.5}


def test_attribute_agreement_without_extractions():
    failed = [{"metrics": {"clear": {"error": "judge: no usable answer"}}}]
    assert attribute_agreement(failed, failed) == {"cells": 0, "agreement": None}
