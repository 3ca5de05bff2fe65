"""The judge's model-independent parts: tolerant JSON, schema bounds, call cache, retries,
counters, and the OpenAI-compatible backend's request shape and in-flight bound."""
import json
import threading
import time
from types import SimpleNamespace

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.runtimes.callcache import CachedCall, CallCache, call_key
from radscope.engine.runtimes.jsontext import AnswerError, extract_json, schema_problems, validate
from radscope.engine.runtimes.judge import Completion, Decoding, Judge, JudgeError, bounded_schema
from radscope.engine.runtimes.openai_compat import OpenAICompatBackend, response_format
from radscope.engine.runtimes.prompts import load_prompt
from tests.llm.conftest import ScriptedBackend

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
          "required": ["answer"], "additionalProperties": False}
PROMPT = load_prompt("clear.attr.severity")
VALUES = {"report": "FINDINGS: Mild cardiomegaly.", "condition": "Cardiomegaly"}


# --------------------------------------------------------------------------- tolerant JSON

@pytest.mark.parametrize("text", [
    '{"answer": "yes"}',
    '  \n{"answer": "yes"}\n',
    'Sure! ```json\n{"answer": "yes"}\n``` Hope this helps.',
    'The answer is {"answer": "yes"} as requested.',
    '{"answer": "yes\nwith a raw newline"}',
])
def test_extract_json_finds_the_object(text):
    assert extract_json(text)["answer"].startswith("yes")


def test_extract_json_explains_what_is_wrong():
    with pytest.raises(AnswerError, match="empty answer"):
        extract_json("   ")
    with pytest.raises(AnswerError, match="cut off"):
        extract_json('{"answer": "ye')
    with pytest.raises(AnswerError, match="no JSON object"):
        extract_json("I cannot answer that.")


def test_validate_names_the_offending_key():
    assert validate({"answer": "no"}, SCHEMA) == {"answer": "no"}
    with pytest.raises(AnswerError, match="answer: 'maybe' is not one of"):
        validate({"answer": "maybe"}, SCHEMA)
    assert schema_problems({"answer": "no", "x": 1}, SCHEMA) == [
        "<answer>: Additional properties are not allowed ('x' was unexpected)"]


def test_bounded_schema_limits_free_text_lists_and_counts_only():
    schema = {"type": "object", "properties": {
        "free": {"type": "string"}, "choice": {"type": "string", "enum": ["a"]},
        "score": {"type": "string", "pattern": "^[01]$"},
        "items": {"type": "array", "items": {"type": "string"}},
        "n": {"type": "integer"}}}
    out = bounded_schema(schema, max_string=50, max_items=3, max_count=4)
    props = out["properties"]
    assert props["free"]["maxLength"] == 50 and "maxLength" not in props["choice"]
    assert "maxLength" not in props["score"]
    assert props["items"]["maxItems"] == 3 and props["items"]["items"]["maxLength"] == 50
    assert props["n"]["enum"] == [0, 1, 2, 3, 4]
    assert "maxLength" not in schema["properties"]["free"]  # the original is untouched
    assert not schema_problems({"free": "x", "choice": "a", "items": ["a"], "n": 2}, out)


# --------------------------------------------------------------------------- call cache

def test_call_cache_round_trip_and_key_sensitivity(tmp_path):
    cache = CallCache(tmp_path / "c.sqlite")
    parts = {"model": {"model": "m", "sha256": "abc"}, "prompt": "p@1",
             "messages": [{"role": "user", "content": "hi"}], "schema": None,
             "decoding": {"temperature": 0.0, "seed": 0, "max_tokens": 10}}
    key = call_key(parts)
    assert cache.get(key) is None
    cache.put(key, CachedCall("text", 3, 2, "stop"), model="m", prompt="p@1")
    assert cache.get(key) == CachedCall("text", 3, 2, "stop")
    assert len(cache) == 1
    for change in ({"prompt": "p@2"}, {"model": {"model": "m", "sha256": "abd"}},
                   {"decoding": {"temperature": 0.0, "seed": 1, "max_tokens": 10}},
                   {"messages": [{"role": "user", "content": "hi!"}]}):
        assert call_key({**parts, **change}) != key
    cache.close()
    assert CallCache(tmp_path / "c.sqlite").get(key).text == "text"  # persisted


