"""The in-house sentence BLEU gives nltk's float exactly (so importing nltk can wait)."""
import random

import pytest
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.lexical.metric import bleu, sentence_bleu, tokenize


def _nltk(ref: list[str], hyp: list[str], n: int, smoothing: str) -> float:
    return float(nltk_sentence_bleu([ref], hyp, weights=tuple([1.0 / n] * n),
                                    smoothing_function=getattr(SmoothingFunction(), smoothing)))


def test_random_token_sequences_score_as_in_nltk():
    # A six-word vocabulary makes partial n-gram overlaps common; lengths 1..25 cover
    # hypotheses shorter than n, equal lengths (no brevity penalty) and both smoothings.
    rng = random.Random(0)
    vocab = "no acute left effusion small the".split()
    checked = 0
    for _ in range(3000):
        ref = [rng.choice(vocab) for _ in range(rng.randint(1, 25))]
        hyp = [rng.choice(vocab) for _ in range(rng.randint(1, 25))]
        for n in (1, 2, 4):
            for smoothing in ("method1", "method4"):
                assert sentence_bleu(ref, hyp, n, smoothing) == _nltk(ref, hyp, n, smoothing)
                checked += 1
    assert checked == 18000


def test_report_pairs_score_as_in_nltk():
    pairs = [e.pair for e in example_pairs()]
    for ref in pairs:
        for cand in pairs:
            r, c = tokenize(ref.reference), tokenize(cand.candidate)
            assert bleu(ref.reference, cand.candidate) == _nltk(r, c, 4, "method1")
            assert bleu(ref.reference, cand.candidate, n=1) == _nltk(r, c, 1, "method1")
            assert bleu(ref.reference, cand.candidate, smoothing="method4") == \
                _nltk(r, c, 4, "method4")


def test_edge_cases():
    assert bleu("", "anything") == 0.0 and bleu("something", "...") == 0.0
    assert sentence_bleu(["a"], ["b"]) == 0.0  # no unigram in common
    assert sentence_bleu(["a", "b"], ["a", "b"]) == _nltk(["a", "b"], ["a", "b"], 4, "method1")
    with pytest.raises(ValueError, match="smoothing"):
        sentence_bleu(["a"], ["a"], smoothing="method7")
