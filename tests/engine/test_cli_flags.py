"""Counts and amounts on the command line are checked where they are read: a worker count, a
concurrency, a length limit, a resample count or a Ray size out of range is one ``error:`` line
(exit status 2) naming the flag and the value, never a traceback and never a run that silently
used something else (``--workers -3`` and ``--max-chars -1`` used to be accepted)."""
from __future__ import annotations

import pytest

from radscope.engine.commands import main

SCORE = ["score", "--input", "pairs.jsonl", "--out", "o.jsonl", "--metrics", "bleu"]


@pytest.mark.parametrize("argv, words", [
    (SCORE + ["--workers", "-3"], "argument --workers: -3 is less than 0"),
    (SCORE + ["--workers", "two"], "argument --workers: 'two' is not a whole number"),
    (SCORE + ["--concurrency", "0"], "argument --concurrency: 0 is less than 1"),
    (SCORE + ["--concurrency", "-2"], "argument --concurrency: -2 is less than 1"),
    (SCORE + ["--max-chars", "-1"], "argument --max-chars: -1 is less than 1"),
    (SCORE + ["--max-chars", "0"], "argument --max-chars: 0 is less than 1"),
    (SCORE + ["--block-size", "0"], "argument --block-size: 0 is less than 1"),
    (SCORE + ["--ray-window", "-1"], "argument --ray-window: -1 is less than 1"),
    (SCORE + ["--cpu-actors", "-1"], "argument --cpu-actors: -1 is less than 0"),
    (SCORE + ["--model-actor-cpus", "nan"], "argument --model-actor-cpus: nan is not a finite number"),
    (SCORE + ["--gpus-per-actor", "-0.5"], "argument --gpus-per-actor: -0.5 is not a finite number"),
    (["compare", "a.jsonl", "b.jsonl", "--metric", "bleu", "--resamples", "0"],
     "argument --resamples: 0 is less than 1"),
    (["score", "--input", "pairs.jsonl"], "the following arguments are required: --out"),
], ids=lambda v: " ".join(v[-2:]) if isinstance(v, list) else None)
def test_out_of_range_flags_are_one_line_errors(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err
    assert "Traceback" not in err and not list(tmp_path.iterdir())  # nothing ran, nothing written
