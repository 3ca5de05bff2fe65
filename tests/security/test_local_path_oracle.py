"""Local mode, Models → Use → "Local GGUF file": every path that is not a readable GGUF file
gets the same answer (bar the path it echoes), so the form cannot tell which files exist, which
are directories, pipes or secrets like /etc/shadow."""
from __future__ import annotations

import os

import pytest

from radscope.ui.tabs.models import logic as model_status
from radscope.ui.tabs.models.handlers import on_use


def _answer(path: str) -> str:
    """The status the Use button shows for ``path``, with the path itself blanked."""
    out = on_use(["judge"], 2, model_status.JUDGE_FROM_PATH, "", "", "", "", path, "", "")
    return out[0].replace(path, "<path>")


def test_every_unusable_path_gets_one_answer(tmp_path):
    directory = tmp_path / "a-directory.gguf"
    directory.mkdir()
    fifo = tmp_path / "a-pipe.gguf"
    os.mkfifo(fifo)
    text = tmp_path / "notes.gguf"
    text.write_text("not a model\n")
    locked = tmp_path / "locked.gguf"
    locked.write_bytes(b"GGUF\x03\x00")
    locked.chmod(0)
    empty = tmp_path / "empty.gguf"
    empty.touch()
    paths = ["/etc/shadow", "/etc/passwd", str(tmp_path / "missing.gguf"), str(directory), str(fifo),
             str(text), str(empty), "/dev/null", "/proc/self/environ"]
    if os.geteuid() != 0:  # root reads a mode-000 file; then it is a readable GGUF, not a probe
        paths.append(str(locked))
    answers = {path: _answer(path) for path in paths}
    assert len(set(answers.values())) == 1, answers
    assert "is not a GGUF file the app can read" in next(iter(answers.values()))


def test_a_real_gguf_is_accepted(tmp_path):
    from tests.llm.tiny_gguf import write_tiny_gguf

    gguf = write_tiny_gguf(tmp_path / "tiny.gguf")
    assert "Judge set to local file tiny.gguf" in _answer(str(gguf))


@pytest.mark.parametrize("path", ["/etc/shadow", "/no/such/file.gguf"])
def test_the_check_button_answers_the_same(path):
    from radscope.ui.tabs.models.handlers import on_check

    out = on_check(model_status.JUDGE_FROM_PATH, "", "", "", "", path, "", "", progress=lambda *a, **k: None)
    assert "is not a GGUF file the app can read" in out
