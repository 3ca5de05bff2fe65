"""radscope.engine.api.Scorer: in-process scoring with the CLI's records and signatures."""
import json
import threading

import numpy as np
import pytest

from radscope.engine.api import Scorer
from radscope.engine.io.examples import example_pairs
from tests.conftest import run_cli

METRICS = ["bleu", "clear", "radsem", "crepe"]


def _examples():
    pairs = [e.pair for e in example_pairs()]
    refs = [p.reference for p in pairs] + ["Lungs are clear."]
    cands = [p.candidate for p in pairs] + [""]  # an empty candidate: an error row
    return refs, cands


def _without_timing(records):
    records = json.loads(json.dumps(records))
    for row in records:
        for result in row["metrics"].values():
            result.pop("elapsed_ms")
    return records


@pytest.fixture(scope="module")
def scorer():
    # the bundled CREPE model by name (the default CREPE reader is the rules view)
    with Scorer(METRICS, encoder_threads=1, crepe_model="crepe-minilm-demo") as s:
        yield s


def test_records_and_signatures_are_the_clis(scorer, tmp_path):
    refs, cands = _examples()
    scores = scorer.score(refs, cands)
    rows = [{"id": str(i), "reference": r, "candidate": c}
            for i, (r, c) in enumerate(zip(refs, cands))]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    proc = run_cli("score", "--input", str(path), "--metrics", ",".join(METRICS), "--out",
                   str(out), "--encoder-threads", "1", "--crepe-model", "crepe-minilm-demo",
                   "--workers", "1", "--no-progress")
    assert proc.returncode == 0, proc.stderr
    cli = [json.loads(line) for line in out.read_text().splitlines()]
    assert _without_timing(scores.records) == _without_timing(cli)
    assert scores.signatures == {m: cli[0]["metrics"][m]["signature"] for m in METRICS}


def test_arrays_errors_and_no_store(scorer, radscope_home):
    refs, cands = _examples()
    scores = scorer.score(refs, cands)
    assert len(scores) == len(refs)
    clear = scores.array("clear")
    # NaN exactly where there is no number: the empty pair and the examples outside CLEAR's
    # scope (CT, MRI: "not applicable")
    missing = [r["metrics"]["clear"]["score"] is None for r in scores.records]
    assert clear.dtype == np.float64 and list(np.isnan(clear)) == missing and missing[-1]
    assert any(r["metrics"]["clear"].get("not_applicable") for r in scores.records)
    assert scores.errors("clear")[-1] == "input: candidate report is empty"
    assert scores.array("bleu")[0] == scores.records[0]["metrics"]["bleu"]["score"]
    with pytest.raises(KeyError, match="was not scored"):
        scores.array("vert")
    assert not (radscope_home / "radscope.sqlite").exists()  # nothing stored unless asked


def test_models_are_reused_between_calls(scorer):
    refs, cands = _examples()
    scorer.score(refs[:2], cands[:2])
    sessions = dict(scorer.context._resources)
    scorer.score(refs[2:4], cands[2:4])
    assert scorer.context._resources == sessions and len(sessions) == 1  # one CREPE session


def test_concurrent_calls_give_the_sequential_results(scorer):
    refs, cands = _examples()
    expected = _without_timing(scorer.score(refs, cands).records)
    got: list = [None] * 4

    def work(k: int) -> None:
        got[k] = _without_timing(scorer.score(refs, cands).records)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [expected] * 4


def test_a_store_is_used_only_when_given_and_resumes(tmp_path):
    refs, cands = _examples()
    with Scorer(["bleu", "radsem"], store=tmp_path / "s.sqlite") as scorer:
        first = scorer.score(refs, cands, run_id="reward-1")
        again = scorer.score(refs, cands, run_id="reward-1")
    assert again.records == first.records  # read back, including the timings
    assert (tmp_path / "s.sqlite").exists()


def test_bad_calls_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="unknown option"):
        Scorer(["bleu"], judge_temprature=0.1)
    with Scorer(["bleu"]) as scorer:
        with pytest.raises(ValueError, match="2 references but 1 candidates"):
            scorer.score(["a", "b"], ["a"])
        with pytest.raises(TypeError, match="not one string"):
            scorer.score("a report", "another")
        with pytest.raises(ValueError, match="ids repeat"):
            scorer.score(["a", "b"], ["a", "b"], ids=["x", "x"])
