"""Reading an OpenRLHF query (prompt + response, special tokens kept): what is taken for the
response, and a time bound for every pattern that reads completions, fed long runs of the
characters each finds hardest (whitespace, unclosed token openings, closings without an opening).
The old trailing-token pattern took 11 s for a query ending in 24,000 spaces."""
import re
import time

import pytest

from radscope.engine.rewards import scorer as rewards
from radscope.engine.rewards.scorer import response_from_query

PROMPT = "<|im_start|>user\nWrite the findings.<|im_end|>\n<|im_start|>assistant\n"
TOKENS = ["<|im_end|>", "<|endoftext|>", "<｜end▁of▁sentence｜>", "</s>", "<s>", "<pad>", "<eos>", "<bos>", "[PAD]"]
NOT_TOKENS = ["<|im end|>", "<||>", "<|" + "a" * 41 + "|>", "<pad", "pad>", "[PAD", "< s>", "<|a<|>"]
RUN = 200_000
WORST = [" ", "\n", "\t ", "<", "<|", "|>", ">", "<｜", "｜>", "<pad", "[PAD", "</", " <|", "<|a", "a|>",
         "<|" + "a" * 39, "a" * 39 + "|>", "<pad> ", " </s>"]
BOUND_S = 2.0  # generous: linear reading of 200,000 characters takes milliseconds


@pytest.mark.parametrize("token", TOKENS + NOT_TOKENS)
def test_the_reversed_token_pattern_matches_the_same_tokens(token):
    forward = re.fullmatch(rewards._SPECIAL, token) is not None
    assert (re.fullmatch(rewards._SPECIAL_REVERSED, token[::-1]) is not None) == forward
    assert forward == (token in TOKENS)


def test_the_response_is_what_follows_the_prompt():
    reply = "No pleural effusion. Heart size is normal."
    assert response_from_query("<pad><pad>" + PROMPT + reply + "<|im_end|><|endoftext|>", PROMPT) == reply
    assert response_from_query(" " + PROMPT + reply + " <|im_end|>\n<pad> [PAD]", PROMPT) == reply
    assert response_from_query("<s>" + PROMPT + reply + "</s>", "<s>" + PROMPT) == reply
    assert response_from_query(PROMPT + "<|im_end|>", PROMPT) == ""
    # an echoed prompt stays in the response (the last occurrence used to be taken as the prompt)
    assert response_from_query(PROMPT + PROMPT + reply, PROMPT) == (PROMPT + reply).strip()
    assert response_from_query(reply, "") == reply


@pytest.mark.parametrize("query", [PROMPT[:30] + "No effusion.", "No effusion.", "Write the findings. No effusion."])
def test_a_query_that_does_not_begin_with_its_prompt_has_no_response(query):
    assert response_from_query(query, PROMPT) is None


@pytest.mark.parametrize("unit", WORST)
def test_every_query_pattern_is_linear_on_its_worst_runs(unit):
    run = unit * (RUN // len(unit))
    for pattern, text in ((rewards._LEADING_SPECIALS, run + "x"), (rewards._LEADING_SPECIALS, run),
                          (rewards._TRAILING_SPECIALS_REVERSED, ("x" + run)[::-1]),
                          (rewards._TRAILING_SPECIALS_REVERSED, run[::-1])):
        start = time.perf_counter()
        pattern.match(text)
        assert time.perf_counter() - start < BOUND_S, (pattern.pattern, unit)
    for query, prompt in ((PROMPT + run + "x", PROMPT), (PROMPT + run, PROMPT), (run + PROMPT + "x", PROMPT),
                          ("P" + run + "x", "P"), (run, run[: len(run) // 2] + "y")):
        start = time.perf_counter()
        response_from_query(query, prompt)
        assert time.perf_counter() - start < BOUND_S, (unit, len(query))
