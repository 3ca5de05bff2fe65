"""The Batch tab's logic without a server: column mapping, readable input errors, system
comparison, downloads, progress text and the corpus plots."""
from __future__ import annotations

import json
import time

import pandas as pd
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.ui.tabs.batch import logic as batch
from radscope.ui.views.corpus import clear_per_condition, crepe_totals, distribution_figure
from tests.ui.test_client import NONE, write_pairs


def test_guess_columns_from_common_names():
    guess = batch.guess_columns(["Study_ID", "Ground_Truth", "Prediction", "system_b", "Modality"])
    assert guess == {"id": "Study_ID", "reference": "Ground_Truth", "candidate": "Prediction",
                     "candidate_b": "system_b", "modality": "Modality", "area": None}
    assert batch.guess_columns(["pid", "reference", "candidate"])["id"] is None


@pytest.mark.parametrize("columns, expected", [
    (["study", "gt_report", "model_report"], ("study", "gt_report", "model_report")),
    (["study_id", "ground_truth", "generated"], ("study_id", "ground_truth", "generated")),
    (["Study ID", "GT", "Pred"], ("Study ID", "GT", "Pred")),
    (["id", "findings", "prediction"], ("id", "findings", "prediction")),
    (["id", "reference", "hyp"], ("id", "reference", "hyp")),
    (["case", "gt", "candidate"], ("case", "gt", "candidate")),
])
def test_guess_columns_knows_the_usual_export_names(columns, expected):
    guess = batch.guess_columns(columns)
    assert (guess["id"], guess["reference"], guess["candidate"]) == expected


@pytest.mark.parametrize("columns, candidate, candidate_b", [
    # issue 38: the column names of an A/B export
    (["id", "reference", "model_a_report", "model_b_report"], "model_a_report", "model_b_report"),
    (["id", "reference", "candidate", "model_b_report"], "candidate", "model_b_report"),
    (["id", "gt", "pred_a", "pred_b"], "pred_a", "pred_b"),
    (["id", "gt", "prediction", "pred_b"], "prediction", "pred_b"),
    (["id", "reference", "system_a", "system_b"], "system_a", "system_b"),
    (["id", "reference", "candidate_a", "candidate_b"], "candidate_a", "candidate_b"),
    (["case", "Ground Truth", "Model A Report", "Model B Report"], "Model A Report", "Model B Report"),
    (["id", "ref", "Hyp-A", "Hyp-B"], "Hyp-A", "Hyp-B"),
    (["id", "reference", "system1", "system2"], "system1", "system2"),
    (["id", "report", "candidate", "candidate2"], "candidate", "candidate2"),
    (["id", "reference", "generated_1", "generated_2"], "generated_1", "generated_2"),
    (["id", "reference", "report_a", "report_b"], "report_a", "report_b"),
    (["id", "reference", "output", "b_output"], "output", "b_output"),
    # B needs an A: a lone system-B column is the candidate
    (["id", "reference", "pred_b"], "pred_b", None),
    # not a second system: one candidate, metadata, a second reference, no mark at all
    (["id", "reference", "prediction"], "prediction", None),
    (["id", "reference", "model_name", "model_report"], "model_report", None),
    (["id", "reference", "model_b_name", "prediction"], "prediction", None),
    (["id", "reference_a", "reference_b", "prediction"], "prediction", None),
    (["id", "reference", "prediction", "output"], "prediction", None),
    (["id", "reference", "data_b", "prediction"], "prediction", None),
    (["id", "reference", "prediction", "pred_a_b"], "prediction", None),
])
def test_guess_both_systems_from_their_column_names(columns, candidate, candidate_b):
    guess = batch.guess_columns(columns)
    assert (guess["candidate"], guess["candidate_b"]) == (candidate, candidate_b)
    assert guess["reference"] is None or guess["reference"] not in (candidate, candidate_b)


def test_the_same_column_twice_is_refused():
    with pytest.raises(batch.BatchProblem, match="'report' is chosen as both the reference and the "
                                                 "candidate column"):
        batch.ColumnMapping.from_ui("id", "report", "report")
    with pytest.raises(batch.BatchProblem, match="'gt' is chosen as both the id and the reference"):
        batch.ColumnMapping.from_ui("gt", "gt", "pred")
    with pytest.raises(batch.BatchProblem, match="both the candidate and the second candidate"):
        batch.ColumnMapping.from_ui("id", "gt", "pred", "pred")


