"""The running app through gradio_client: named endpoints, /compare, a 20-pair batch with its
downloads, resume after a stop, and readable messages for bad input."""
from __future__ import annotations

import csv
import json
import time
import uuid
from pathlib import Path

import pandas as pd
import pytest
from gradio_client import handle_file
from gradio_client.exceptions import AppError

from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.lexical.metric import bleu, rouge_l
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.results import STANDARD_KEYS
from tests.ui import standins

EXPECTED_ENDPOINTS = {"/compare", "/compare_panels", "/structure", "/load_reference",
                      "/load_candidate", "/inspect_file", "/batch", "/stop_batch", "/list_runs",
                      "/use_judge", "/check_judge", "/fetch_model", "/models", "/unload_models"}
NONE = "(none)"


def write_pairs(path: Path, n: int = 20, columns=("id", "reference", "candidate"),
                fresh: bool = False) -> Path:
    """Pairs from the shipped examples; fresh=True adds a line no other file has, so the run
    store (shared by a test session's app) cannot answer them from an earlier test's run."""
    examples = example_pairs()
    tag = f" Test file {uuid.uuid4().hex[:12]}." if fresh else ""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for i in range(n):
            pair = examples[i % len(examples)].pair
            values = {"id": f"pair-{i:02d}", "reference": pair.reference + tag,
                      "candidate": pair.candidate + tag,
                      "candidate_b": pair.reference, "text": pair.candidate}
            writer.writerow([values[c] for c in columns])
    return path


def batch_args(path: Path, metrics: list[str], run_id: str = "", candidate: str = "candidate",
               candidate_b: str = NONE) -> list:
    return [handle_file(str(path)), "id", "reference", candidate, candidate_b, NONE, NONE, metrics,
            run_id, 1]


def value_of(output):
    """An output's value, whether it came back plain or as a component update."""
    if isinstance(output, dict) and output.get("__type__") == "update":
        return output.get("value")
    return output


def files_of(result: tuple) -> dict[str, Path]:
    """The three downloads among the /batch outputs, by extension."""
    found = {}
    for value in result:
        if isinstance(value, str) and Path(value).is_file():
            name = Path(value).name
            key = "summary" if name.endswith("-summary.json") else Path(value).suffix.lstrip(".")
            found[key] = Path(value)
    return found


def test_every_action_has_a_name(client, app_server):
    named = set(client.view_api(return_format="dict", print_info=False)["named_endpoints"])
    assert named >= EXPECTED_ENDPOINTS
    # Every event of the app, documented or not, carries an api_name.
    unnamed = [fn.name for fn in app_server.demo.fns.values() if not fn.api_name]
    assert unnamed == []


def test_compare_parameters_after_the_texts_have_defaults(client):
    params = client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/compare"]["parameters"]
    assert [p["parameter_name"] for p in params[:2]] == ["reference", "candidate"]
    assert not params[0]["parameter_has_default"] and not params[1]["parameter_has_default"]
    assert all(p["parameter_has_default"] for p in params[2:])


def test_compare_on_an_example_returns_each_selected_metric(client):
    pair = next(e.pair for e in example_pairs() if e.pair.id == "effusion-laterality")
    chosen = [n for n in production().names() if production().get(n).kind == "lexical"]
    results = client.predict(pair.reference, pair.candidate, metrics=",".join(chosen),
                             api_name="/compare")
    assert list(results) == chosen
    for name, result in results.items():
        assert set(STANDARD_KEYS) <= set(result), name
        assert result["error"] is None
    # The app runs the same functions as the engine: recompute two of them directly.
    assert results["bleu"]["score"] == pytest.approx(bleu(pair.reference, pair.candidate, n=4))
    assert results["rouge"]["score"] == pytest.approx(rouge_l(pair.reference, pair.candidate))
    assert results["bleu"]["direction"] == "higher"


def test_compare_default_metrics_are_the_real_offline_ones(client):
    """Without ``metrics`` the endpoint scores the page's default selection: every metric that
    gives real numbers offline (every metric starts on the rules reader), no demo-grade model."""
    pair = example_pairs()[0].pair
    results = client.predict(pair.reference, pair.candidate, api_name="/compare")
    offline = [n for n in production().names() if n in {"clear", "radsem", "bleu", "bleu1", "rouge",
                                                     "crepe", "srr", "vert"}]
    assert list(results) == offline
    assert not any(r["demo_grade"] for r in results.values())
    assert not any(r["model"] and r["model"].startswith("gemma") for r in results.values())
    for result in results.values():  # each one a score or a readable error, never nothing
        assert result["score"] is not None or result["error"]


