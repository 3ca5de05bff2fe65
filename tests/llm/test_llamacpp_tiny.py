"""The embedded llama.cpp backend on the tiny random GGUF: loading, chat templates, the fast
grammar sampler (checked against llama-cpp-python's own), determinism and thread safety."""
import json
import threading

import pytest

from radscope.engine.metrics.clear.schema import (
    CONDITIONS,
    PRESENCE_VALUES,
    attribute_answer_schema,
    presence_schema,
)
from radscope.engine.metrics.framework.judging import judge_for
from radscope.engine.runtimes.jsontext import extract_json, schema_problems
from radscope.engine.runtimes.judge import Judge, JudgeError
from radscope.engine.runtimes.llamacpp import (
    LlamaCppBackend,
    LlamaSettings,
    _grammar_text,
    choose_chat_format,
    render_builtin,
)
from radscope.engine.runtimes.prompts import load_prompt
from tests.llm.conftest import THREADS

REPORT = "FINDINGS: Small left pleural effusion. Mild cardiomegaly.\nIMPRESSION: Effusion."


@pytest.fixture(scope="module")
def backend(tiny_gguf):
    b = LlamaCppBackend(tiny_gguf, model_id="tiny.gguf", sha256="0" * 64,
                        settings=LlamaSettings(n_threads=THREADS))
    yield b
    b.close()


def _messages(report=REPORT):
    text = load_prompt("clear.presence").render(report=report, conditions=", ".join(CONDITIONS))
    return [{"role": "user", "content": text}]


def test_builtin_chat_templates():
    msgs = [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"},
            {"role": "user", "content": "Q2"}]
    gemma = render_builtin("gemma", msgs)
    assert gemma.prompt == ("<start_of_turn>user\nQ<end_of_turn>\n<start_of_turn>model\nA<end_of_turn>\n"
                            "<start_of_turn>user\nQ2<end_of_turn>\n<start_of_turn>model\n")
    assert gemma.stop == ("<end_of_turn>",) and gemma.add_bos
    assert render_builtin("chatml", msgs[:1]).prompt == "<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n"
    assert render_builtin("llama3", msgs[:1]).prompt == (
        "<|start_header_id|>user<|end_header_id|>\n\nQ<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n")
    with pytest.raises(ValueError, match="not 'system'"):
        render_builtin("gemma", [{"role": "system", "content": "x"}])


def test_chat_format_choice_order():
    with_template = {"tokenizer.chat_template": "{{ x }}", "general.architecture": "llama"}
    gemma_base = {"general.architecture": "gemma3"}
    assert choose_chat_format("chatml", "gemma", with_template) == "chatml"  # explicit wins
    assert choose_chat_format("auto", "gemma", with_template) == "gemma"     # then the registry
    assert choose_chat_format("auto", None, with_template) == "gguf"         # then the GGUF's own
    assert choose_chat_format("auto", None, gemma_base) == "gemma"           # then by architecture
    with pytest.raises(ValueError, match="no chat template; name one"):
        choose_chat_format("auto", None, {"general.architecture": "llama"})
    with pytest.raises(ValueError, match="GGUF has no chat template"):
        choose_chat_format("gguf", None, gemma_base)


def test_tiny_model_loads_with_its_own_template(backend):
    assert backend.chat_format == "gguf"
    assert backend.device == "cpu" or backend.gpu_layers != 0
    rendered = backend.render([{"role": "user", "content": "hi"}])
    assert rendered.prompt == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    info = backend.model_info()
    assert info.id == "tiny.gguf" and info.detail["chat_format"] == "gguf"
    assert backend.signature_fields()["judge_hash"] == "000000000000"


def test_grammar_keeps_control_characters_out_of_strings():
    grammar, root, converted = _grammar_text(json.dumps(attribute_answer_schema("recommendation")))
    assert converted and root == "root"
    assert r'char ::= [^"\\\x7F\x00-\x1F]' in grammar


def test_constrained_answer_fits_the_schema(backend):
    out = backend.complete(_messages(), presence_schema(), max_tokens=400, seed=0)
    assert out.finish_reason == "stop" and out.completion_tokens > 0
    value = extract_json(out.text)
    assert not schema_problems(value, presence_schema())
    assert set(value) == set(CONDITIONS) and set(value.values()) <= set(PRESENCE_VALUES)


