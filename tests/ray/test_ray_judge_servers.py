"""Judge calls from Ray's model actors spread over two servers on 127.0.0.1: the same rows and
model-call count as the local runner through the same two servers. The servers are the
benchmark's stand-in (bench.doubles.judge_standin: schema-shaped empty answers, no model), which
tests the plumbing; tests/llm runs the judge against a real llama.cpp server."""
import json
import sys
from pathlib import Path

import pytest

from bench.speed.cluster import start_server
from radscope.engine.commands import main
from tests.ray.conftest import read_rows, write_corpus

N = 40


@pytest.fixture(scope="module")
def two_servers():
    servers = [start_server([sys.executable, "-m", "bench.doubles.judge_standin", "--delay-ms", "0",
                             "--model", "judge-standin"]) for _ in range(2)]
    yield ",".join(url for _, url in servers)
    for proc, _ in servers:
        proc.terminate()
        proc.wait(timeout=30)


def run(corpus: Path, work: Path, urls: str, *extra: str) -> tuple[list[dict], dict]:
    work.mkdir()
    assert main(["score", "--input", str(corpus), "--metrics", "vert", "--extractor", "llm",
                 "--judge-url", urls, "--judge-model", "judge-standin", "--json-dialect", "json_object",
                 "--out", str(work / "out.jsonl"), "--summary", str(work / "summary.json"),
                 "--db", str(work / "store.sqlite"), "--no-progress", *extra]) == 0
    return read_rows(work / "out.jsonl"), json.loads((work / "summary.json").read_text())


def test_judge_pool_on_ray_matches_the_local_runner(local_ray, two_servers, tmp_path, monkeypatch):
    corpus = write_corpus(tmp_path / "pairs.jsonl", N)
    monkeypatch.setenv("RADSCOPE_HOME", str(tmp_path / "home-local"))
    local_rows, local = run(corpus, tmp_path / "local", two_servers, "--concurrency", "4")
    monkeypatch.setenv("RADSCOPE_HOME", str(tmp_path / "home-ray"))  # no call cache shared
    ray_rows, on_ray = run(corpus, tmp_path / "ray", two_servers, "--engine", "ray", "--block-size", "8",
                           "--model-actors", "2", "--model-actor-cpus", "0.5", "--concurrency", "2")
    assert ray_rows == local_rows
    signature = local_rows[0]["metrics"]["vert"]["signature"]
    assert signature.count("127.0.0.1:") == 2  # one signature naming both servers
    assert all(r["metrics"]["vert"]["signature"] == signature for r in ray_rows)
    marked = {r["id"] for r in ray_rows if r["metrics"]["vert"]["error"] is not None}
    assert marked == {"p7"}  # the empty candidate, marked before any call
    assert on_ray["model_calls"] == local["model_calls"] >= N - 1
