"""Per-metric views built from hand-made details (tests/ui/standins.py), checked against values
worked out by hand from those details."""
from __future__ import annotations

import pytest

from radscope.ui.views import PanelView, generic_view, has_view, register_view, render, view_for
from radscope.ui.views.clear import clear_table
from radscope.ui.views.common import BAD, GOOD, NEUTRAL, find_section, panel_header
from radscope.ui.views.radsem import alignment_graph, radsem_figure
from radscope.ui.views.srr import AGREE, STATUS_DIFFERS, label_frame
from tests.ui import standins


def _css(frame_css, row, col):
    return frame_css.iloc[row][col]


def test_clear_table_is_13_by_6_with_mismatches_marked():
    from radscope.engine.metrics.clear.score import ClearPairScore

    score = ClearPairScore.from_json({**standins.clear_details(), "score": 0.8})
    table, css = clear_table(score)
    assert table.shape == (13, 7)  # condition + presence + five attributes
    assert list(table.columns[1:]) == ["presence", "first occurrence", "change", "severity",
                                       "descriptive location", "recommendation"]
    rows = {c: i for i, c in enumerate(table["condition"])}
    # Pneumothorax: negative in the reference, positive in the candidate -> both shown, red.
    ptx = rows["Pneumothorax"]
    assert table.iloc[ptx]["presence"] == "R: negative | C: positive"
    assert BAD in _css(css, ptx, "presence")
    # Pleural effusion is positive in both (green); its location differs (left vs right).
    pe = rows["Pleural Effusion"]
    assert table.iloc[pe]["presence"] == "positive" and GOOD in _css(css, pe, "presence")
    assert table.iloc[pe]["descriptive location"] == "R: left | C: right"
    assert BAD in _css(css, pe, "descriptive location")
    assert table.iloc[pe]["severity"] == "mild" and GOOD in _css(css, pe, "severity")
    # Cardiomegaly is negative in both: no attributes compared, so grey cells.
    cm = rows["Cardiomegaly"]
    assert table.iloc[cm]["presence"] == "negative"
    assert table.iloc[cm]["severity"] == "" and NEUTRAL in _css(css, cm, "severity")


def test_clear_view_summary_gives_pair_f1s():
    view = render("clear", standins.result_for("clear"))
    # Positive: reference {effusion, atelectasis}, candidate adds pneumothorax -> TP 2, FP 1,
    # FN 0 -> F1 = 2*2 / (2*2 + 1) = 0.800. Negative: reference {pneumothorax, cardiomegaly},
    # candidate {cardiomegaly} -> TP 1, FN 1 -> F1 = 2 / 3 = 0.667.
    assert "<b>Positive F1</b> 0.800" in view.summary_html
    assert "<b>Negative F1</b> 0.667" in view.summary_html
    assert "Presence differs</b> Pneumothorax" in view.summary_html
    assert view.table is not None and view.figure is None


def test_clear_view_puts_attribute_agreement_beside_the_f1():
    view = render("clear", standins.result_for("clear"))
    assert "Attributes agree</b>" in view.summary_html
    assert view.summary_html.index("Attributes agree") < view.summary_html.index("Negative F1")


def test_not_applicable_result_explains_why_and_how_to_force():
    result = {"score": None, "error": None, "direction": "higher", "model": "rules-v3",
              "demo_grade": False, "not_applicable": "not applicable: designed for chest "
              "radiographs; this study is modality MR and body area head (as given)"}
    view = render("clear", result)
    assert "this study is modality MR and body area head" in view.summary_html
    assert "force applicability" in view.summary_html and view.table is None
    assert "not applicable" in panel_header("CLEAR", "clear", result)


def test_metric_cards_say_what_they_are_designed_for():
    from radscope.engine.metrics.framework.registry import production
    from radscope.ui.widgets import card_html

    assert "<b>Designed for</b> chest radiographs" in card_html(production().get("clear").card)
    assert "<b>Designed for</b> any modality and body area" in card_html(production().get("radsem").card)