def test_mapping_warning_clears_once_a_choice_is_made(tmp_path):
    path = write_pairs(tmp_path / "mine.csv", 3, ("id", "reference", "text"))
    frame, _ = batch.read_upload(path)
    values = ["id", "reference", None, batch.NO_COLUMN, batch.NO_COLUMN, batch.NO_COLUMN]
    kind, message = batch.mapping_status(path, frame, values)
    assert kind == "warn" and "Could not guess the candidate column" in message and "3 rows" in message
    kind, message = batch.mapping_status(path, frame, values[:2] + ["text"] + values[3:])
    assert kind == "ok" and "Could not guess" not in message and "candidate: 'text'" in message
    kind, message = batch.mapping_status(path, frame, values[:2] + ["reference"] + values[3:])
    assert kind == "error" and "chosen as both" in message
    kind, message = batch.mapping_status(path, frame, values[:2] + ["cand"] + values[3:])
    assert kind == "error" and "Not in the file: 'cand' (candidate)" in message


def test_non_tabular_uploads_are_refused_naming_the_formats(tmp_path):
    prose = tmp_path / "notes.txt"
    prose.write_text("The lungs are clear. No effusion.\nHeart size normal.\n", encoding="utf-8")
    with pytest.raises(batch.BatchProblem, match="notes.txt: line 1 holds a single column .* accepted: CSV or TSV"):
        batch.read_upload(prose)
    sheet = tmp_path / "pairs.xlsx"
    sheet.write_bytes(b"PK\x03\x04")
    with pytest.raises(batch.BatchProblem, match=r"pairs.xlsx: not a table of report pairs; upload one of "
                                                 r"\.csv, \.tsv, \.jsonl, \.json, \.txt"):
        batch.read_upload(sheet)


def test_app_refuses_the_same_column_twice_and_clears_the_warning(client, tmp_path):
    from gradio_client import handle_file

    path = write_pairs(tmp_path / "twice.csv", 3)
    args = [handle_file(str(path)), "id", "reference", "reference", NONE, NONE, NONE, ["bleu"], "", 1]
    progress = client.predict(*args, api_name="/batch")[0]
    assert "chosen as both the reference and the candidate column" in progress
    assert "Traceback" not in progress
    odd = write_pairs(tmp_path / "odd.csv", 3, ("id", "reference", "text"))
    status = client.predict(handle_file(str(odd)), api_name="/inspect_file")[0]
    assert "Could not guess the candidate column" in status
    status = client.predict(handle_file(str(odd)), "id", "reference", "text", NONE, NONE, NONE,
                            api_name="/check_mapping")
    assert "Could not guess" not in status and "candidate: &#x27;text&#x27;" in status
    prose = tmp_path / "notes.txt"
    prose.write_text("The lungs are clear. No effusion.\n", encoding="utf-8")
    status = client.predict(handle_file(str(prose)), api_name="/inspect_file")[0]
    assert "not a table of pairs" in status and "JSONL" in status


def test_mapping_needs_reference_and_candidate():
    with pytest.raises(batch.BatchProblem, match="Choose the reference and the candidate"):
        batch.ColumnMapping.from_ui("id", "reference", None)
    mapping = batch.ColumnMapping.from_ui(batch.NUMBER_ROWS, "ref", "cand", batch.NO_COLUMN, "", None)
    assert (mapping.id, mapping.candidate_b, mapping.modality) == (None, None, None)


def test_build_pairs_names_the_upload_not_the_server_path(tmp_path):
    path = write_pairs(tmp_path / "mine.csv", 3, ("id", "reference", "text"))
    mapping = batch.ColumnMapping.from_ui("id", "reference", "candidate")
    with pytest.raises(batch.BatchProblem) as info:
        batch.build_pairs(path, mapping, 100)
    message = str(info.value)
    assert message.startswith("mine.csv: column 'candidate' (the candidate column) not found")
    assert str(tmp_path) not in message


def test_build_pairs_with_a_second_candidate_and_the_pair_limit(tmp_path):
    path = write_pairs(tmp_path / "ab.csv", 4, ("id", "reference", "candidate", "candidate_b"))
    mapping = batch.ColumnMapping.from_ui("id", "reference", "candidate", "candidate_b")
    pairs, pairs_b = batch.build_pairs(path, mapping, 100)
    assert [p.id for p in pairs] == [p.id for p in pairs_b] == [f"pair-{i:02d}" for i in range(4)]
    assert pairs_b[0].candidate == pairs[0].reference  # write_pairs puts the reference in column B
    with pytest.raises(batch.BatchProblem, match="at most 3 per upload"):
        batch.build_pairs(path, mapping, 3)


