"""The reader gives the same reading in every process, whatever Python's hash seed.

Lexicon fragments of one length used to be ordered by a set's iteration order, which follows the
hash seed: "lung fields?" and "lung(?:e?s)?" (both 12 characters) swapped places, so "the right
lung field" was read as the site "lung" in one process and "lung field" in another, and scores
moved between two runs of the same command."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SENTENCES = ("Normal aeration is noted within the right lung field.",
             "Small left pleural effusion. The heart size is normal. No pneumothorax.")
READ = ("import sys\n"
        "from radscope.engine.reader.findings import read_report\n"
        "from radscope.engine.api import Scorer\n"
        "texts = sys.argv[1:]\n"
        "print([repr(read_report(t)) for t in texts])\n"
        "records = Scorer(['radsem', 'crepe', 'vert']).score(texts, texts[::-1]).records\n"
        "for record in records:\n"
        "    for result in record['metrics'].values():\n"
        "        result.pop('elapsed_ms', None)\n"
        "print(records)\n")


def reading_under(seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run([sys.executable, "-c", READ, *SENTENCES], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def test_readings_and_scores_do_not_depend_on_the_hash_seed():
    first = reading_under(0)
    assert "lung" in first
    for seed in (1, 2, 3):
        assert reading_under(seed) == first, f"PYTHONHASHSEED={seed} reads differently from 0"