def test_demo_grade_score_is_greyed_in_the_header():
    result = {"score": 0.25, "direction": "lower", "model": "crepe-minilm-demo",
              "demo_grade": True, "elapsed_ms": 10.0, "error": None}
    assert "rs-score rs-demo-value" in panel_header("CREPE", "crepe", result)
    assert "rs-demo-value" not in panel_header("CREPE", "crepe", {**result, "demo_grade": False})


def test_crepe_view_draws_six_bars_and_the_total():
    view = render("crepe", standins.result_for("crepe"))
    bar = view.figure.data[0]
    # Each bar by its letter and the words every view uses for the category.
    assert [x.split("<br>")[0] for x in bar.x] == ["A", "B", "C", "D", "E", "F", "Total"]
    assert bar.x[0] == "A<br>invented finding" and "missed finding" in bar.x[1]
    assert "B missed finding: 0.50" in view.summary_html.replace("<b>", "").replace("</b>", "")
    assert list(bar.y) == [1.25, 0.5, 0.75, 0.0, 0.25, 0.0, 2.75]  # total = sum of the six
    assert bar.marker.color[-1] != bar.marker.color[0]  # the total stands out
    assert "lower is better" in view.figure.layout.title.text
    assert "Total predicted errors</b> 2.75" in view.summary_html


def test_vert_view_lists_errors_matches_and_explanation():
    view = render("vert", standins.result_for("vert"))
    # M = 2 matched, S = 2 significant, I = 1 insignificant:
    # GREEN = 2/(2+2) = 0.500; GREEN-F1 = 4/(4+2) = 0.667; formula = 2/(2 + 4 + 0.5) = 0.308.
    for expected in ("<b>GREEN</b> 0.500", "<b>GREEN-F1</b> 0.667", "<b>Formula score</b> 0.308",
                     "<b>Variant</b> vert", "<b>Judge&#x27;s overall score</b> 0.550"):
        assert expected in view.summary_html
    assert "invented pneumothorax" in view.body_html
    assert "&#x27;small&#x27; written as &#x27;trace&#x27;" in view.body_html  # insignificant, escaped
    assert "no cardiomegaly" in view.body_html and "wrong side" in view.body_html


def test_srr_view_groups_findings_and_marks_status_differences():
    view = render("srr", standins.result_for("srr"))
    # Leaf sets share 2 of 4 + 4 labels: F1 = 2*2/8 = 0.500, Jaccard = 2/6 = 0.333.
    assert "Leaf level</b> F1 0.500" in view.summary_html and "Jaccard 0.333" in view.summary_html
    from radscope.engine.metrics.srr.score import SrrPairScore

    score = SrrPairScore.from_json(standins.srr_details())
    frame = label_frame(score.leaf, is_upper=False)
    verdict = dict(zip(frame["finding"], frame["result"]))
    assert verdict == {"Atelectasis": STATUS_DIFFERS, "Simple pneumothorax": STATUS_DIFFERS,
                       "Simple pleural effusion": AGREE, "Cardiomegaly": AGREE}
    row = frame[frame["finding"] == "Simple pneumothorax"].iloc[0]
    assert (row["reference"], row["candidate"], row["group"]) == ("Absent", "Present", "Pneumothorax")


def test_radsem_graph_places_sentences_and_highlights_unmatched():
    from radscope.engine.metrics.radsem.score import RadsemScore

    details = standins.radsem_details()
    extraction = standins.radsem_extraction()
    score = RadsemScore.from_json({**details, "score": 0.28})
    graph = alignment_graph(score, extraction)
    assert len(graph) == 8 and graph.number_of_edges() == 3
    status = {graph.nodes[n]["data"].sentence: graph.nodes[n]["data"].status for n in graph}
    assert status["Small left pleural effusion."] == "unmatched"
    assert status["Small right pleural effusion."] == "unmatched"
    assert status["No pneumothorax."] == "matched"
    fig = radsem_figure(score, extraction)
    unmatched = [t for t in fig.data if t.name == "unmatched"]
    assert sum(len(t.x) for t in unmatched) == 2 and unmatched[0].marker.symbol == "x"
    # Reference nodes on the left (x = 0), candidate nodes on the right (x = 1).
    ref_trace = next(t for t in fig.data if t.name == "matched" and t.textposition == "middle left")
    assert set(ref_trace.x) == {0.0}
    # Edge hover labels: the atelectasis pair is part-whole (k=1) with partial details, so its
    # weight is (1/3) * 0.75 = 0.25.
    mids = next(t for t in fig.data if t.name == "pair (hover for details)")
    assert any("weight 0.250" in h for h in mids.hovertext)