def test_duplicate_ids_point_to_the_line(tmp_path):
    path = tmp_path / "dupes.csv"
    path.write_text("id,reference,candidate\na,x,y\na,x,z\n", encoding="utf-8")
    with pytest.raises(batch.BatchProblem, match="dupes.csv: line 3: id 'a'"):
        batch.build_pairs(path, batch.ColumnMapping.from_ui("id", "reference", "candidate"), 10)


def test_run_id_is_checked():
    assert batch.check_run_id("  ") is None
    assert batch.check_run_id("my-run_1.v2") == "my-run_1.v2"
    with pytest.raises(batch.BatchProblem):
        batch.check_run_id("../../etc/passwd")


def test_system_comparison_on_hand_made_scores():
    rows_a = [{"id": str(i), "metrics": {"bleu": {"score": s, "error": None}}}
              for i, s in enumerate([0.1, 0.2, 0.3, 0.4])]
    rows_b = [{"id": str(i), "metrics": {"bleu": {"score": s + 0.1, "error": None}}}
              for i, s in enumerate([0.1, 0.2, 0.3, 0.4])]
    frame, raw = batch.system_comparison(rows_a, rows_b, ["bleu"], {"bleu": "higher"})
    row = frame.iloc[0]
    # Every pair improves by exactly 0.1: mean A = 0.25, mean B = 0.35, B - A = 0.1 with a
    # collapsed interval; no level of it reaches 0, so p is the floor 1 / (resamples + 1),
    # shown as "< 0.001", and B is better.
    assert row["pairs"] == 4
    assert row["A [95% CI]"].startswith("0.2500") and row["B [95% CI]"].startswith("0.3500")
    assert row["B − A [95% CI]"] == "0.1000 [0.1000, 0.1000]"
    assert raw["bleu"]["paired"]["p_value"] < 0.001 and row["p"] == "< 0.001"
    assert row["verdict"] == "B better (p < 0.05)"


def test_system_comparison_respects_lower_is_better():
    if "crepe" not in production().names():
        pytest.skip("needs a lower-is-better metric")
    rows_a = [{"id": str(i), "metrics": {"crepe": {"score": 2.0 + i, "error": None}}} for i in range(5)]
    rows_b = [{"id": str(i), "metrics": {"crepe": {"score": 1.0 + i, "error": None}}} for i in range(5)]
    lower = {"crepe": production().get("crepe").card.direction}
    frame, _ = batch.system_comparison(rows_a, rows_b, ["crepe"], lower)
    assert frame.iloc[0]["verdict"] == "B better (p < 0.05)"  # fewer predicted errors


def test_demo_grade_metrics_get_no_verdict_unless_asked():
    rows_a = [{"id": str(i), "metrics": {"crepe": {"score": 2.0 + i, "error": None,
                                                   "demo_grade": True}}} for i in range(5)]
    rows_b = [{"id": str(i), "metrics": {"crepe": {"score": 1.0 + i, "error": None,
                                                   "demo_grade": True}}} for i in range(5)]
    lower = {"crepe": "lower"}
    frame, raw = batch.system_comparison(rows_a, rows_b, ["crepe"], lower)
    assert frame.iloc[0]["verdict"] == "left out: demo-grade model" and raw["crepe"]["demo_grade"]
    assert frame.iloc[0]["B − A [95% CI]"] != "n/a"  # the numbers stay visible
    frame, _ = batch.system_comparison(rows_a, rows_b, ["crepe"], lower, include_demo=True)
    assert frame.iloc[0]["verdict"] == "B better (p < 0.05)"


def test_failed_pairs_are_left_out_of_the_comparison():
    rows_a = [{"id": "1", "metrics": {"bleu": {"score": 0.5, "error": None}}},
              {"id": "2", "metrics": {"bleu": {"score": None, "error": "input: empty"}}}]
    rows_b = [{"id": "1", "metrics": {"bleu": {"score": 0.7, "error": None}}},
              {"id": "2", "metrics": {"bleu": {"score": 0.9, "error": None}}}]
    frame, raw = batch.system_comparison(rows_a, rows_b, ["bleu"], {"bleu": "higher"})
    assert raw["bleu"]["paired"]["n"] == 1 and frame.iloc[0]["verdict"] == "—"


