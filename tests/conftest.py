"""Shared test set-up: every test gets its own RadScope home (store, caches) and no hub access."""
import os
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


@pytest.fixture(autouse=True)
def radscope_home(tmp_path, monkeypatch):
    home = tmp_path / "radscope-home"
    monkeypatch.setenv("RADSCOPE_HOME", str(home))
    return home


def run_cli(*args: str, cwd: Path = ROOT):
    """Run ``python -m radscope ...`` in a subprocess (the way users call it)."""
    import subprocess

    return subprocess.run([sys.executable, "-m", "radscope", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def run_bench(*args: str, cwd: Path = ROOT):
    """Run ``python -m bench ...`` in a subprocess."""
    import subprocess

    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def judge_workers(parent: int) -> list[int]:
    """Pids of the judge worker processes (engine.runtimes.judge_worker) whose parent is
    ``parent``, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and \
                b"engine.runtimes.judge_worker" in cmdline:
            found.append(int(entry.name))
    return found


# The rules extractors, built once per session (the reader's and the rules metrics' tests).
@pytest.fixture(scope="session")
def clear_rules():
    from radscope.engine.metrics.clear.rules import build_extractor

    return build_extractor(None)


@pytest.fixture(scope="session")
def radsem_rules():
    from radscope.engine.metrics.radsem.rules import build_extractor

    # Token overlap keeps these tests independent of the bundled encoder.
    return build_extractor(None, similarity="lexical")
