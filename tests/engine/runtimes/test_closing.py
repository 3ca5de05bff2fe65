"""Closing is complete and never silent: everything that holds a model, a process, a pool or a
database connection implements the one ``Closeable`` protocol; a run context closes every shared
resource even when one of them fails (and raises that failure); the app reports a metric that
failed to close instead of hiding it; a corpus plot that cannot be drawn, or a model whose
availability cannot be checked, says why."""
from __future__ import annotations

import logging
import sqlite3

import pytest

from radscope.engine.context import Closeable, RuntimeContext
from radscope.engine.runtimes.callcache import CallCache


def test_every_resource_class_implements_closeable() -> None:
    from radscope.engine.api import Scorer
    from radscope.engine.runs.parallel import ProcessScorer
    from radscope.engine.runs.store import Store
    from radscope.engine.runtimes.judge import Judge
    from radscope.engine.runtimes.judge_worker import IsolatedLlamaBackend
    from radscope.engine.runtimes.llamacpp import LlamaCppBackend
    from radscope.engine.runtimes.encoder_session import OnnxEncoder
    from radscope.engine.runtimes.openai_compat import OpenAICompatBackend

    for cls in (CallCache, Judge, IsolatedLlamaBackend, LlamaCppBackend, OpenAICompatBackend,
                OnnxEncoder, ProcessScorer, Scorer, Store, RuntimeContext):
        assert issubclass(cls, Closeable), cls.__name__


class _FailsToClose:
    def close(self) -> None:
        raise OSError("device busy")


def test_context_closes_every_resource_even_when_one_fails(tmp_path) -> None:
    ctx = RuntimeContext()
    first = ctx.resource("first", lambda: CallCache(tmp_path / "first.sqlite"))
    ctx.resource("failing", _FailsToClose)
    last = ctx.resource("last", lambda: CallCache(tmp_path / "last.sqlite"))
    assert len(first) == len(last) == 0  # open and usable
    with pytest.raises(OSError, match="device busy"):
        ctx.close()
    for cache in (first, last):
        with pytest.raises(sqlite3.ProgrammingError):  # "Cannot operate on a closed database"
            len(cache)
    assert ctx.resource("first", lambda: "rebuilt") == "rebuilt"  # nothing stale kept


def _failing_close() -> None:
    raise OSError("device busy")


def test_unload_reports_a_metric_that_failed_to_close(monkeypatch, caplog) -> None:
    from radscope.engine.metrics.framework.registry import production
    from radscope.ui.runtime import RuntimeCache

    cache = RuntimeCache(production(), max_contexts=2)
    _, metric = cache.metric({}, "bleu")
    monkeypatch.setattr(metric, "close", _failing_close)
    with caplog.at_level(logging.WARNING, logger="radscope.ui.runtime"):
        assert cache.close_all() == 1
    assert cache.take_close_problems() == ["bleu: OSError: device busy"]
    assert cache.take_close_problems() == []  # shown once
    assert "closing metric bleu failed" in caplog.text


def test_eviction_keeps_the_close_failure_for_the_app(monkeypatch) -> None:
    from radscope.engine.metrics.framework.registry import production
    from radscope.ui.runtime import RuntimeCache

    cache = RuntimeCache(production(), max_contexts=1)
    _, metric = cache.metric({}, "bleu")
    monkeypatch.setattr(metric, "close", _failing_close)
    cache.metric({"judge_seed": 1}, "bleu")  # other settings: the first context is evicted
    assert [r.options for r in cache.loaded()] == [{"judge_seed": 1}]
    assert cache.take_close_problems() == ["bleu: OSError: device busy"]
    cache.close_all()


def test_a_corpus_plot_that_fails_says_why(caplog) -> None:
    from radscope.ui.views.corpus import corpus_figure

    broken = {"corpus": {"pos_f1_per_condition": "not a mapping", "neg_f1_per_condition": {}}}
    with caplog.at_level(logging.ERROR, logger="radscope.ui.views.corpus"):
        fig = corpus_figure("clear", broken, [])
    assert fig is not None
    assert "could not be drawn (AttributeError:" in fig.layout.title.text
    assert "the corpus plot of clear could not be drawn" in caplog.text


def test_a_model_that_cannot_be_checked_is_not_reported_as_missing(caplog) -> None:
    from dataclasses import replace

    from radscope.models import model_registry
    from radscope.ui.tabs.models.logic import availability

    entry = next(e for e in model_registry.load_registry().values() if e.source == "hf")
    assert availability(replace(entry, file=None)) in ("not downloaded", "in the Hugging Face cache")
    with caplog.at_level(logging.WARNING, logger="radscope.ui.tabs.models.logic"):
        status = availability(replace(entry, repo="not//a repo id", file=None))
    assert status.startswith("not checked (HFValidationError: ")
    assert f"could not check whether model {entry.id} is on this machine" in caplog.text