def test_downloads_round_trip(tmp_path):
    from radscope.engine.io import dataio

    pairs = dataio.read_pairs(write_pairs(tmp_path / "p.csv", 5))
    ctx = RuntimeContext()
    run_a = run_batch(pairs, ["bleu"], ctx, registry=production())
    run_b = run_batch(pairs, ["bleu"], ctx, registry=production())
    jsonl, csv_path, summary = batch.write_downloads(run_a, run_b, {"bleu": {"n": 5}}, tmp_path / "out")
    lines = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 5
    assert lines[0]["metrics"]["bleu"]["score"] == lines[0]["metrics_b"]["bleu"]["score"]
    table = pd.read_csv(csv_path)
    assert {"bleu_score", "bleu_score_b"} <= set(table.columns) and len(table) == 5
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert data["n_pairs"] == 5 and data["system_b"]["n_pairs"] == 5 and data["comparison"]["bleu"]["n"] == 5


def test_results_table_collects_errors_in_one_column():
    rows = [{"id": "a", "metrics": {"bleu": {"score": 0.5, "error": None},
                                    "rouge": {"score": None, "error": "input: candidate report is empty"}}},
            {"id": "b", "metrics": {"bleu": {"score": 0.25, "error": None},
                                    "rouge": {"score": 0.75, "error": None}}}]
    styled = batch.results_table(rows, ["bleu", "rouge"])
    frame = styled.data
    assert list(frame.columns) == ["id", "bleu", "rouge", "errors"]
    assert frame.loc[0, "errors"] == "rouge: input: candidate report is empty"
    assert frame.loc[1, "errors"] == ""
    clean = batch.results_table(rows[1:], ["bleu", "rouge"]).data
    assert "errors" not in clean.columns


def test_progress_text_counts_pairs_and_estimates_the_rest():
    start = time.monotonic() - 10.0
    p = batch.Progress("A", done=10, total=40, n_pairs=20, started=start, start_done=0)
    # 10 of 40 results in 10 s -> 1 s per result -> 30 s left; 10/40 of 20 pairs = 5 pairs.
    assert p.pairs_done == 5 and p.eta_s() == pytest.approx(30.0, rel=0.05)
    html = batch.progress_html(p)
    assert "5/20 pairs (25 %)" in html and "ETA 30 s" in html
    assert "10/40 results (pairs × metrics)" in html


def test_one_progress_for_both_systems_timed_from_the_start_of_the_run():
    start = time.monotonic() - 30.0
    # System B half done (20 of 40 results): the whole run is 60 of 80 results, 30 of 40 pairs.
    whole = batch.whole_run(batch.Progress("B", 20, 40, 20, time.monotonic()), 2, start, 0)
    assert (whole.done, whole.total, whole.n_pairs, whole.pairs_done) == (60, 80, 40, 30)
    assert whole.eta_s() == pytest.approx(10.0, rel=0.05)  # 60 results in 30 s, 20 left
    html = batch.progress_html(whole, systems=2)
    assert "Scoring (now system B): 30/40 pairs of both systems (75 %)" in html
    assert "elapsed 30 s" in html and "× systems" in html
    done = batch.progress_html(batch.whole_run(batch.Progress("B", 40, 40, 20, start), 2, start, 0),
                               systems=2, state="done")
    assert "Done systems A and B: 40/40 pairs of both systems (100 %)" in done
    assert "data-percent='100'" in done


@pytest.mark.parametrize("seconds, text", [(None, "—"), (5, "5 s"), (75, "1 min 15 s"),
                                           (3 * 3600 + 120, "3 h 02 min")])
def test_fmt_seconds(seconds, text):
    assert batch.fmt_seconds(seconds) == text


def test_crepe_totals_are_means_times_pairs():
    entry = {"n": 4, "corpus": {"n_pairs": 4, "mean_counts": {"A": 0.5, "B": 0.25, "C": 0, "D": 1,
                                                                  "E": 0, "F": 0.75}}}
    fig = crepe_totals(entry, [], "crepe")
    assert list(fig.data[0].y) == [2.0, 1.0, 0.0, 4.0, 0.0, 3.0]


