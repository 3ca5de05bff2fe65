"""Public-mode rules without a server: when the mode is on, which options a visitor may set,
secrets kept off the page, run ownership in the store, and model checks that are no
filesystem oracle (a named pipe is refused without being opened)."""
from __future__ import annotations

import os
import threading

import pytest

from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.store import Store
from radscope.models.resolve import ModelNotAvailable, resolve
from radscope.ui.tabs.models import logic as model_status
from radscope.ui.config import NO_KEY, AppConfig, ConfigError, load_config
from radscope.ui.public import MASK, OperatorSetting, masked, public_reason, redact, secret_values
from radscope.ui.runtime import RuntimeCache

CANARY = "sk-canary-7f3a9c0e"


@pytest.mark.parametrize("host, env, flag, public", [
    ("127.0.0.1", {}, False, False), ("localhost", {}, False, False), ("::1", {}, False, False),
    ("127.0.0.2", {}, False, False), ("0.0.0.0", {}, False, True), ("192.168.1.20", {}, False, True),
    ("myhost.example", {}, False, True), ("127.0.0.1", {"SPACE_ID": "me/radscope"}, False, True),
    ("127.0.0.1", {}, True, True)])
def test_public_mode_is_on_for_any_reachable_bind_a_space_or_the_flag(host, env, flag, public):
    assert (public_reason(host, flag, env) is not None) is public


def test_app_prints_its_mode_and_passes_it_to_the_config(monkeypatch, capsys):
    import app

    seen = {}
    monkeypatch.setattr("radscope.ui.page.build_demo", lambda config: seen.setdefault("config", config))
    monkeypatch.setattr("radscope.ui.page.queue", lambda demo: type("D", (), {"launch": lambda *a, **k: None})())
    monkeypatch.delenv("SPACE_ID", raising=False)
    assert app.main(["--host", "0.0.0.0"]) == 0
    assert seen["config"].public and "public mode (bound to 0.0.0.0" in capsys.readouterr().err
    seen.clear()
    assert app.main(["--public"]) == 0 and seen["config"].public
    seen.clear()
    assert app.main([]) == 0 and not seen["config"].public


OPERATOR_ONLY = ["judge", "judge_url", "judge_model", "judge_api_key", "vert_fewshot", "crepe_model",
                 "srr_model", "judge_ctx", "judge_threads", "encoder_batch"]


@pytest.mark.parametrize("name", [n for n in OPERATOR_ONLY if n in production().all_options()])
def test_public_requests_cannot_set_operator_options(name):
    config = AppConfig(production(), public=True)
    with pytest.raises(OperatorSetting, match=f"operator.*Refused: {name}\\."):
        config.request_options({name: "/etc/passwd" if production().all_options()[name].type is str else 1})


def test_public_requests_may_pick_fixed_choices_and_get_the_operator_settings():
    config = AppConfig(production(), options={"judge_url": "http://127.0.0.1:9/v1", "judge_api_key": CANARY},
                       public=True)
    options = config.request_options({"extractor": "llm", "judge_url": ""})  # blank = not set
    assert options["extractor"] == "llm"
    assert options["judge_url"] == "http://127.0.0.1:9/v1" and options["judge_api_key"] == CANARY


def test_operator_key_goes_only_to_the_operator_server_in_local_mode():
    config = AppConfig(production(), options={"judge_url": "http://127.0.0.1:9/v1", "judge_api_key": CANARY})
    assert config.request_options({})["judge_api_key"] == CANARY
    assert config.request_options({"judge_url": "http://127.0.0.1:9/v1"})["judge_api_key"] == CANARY
    elsewhere = config.request_options({"judge_url": "http://attacker.invalid/v1"})
    assert elsewhere["judge_api_key"] == NO_KEY
    own = config.request_options({"judge_url": "http://other.invalid/v1", "judge_api_key": "mine"})
    assert own["judge_api_key"] == "mine"


def test_a_configured_key_never_starts_in_a_control():
    config = AppConfig(production(), options={"judge_api_key": CANARY})
    assert config.option_value("judge_api_key") == ""


