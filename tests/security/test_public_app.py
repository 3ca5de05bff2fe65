"""The app started in public mode, attacked through gradio_client as any visitor could.

A visitor's judge URL reaches nobody; the operator's API key (a canary) goes to the operator's
judge server and nowhere else: not in a response, the page, the config, a download or a log
line, even when that server echoes the key back; a second visitor sees none of the first one's
runs, cannot read them by id, tell an existing id from a fresh one or take an id first; model
checks on /etc/passwd and a named pipe are refused in the same words; and report text carrying chat turn tokens does not hand the Gemma judge a
planted answer.
"""
from __future__ import annotations

import csv
import json
import logging
import os
import tempfile
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError

from tests.security.injection_probes import PROBES, REFERENCE, copied
from tests.ui.conftest import _GRADIO_TMP, serve

CANARY = "sk-canary-5d1e8b27c4"
NONE = "(none)"


class Listener:
    """An HTTP server on 127.0.0.1 that records every request and answers 400 with a body that
    quotes the request's Authorization header (the worst a judge server could do)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        seen = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                seen.append({"path": self.path,
                             "headers": {k.lower(): v for k, v in self.headers.items()},
                             "body": self.rfile.read(length).decode("utf-8", "replace")})
                body = json.dumps({"error": {"message": "rejected: "
                                             + str(self.headers.get("Authorization"))}}).encode()
                self.send_response(400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def operator_server():
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture(scope="module")
def visitor_server():
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture(scope="module")
def public_app(tmp_path_factory, operator_server):
    options = {"judge_url": operator_server.url, "judge_model": "operator-model",
               "judge_api_key": CANARY, "judge_retries": 0, "extractor": "llm"}
    with serve(tmp_path_factory.mktemp("public-app"), options, public=True) as served:
        yield served


def new_client(url: str) -> Client:
    return Client(url, verbose=False, analytics_enabled=False,
                  download_files=tempfile.mkdtemp(dir=_GRADIO_TMP))


@pytest.fixture()
def visitor(public_app):
    client = new_client(public_app.url)
    yield client
    client.close()


@pytest.fixture()
def logs():
    """Every log record of every logger, at DEBUG, while the test runs."""
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    handler, root = Keep(level=logging.DEBUG), logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield records
    root.removeHandler(handler)
    root.setLevel(old_level)


def write_pairs(path: Path, ids: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "reference", "candidate"])
        for pid in ids:
            writer.writerow([pid, "No pleural effusion. Heart size normal.",
                             "Small left pleural effusion. Heart size normal."])
    return path


def batch_args(path: Path, metrics: list[str], run_id: str = "") -> list:
    return [handle_file(str(path)), "id", "reference", "candidate", NONE, NONE, NONE, metrics,
            run_id, 1]


def text_of(value) -> str:
    """Everything a response carries, files included, as one string."""
    parts = [json.dumps(value, default=str, ensure_ascii=False)]
    for item in value if isinstance(value, (list, tuple)) else [value]:
        if isinstance(item, str) and os.path.isfile(item):
            parts.append(Path(item).read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


@pytest.mark.parametrize("options", [
    {"judge_url": "VISITOR"}, {"judge_url": "VISITOR", "judge_model": "x", "judge_api_key": "k"},
    {"judge": "/etc/passwd"}, {"vert_fewshot": "/etc/passwd"}, {"crepe_model": "/etc"},
    {"judge_ctx": 131072}])
def test_a_visitor_cannot_point_the_server_anywhere(visitor, visitor_server, options):
    options = {k: (visitor_server.url if v == "VISITOR" else v) for k, v in options.items()}
    with pytest.raises(AppError, match="set by the operator") as caught:
        visitor.predict("Lungs clear.", "Lungs are clear.", "vert,crepe", "", "", options,
                        api_name="/compare")
    assert "Refused: " + ", ".join(options) in str(caught.value)
    assert visitor_server.requests == []


def test_the_page_and_api_offer_no_operator_setting(public_app, visitor):
    info = json.dumps(visitor.view_api(return_format="dict", print_info=False))
    for name in ("judge_url", "judge_api_key", "vert_fewshot", "crepe_model", "judge_model"):
        assert name.replace("_", " ") not in info and f"opt-{name}" not in info
    with urllib.request.urlopen(public_app.url + "config") as response:
        config = response.read().decode()
    assert "opt-judge_url" not in config and "judge-source" not in config
    assert "opt-extractor" in config  # fixed choices stay on offer
    endpoints = {fn.api_name for fn in public_app.demo.fns.values()}
    assert not endpoints & {"use_judge", "check_judge", "unload_models"}


def test_the_operator_key_reaches_the_operator_server_only(public_app, visitor, operator_server,
                                                           visitor_server, logs, capfd, tmp_path):
    seen = []
    result = visitor.predict(REFERENCE, "Large left pneumothorax.", "vert,bleu", api_name="/compare")
    seen.append(text_of(result))
    assert result["vert"]["error"] and result["bleu"]["score"] is not None
    # The key went to the server the operator configured (which echoed it back) ...
    assert operator_server.requests
    assert all(r["headers"].get("authorization") == f"Bearer {CANARY}"
               for r in operator_server.requests)
    # ... and nowhere else: not in the answer, a batch and its files, the page, the models
    # tab, the structure action or any log line.
    seen.append(text_of(visitor.predict(*batch_args(write_pairs(tmp_path / "p.csv", ["a", "b"]),
                                                    ["vert", "bleu"]), api_name="/batch")))
    seen.append(text_of(visitor.predict(api_name="/models")))
    seen.append(text_of(visitor.predict(REFERENCE, "Clear lungs.", "Candidate", api_name="/structure")))
    for route in ("", "config", "gradio_api/info"):
        with urllib.request.urlopen(public_app.url + route) as response:
            seen.append(response.read().decode())
    captured = capfd.readouterr()
    seen += [captured.out, captured.err, *logs]
    assert "rejected: Bearer" in "\n".join(seen)  # the echo did come back, masked
    assert not [chunk[:300] for chunk in seen if CANARY in chunk]
    assert visitor_server.requests == []


def test_a_visitor_sees_and_reads_only_their_own_runs(public_app, tmp_path):
    from radscope.engine.runs.store import Store

    ids = ["pair-alpha", "pair-beta", "pair-gamma"]
    path = write_pairs(tmp_path / "mine.csv", ids)
    first, second = new_client(public_app.url), new_client(public_app.url)
    try:
        progress = first.predict(*batch_args(path, ["bleu"]), api_name="/batch")[0]
        run_id = progress.split("run id ")[1].split("<")[0].strip()
        assert "3/3 pairs" in progress and len(run_id) >= 24
        runs, pick = first.predict(api_name="/list_runs")
        assert [row[0] for row in runs["data"]] == [run_id]

        runs, pick = second.predict(api_name="/list_runs")
        assert run_id not in json.dumps([runs, pick])
        assert not [row for row in runs["data"] if any(row)]
        # Another visitor's typed id lives in their own namespace: the first visitor's id and a
        # command-line run's id give them a fresh run of their own, as an id nobody used does
        # (no probing), and nothing of the other run.
        store = Store(public_app.store_path)
        store.start_run("cli-run", "x.csv", ["bleu"])
        for typed in (run_id, "cli-run", "never-used"):
            answer = second.predict(*batch_args(path, ["bleu"], run_id=typed), api_name="/batch")
            own = answer[0].split("run id ")[1].split("<")[0].strip()
            assert "3/3 pairs" in answer[0] and own.endswith("." + typed) and own.startswith("v"), answer[0]
            assert "resum" not in answer[0]
        assert store.get_run(run_id).n_results == 3 and store.get_run("cli-run").n_results == 0
        # No squatting: an id the second visitor used first is still free for the first one.
        taken = second.predict(*batch_args(path, ["bleu"], run_id="shared-name"), api_name="/batch")[0]
        mine = first.predict(*batch_args(path, ["bleu"], run_id="shared-name"), api_name="/batch")[0]
        assert "3/3 pairs" in taken and "3/3 pairs" in mine and "is not one of" not in mine
        # The owner can still resume their own run.
        again = first.predict(*batch_args(path, ["bleu"], run_id=run_id), api_name="/batch")[0]
        assert "3/3 pairs" in again
    finally:
        first.close()
        second.close()


def test_model_checks_are_no_filesystem_oracle(visitor, tmp_path):
    """A path is refused (by the dropdown's choices, or by the check itself) in words that do
    not depend on what is at that path, and a named pipe is never opened."""
    pipe = tmp_path / "judge.gguf"
    os.mkfifo(pipe)
    answers = []
    for name in ("/etc/passwd", str(pipe), str(tmp_path / "missing.gguf"), "/etc"):
        job = visitor.submit(name, api_name="/fetch_model")
        try:
            answer = job.result(timeout=60)  # a pipe that were opened would block here
        except AppError as exc:
            answer = str(exc)
        answers.append(answer.replace(name, "NAME"))
    assert len(set(answers)) == 1, answers
    assert "gemma3-270m-demo" in answers[0]  # it names what may be checked: the registry
    for word in ("exist", "MB", "ready", "size", "directory", "pipe"):
        assert word not in answers[0]
    assert "on this machine" in visitor.predict("gemma3-270m-demo", api_name="/fetch_model")


@pytest.fixture(scope="module")
def gemma_public_app(tmp_path_factory):
    options = {"judge_threads": 2, "judge_retries": 0,  # one judge call: minutes on 2 cores
               "extractor": "llm"}  # the judge, not the rules reader, reads the pair
    with serve(tmp_path_factory.mktemp("gemma-app"), options, public=True) as served:
        yield served


@pytest.mark.slow
def test_turn_tokens_in_a_report_do_not_plant_the_judges_answer(gemma_public_app):
    """The worst of the three probes (fake end markers, Gemma turn tokens and a planted JSON
    answer inside the candidate) on the packaged Gemma judge. Before, the judge's answer was the
    planted one, word for word (score 1.00, no errors, for six real errors). The turn tokens are
    now plain text, but this base model still copies a JSON answer it reads in a report, so the
    copy is caught and the pair gets an error naming it instead of a score."""
    client = new_client(gemma_public_app.url)
    try:
        result = client.predict(REFERENCE, PROBES["turn_tokens"], "vert", api_name="/compare")
    finally:
        client.close()
    vert = result["vert"]
    assert "vert.vert@3" in json.dumps(vert)  # today's prompt
    assert not copied(vert) and vert["score"] != 1.0
    assert vert["error"] is None or "not a judgement" in vert["error"], vert["error"]


@pytest.mark.parametrize("api_name", ["/inspect_file", "/load_reference"])
def test_an_upload_cannot_name_a_server_file(visitor, api_name):
    """File inputs take uploads only: a visitor who sends a server path instead gets an error
    from Gradio, and nothing of the file."""
    fake = {"path": "/etc/passwd", "meta": {"_type": "gradio.FileData"}, "orig_name": "passwd"}
    args = [fake] if api_name == "/inspect_file" else [fake, ""]
    try:
        answer = text_of(visitor.predict(*args, api_name=api_name))
    except AppError as exc:
        answer = str(exc)
    assert "root:" not in answer and "columns" not in answer


def test_a_visitor_sees_the_judge_failure_category_not_the_servers_words(visitor, logs, tmp_path):
    """The operator's judge server answers 400 with a body of its own (here quoting the request
    header): the visitor is told what kind of failure it was; the body stays in the log."""
    from radscope.ui.public import failure_category

    result = visitor.predict(REFERENCE, "Large left pneumothorax.", "vert,bleu", api_name="/compare")
    vert = result["vert"]
    assert vert["error"] == failure_category("judge") and vert["score"] is None
    assert "judge_error" not in vert and result["bleu"]["score"] is not None
    batch = visitor.predict(*batch_args(write_pairs(tmp_path / "p.csv", ["a"]), ["vert"]), api_name="/batch")
    for shown in (text_of(result), text_of(batch)):
        assert "rejected" not in shown and "Bearer" not in shown
    assert any("rejected: Bearer" in line for line in logs)  # the operator keeps the detail
