"""Public mode caps the text of every field a visitor can send, on every event the app has.

The endpoints are not listed by hand: the test walks the built app's own event list (the
Blocks config behind gradio_client's ``view_api``, undocumented and unqueued events
included), so a field added later is covered the day it is added. For every input of every
event, a request whose only oversize value is that input is refused with the cap in words,
and at the end the store holds nothing: no run, no text.
"""
from __future__ import annotations

import json
import sqlite3
import tempfile
import urllib.request
from contextlib import closing

import gradio as gr
import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from radscope.engine.io.reports import DEFAULT_MAX_CHARS
from radscope.ui.page import request_fields
from radscope.ui.public import FIELD_CAP, REQUEST_CAP
from tests.ui.conftest import _GRADIO_TMP, serve

REFERENCE, CANDIDATE = "No pleural effusion. Heart size normal.", "Small left pleural effusion."


@pytest.fixture(scope="module")
def public_app(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("capped-app"), {"extractor": "rules"}, public=True) as served:
        yield served


@pytest.fixture(scope="module")
def visitor(public_app):
    client = Client(public_app.url, verbose=False, analytics_enabled=False,
                    download_files=tempfile.mkdtemp(dir=_GRADIO_TMP))
    yield client
    client.close()


def stored(public_app) -> tuple[int, int, int]:
    """Runs, texts and results in the app's store (a result is a row of ``scores``)."""
    with closing(sqlite3.connect(f"file:{public_app.store_path}?mode=ro", uri=True)) as conn:
        return tuple(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # type: ignore[return-value]
                     for table in ("runs", "pair_texts", "scores"))


def events(public_app) -> list[tuple[int, object]]:
    return [(index, fn) for index, fn in public_app.demo.fns.items() if fn.fn is not None and fn.inputs]


def test_every_input_of_every_event_is_capped(public_app, visitor):
    before = stored(public_app)
    walked = 0
    for index, fn in events(public_app):
        # gr.State values live on the server: a client sends none (a raw request's value for
        # one is ignored, and its text is capped like any other value).
        sent = [field for field, block in zip(request_fields(fn), fn.inputs, strict=True)
                if not block.stateful]
        for position, (name, is_report) in enumerate(sent):
            cap = DEFAULT_MAX_CHARS if is_report else FIELD_CAP
            args: list[object] = [None] * len(sent)
            args[position] = "x" * (cap + 1)
            if fn.api_visibility == "private":
                # The client refuses a private event (the page's own, e.g. marking results out of
                # date after an edit); the check the server runs before any event is asked alike.
                raw = [None] * len(fn.inputs)
                raw[[i for i, b in enumerate(fn.inputs) if not b.stateful][position]] = args[position]
                with pytest.raises(gr.Error, match=f"at most {cap:,} are accepted") as caught:
                    public_app.demo.validate_inputs(fn, raw)
            else:
                with pytest.raises(AppError, match=f"at most {cap:,} are accepted") as caught:
                    visitor.predict(*args, fn_index=index)
            assert f"“{name}” holds {cap + 1:,} characters" in str(caught.value)
            walked += 1
    assert walked >= 60  # the compare, batch, models and structure events with all their options
    assert stored(public_app) == before == (0, 0, 0)


def test_text_nested_in_a_json_argument_is_capped(public_app, visitor):
    with pytest.raises(AppError, match="at most 1,000 are accepted"):
        visitor.predict(REFERENCE, CANDIDATE, "bleu", "", "", {"extractor": "r" * 5000}, api_name="/compare")
    with pytest.raises(AppError, match=f"at most {REQUEST_CAP:,} are accepted"):  # many short strings
        visitor.predict(REFERENCE, CANDIDATE, "bleu", "", "", {f"k{i}": "v" * 900 for i in range(300)},
                        api_name="/compare")


def _raw_compare(url: str, options: str) -> str:
    """/compare called over plain HTTP (gradio_client itself recurses into a deep argument):
    ``options`` is the argument's JSON text; the event stream's text comes back."""
    body = ('{"data": ["%s", "%s", "bleu", "", "", %s]}' % (REFERENCE, CANDIDATE, options)).encode()
    request = urllib.request.Request(url + "gradio_api/call/compare", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        event = json.loads(response.read())["event_id"]
    with urllib.request.urlopen(f"{url}gradio_api/call/compare/{event}", timeout=60) as response:
        return response.read().decode()


def test_options_nested_900_deep_get_a_clear_refusal(public_app, caplog):
    """The size check walks a value without recursion: options nested 900 deep used to make it
    raise RecursionError (the visitor saw {"error": null}, the log a traceback)."""
    answer = _raw_compare(public_app.url, '{"extractor": ' + "[" * 900 + '"rules"' + "]" * 900 + "}")
    assert "event: error" in answer and "nests lists or objects more than 32 levels deep" in answer, answer
    assert "Nothing was run or stored" in answer
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text
    within = _raw_compare(public_app.url, '{"extractor": ' + "[" * 30 + '"rules"' + "]" * 30 + "}")
    assert "levels deep" not in within  # within the cap the size check passes it on
    assert stored(public_app) == (0, 0, 0)


def test_a_big_modality_is_refused_and_nothing_is_stored(public_app, visitor):
    """The reported attack (there 50 MB in modality and area; 1 MB here) against the two compare
    endpoints; the same request within the caps is scored (and, on the page's route, stored)."""
    big = "CT " * 350_000
    for api_name in ("/compare", "/compare_panels"):
        args = [REFERENCE, CANDIDATE, big, "chest"] if api_name == "/compare_panels" else \
            [REFERENCE, CANDIDATE, "bleu", big, "chest"]
        if api_name == "/compare_panels":
            args += [["bleu"], None]
        with pytest.raises(AppError, match="“(Modality \\(optional\\)|modality)” holds 1,050,000 characters"):
            visitor.predict(*args, api_name=api_name)
    assert stored(public_app) == (0, 0, 0)
    ok = visitor.predict(REFERENCE, CANDIDATE, "bleu", "CT" * 500, "chest", api_name="/compare")
    assert ok["bleu"]["score"] is not None
