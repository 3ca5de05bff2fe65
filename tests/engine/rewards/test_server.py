"""The reward server over real HTTP: OpenRLHF's request and reply shape (as its client sends it:
a JSON POST, the reply's "rewards" read back), the plain batch endpoint, concurrent requests
gathered into batches, a bearer token, and clear 4xx answers that leave the server running.
The hostile side (sizes, deadlines, the queue, clients that leave) is in
tests/security/test_reward_server_hostile.py."""
import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from radscope.engine.api import Scorer
from radscope.engine.rewards.server import build_app
from radscope.engine.rewards.scorer import RewardScorer
from tests.engine.rewards.server_harness import free_port, get, post, serving

REFS = ["No acute cardiopulmonary process. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly.",
        "MRI brain: no acute infarct."]
CANDS = ["Heart size is normal. No pleural effusion.",
         "Moderate left pleural effusion. Heart size is normal.",
         "MRI brain: small acute infarct in the left frontal lobe."]
TOKEN = "s3cret-token"
ROOT = Path(__file__).resolve().parents[3]
PROMPT = "<|im_start|>user\nFindings?<|im_end|>\n<|im_start|>assistant\n"


def listening_addresses(port: int) -> set[str]:
    """The IPv4 addresses a local TCP port listens on, from /proc/net/tcp (Linux)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


@pytest.fixture(scope="module")
def server():
    rewarder = RewardScorer("radsem:0.7,crepe:0.3")
    with serving(build_app(rewarder, token=TOKEN, not_scored=-1.0)) as url:
        yield url, rewarder
    rewarder.close()


def test_openrlhf_get_reward(server):
    url, rewarder = server
    prompts = [PROMPT] * 3
    queries = ["<pad>" + p + c + "<|im_end|>" for p, c in zip(prompts, CANDS, strict=True)]
    queries[1] = " " + queries[1] + "  \n<|endoftext|>  "  # a leading space: the prompt still begins it
    status, reply = post(url + "/get_reward", {"query": queries, "prompts": prompts, "labels": REFS}, TOKEN)
    assert status == 200 and set(reply) == {"rewards", "scores", "extra_logs"}
    want = rewarder.rewards(REFS, CANDS)
    assert reply["rewards"] == pytest.approx(want.filled(-1.0))
    assert reply["scores"] == reply["rewards"]
    assert reply["extra_logs"]["scored"] == want.scored()


def test_plain_batch_endpoint(server):
    url, _ = server
    status, reply = post(url + "/score", {"references": REFS, "candidates": CANDS}, TOKEN)
    assert status == 200
    with Scorer("radsem,crepe") as scorer:
        scores = scorer.score(REFS, CANDS)
    assert reply["metrics"]["radsem"] == pytest.approx(scores.array("radsem").tolist())
    assert reply["signatures"]["radsem"] == scores.signatures["radsem"]
    assert len(reply["rewards"]) == len(reply["statuses"]) == len(reply["reasons"]) == 3


def test_concurrent_requests_are_gathered_into_batches(server):
    url, _ = server
    _, before = get(url + "/health", TOKEN)
    pairs = [(REFS[i % 2], f"{CANDS[i % 2]} Case {i}.") for i in range(48)]
    with ThreadPoolExecutor(16) as pool:
        replies = list(pool.map(lambda p: post(url + "/score", {"references": [p[0]], "candidates": [p[1]]},
                                               TOKEN), pairs))
    assert all(status == 200 for status, _ in replies)
    _, after = get(url + "/health", TOKEN)
    assert after["batches"] - before["batches"] < len(pairs)  # fewer Scorer calls than requests
    with Scorer("radsem") as scorer:  # each request got its own pair's result back
        want = scorer.score([p[0] for p in pairs], [p[1] for p in pairs]).array("radsem").tolist()
    assert [r["metrics"]["radsem"][0] for _, r in replies] == pytest.approx(want)


@pytest.mark.parametrize(("body", "raw", "status", "message"), [
    (None, b"{not json", 400, "not JSON"),
    ([1, 2], None, 400, "JSON object"),
    ({"references": ["a"]}, None, 400, "'candidates' must be a list of strings (missing)"),
    ({"references": ["a", "b"], "candidates": ["c"]}, None, 400, "references has 2, candidates has 1"),
    ({"references": ["a"], "candidates": [3]}, None, 400, "candidates[0] is int"),
])
def test_bad_requests_get_a_clear_400(server, body, raw, status, message):
    url, _ = server
    got, reply = post(url + "/score", body, TOKEN, raw=raw)
    assert got == status and message in reply["error"]
    assert get(url + "/health")[0] == 200  # still serving


def test_get_reward_checks_its_lists(server):
    url, _ = server
    got, reply = post(url + "/get_reward", {"query": ["q"], "prompts": ["p", "p"], "labels": ["l"]}, TOKEN)
    assert got == 400 and "query has 1, prompts has 2, labels has 1" in reply["error"]


def test_a_query_that_does_not_begin_with_its_prompt_is_refused(server):
    """Truncated by the trainer or decoded differently, the prompt no longer tells where the
    response starts: the request is refused, naming the samples, never scored as not-scored."""
    url, _ = server
    queries = [PROMPT + CANDS[0], PROMPT[:20] + CANDS[1], "Findings? " + CANDS[2]]
    got, reply = post(url + "/get_reward", {"query": queries, "prompts": [PROMPT] * 3, "labels": REFS}, TOKEN)
    assert got == 422 and "query[1], query[2] does not begin with its prompt" in reply["error"]


def test_token_required(server):
    url, _ = server
    body = {"references": REFS[:1], "candidates": CANDS[:1]}
    assert post(url + "/score", body)[0] == 401
    assert post(url + "/score", body, "wrong")[0] == 401
    assert post(url + "/score", body, headers={"Authorization": f"Bearer{TOKEN}"})[0] == 401
    for scheme in ("bearer", "BEARER", "Bearer"):  # the scheme is case-insensitive (RFC 9110)
        assert post(url + "/score", body, headers={"Authorization": f"{scheme} {TOKEN}"})[0] == 200


def test_health_tells_a_caller_without_the_token_only_that_it_is_alive(server):
    url, _ = server
    assert get(url + "/health") == (200, {"status": "ok"})
    assert get(url + "/health", "wrong") == (200, {"status": "ok"})
    status, health = get(url + "/health", TOKEN)
    assert status == 200 and health["weights"] == {"radsem": 0.7, "crepe": 0.3}
    assert set(health["signatures"]) == {"radsem", "crepe"} and TOKEN not in json.dumps(health)


def test_serve_reward_command(tmp_path):
    """`radscope serve-reward` binds 127.0.0.1 and reads its token from a file."""
    port = free_port()
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "radscope", "serve-reward", "--metrics", "bleu",
                             "--port", str(port), "--token-file", str(token_file)],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, health = get(f"http://127.0.0.1:{port}/health", TOKEN)
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                time.sleep(0.2)
        assert status == 200 and health["weights"] == {"bleu": 1.0}
        status, reply = post(f"http://127.0.0.1:{port}/score", {"references": REFS, "candidates": REFS}, TOKEN)
        assert status == 200 and reply["rewards"] == pytest.approx([1.0, 1.0, 1.0])
        assert listening_addresses(port) == {"127.0.0.1"}  # not reachable from other machines
    finally:
        proc.terminate()
        proc.wait(10)
    assert "127.0.0.1" in proc.stderr.read()
