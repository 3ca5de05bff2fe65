"""One command name: ``radscope`` (``python -m radscope`` in a checkout), models included; the
old spellings still work for one version and say the new one in a single line."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_models_are_listed_by_the_radscope_command():
    new = _run("radscope", "models", "list")
    assert new.returncode == 0, new.stderr
    assert "crepe-biomedbert" in new.stdout and new.stderr == ""
    assert "models" in _run("radscope", "--help").stdout


@pytest.mark.parametrize("old, args, new", [
    ("radscope.models", ["list"], "`radscope models`"),
    ("models", ["list"], "`radscope models`"),
    ("radscope.engine", ["metrics"], "`radscope`"),
    ("engine", ["metrics"], "`radscope`"),
])
def test_an_old_spelling_works_and_points_to_the_new_one(old, args, new):
    proc = _run(old, *args)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"note: `python -m {old}` is now {new} (`python -m radscope")
    assert lines[0].endswith("in a checkout); this spelling goes in the next version")
    assert proc.stdout == _run("radscope", *(["models"] if old.endswith("models") else []), *args).stdout
