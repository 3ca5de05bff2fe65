"""CLEAR's attribute agreement headline: a side swap shows beside the positive F1."""
from __future__ import annotations

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.clear.agreement import attribute_agreement
from radscope.engine.metrics.clear.score import TableCell, TableRow
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch


def test_agreement_counts_compared_cells_and_names_the_differing_ones():
    table = [
        TableRow("Pleural Effusion", {"presence": TableCell("positive", "positive", True),
                                      "severity": TableCell("small", "small", True),
                                      "descriptive location": TableCell(["left"], ["right"], False),
                                      "change": TableCell(None, None, None)}),
        TableRow("Edema", {"presence": TableCell("negative", "negative", True),
                           "severity": TableCell(None, None, None)}),
    ]
    out = attribute_agreement(table)
    assert (out["compared"], out["agree"], out["share"]) == (2, 1, 0.5)
    assert out["differs"] == [{"condition": "Pleural Effusion", "attribute": "descriptive location",
                               "reference": ["left"], "candidate": ["right"]}]
    assert out["note"] == "attributes 1/2 agree; descriptive location differs: pleural effusion"
    assert attribute_agreement(table[1:])["note"] == ""  # nothing compared: no claim


def test_laterality_example_scores_f1_one_but_says_the_side_differs():
    pair = next(e.pair for e in example_pairs() if e.pair.id == "effusion-laterality")
    result = run_batch([pair], ["clear"], RuntimeContext(options={}), registry=production()).rows[0]["metrics"]
    clear = result["clear"]
    assert clear["score"] == 1.0  # the same conditions are positive on both sides ...
    # ... but both are on the other side, and the note beside the score says so
    assert clear["score_note"] == ("attributes 8/10 agree; descriptive location differs: "
                                   "atelectasis, pleural effusion")
