"""The rewards in the exact shapes their trainers call them (TRL sync and async, verl per
sample and batch, OpenRLHF), checked against the Scorer on the same texts."""
import asyncio
import importlib.util
import inspect
import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from radscope.engine.rewards import file as reward_file
from radscope.engine.rewards import scorer as rewards
from radscope.engine.api import Scorer
from radscope.engine.rewards.scorer import (
    RewardScorer,
    completion_text,
    parse_weights,
    response_from_query,
    trl_async_reward,
    trl_reward,
    unit_reward,
)

REFS = ["No acute cardiopulmonary process. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly.",
        "MRI brain: no acute infarct."]  # outside CLEAR's scope (chest radiographs)
CANDS = ["Heart size is normal. No pleural effusion.",
         "Moderate left pleural effusion. Heart size is normal.",
         "MRI brain: small acute infarct in the left frontal lobe."]


@pytest.fixture(scope="module")
def expected():
    with Scorer("radsem,clear,crepe") as scorer:
        return scorer.score(REFS, CANDS)


def trl_kwargs(completions, **columns):
    """What GRPOTrainer._calculate_rewards passes besides the dataset columns."""
    return dict(prompts=["Write the report."] * len(completions), completions=completions,
                completion_ids=[[1, 2, 3]] * len(completions), trainer_state=object(),
                log_extra=lambda *a, **k: None, log_metric=lambda *a, **k: None, **columns)


def test_parse_weights():
    assert parse_weights("radsem") == {"radsem": 1.0}
    assert parse_weights("radsem:0.7, crepe:0.3") == {"radsem": 0.7, "crepe": 0.3}
    assert parse_weights(["clear", "radsem"]) == {"clear": 1.0, "radsem": 1.0}
    assert parse_weights({"radsem": 2}) == {"radsem": 2.0}
    for bad, message in (("radsem:x", "not a number"), ("radsem:-1", "positive"), ("", "no metric"),
                         ("radsem,radsem", "twice"), ("radsem:nan", "positive")):
        with pytest.raises(ValueError, match=message):
            parse_weights(bad)


def test_unit_reward_maps_every_metric_to_higher_is_better():
    assert unit_reward(0.25, "higher", (0.0, 1.0)) == 0.25
    assert unit_reward(0.0, "lower", (0.0, None)) == 1.0  # CREPE: no errors
    assert unit_reward(3.0, "lower", (0.0, None)) == 0.25
    assert unit_reward(0.25, "lower", (0.0, 1.0)) == 0.75


def test_trl_sync_reward_strings(expected):
    reward = trl_reward("radsem", reference_column="reference")
    assert reward.__name__ == "radscope_radsem"
    got = reward(**trl_kwargs(CANDS, reference=REFS, other_column=[1, 2, 3]))
    assert got == pytest.approx(expected.array("radsem").tolist())


def test_trl_reward_none_where_not_applicable(expected):
    got = trl_reward("clear")(**trl_kwargs(CANDS, reference=REFS))
    assert got[2] is None  # a brain MRI: CLEAR does not apply; TRL turns None into NaN
    assert expected.statuses("clear")[2] == "not_applicable"
    assert got[:2] == pytest.approx(expected.array("clear")[:2].tolist())
    # A trainer that cannot take None asks for a number instead.
    assert trl_reward("clear", not_scored=0.0)(**trl_kwargs(CANDS, reference=REFS))[2] == 0.0


def test_a_completion_that_says_nothing_gets_the_floor_not_a_skip():
    """"Ok." or an empty completion against a real reference is the generator's failure: 0.0 in
    every adapter, so that saying nothing never escapes the penalty. An unreadable reference is
    still a skip (None) for TRL."""
    refs = [REFS[0], REFS[0], "Ok."]
    cands = ["Ok.", "   ", CANDS[0]]
    batch = RewardScorer("radsem:0.5,crepe:0.5").rewards(refs, cands)
    assert batch.rewards[:2] == [0.0, 0.0]
    assert batch.statuses[:2] == ["cannot_read", "error"]  # an empty text is an input error
    assert batch.rewards[2] is None and batch.reasons[2].startswith("radsem: cannot read: reference")
    assert trl_reward("radsem")(**trl_kwargs(cands, reference=refs)) == [0.0, 0.0, None]


