"""A fake Hub on 127.0.0.1 holding random-weight models under the registry's real repository
names, and environments whose ``HF_ENDPOINT`` points at it (no request leaves the machine).

* ``bartowski/Qwen2.5-7B-Instruct-GGUF``: the tiny llama GGUF as ``Qwen2.5-7B-Instruct-Q4_K_M.gguf``;
* ``gihuncho/crepe-biomedbert``: a CREPE-layout checkpoint with its tokenizer.json;
* ``StanfordAIMI/SRR-BERT-Leaves-with-Statuses``: a BertForSequenceClassification with the 163
  label config, and ``microsoft/BiomedVLP-CXR-BERT-general`` with vocabulary files only.

Encoder fetches export in the export environment (``make export-env``; ``make test`` builds it
first); without it those tests are skipped with that command as the reason.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hub.checkpoints import crepe_files, srr_files, vocab_only_tokenizer_files
from tests.hub.fake_hub import FakeHub

ROOT = Path(__file__).resolve().parents[2]
JUDGE_ID, JUDGE_REPO, JUDGE_FILE = ("qwen2.5-7b-instruct", "bartowski/Qwen2.5-7B-Instruct-GGUF",
                                    "Qwen2.5-7B-Instruct-Q4_K_M.gguf")
CREPE_ID, CREPE_REPO = "crepe-biomedbert", "gihuncho/crepe-biomedbert"
SRR_ID, SRR_REPO = "srr-bert-leaves-with-statuses", "StanfordAIMI/SRR-BERT-Leaves-with-Statuses"
TOKENIZER_REPO = "microsoft/BiomedVLP-CXR-BERT-general"
EXPORT_PYTHON = Path(os.environ.get("RADSCOPE_EXPORT_VENV") or ROOT / ".venv-export") / "bin" / "python"
needs_export_env = pytest.mark.skipif(not EXPORT_PYTHON.exists(),
                                      reason="encoder fetches export with torch: run `make export-env`")


@pytest.fixture(scope="session")
def hub_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    from radscope.models.srr_labels import labels_for
    from tests.llm.tiny_gguf import write_tiny_gguf

    gguf = write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf")
    return {JUDGE_REPO: {JUDGE_FILE: gguf.read_bytes(), "README.md": b"tiny test model\n"},
            CREPE_REPO: crepe_files(),
            SRR_REPO: srr_files(list(labels_for("leaves_with_statuses"))),
            TOKENIZER_REPO: vocab_only_tokenizer_files()}


@pytest.fixture
def hub(hub_files):
    fake = FakeHub()
    for repo, files in hub_files.items():
        fake.add(repo, files)
    fake.start()
    yield fake
    fake.stop()


def hub_env(base: Path, endpoint: str, **extra: str) -> dict[str, str]:
    """A child environment with its own caches, talking to ``endpoint`` only."""
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_OFFLINE"}
    env.update(HF_ENDPOINT=endpoint, HF_HUB_CACHE=str(base / "hf"), RADSCOPE_MODELS=str(base / "models"),
               RADSCOPE_HOME=str(base / "home"), HF_HUB_DISABLE_TELEMETRY="1", HF_HUB_DISABLE_XET="1",
               HF_HUB_DISABLE_PROGRESS_BARS="1", PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


@pytest.fixture
def env(tmp_path, hub):
    return hub_env(tmp_path, hub.url)


def run_models(env: dict[str, str], *args: str, timeout: float = 900) -> tuple[subprocess.CompletedProcess, float]:
    """``radscope models ...`` the way a user runs it; returns the process and its wall time."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "radscope", "models", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    return proc, time.monotonic() - started


def run_engine(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "radscope", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def disk_bytes(path: Path) -> int:
    """Bytes of the regular files under ``path`` (symlinks not followed twice)."""
    return sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file() and not p.is_symlink())


@contextlib.contextmanager
def served_app(env: dict[str, str], tmp_path: Path, *args: str,
               timeout_s: float = 300) -> Iterator[tuple[str, float]]:
    """``python app.py`` in a child process; yields its URL and how long it took to serve."""
    from tests.ui.conftest import free_port

    port = free_port()
    log_path = tmp_path / "app.log"
    started = time.monotonic()
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port), *args], cwd=ROOT,
                                stdout=log, stderr=subprocess.STDOUT,
                                env={**env, "GRADIO_TEMP_DIR": str(tmp_path / "gradio")})
        url = f"http://127.0.0.1:{port}"
        try:
            while True:
                try:
                    urllib.request.urlopen(url, timeout=2)
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() - started > timeout_s:
                        pytest.fail(f"the app did not start: {log_path.read_text()[-3000:]}")
                    time.sleep(0.5)
            yield url, time.monotonic() - started
        finally:
            proc.terminate()
            proc.wait(timeout=30)