@pytest.mark.parametrize("reference, candidate, message", [
    ("Lungs are clear.", "", "The candidate report is empty"),
    ("   ", "Lungs are clear.", "The reference report is empty"),
    ("Lungs are clear. " * 120_000, "Lungs are clear.", "the limit is 20,000"),
    ("Lungs\x00 clear.", "Lungs are clear.", "binary data"),
])
def test_compare_rejects_bad_input_with_a_readable_message(client, reference, candidate, message):
    with pytest.raises(AppError) as info:
        client.predict(reference, candidate, metrics="bleu", api_name="/compare")
    assert message in str(info.value)
    assert "Traceback" not in str(info.value)


def test_compare_rejects_unknown_metric_and_option(client):
    with pytest.raises(AppError, match="Unknown metric"):
        client.predict("a", "b", metrics="bleu,nonsense", api_name="/compare")
    with pytest.raises(AppError, match="Unknown option"):
        client.predict("a", "b", metrics="bleu", options={"no_such_option": 1}, api_name="/compare")


def test_batch_of_20_pairs_completes_and_downloads_parse(client, tmp_path):
    path = write_pairs(tmp_path / "pairs.csv", 20)
    result = client.predict(*batch_args(path, ["bleu", "rouge"]), api_name="/batch")
    progress = result[0]
    assert "20/20 pairs (100 %)" in progress and "data-state='done'" in progress
    files = files_of(result)
    assert set(files) == {"jsonl", "csv", "summary"}
    rows = [json.loads(line) for line in files["jsonl"].read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [f"pair-{i:02d}" for i in range(20)]
    first = example_pairs()[0].pair
    assert rows[0]["metrics"]["bleu"]["score"] == pytest.approx(bleu(first.reference, first.candidate))
    table = pd.read_csv(files["csv"])
    assert len(table) == 20 and {"id", "bleu_score", "rouge_score"} <= set(table.columns)
    summary = json.loads(files["summary"].read_text(encoding="utf-8"))
    assert summary["n_pairs"] == 20
    assert summary["metrics"]["bleu"]["n"] == 20 and summary["metrics"]["bleu"]["n_errors"] == 0
    # The mean is the mean of the per-pair scores written in the JSONL.
    mean = sum(r["metrics"]["rouge"]["score"] for r in rows) / 20
    assert summary["metrics"]["rouge"]["mean"] == pytest.approx(mean)


def test_batch_with_a_second_candidate_compares_the_systems(client, tmp_path):
    path = write_pairs(tmp_path / "ab.csv", 12, ("id", "reference", "candidate", "candidate_b"))
    result = client.predict(*batch_args(path, ["bleu"], candidate_b="candidate_b"), api_name="/batch")
    comparison = value_of(result[2])
    assert comparison["headers"][:2] == ["metric", "pairs"]
    row = comparison["data"][0]
    # System B repeats the reference, so its BLEU is 1 on every pair and it must win.
    assert row[1] == 12 and row[3].startswith("1.0000") and row[-1] == "B better (p < 0.05)"
    files = files_of(result)
    summary = json.loads(files["summary"].read_text(encoding="utf-8"))
    assert summary["system_b"]["metrics"]["bleu"]["mean"] == pytest.approx(1.0)
    assert summary["comparison"]["bleu"]["paired"]["n"] == 12
    line = json.loads(files["jsonl"].read_text(encoding="utf-8").splitlines()[0])
    assert line["metrics_b"]["bleu"]["score"] == pytest.approx(1.0)


def test_batch_reports_a_missing_column(client, tmp_path):
    path = write_pairs(tmp_path / "no-candidate.csv", 3, ("id", "reference", "text"))
    progress = client.predict(*batch_args(path, ["bleu"]), api_name="/batch")[0]
    assert "column &#x27;candidate&#x27; (the candidate column) not found" in progress
    assert "the file has columns: id, reference, text" in progress
    assert "no-candidate.csv" in progress and "Traceback" not in progress


def test_batch_reports_a_binary_file(client, tmp_path):
    path = tmp_path / "image.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    progress = client.predict(*batch_args(path, ["bleu"]), api_name="/batch")[0]
    assert "binary file" in progress and "image.csv" in progress
    message = client.predict(handle_file(str(path)), api_name="/inspect_file")[0]
    assert "binary file" in message


def test_batch_marks_problem_pairs_without_stopping(client, tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"id": "ok", "reference": "Lungs are clear.", "candidate": "Clear lungs."},
        {"id": "empty", "reference": "Lungs are clear.", "candidate": ""}]) + "\n", encoding="utf-8")
    result = client.predict(*batch_args(path, ["bleu"]), api_name="/batch")
    table = value_of(result[3])
    by_id = {row[0]: dict(zip(table["headers"], row, strict=True)) for row in table["data"]}
    assert "candidate report is empty" in by_id["empty"]["errors"]
    assert by_id["ok"]["errors"] == ""