def test_crepe_with_two_systems_draws_each_mean_per_pair_labelled():
    # A scored 4 pairs, B 2 (two failed): totals would favour B for failing; means per pair do not.
    entry_a = {"n": 4, "corpus": {"n_pairs": 4, "mean_counts": {"A": 0.5, "B": 0, "C": 0, "D": 1,
                                                                  "E": 0, "F": 0}}}
    entry_b = {"n": 2, "corpus": {"n_pairs": 2, "mean_counts": {"A": 1.0, "B": 0, "C": 0, "D": 0.5,
                                                                  "E": 0, "F": 0}}}
    fig = crepe_totals(entry_a, [], "crepe", (entry_b, []))
    assert [t.name for t in fig.data] == ["system A (4 pairs)", "system B (2 pairs)"]
    assert list(fig.data[0].y) == [0.5, 0, 0, 1, 0, 0] and list(fig.data[1].y) == [1, 0, 0, 0.5, 0, 0]
    assert fig.layout.barmode == "group" and "per pair" in fig.layout.yaxis.title.text


def test_crepe_totals_fall_back_to_stored_counts():
    rows = [{"metrics": {"crepe": {"error": None, "counts": {"A": 1, "B": 0, "C": 0, "D": 0, "E": 0, "F": 2},
                                   "total": 3}}}] * 2
    fig = crepe_totals({"n": 2, "corpus": {}}, rows, "crepe")
    assert list(fig.data[0].y) == [2.0, 0.0, 0.0, 0.0, 0.0, 4.0]


def test_clear_per_condition_plot_reads_the_corpus_aggregate():
    from radscope.engine.metrics.clear.score import ClearPairScore
    from tests.reference.clear import score_corpus
    from tests.ui import standins

    pair = ClearPairScore.from_json({**standins.clear_details(), "score": 0.8})
    corpus = score_corpus([pair]).to_json()
    fig = clear_per_condition({"corpus": corpus}, [], "clear")
    pos = dict(zip(fig.data[0].x, fig.data[0].y))
    # One pair: effusion and atelectasis positive in both (F1 1), pneumothorax invented (F1 0).
    assert pos["Pleural Effusion"] == 1.0 and pos["Pneumothorax"] == 0.0 and pos["Edema"] is None


def test_distribution_leaves_out_metrics_without_scores():
    rows = [{"id": "1", "metrics": {"bleu": {"score": 0.5, "error": None},
                                    "crepe": {"score": None, "error": "model missing"}}}]
    fig = distribution_figure(rows, ["bleu", "crepe"], {"bleu": "higher", "crepe": "lower"})
    assert [a.text for a in fig.layout.annotations] == ["bleu ↑"]


def test_app_shows_the_run_id_and_a_stopped_run_resumes_without_one(standin_client, standin_server, tmp_path):
    from gradio_client import handle_file

    from radscope.engine.runs.store import Store
    from tests.ui import standins

    path = write_pairs(tmp_path / "again.csv", 20)
    args = [handle_file(str(path)), "id", "reference", "candidate", NONE, NONE, NONE, ["slow-standin"], "", 1]
    standins.CALLS.pop("slow-standin", None)
    job = standin_client.submit(*args, api_name="/batch")
    time.sleep(1.0)
    standin_client.predict(api_name="/stop_batch")
    progress = job.result()[0]
    run_id = progress.split("stored in run ")[1].split(";")[0]
    assert "Stopped" in progress and run_id.startswith("run-")
    done_first = Store(standin_server.store_path).get_run(run_id).n_results
    scored_first = standins.CALLS["slow-standin"]
    progress = standin_client.predict(*args, api_name="/batch")[0]  # no run id given
    assert f"run id {run_id}" in progress and "20/20 pairs (100 %)" in progress
    assert standins.CALLS["slow-standin"] - scored_first == 20 - done_first


def test_app_refuses_an_unclosed_quote_naming_the_line(client, tmp_path):
    from gradio_client import handle_file

    path = tmp_path / "open.csv"
    path.write_text('id,reference,candidate\np1,Lungs clear.,"No effusion.\np2,Lungs clear.,Clear.\n'
                    'p3,Lungs clear.,Clear."\np4,Lungs clear.,Clear.\n', encoding="utf-8")
    status = client.predict(handle_file(str(path)), api_name="/inspect_file")[0]
    assert "open.csv: line 2, column 3" in status and "looks like a row of its own at line 3" in status
    args = [handle_file(str(path)), "id", "reference", "candidate", NONE, NONE, NONE, ["bleu"], "", 1]
    progress = client.predict(*args, api_name="/batch")[0]
    assert "open.csv: line 2, column 3" in progress and "Traceback" not in progress


