"""Issue 46: "Stopping…" only while a batch runs. A batch's stop event is released when the batch
ends, so Stop afterwards says that nothing runs; a newer batch of the same page keeps its own."""
from __future__ import annotations

import threading
from types import SimpleNamespace

from radscope.ui.tabs.batch.handlers import on_stop
from radscope.ui.widgets import AppContext


def _page(app: SimpleNamespace) -> SimpleNamespace:
    return SimpleNamespace(session_hash="page-1")


def test_stop_says_stopping_only_while_a_batch_runs():
    app = SimpleNamespace(cancels={}, lock=threading.Lock())
    request = _page(app)
    assert "No batch is running" in on_stop(app, request)
    event = AppContext.cancel_event(app, "page-1")  # a batch starts
    assert "Stopping" in on_stop(app, request) and event.is_set()
    AppContext.release_cancel(app, "page-1", event)  # it ends (stopped or finished)
    assert "No batch is running" in on_stop(app, request)


def test_an_old_batch_ending_leaves_the_newer_ones_stop_alone():
    app = SimpleNamespace(cancels={}, lock=threading.Lock())
    old = AppContext.cancel_event(app, "page-1")
    new = AppContext.cancel_event(app, "page-1")
    AppContext.release_cancel(app, "page-1", old)
    assert app.cancels["page-1"] is new
    assert "Stopping" in on_stop(app, _page(app)) and new.is_set() and not old.is_set()
