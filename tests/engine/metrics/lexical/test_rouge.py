"""The in-house ROUGE-L gives rouge-score's float exactly (``RougeScorer(["rougeL"],
use_stemmer=True)`` on the same tokens), so the signature may keep naming rouge-score."""
import random

from rouge_score import rouge_scorer
from rouge_score.rouge_scorer import _lcs_table

from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.lexical.metric import lcs_length, rouge_l, rouge_tokens, tokenize

_LIBRARY = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def _library(reference: str, candidate: str) -> float:
    ref, cand = " ".join(tokenize(reference)), " ".join(tokenize(candidate))
    if not ref or not cand:
        return 0.0
    return float(_LIBRARY.score(ref, cand)["rougeL"].fmeasure)


def test_lcs_length_is_the_table_s():
    rng = random.Random(0)
    vocab = "no acute left effusion small the a".split()
    for _ in range(3000):
        a = [rng.choice(vocab) for _ in range(rng.randint(1, 80))]
        b = [rng.choice(vocab) for _ in range(rng.randint(0, 80))]
        assert lcs_length(a, b) == _lcs_table(a, b)[-1][-1]


def test_tokens_are_rouge_score_s():
    text = "Lungs: CLEAR; effusions_2 résumé 3.5cm opacities, nodularity x2 __ a"
    assert rouge_tokens(text) == _LIBRARY._tokenizer.tokenize(text)


def test_random_reports_score_as_rouge_score():
    rng = random.Random(1)
    words = ("No acute cardiopulmonary process. Small left pleural effusion, increasing "
             "opacities; stable cardiomegaly with résumé_2 and 3.5 cm nodules at T12. ").split()
    for _ in range(2000):
        ref = " ".join(rng.choice(words) for _ in range(rng.randint(0, 60)))
        cand = " ".join(rng.choice(words) for _ in range(rng.randint(0, 60)))
        assert rouge_l(ref, cand) == _library(ref, cand)


def test_report_pairs_score_as_rouge_score():
    pairs = [e.pair for e in example_pairs()]
    for ref in pairs:
        for cand in pairs:
            assert rouge_l(ref.reference, cand.candidate) == _library(ref.reference, cand.candidate)
    assert rouge_l("", "anything") == 0.0 and rouge_l("___", "a b") == 0.0
