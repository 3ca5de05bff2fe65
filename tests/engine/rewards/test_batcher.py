"""The reward server's batcher with a real scorer: concurrent requests come back in their own
order whatever the calls they were split across, and a request larger than a call is scored in
pieces (two calls at once may end out of order)."""
import asyncio

from radscope.engine.rewards.batcher import Batcher
from radscope.engine.rewards.scorer import RewardScorer

REFS = ["Small left pleural effusion.", "No acute cardiopulmonary process.", "Mild cardiomegaly.",
        "Right lower lobe opacity, possibly pneumonia."]
CANDS = ["No pleural effusion.", "Heart size is normal.", "Moderate cardiomegaly.", "Right lower lobe pneumonia."]


def test_requests_split_across_calls_come_back_whole_and_in_order():
    rewarder = RewardScorer("bleu")
    try:
        big = ([REFS[i % 4] for i in range(40)], [f"{CANDS[i % 4]} Case {i}." for i in range(40)])
        small = [([REFS[i]], [CANDS[i]]) for i in range(4)]
        want_big = rewarder.rewards(*big)
        want_small = [rewarder.rewards(*pair) for pair in small]

        async def run():
            batcher = Batcher(rewarder, max_batch_pairs=16, calls=2)
            try:
                got = await asyncio.gather(batcher.rewards(*big), *(batcher.rewards(*p) for p in small))
                return got, batcher.batches, batcher.pending_pairs
            finally:
                await batcher.close()

        got, calls, pending = asyncio.run(run())
        assert got[0] == want_big and got[1:] == want_small
        assert calls >= 3 and pending == 0  # 44 pairs in calls of at most 16
    finally:
        rewarder.close()
