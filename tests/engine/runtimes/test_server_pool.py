"""``--judge-url A,B``: one judge over several servers (engine.runtimes.server_pool), with the
OpenAI client replaced by a recording stand-in (no server runs here; tests/ray and the Ray
benchmark use real llama.cpp servers)."""
import threading
from types import SimpleNamespace

import pytest

from radscope.engine.metrics.framework.judging import JudgeConfig, build_backend
from radscope.engine.runtimes.openai_compat import OpenAICompatBackend
from radscope.engine.runtimes.server_pool import ServerPool


class RecordingClient:
    """Answers every chat completion with ``{}`` and counts the calls; ``fail`` makes it raise."""

    def __init__(self, fail: bool = False, hold: threading.Event | None = None) -> None:
        self.calls = 0
        self.fail = fail
        self.hold = hold
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **kwargs):
        self.calls += 1
        if self.hold is not None:
            self.hold.wait(5)
        if self.fail:
            raise ConnectionError("server down")
        message = SimpleNamespace(content="{}")
        return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")], usage=None)


def server(url: str, client: RecordingClient) -> OpenAICompatBackend:
    return OpenAICompatBackend(url, "judge-x", dialect="json_object", client=client)


def ask(pool: ServerPool) -> str:
    return pool.complete([{"role": "user", "content": "hi"}], None, max_tokens=8, seed=0).text


def test_comma_separated_urls_build_one_pool_with_one_signature():
    config = JudgeConfig(url="http://127.0.0.2:8001/v1, http://127.0.0.1:8000/v1", model="judge-x",
                         dialect="json_object")
    backend = build_backend(config, cache=None)
    assert isinstance(backend, ServerPool)
    assert backend.signature_fields()["backend"] == "openai@127.0.0.1:8000+127.0.0.2:8001"
    assert backend.identity()["server"] == "127.0.0.1:8000+127.0.0.2:8001"
    single = build_backend(JudgeConfig(url="http://127.0.0.1:8000/v1", model="judge-x"), cache=None)
    assert isinstance(single, OpenAICompatBackend)


def test_calls_go_to_the_least_busy_server():
    hold = threading.Event()
    a, b = RecordingClient(hold=hold), RecordingClient()
    pool = ServerPool([server("http://127.0.0.1:1/v1", a), server("http://127.0.0.1:2/v1", b)])
    first = threading.Thread(target=ask, args=(pool,))
    first.start()
    while a.calls == 0:  # the first call is in flight on server a
        threading.Event().wait(0.01)
    assert ask(pool) == "{}"
    hold.set()
    first.join()
    assert (a.calls, b.calls) == (1, 1)


def test_a_failing_server_hands_the_call_on_and_two_failures_raise():
    down, up = RecordingClient(fail=True), RecordingClient()
    pool = ServerPool([server("http://127.0.0.1:1/v1", down), server("http://127.0.0.1:2/v1", up)])
    assert ask(pool) == "{}"
    assert (down.calls, up.calls) == (1, 1)
    both_down = ServerPool([server("http://127.0.0.1:1/v1", RecordingClient(fail=True)),
                            server("http://127.0.0.1:2/v1", RecordingClient(fail=True))])
    with pytest.raises(ConnectionError):
        ask(both_down)


def test_servers_of_one_pool_serve_one_model():
    with pytest.raises(ValueError, match="one model"):
        ServerPool([server("http://127.0.0.1:1/v1", RecordingClient()),
                    OpenAICompatBackend("http://127.0.0.1:2/v1", "judge-y", dialect="json_object",
                                        client=RecordingClient())])