def test_summary_table_shows_headline_figures_with_their_intervals():
    """The app's summary table: CLEAR F1@13 and F1@5 with their bootstrap CIs beside the mean."""
    from collections import Counter
    from pathlib import Path

    from radscope.engine.runs.summary import SummaryBuilder
    from radscope.ui.views.common import fmt

    recorded = json.loads((Path(__file__).parents[1] / "fixtures" / "corpus_stats" / "recorded.json")
                          .read_text(encoding="utf-8"))["clear"]
    metric = production().get("clear").build(RuntimeContext(options={"extractor": "rules"}))
    builder = SummaryBuilder([metric], {"clear": recorded["signature"]}, n_resamples=200)
    for result in recorded["results"]:
        builder.add_row({"clear": result})
    summary = builder.summary(Counter())
    f13 = summary["metrics"]["clear"]["corpus_figures"]["presence.pos_f1@13"]
    assert f13["ci_low"] < f13["value"] < f13["ci_high"]
    html = batch.summary_html(summary)
    assert (f"F1@13 {fmt(f13['value'], 4)} [{fmt(f13['ci_low'], 4)}, {fmt(f13['ci_high'], 4)}]"
            in html)
    assert "F1@5 " in html


@pytest.mark.parametrize("metric, score_figure, other", [
    ("crepe", "mean_total", None), ("radsem", "mean", "abnormal F1"), ("vert", "vert.mean", "GREEN mean")])
def test_one_mean_has_one_interval_and_figures_read_as_words(metric, score_figure, other):
    """Issue 38: "crepe 0.4000 [0.150, 0.900]" sat beside "mean_total 0.4000 [0.1500, 0.7500]",
    labels read "vert vert.mean", signatures filled half the table."""
    from collections import Counter
    from pathlib import Path

    from radscope.engine.runs.summary import SummaryBuilder, format_summary
    from radscope.ui.views.common import fmt

    recorded = json.loads((Path(__file__).parents[1] / "fixtures" / "corpus_stats" / "recorded.json")
                          .read_text(encoding="utf-8"))[metric]
    built = production().get(metric).build(RuntimeContext(options={"extractor": "rules"}))
    builder = SummaryBuilder([built], {metric: recorded["signature"]}, n_resamples=200)
    for result in recorded["results"]:
        builder.add_row({metric: result})
    summary = builder.summary(Counter())
    entry = summary["metrics"][metric]
    assert entry["score_figure"] == score_figure
    mean = entry["corpus_figures"][score_figure]
    assert (mean["value"], mean["ci_low"], mean["ci_high"]) == (entry["mean"], entry["ci_low"],
                                                                entry["ci_high"])
    html = batch.summary_html(summary)
    interval = f"[{fmt(entry['ci_low'], 4)}, {fmt(entry['ci_high'], 4)}]"
    assert html.count(interval) == 1 and html.count(fmt(entry["mean"], 4)) == 1
    figure_lines = html.split("rs-muted'>")[1:]  # each headline figure starts a muted line
    assert not [line for line in figure_lines
                if line.startswith((f"{score_figure} ", f"{batch.figure_label(score_figure)} "))]
    assert other is None or any(line.startswith(f"{other} ") for line in figure_lines)
    assert "vert.mean" not in html and "green.mean" not in html
    table, folded = html.split("</table>", 1)
    assert recorded["signature"] not in table and "<details" in folded and recorded["signature"] in folded
    terminal = format_summary(summary)
    assert score_figure + " " not in terminal and terminal.count(
        f"[{entry['ci_low']:.4f}, {entry['ci_high']:.4f}]") == 1


def test_the_runs_table_lists_the_stored_runs_with_their_pairs_and_size(tmp_path):
    from radscope.engine.io.reports import ReportPair
    from radscope.engine.runs.store import Store

    store = Store(tmp_path / "db.sqlite")
    pairs = [ReportPair(f"p{i}", "No pleural effusion.", f"Small effusion {i}.") for i in range(8)]
    run = run_batch(pairs, ["bleu", "rouge"], RuntimeContext(), registry=production(), store=store,
                    run_id="r1", input_label="pairs.csv")
    frame = batch.runs_frame(store)
    assert list(frame["run id"]) == [r.run_id for r in store.list_runs()] == [run.run_id]
    row = frame.iloc[0]
    assert (row["pairs"], row["results"], row["status"]) == (8, "16/16", "finished")
    assert row["size"].endswith(("B", "KB")) and row["size"] != "0 B"
    store.close()