def test_secrets_are_masked_and_redacted(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-key-123")
    options = {"judge_api_key": CANARY, "extractor": "llm"}
    assert masked(options) == {"judge_api_key": MASK, "extractor": "llm"}
    found = secret_values(options)
    assert set(found) == {CANARY, "sk-env-key-123"}
    echoed = {"error": f"401: bad key Bearer {CANARY}", "list": [f"x{CANARY}y", 3]}
    assert redact(echoed, found) == {"error": f"401: bad key Bearer {MASK}", "list": [f"x{MASK}y", 3]}


def test_loaded_models_table_masks_a_typed_key():
    cache = RuntimeCache(production())
    runtime, _ = cache.metric({"judge_api_key": CANARY}, "bleu")
    for public in (False, True):
        text = model_status.loaded_frame(cache, public).to_csv()
        assert CANARY not in text
    cache.close_all()


def test_runs_belong_to_the_owner_that_claimed_them(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    assert store.claim_run("r1", "alice") and store.claim_run("r1", "alice")
    assert not store.claim_run("r1", "bob")
    store.start_run("r1", "a.csv", ["bleu"])
    store.start_run("cli-run", "b.csv", ["bleu"])  # a command-line run: nobody's
    assert not store.claim_run("cli-run", "alice")
    assert [r.run_id for r in store.list_runs("alice")] == ["r1"]
    assert store.list_runs("bob") == []
    assert {r.run_id for r in store.list_runs()} == {"r1", "cli-run"}  # local mode: all


def test_public_run_ids_are_unguessable():
    from radscope.ui.tabs.batch.logic import default_run_id

    ids = {default_run_id(None, [], [], public=True) for _ in range(50)}  # needs no store
    assert len(ids) == 50 and all(len(i) >= 24 for i in ids)


@pytest.fixture()
def fifo(tmp_path):
    path = tmp_path / "pipe.gguf"
    os.mkfifo(path)
    return path


def _within(seconds: float, fn):
    """Run ``fn`` in a thread; fail (instead of hanging) when it blocks."""
    out: dict = {}

    def target():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            out["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked (opened the named pipe?)"
    return out


def test_resolve_treats_a_non_model_path_like_a_missing_one(tmp_path, fifo):
    messages = {}
    for path in ("/etc/passwd", str(fifo), str(tmp_path / "nothing-here.gguf")):
        out = _within(10, lambda p=path: resolve(p))
        assert isinstance(out.get("error"), ModelNotAvailable), out
        messages[path] = str(out["error"]).replace(path, "PATH")
    assert len(set(messages.values())) == 1, messages


def test_model_checks_say_the_same_for_any_path(tmp_path, fifo):
    for public in (False, True):
        answers = set()
        for path in ("/etc/passwd", str(fifo), str(tmp_path / "missing")):
            out = _within(10, lambda p=path: model_status.fetch_model(p, public=public))
            assert out["value"]["ok"] is False
            answers.add(out["value"]["message"].replace(path, "PATH"))
        assert len(answers) == 1, answers
        (message,) = answers
        assert "size" not in message.lower() and "ready" not in message.lower()


def test_public_model_check_answers_registry_ids_only_and_never_a_path():
    out = model_status.fetch_model("gemma3-270m-demo", public=True)
    assert "gemma3-270m-demo" in out["message"] and "path" not in out


def test_config_file_must_be_a_small_regular_file(tmp_path, fifo):
    out = _within(10, lambda: load_config(fifo, production()))
    assert isinstance(out.get("error"), ConfigError) and "not a regular file" in str(out["error"])
    big = tmp_path / "big.json"
    big.write_text("{" + " " * 1_100_000 + "}")
    with pytest.raises(ConfigError, match="at most"):
        load_config(big, production())


def test_a_fewshot_file_must_be_a_small_regular_file(tmp_path, fifo):
    from radscope.engine.metrics.vert.metric import MAX_FEWSHOT_BYTES, load_fewshot

    out = _within(10, lambda: load_fewshot(fifo))
    assert isinstance(out.get("error"), ValueError) and "regular file" in str(out["error"])
    big = tmp_path / "big.jsonl"
    big.write_bytes(b" " * (MAX_FEWSHOT_BYTES + 1))
    with pytest.raises(ValueError, match="at most"):
        load_fewshot(big)
