"""Ray tests need Ray: they run in the Ray environment (`make test-ray`, i.e.
.venv-ray/bin/python -m pytest tests/ray). In the runtime environment (.venv, no Ray) this
folder is left out of collection instead of failing to import."""
import importlib.util
import json
from pathlib import Path

import pytest

if importlib.util.find_spec("ray") is None:
    collect_ignore_glob = ["test_*.py"]

METRICS = "bleu,rouge,clear,radsem"
N_PAIRS = 2000


def write_corpus(path: Path, n: int = N_PAIRS) -> Path:
    """``n`` pairs crossed from the project's example reports (pair t: report t against report
    t + 1 + t // m), with three pairs a metric must mark instead of score: an empty candidate,
    a candidate with no words, a reference far over the length limit."""
    from radscope.engine.io.examples import example_pairs

    texts = list(dict.fromkeys(t for e in example_pairs() for t in (e.pair.reference, e.pair.candidate)))
    m = len(texts)
    with path.open("w", encoding="utf-8") as out:
        for t in range(n):
            reference, candidate = texts[t % m], texts[(t + 1 + t // m) % m]
            if t == 7:
                candidate = ""
            elif t == 1234:
                candidate = "!!! ??? ..."
            elif t == 1999:
                reference = "No acute findings. " * 20_000
            out.write(json.dumps({"id": f"p{t}", "reference": reference, "candidate": candidate}) + "\n")
    return path


def read_rows(path: Path) -> list[dict]:
    """A results file's rows without the per-result timings (which differ from run to run)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for result in row["metrics"].values():
            result.pop("elapsed_ms")
        rows.append(row)
    return rows


def comparable_summary(path: Path) -> dict:
    """A summary without what says how the run went rather than what it found."""
    summary = json.loads(path.read_text(encoding="utf-8"))
    for key in ("elapsed_s", "engine", "resumed", "stored", "answered_from_store"):
        summary.pop(key, None)
    return summary


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("ray-corpus") / "pairs.jsonl")


@pytest.fixture(scope="session")
def one_worker(tmp_path_factory, corpus) -> dict:
    """The local runner's results on the corpus, one process (``--workers 1``): the reference."""
    from radscope.engine.commands import main

    work = tmp_path_factory.mktemp("one-worker")
    code = main(["score", "--input", str(corpus), "--metrics", METRICS, "--extractor", "rules",
                 "--out", str(work / "out.jsonl"), "--summary", str(work / "summary.json"),
                 "--db", str(work / "store.sqlite"), "--workers", "1", "--no-progress"])
    assert code == 0
    return {"rows": read_rows(work / "out.jsonl"), "summary": comparable_summary(work / "summary.json")}


@pytest.fixture(scope="session")
def local_ray():
    """A local Ray of two CPUs, as Ray's testing guide recommends for CI, shared by the tests."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