def test_stopped_batch_resumes_with_its_run_id(standin_client, standin_server, tmp_path):
    from radscope.engine.runs.store import Store

    path = write_pairs(tmp_path / "slow.csv", 20, fresh=True)
    run_id = "resume-test"
    standins.CALLS.pop("slow-standin", None)
    job = standin_client.submit(*batch_args(path, ["slow-standin"], run_id=run_id), api_name="/batch")
    time.sleep(1.0)  # about ten of the twenty pairs at 0.1 s each
    standin_client.predict(api_name="/stop_batch")
    progress = job.result()[0]
    assert "Stopped" in progress and run_id in progress
    store = Store(standin_server.store_path)
    info = store.get_run(run_id)
    assert info.status == "running" and 0 < info.n_results < 20
    done_first = info.n_results
    scored_first = standins.CALLS["slow-standin"]
    choices = standin_client.predict(api_name="/list_runs")[1]["choices"]  # a dropdown update
    assert run_id in [c[0] if isinstance(c, (list, tuple)) else c for c in choices]

    progress = standin_client.predict(*batch_args(path, ["slow-standin"], run_id=run_id),
                                      api_name="/batch")[0]
    assert "20/20 pairs (100 %)" in progress
    info = store.get_run(run_id)
    assert info.status == "finished" and info.n_results == 20
    # Only the pairs missing after the stop were scored again.
    assert standins.CALLS["slow-standin"] - scored_first == 20 - done_first


def test_compare_and_batch_have_queues_of_their_own(app_server):
    """Compare and Batch have their own concurrency groups (a Compare never waits for a batch's
    slot; models are shared through the model gate, tests/security/test_queues.py); events that
    only use a model stay in the group "llm" with limit 1."""
    fns = {fn.api_name: fn for fn in app_server.demo.fns.values()}
    for name in ("compare", "compare_panels"):
        assert fns[name].concurrency_id == "compare" and fns[name].concurrency_limit > 1, name
    assert fns["batch"].concurrency_id == "batch"
    for name in ("structure", "unload_models"):
        assert fns[name].concurrency_id == "llm" and fns[name].concurrency_limit == 1, name
    assert fns["inspect_file"].concurrency_id not in ("llm", "batch")  # previews never wait


def test_models_tab_lists_loaded_metrics_and_registry(client):
    client.predict("Lungs are clear.", "Clear lungs.", metrics="bleu", api_name="/compare")
    loaded, registry_table = client.predict(api_name="/models")
    rows = [dict(zip(loaded["headers"], r, strict=True)) for r in loaded["data"]]
    bleu = next(r for r in rows if r["metric"] == "bleu")
    assert bleu["model"].startswith("none") and bleu["device"] == "cpu"
    from radscope.models import model_registry

    assert [r[0].rstrip(" ★") for r in registry_table["data"]] == list(model_registry.load_registry())
    _, message = client.predict(api_name="/unload_models")
    assert "Unloaded" in message


def test_use_judge_fills_the_judge_options(client):
    from radscope.ui.tabs.models import logic as model_status
    names = model_status.judge_option_names(production())
    if not names:
        pytest.skip("no registered metric declares a judge option")
    judge = "gemma3-270m-demo"  # the registry dropdown always holds a registry id
    out = client.predict(model_status.JUDGE_FROM_URL, judge, "", "", "", "", "http://127.0.0.1:9/v1", "qwen",
                         api_name="/use_judge")
    assert "Judge set to server http://127.0.0.1:9/v1 (model qwen)" in out[0]
    values = dict(zip(names, out[1:1 + len(names)], strict=False))  # the Compare tab's controls
    assert values.get("judge_url") == "http://127.0.0.1:9/v1"
    bad = client.predict(model_status.JUDGE_FROM_PATH, judge, "", "", "", "/no/such.gguf", "", "",
                         api_name="/use_judge")
    assert "/no/such.gguf is not a GGUF file the app can read" in bad[0]


def test_check_judge_reports_a_missing_download(client):
    from radscope.ui.tabs.models import logic as model_status
    message = client.predict(model_status.JUDGE_FROM_HF, "gemma3-270m-demo", "someone/judge-GGUF",
                             "judge.gguf", "", "",
                             "", "", api_name="/check_judge")
    assert "rs-error" in message and "hf download someone/judge-GGUF judge.gguf" in message


def test_structure_action_explains_an_empty_report(client):
    message = client.predict("Lungs are clear.", "", "Candidate", api_name="/structure")
    assert "The candidate report is empty." in str(message)


