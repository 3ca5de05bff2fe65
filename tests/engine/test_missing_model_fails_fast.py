"""A judge that is not on the machine fails at once, naming the command that fetches it, both
when the Hub cannot be reached and when HF_HUB_OFFLINE is set (not after half a minute of
download retries)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT


def _closed_port() -> int:
    with socket.socket() as sock:  # bound then released: nothing listens there afterwards
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("setting", ["unreachable", "offline"])
def test_a_missing_judge_fails_in_seconds_with_the_fetch_command(tmp_path, setting):
    pairs = tmp_path / "p.jsonl"
    pairs.write_text(json.dumps({"id": "a", "reference": "Small effusion.",
                                 "candidate": "Small effusion."}) + "\n")
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_OFFLINE"}
    env.update(HF_HOME=str(tmp_path / "hf"), RADSCOPE_HOME=str(tmp_path / "home"),
               HF_ENDPOINT=f"http://127.0.0.1:{_closed_port()}")
    if setting == "offline":
        env["HF_HUB_OFFLINE"] = "1"
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "radscope", "score", "--input", str(pairs),
                           "--metrics", "vert", "--extractor", "llm", "--judge",
                           "qwen2.5-7b-instruct", "--out", str(tmp_path / "o.jsonl"),
                           "--no-progress"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    seconds = time.monotonic() - started
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "radscope models fetch qwen2.5-7b-instruct" in proc.stderr
    assert ("cannot be reached" if setting == "unreachable" else "HF_HUB_OFFLINE") in proc.stderr
    assert seconds < 5, f"took {seconds:.1f} s"