def test_radsem_view_gives_class_f1s_and_final_score():
    view = render("radsem", standins.result_for("radsem"))
    # Abnormal: M = 0.25, U = 2 -> F1 = 0.5 / 2.5 = 0.2; normal: all matched -> 1.0;
    # final = (0.9 * 0.2 + 0.1 * 1.0) / 1.0 = 0.28.
    assert "<b>Final score</b> 0.280" in view.summary_html
    assert "<td>abnormal</td><td>yes</td><td>1</td><td>0.250</td><td>1</td><td>1</td><td>0.250</td><td>0.200</td>" \
        in view.summary_html
    assert view.figure is not None


def test_views_find_details_flat_or_nested():
    nested = {"score": 1.0, "error": None, "clear": {"deep": standins.clear_details()}}
    assert find_section(nested, ("reference_presence", "table")) is not None
    assert render("clear", {**nested, "direction": "higher"}).table is not None


def test_unknown_metric_gets_the_generic_view():
    result = {"score": 0.5, "error": None, "model": None, "custom_thing": [1, 2]}
    assert view_for("brand-new-metric") is generic_view and not has_view("brand-new-metric")
    view = render("brand-new-metric", result)
    assert "custom_thing" in view.body_html and view.table is None


def test_variants_use_the_view_of_the_family_they_declare():
    standins.standin_registry()  # the stand-ins declare their family on their spec
    assert view_for("clear-standin") is view_for("clear")
    # a name is never split to guess a family: a metric that declares none gets the generic view
    assert not has_view("radsem_llm")


def test_a_view_that_cannot_read_the_result_falls_back_with_a_note():
    view = render("crepe", {"score": 1.0, "error": None, "counts_missing": True})
    assert "could not be drawn as a crepe view" in view.body_html
    assert "counts_missing" in view.body_html


def test_a_failed_result_shows_no_view_noise():
    assert render("clear", {"score": None, "error": "judge: timeout"}) == PanelView()
    failed = render("vert", {"score": None, "error": "judge: bad answer", "judge_error": {"x": 1}})
    assert "could not be drawn" not in failed.body_html


def test_panel_header_names_model_time_badge_and_escapes_errors():
    result = {"score": 0.25, "direction": "lower", "model": "gemma3-270m-demo", "demo_grade": True,
              "elapsed_ms": 1500.0, "error": None}
    head = panel_header("CREPE", "crepe", result)
    assert "0.250" in head and "lower is better" in head and "gemma3-270m-demo" in head
    assert "1.5 s" in head and "demo-grade model" in head
    plain = panel_header("BLEU", "bleu", {**result, "model": None, "demo_grade": False,
                                          "error": "<script>alert(1)</script>"})
    assert "demo-grade" not in plain and "<script>" not in plain and "&lt;script&gt;" in plain


def test_register_view_adds_a_view():
    @register_view("ui-test-metric")
    def view(result):
        return PanelView(summary_html=f"<b>{result['score']}</b>")

    assert render("ui-test-metric", {"score": 3, "error": None}).summary_html == "<b>3</b>"


@pytest.mark.parametrize("family", list(standins.DETAILS))
def test_every_view_draws_a_result_read_back_from_json(family):
    """Results reach the views after a JSON round trip (store, API): nothing may depend on
    Python-only types."""
    import json

    view = render(family, json.loads(json.dumps(standins.result_for(family))))
    assert "could not be drawn" not in view.body_html
    assert view.summary_html