def test_a_failing_metric_does_not_hide_the_others(standin_client):
    # An abnormal finding on one side: two normal-only reports would be scored as agreement,
    # the reference against itself (engine.eligibility.readable's no-finding rule), and never see FAIL.
    results = standin_client.predict("Lungs are clear.", "FAIL: small left pleural effusion.",
                                     metrics="bleu,clear-standin,radsem-standin", api_name="/compare")
    assert results["clear-standin"]["score"] is None
    assert results["clear-standin"]["error"] == "RuntimeError: stand-in failure requested by the input"
    assert results["bleu"]["error"] is None and results["bleu"]["score"] is not None
    assert results["radsem-standin"]["error"].startswith("RuntimeError")  # same input, same rule


def test_demo_grade_verdicts_only_when_the_checkbox_is_ticked(standin_client, tmp_path):
    """The system comparison leaves a demo-grade metric without a verdict unless "include
    demo-grade metrics in the verdicts" is ticked (the stand-ins run on a demo-grade model)."""
    path = write_pairs(tmp_path / "demo-ab.csv", 8, ("id", "reference", "candidate", "candidate_b"))
    verdicts = {}
    for include in (False, True):
        result = standin_client.predict(*batch_args(path, ["crepe-standin", "bleu"],
                                                    candidate_b="candidate_b"), include,
                                        api_name="/batch")
        table = value_of(result[2])
        rows = [dict(zip(table["headers"], r, strict=True)) for r in table["data"]]
        verdicts[include] = {r["metric"].split()[0]: r["verdict"] for r in rows}
    assert "demo-grade" in verdicts[False]["crepe-standin"]
    assert "demo-grade" not in verdicts[True]["crepe-standin"]
    assert verdicts[False]["bleu"] == verdicts[True]["bleu"] and "demo-grade" not in verdicts[True]["bleu"]


def test_two_systems_from_an_ab_export_are_guessed_and_plotted_side_by_side(client, tmp_path):
    """Issue 38: model_b_report was not taken for system B, and with two systems the CLEAR
    per-condition and CREPE plots drew system A only, unlabelled."""
    path = write_pairs(tmp_path / "ab.csv", 8, ("id", "reference", "candidate", "candidate_b"))
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = "id,reference,model_a_report,model_b_report"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    inspected = client.predict(handle_file(str(path)), api_name="/inspect_file")
    chosen = [value_of(update) for update in inspected[2:]]
    assert chosen[:4] == ["id", "reference", "model_a_report", "model_b_report"]
    args = [handle_file(str(path)), *chosen, ["clear", "crepe"], "", 1]
    result = client.predict(*args, api_name="/batch")
    plots = {}
    for output in result:
        value = value_of(output)
        if isinstance(value, dict) and value.get("type") == "plotly":
            figure = json.loads(value["plot"])
            plots[figure["layout"]["title"]["text"].split(":")[0]] = figure
    for name in ("clear", "crepe"):
        traces = plots[name]["data"]
        assert {t["name"].split(" (")[0] for t in traces} == {"system A", "system B"}, name
        assert "system A and system B" in plots[name]["layout"]["title"]["text"]
    # System B repeats the reference: every CLEAR F1 it has is 1, and CREPE finds no error.
    b_f1 = [y for t in plots["clear"]["data"] if t["name"] == "system B" for y in t["y"]
            if y is not None]
    assert b_f1 and all(y == 1.0 for y in b_f1)
    crepe_b = next(t for t in plots["crepe"]["data"] if t["name"].startswith("system B"))
    summary = json.loads(files_of(result)["summary"].read_text(encoding="utf-8"))
    scored_b = summary["system_b"]["metrics"]["crepe"]["n"]  # pairs in CREPE's scope
    assert crepe_b["name"] == f"system B ({scored_b} pairs)" and all(y == 0 for y in crepe_b["y"])


def test_every_input_of_the_wrong_type_is_refused_with_its_name(client, tmp_path):
    """Issue 46: a checkbox given an object (truthy, so it used to be taken as "on"), a text
    given a list or a number: refused, naming the input, never coerced."""
    path = write_pairs(tmp_path / "pairs.csv", 2)
    with pytest.raises(AppError, match="'include_demo' must be true or false, not dict"):
        client.predict(*batch_args(path, ["bleu"]), {"on": True}, api_name="/batch")
    with pytest.raises(AppError, match="'reference' must be a string, not list"):
        client.predict(["a"], "b", metrics="bleu", api_name="/compare")
    with pytest.raises(AppError, match="'options' must be an object, not str"):
        client.predict("a", "b", metrics="bleu", options="extractor=llm", api_name="/compare")