def test_file_hash_is_computed_once_per_file_version(tmp_path, monkeypatch):
    import radscope.models.resolve
    from radscope import models

    calls = []
    real = models.resolve.file_sha256
    monkeypatch.setattr(models.resolve, "file_sha256", lambda p: calls.append(p) or real(p))
    model = tmp_path / "m.gguf"
    model.write_bytes(b"abc")
    cache = CallCache(tmp_path / "c.sqlite")
    expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # sha256("abc")
    assert cache.file_sha256(model) == expected
    assert CallCache(tmp_path / "c.sqlite").file_sha256(model) == expected
    assert len(calls) == 1
    model.write_bytes(b"abcd")  # new size -> new version -> hashed again
    assert cache.file_sha256(model) != expected
    assert len(calls) == 2


# --------------------------------------------------------------------------- the Judge

def _judge(backend, tmp_path=None, retries=2):
    ctx = RuntimeContext()
    cache = CallCache(tmp_path / "cache.sqlite") if tmp_path else None
    return Judge(backend, cache, decoding=Decoding(seed=7, retries=retries), count=ctx.count), ctx


def test_valid_answer_is_returned_counted_and_cached(tmp_path):
    backend = ScriptedBackend(['{"answer": "yes"}'])
    judge, ctx = _judge(backend, tmp_path)
    answer = judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20)
    assert answer.value == {"answer": "yes"} and answer.attempts == 1
    assert backend.requests[0]["seed"] == 7 and backend.requests[0]["schema"] == SCHEMA
    assert backend.requests[0]["messages"] == [{"role": "user", "content": PROMPT.render(**VALUES)}]
    again = judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20)
    assert again.value == answer.value and again.cache_hits == 1 and again.model_calls == 0
    assert len(backend.requests) == 1
    assert dict(ctx.counters) == {"model_calls": 1, "prompt_tokens": 10, "completion_tokens": 5,
                                  "cache_hits": 1}


def test_unusable_answer_is_retried_with_the_problem_stated():
    backend = ScriptedBackend(['{"answer": "maybe"}', 'Here: {"answer": "no"}'])
    judge, ctx = _judge(backend)
    answer = judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20)
    assert answer.value == {"answer": "no"} and answer.attempts == 2
    retry = backend.requests[1]["messages"]
    assert [m["role"] for m in retry] == ["user", "assistant", "user"]
    assert retry[1]["content"] == '{"answer": "maybe"}'
    assert retry[2]["content"].startswith("That answer could not be used: the answer does not "
                                          "fit the required JSON schema: answer: 'maybe'")
    assert answer.notes and "attempt 1" in answer.notes[0]
    assert ctx.counters["model_calls"] == 2


def test_cut_off_answer_gets_a_doubled_budget():
    backend = ScriptedBackend([Completion('{"answer": "y', 5, 20, "length"), '{"answer": "yes"}'])
    judge, _ = _judge(backend)
    assert judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20).value == {"answer": "yes"}
    assert [r["max_tokens"] for r in backend.requests] == [20, 40]
    assert backend.requests[1]["messages"] == backend.requests[0]["messages"]


def test_retries_are_bounded_and_the_error_keeps_every_answer():
    backend = ScriptedBackend(["no", "still no", "never"])
    judge, ctx = _judge(backend, retries=2)
    with pytest.raises(JudgeError, match=r"clear.attr.severity@2: no usable answer after 3 "
                                         r"attempt\(s\); last problem: no JSON object") as info:
        judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20)
    assert info.value.texts == ["no", "still no", "never"]
    assert ctx.counters["model_calls"] == 3


