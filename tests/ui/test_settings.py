"""Serving settings (app.py flags, environment, --config), the per-settings model cache, the
compare helpers and the Models tab helpers."""
from __future__ import annotations

import json

import pytest

from radscope import launch as app_module
from radscope.engine.metrics.framework.registry import production
from radscope.ui.tabs.models import logic as model_status
from radscope.ui.page import launch_kwargs
from radscope.ui.tabs.compare.logic import InputProblem, input_problems, parse_metrics, read_text_upload
from radscope.ui.config import AppConfig, ConfigError, config_from_dict, load_config
from radscope.ui.runtime import RuntimeCache, coerce_option, normalise_options
from tests.ui.standins import standin_registry


def test_binds_localhost_by_default(monkeypatch):
    monkeypatch.delenv("GRADIO_SERVER_NAME", raising=False)
    monkeypatch.delenv("GRADIO_SERVER_PORT", raising=False)
    args = app_module.build_parser().parse_args([])
    assert (args.host, args.port, args.config) == ("127.0.0.1", 7860, None)


def test_honours_spaces_environment_and_flags_win(monkeypatch):
    monkeypatch.setenv("GRADIO_SERVER_NAME", "0.0.0.0")
    monkeypatch.setenv("GRADIO_SERVER_PORT", "7861")
    args = app_module.build_parser().parse_args([])
    assert (args.host, args.port) == ("0.0.0.0", 7861)
    args = app_module.build_parser().parse_args(["--host", "127.0.0.1", "--port", "8000"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)


def test_launch_settings_keep_the_app_private():
    kwargs = launch_kwargs()
    assert kwargs["server_name"] == "127.0.0.1" and kwargs["share"] is False
    assert kwargs["run_history"] is False and kwargs["enable_monitoring"] is False
    assert kwargs["max_file_size"] == "20mb"


def test_bad_config_exits_with_a_message(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"no_such_option": 1}', encoding="utf-8")
    assert app_module.main(["--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.json: unknown setting 'no_such_option'" in err


def test_config_files_json_and_toml(tmp_path):
    registry = standin_registry()
    toml = tmp_path / "radscope.toml"
    toml.write_text('metrics = ["bleu", "clear-standin"]\nmax_pairs = 50\n'
                    '[options]\nstandin_note = "hello"\n', encoding="utf-8")
    config = load_config(toml, registry)
    assert config.metrics == ["bleu", "clear-standin"] and config.max_pairs == 50
    assert config.options == {"standin_note": "hello"}
    assert config.default_metrics() == ["bleu", "clear-standin"]
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps({"standin_note": "flat", "metrics": "bleu, rouge"}), encoding="utf-8")
    assert load_config(flat, registry).options == {"standin_note": "flat"}
    assert load_config(flat, registry).metrics == ["bleu", "rouge"]
    with pytest.raises(ConfigError, match="unknown setting 'standin_note'"):
        load_config(flat, production())  # the project's own registry never holds a stand-in


@pytest.mark.parametrize("data, message", [
    ({"metrics": ["bleu", "nope"]}, "unknown metric(s) nope"),
    ({"options": {"nope": 1}}, "unknown metric option 'nope'"),
    ({"max_pairs": 0}, "max_pairs must be a positive integer"),
])
def test_config_errors_are_specific(data, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        config_from_dict(data, production())


def test_config_rejects_values_outside_an_options_choices():
    with_choices = next(((n, o) for n, o in production().all_options().items() if o.choices), None)
    if with_choices is None:
        pytest.skip("no registered option has choices")
    name, opt = with_choices
    with pytest.raises(ConfigError, match=f"option '{name}' must be one of"):
        config_from_dict({name: "certainly-not-a-choice"}, production())


def test_not_json_is_reported(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("{oops", encoding="utf-8")
    with pytest.raises(ConfigError, match="c.json: not valid JSON"):
        load_config(path, production())


def test_default_metrics_leave_out_the_llm_judge_and_demo_grade_models():
    config = AppConfig(production())
    fast = config.default_metrics()
    assert fast and not any(config.needs_llm(n) for n in fast)
    real = production().names()
    # Offline every metric starts on the rules reader; none runs a demo-grade model.
    assert [n for n in fast if n in real] == [n for n in real if n in {
        "clear", "radsem", "bleu", "bleu1", "rouge", "crepe", "srr", "vert"}]
    # With the LLM extractor, the demo judge and the bundled demo encoders stay unticked.
    llm_fast = AppConfig(production(), options={"extractor": "llm"}).default_metrics()
    assert not {"clear", "radsem", "crepe", "srr", "vert"} & set(llm_fast)
    if "extractor" in production().all_options():
        assert config.option_value("extractor") == "rules"  # the registry's or the app's default
        llm = AppConfig(production(), options={"extractor": "llm"})
        assert llm.option_value("extractor") == "llm" and llm.needs_llm("clear")


def test_runtime_cache_keeps_one_context_per_settings():
    cache = RuntimeCache(standin_registry(), max_contexts=2)
    r1, m1 = cache.metric({}, "clear-standin")
    r2, m2 = cache.metric({"standin_note": ""}, "clear-standin")  # blank = default
    assert r1 is r2 and m1 is m2
    r3, _ = cache.metric({"standin_note": "x"}, "clear-standin")
    assert r3 is not r1 and r3.options == {"standin_note": "x"}
    cache.metric({"standin_note": "y"}, "clear-standin")  # third settings: evicts the oldest
    keys = [r.options for r in cache.loaded()]
    assert len(keys) == 2 and {} not in keys
    assert cache.close_all() == 2 and cache.loaded() == []


def test_option_values_are_coerced_and_checked():
    ints = next((o for o in production().all_options().values() if o.type is int), None)
    if ints:
        assert coerce_option(ints, 4.0) == 4
        with pytest.raises(ValueError, match="needs a int"):
            coerce_option(ints, 2.5)
    assert normalise_options(production(), {"not_an_option": 1}) == {}


def test_compare_input_checks():
    assert input_problems("a", "b") == []
    problems = input_problems("", "x" * 25_000)
    assert problems[0].startswith("The reference report is empty")
    assert "25,000 characters; the limit is 20,000" in problems[1]
    assert parse_metrics(production(), "BLEU, rouge ,bleu") == ["bleu", "rouge"]
    with pytest.raises(InputProblem, match="Choose at least one metric"):
        parse_metrics(production(), [])


def test_text_upload_checks(tmp_path):
    good = tmp_path / "r.txt"
    good.write_text("Lungs are clear.", encoding="utf-8")
    assert read_text_upload(good) == "Lungs are clear."
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Épanchement".encode("latin-1"))
    with pytest.raises(InputProblem, match="latin.txt: not UTF-8 text"):
        read_text_upload(latin)
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(InputProblem, match="the file is empty"):
        read_text_upload(empty)


def test_judge_choice_from_each_source(tmp_path):
    reg = model_status.judge_choice(model_status.JUDGE_FROM_REGISTRY, registry_id="qwen2.5-7b-instruct")
    assert (reg.judge, reg.judge_url) == ("qwen2.5-7b-instruct", None)
    hf = model_status.judge_choice(model_status.JUDGE_FROM_HF, hf_repo="org/repo",
                                   hf_file="model-Q4_K_M.gguf", hf_revision="abc123")
    assert hf.judge == "org/repo:model-Q4_K_M.gguf@abc123"
    gguf = tmp_path / "judge.gguf"
    gguf.write_bytes(b"GGUF")
    local = model_status.judge_choice(model_status.JUDGE_FROM_PATH, local_path=str(gguf))
    assert local.judge == str(gguf.resolve())
    server = model_status.judge_choice(model_status.JUDGE_FROM_URL, url="http://127.0.0.1:8000/v1",
                                       url_model="qwen")
    assert (server.judge, server.judge_url, server.judge_model) == (None, "http://127.0.0.1:8000/v1", "qwen")


@pytest.mark.parametrize("source, kwargs, message", [
    (model_status.JUDGE_FROM_HF, {"hf_repo": "justaname", "hf_file": "x.gguf"}, "owner/name"),
    (model_status.JUDGE_FROM_HF, {"hf_repo": "a/b", "hf_file": "x.bin"}, "GGUF file"),
    (model_status.JUDGE_FROM_PATH, {"local_path": "/no/such/judge.gguf"}, "is not a GGUF file"),
    (model_status.JUDGE_FROM_URL, {"url": "localhost:8000"}, "base URL"),
])
def test_judge_choice_errors(source, kwargs, message):
    with pytest.raises(ValueError, match=message):
        model_status.judge_choice(source, **kwargs)


def test_fetch_model_explains_what_is_missing():
    outcome = model_status.fetch_model("someone/not-cached:model.gguf")
    assert outcome["ok"] is False
    # Offline in tests: the message says how to get the file on a connected machine.
    assert "hf download someone/not-cached model.gguf" in outcome["message"]
    assert model_status.fetch_model("")["message"] == "Choose or type a model first."


def test_registry_table_lists_every_model_with_its_status():
    from radscope.models import model_registry

    frame = model_status.registry_frame()
    assert [i.rstrip(" ★") for i in frame["model"]] == list(model_registry.load_registry())
    hf_rows = frame[frame["source"].str.startswith("Hugging Face ")]
    assert set(hf_rows["status"]) <= {model_status.READY, model_status.NOT_HERE,
                                      "downloaded, not prepared yet"}
    shipped = frame[frame["source"] == "ships with RadScope"]
    assert set(shipped["status"]) == {model_status.READY}


def test_one_status_per_model_in_the_table_and_its_get_row():
    from radscope.models import model_registry
    from radscope.ui.tabs.models.get_rows import row_html

    frame = model_status.registry_frame()
    for entry, status in zip(model_registry.load_registry().values(), frame["status"], strict=True):
        assert f"data-state='{status}'" in row_html(entry), entry.id


def test_loaded_models_read_as_words_not_json():
    assert model_status.readable_detail({"reader": "radscope-reader", "lexicon": "2c1e19424608aa" * 4,
                                         "empty": ""}) == "reader: radscope-reader; lexicon: 2c1e19424608…"


def test_structured_report_layout_is_escaped_and_flags_demo_models():
    from radscope.engine.context import ModelInfo
    from radscope.engine.structured.rewrite import StructuredReport, StructureResult
    from radscope.ui.tabs.compare.structure_action import structured_html

    report = StructuredReport(exam_type="Chest radiograph", history="", technique="PA and lateral",
                              comparison="", findings={"Pleura": ["Small left effusion <b>x</b>"]},
                              impression=["Small left pleural effusion.", "No pneumothorax."])
    result = StructureResult(report, ModelInfo("gemma3-270m-demo", demo_grade=True), "structure.srrg", {})
    page = structured_html(result)
    assert "<b>Exam Type:</b> Chest radiograph" in page
    assert "<b>History:</b> <span class='rs-muted'>not given in the report</span>" in page
    assert "<i>Pleura</i>" in page and "Lungs and Airways" not in page  # empty headers left out
    assert "&lt;b&gt;x&lt;/b&gt;" in page  # the judge's text is escaped
    assert "<ol class='rs-list'><li>Small left pleural effusion.</li><li>No pneumothorax.</li></ol>" in page
    assert "demo-grade model" in page
