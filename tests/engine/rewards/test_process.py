"""The reward server's scoring process (``engine/rewards/process.py``), with a real scorer in a
real spawned child: the rewards are the in-process ones, a child that dies fails only the call it
held, and a child whose server has gone does not outlive it."""
import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from radscope.engine.rewards.batcher import Batcher
from radscope.engine.rewards.process import ScoringProcess
from radscope.engine.rewards.scorer import RewardScorer

REFS = ["Small left pleural effusion.", "No acute cardiopulmonary process.", "Mild cardiomegaly."]
CANDS = ["No pleural effusion.", "Heart size is normal.", "Moderate cardiomegaly."]
ROOT = Path(__file__).resolve().parents[3]


def _children(pid: int) -> set[int]:
    """The spawned workers among ``pid``'s children (not multiprocessing's resource tracker)."""
    found = {int(c) for task in Path(f"/proc/{pid}/task").iterdir()
             for c in (task / "children").read_text().split()}
    return {c for c in found if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()}


def test_the_scoring_process_gives_the_in_process_rewards_through_the_batcher():
    rewarder = RewardScorer("radsem,crepe")
    scoring = ScoringProcess(rewarder)
    try:
        want = [rewarder.rewards([r], [c]) for r, c in zip(REFS, CANDS, strict=True)]

        async def run():
            batcher = Batcher(rewarder, scoring=scoring)
            try:
                return await asyncio.gather(*(batcher.rewards([r], [c]) for r, c in zip(REFS, CANDS, strict=True)))
            finally:
                await batcher.close()

        assert asyncio.run(run()) == want
        assert _children(os.getpid())  # the scores came from a child process
    finally:
        scoring.close()
        rewarder.close()


def test_a_child_that_dies_fails_its_call_and_the_next_call_starts_a_new_one():
    rewarder = RewardScorer("bleu")
    scoring = ScoringProcess(rewarder)
    try:
        scoring.warm_up()
        before = _children(os.getpid())
        for pid in before:
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            asyncio.run(scoring(REFS, CANDS))
        assert scoring.restarts == 1
        assert asyncio.run(scoring(REFS, CANDS)) == rewarder.rewards(REFS, CANDS)
    finally:
        scoring.close()
        rewarder.close()


def test_the_child_ends_when_its_server_process_is_gone():
    """uvicorn ends its process by re-raising the signal it caught, so no ``finally`` closes the
    pool: the child must notice by itself."""
    server = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import os, sys
        from radscope.engine.rewards.process import ScoringProcess
        from radscope.engine.rewards.scorer import RewardScorer
        scoring = ScoringProcess(RewardScorer("bleu"))
        scoring.warm_up()
        print("ready", flush=True)
        sys.stdin.readline()
        os._exit(0)  # gone without closing anything
    """)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        children = _children(server.pid)
        assert children
        server.communicate("\n", timeout=30)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{c}").exists() and "Z" not in _state(c) for c in children):
            assert time.monotonic() < deadline, "the scoring process outlived its server"
            time.sleep(0.2)
    finally:
        server.kill()


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "Z"
