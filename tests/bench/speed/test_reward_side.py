"""The reward benchmark's side process empties the engine's text caches before a fresh pass.

It runs as ``python -m bench.speed.reward_side`` (its ``__name__`` is then
"__main__"): the caches must still be found, or every "fresh" pass after the first is warm.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_side_process_empties_the_text_caches() -> None:
    requests = json.dumps({"row": "api:radsem"}) + "\n"
    done = subprocess.run([sys.executable, "-m", "bench.speed.reward_side", "", "6", "6"],
                          input=requests, capture_output=True, text=True, cwd=ROOT, timeout=300,
                          check=True)
    ready, answer = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["ready"] is True
    assert answer["errors"] == 0
    assert answer["caches_emptied"] >= 10  # the reader's per-text caches, found by module name