def test_a_failing_backend_becomes_a_judge_error():
    def boom(_messages):
        raise ConnectionError("server down")

    judge, ctx = _judge(ScriptedBackend(boom))
    with pytest.raises(JudgeError, match="the judge call failed: ConnectionError: server down"):
        judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20)
    assert ctx.counters["model_calls"] == 0


def test_unconstrained_backend_gets_no_schema_and_is_still_validated():
    backend = ScriptedBackend(['```json\n{"answer": "yes"}\n```'], constrains=False)
    judge, _ = _judge(backend)
    assert judge.ask(PROMPT, VALUES, SCHEMA, max_tokens=20).value == {"answer": "yes"}
    assert backend.requests[0]["schema"] is None


# --------------------------------------------------------------------------- OpenAI-compatible

def test_response_format_per_dialect():
    assert response_format("json_schema", SCHEMA) == {
        "type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA, "strict": True}}
    assert response_format("json_object", SCHEMA) == {"type": "json_object", "schema": SCHEMA}
    assert response_format("none", SCHEMA) is None
    with pytest.raises(ValueError, match="unknown JSON dialect"):
        response_format("guided_json", SCHEMA)


class FakeClient:
    """Stands in for openai.OpenAI: records requests and how many run at once."""

    def __init__(self, delay=0.05):
        self.delay = delay
        self.requests = []
        self.active = self.peak = 0
        self.lock = threading.Lock()
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **kwargs):
        with self.lock:
            self.requests.append(kwargs)
            self.active += 1
            self.peak = max(self.peak, self.active)
        time.sleep(self.delay)
        with self.lock:
            self.active -= 1
        message = SimpleNamespace(content='{"answer": "yes"}')
        return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")],
                               usage=SimpleNamespace(prompt_tokens=12, completion_tokens=4))


def test_openai_backend_sends_deterministic_requests_in_the_chosen_dialect():
    client = FakeClient(delay=0)
    backend = OpenAICompatBackend("http://127.0.0.1:9/v1", "judge-x", dialect="json_object",
                                  client=client)
    out = backend.complete([{"role": "user", "content": "q"}], SCHEMA, 30, seed=3)
    assert out == Completion('{"answer": "yes"}', 12, 4, "stop")
    assert client.requests[0] == {"model": "judge-x", "messages": [{"role": "user", "content": "q"}],
                                  "temperature": 0.0, "seed": 3, "max_tokens": 30,
                                  "response_format": {"type": "json_object", "schema": SCHEMA}}
    assert backend.identity() == {"backend": "openai", "model": "judge-x",
                                  "server": "127.0.0.1:9", "dialect": "json_object"}
    none = OpenAICompatBackend("http://h/v1", "m", dialect="none", client=FakeClient(delay=0))
    assert not none.constrains
    none.complete([{"role": "user", "content": "q"}], SCHEMA, 30, seed=0)
    assert "response_format" not in none._client.requests[0]


def test_openai_backend_bounds_requests_in_flight():
    client = FakeClient(delay=0.05)
    backend = OpenAICompatBackend("http://h/v1", "m", max_inflight=2, client=client)
    threads = [threading.Thread(target=backend.complete,
                                args=([{"role": "user", "content": str(i)}], SCHEMA, 10, 0))
               for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(client.requests) == 6
    assert client.peak == 2


def test_openai_backend_needs_a_model_name():
    with pytest.raises(ValueError, match="needs a model name"):
        OpenAICompatBackend("http://h/v1", "", client=FakeClient())


def test_judge_error_serialises_for_the_pair_details():
    error = JudgeError("p@1: no usable answer", "p@1", ["x" * 3000])
    data = error.to_json()
    assert data["prompt"] == "p@1" and len(data["answers"][0]) == 2000
    assert json.loads(json.dumps(data)) == data