def test_trl_chat_messages_and_async(expected):
    chats = [[{"role": "assistant", "content": c}] for c in CANDS]
    chats[1] = [{"role": "assistant", "content": [{"type": "text", "text": CANDS[1]}]}]
    reward = trl_async_reward("radsem")
    assert inspect.iscoroutinefunction(reward)  # how TRL tells async rewards apart

    async def trainer_calls():  # TRL awaits the async rewards together
        return await asyncio.gather(reward(**trl_kwargs(chats, reference=REFS)),
                                    reward(**trl_kwargs(CANDS, reference=REFS)))

    from_chat, from_text = asyncio.run(trainer_calls())
    assert from_chat == from_text == pytest.approx(expected.array("radsem").tolist())


def test_trl_reward_names_the_missing_column():
    with pytest.raises(KeyError, match=r"'reference'.*other"):
        trl_reward("bleu")(**trl_kwargs(CANDS, other=REFS))
    with pytest.raises(TypeError, match="string or a list of chat messages"):
        completion_text(3)


def test_weighted_combination(expected):
    batch = RewardScorer("radsem:0.7,crepe:0.3").rewards(REFS, CANDS)
    for i in range(3):
        radsem, crepe = expected.array("radsem")[i], expected.array("crepe")[i]
        if math.isnan(radsem) or math.isnan(crepe):
            assert batch.rewards[i] is None and batch.reasons[i]
        else:
            assert batch.rewards[i] == pytest.approx(0.7 * radsem + 0.3 / (1 + crepe))
            assert batch.statuses[i] == "scored"


def load_by_path(name: str):
    """How verl (load_extern_object -> load_module) and OpenRLHF load a reward file."""
    spec = importlib.util.spec_from_file_location(name, reward_file.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # and left out of sys.modules, as both do
    return module


def test_verl_compute_score_per_sample_and_batch(expected):
    module = load_by_path("custom_module")
    compute_score = module.compute_score
    kwargs = {"metrics": "clear"}  # custom_reward_function.reward_kwargs
    per_sample = [compute_score(data_source="iu_xray", solution_str=c, ground_truth=r,
                                extra_info={"index": i}, **kwargs)
                  for i, (r, c) in enumerate(zip(REFS, CANDS, strict=True))]
    assert [s["score"] for s in per_sample[:2]] == pytest.approx(expected.array("clear")[:2].tolist())
    assert per_sample[2] == {"score": 0.0, "scored": 0.0}  # not applicable: the floor, flagged
    batch = compute_score(data_sources=["iu_xray"] * 3, solution_strs=CANDS, ground_truths=REFS,
                          extra_infos=[None] * 3, **kwargs)
    assert batch == [s["score"] for s in per_sample]
    assert all(isinstance(s, float) for s in batch)  # what verl's batch manager writes into its tensor


def test_verl_builds_one_scorer_per_process_across_threads(monkeypatch):
    module = load_by_path("custom_module_threads")
    built = []
    original = rewards.RewardScorer

    def counting(*args, **kwargs):
        built.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(rewards, "_shared", {})
    monkeypatch.setattr(rewards, "RewardScorer", counting)
    with ThreadPoolExecutor(8) as pool:  # verl's RewardLoopWorker: run_in_executor threads
        scores = list(pool.map(lambda c: module.compute_score("src", c, REFS[0], metrics="bleu"), CANDS * 4))
    assert len(built) == 1 and len(scores) == 12


def test_openrlhf_reward_func_strips_the_prompt():
    module = load_by_path("reward_func")
    prompts = ["<|im_start|>user\nWrite the findings.<|im_end|>\n<|im_start|>assistant\n"] * 2
    queries = ["<pad><pad>" + prompts[0] + CANDS[0] + "<|im_end|><|endoftext|>",
               "<pad>" + prompts[1] + CANDS[1] + "<|im_end|>"]
    assert response_from_query(queries[0], prompts[0]) == CANDS[0]
    out = module.reward_func(queries, prompts, REFS[:2], metrics="radsem")
    with Scorer("radsem") as scorer:
        want = list(scorer.score(REFS[:2], CANDS[:2]).array("radsem"))
    rewards = [float(x) for x in out["rewards"]]  # tensors under OpenRLHF, lists without torch
    assert rewards == pytest.approx(want)
    assert [float(x) for x in out["scores"]] == rewards
    assert [float(x) for x in out["extra_logs"]["scored"]] == [1.0, 1.0]


def test_openrlhf_reward_func_refuses_a_query_without_its_prompt_as_the_server_does():
    """The server answers 422 with this message (tests/engine/rewards/test_server.py)."""
    module = load_by_path("reward_func")
    prompt = "<|im_start|>user\nWrite the findings.<|im_end|>\n<|im_start|>assistant\n"
    with pytest.raises(ValueError, match=r"query\[1\] does not begin with its prompt"):
        module.reward_func([prompt + CANDS[0], "a query that lost its prompt"], [prompt] * 2, REFS[:2],
                           metrics="radsem")