def test_fast_sampler_matches_llama_cpp_python_grammar_sampling(backend):
    """Testing the best token first gives exactly greedy-under-grammar decoding."""
    from llama_cpp import LlamaGrammar

    for schema in (presence_schema(), attribute_answer_schema("descriptive location")):
        messages = _messages()
        ours = backend.complete(messages, schema, max_tokens=300, seed=0).text
        chat = backend.render(messages)
        tokens = backend._llama.tokenize(chat.prompt.encode(), add_bos=chat.add_bos, special=True)
        grammar_text, _, _ = _grammar_text(json.dumps(schema, sort_keys=True))
        reference = backend._llama.create_completion(
            tokens, max_tokens=300, temperature=0.0, repeat_penalty=1.0,
            grammar=LlamaGrammar.from_string(grammar_text, verbose=False))["choices"][0]["text"]
        assert ours == reference


def test_greedy_decoding_is_repeatable(backend):
    first = backend.complete(_messages(), presence_schema(), max_tokens=400, seed=0)
    backend.complete(_messages("FINDINGS: Other text."), presence_schema(), max_tokens=400, seed=0)
    again = backend.complete(_messages(), presence_schema(), max_tokens=400, seed=0)
    assert again == first


def test_concurrent_calls_are_serialised_not_crashed(backend):
    judge = Judge(backend, None)
    prompt = load_prompt("clear.presence")
    reports = [f"FINDINGS: Finding number {i}." for i in range(4)]
    serial = [judge.ask(prompt, {"report": r, "conditions": ", ".join(CONDITIONS)},
                        presence_schema(), max_tokens=400).value for r in reports]
    results = [None] * len(reports)

    def work(i):
        results[i] = judge.ask(prompt, {"report": reports[i], "conditions": ", ".join(CONDITIONS)},
                               presence_schema(), max_tokens=400).value

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(reports))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == serial


def test_prompt_longer_than_the_context_is_a_clear_error(tiny_gguf):
    small = LlamaCppBackend(tiny_gguf, model_id="tiny", sha256="x",
                            settings=LlamaSettings(n_ctx=256, n_threads=THREADS))
    try:
        judge = Judge(small, None)
        with pytest.raises(JudgeError, match="the prompt has .* tokens; the judge's context holds 256"):
            judge.ask(load_prompt("clear.presence"),
                      {"report": "word " * 400, "conditions": "x"}, presence_schema(), max_tokens=10)
    finally:
        small.close()


def test_judge_for_shares_one_judge_per_run_and_names_it(ctx_factory, tiny_gguf):
    ctx = ctx_factory(tiny_gguf)
    judge = judge_for(ctx)
    assert judge_for(ctx) is judge
    fields = judge.signature_fields()
    assert fields["judge"] == "tiny.gguf" and len(fields["judge_hash"]) == 12
    assert fields["backend"] == "llama.cpp" and fields["decoding"] == "greedy,seed=0,retries=2"
    other = ctx_factory(tiny_gguf, judge_seed=5)
    assert judge_for(other).signature_fields()["decoding"] == "greedy,seed=5,retries=2"


def test_unknown_judge_is_a_readable_error(ctx_factory):
    from radscope.engine.metrics.framework.judging import JudgeUnavailable

    with pytest.raises(JudgeUnavailable, match="neither an existing path, a registry id"):
        judge_for(ctx_factory("./no-such-model.gguf"))


def test_calls_on_the_same_report_reuse_the_cached_prefix(backend, monkeypatch):
    """The second CLEAR question about a report only evaluates what follows the report."""
    evaluated = []
    real_eval = backend._llama.eval
    monkeypatch.setattr(backend._llama, "eval", lambda tokens: evaluated.append(len(tokens)) or real_eval(tokens))
    presence = _messages()
    severity = [{"role": "user", "content": load_prompt("clear.attr.severity").render(
        report=REPORT, condition="Cardiomegaly")}]
    backend.complete(_messages("FINDINGS: Something else entirely."), presence_schema(), 400, 0)
    evaluated.clear()
    backend.complete(presence, presence_schema(), 400, 0)
    evaluated.clear()
    backend.complete(severity, attribute_answer_schema("severity"), 30, 0)
    chat = backend.render(severity)
    full = len(backend._llama.tokenize(chat.prompt.encode(), add_bos=chat.add_bos, special=True))
    shared = len(backend._llama.tokenize(
        backend.render(presence).prompt.split("Task:")[0].encode(), add_bos=True, special=True))
    assert shared > full / 3
    assert evaluated[0] <= full - shared + 2  # only what follows the report is evaluated
