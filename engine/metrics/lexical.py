"""Lexical baselines (BLEU, ROUGE-L) and the token-level similarities other metrics reuse.

BLEU comes from nltk, ROUGE-L from Google's rouge-score package. Both see the same tokens:
lower-cased, punctuation deleted, split on white space (the convention of CLEAR's reference
code, so that CLEAR's list-attribute similarities and the whole-report baselines agree).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any


from engine.metrics.base import Metric, MetricCard, PairScore
from engine.metrics.registry import MetricSpec
from engine.reports import ReportPair

_PUNCT_RE = re.compile(r"[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Lower-case, delete punctuation, split on white space."""
    return _PUNCT_RE.sub("", text.lower()).split()


def bleu(reference: str, candidate: str, n: int = 4, smoothing: str = "method1") -> float:
    """Sentence BLEU-n with uniform weights and an nltk smoothing method (0 for empty input)."""
    ref, cand = tokenize(reference), tokenize(candidate)
    if not ref or not cand:
        return 0.0
    from nltk.translate.bleu_score import sentence_bleu

    weights = tuple([1.0 / n] * n)
    return float(sentence_bleu([ref], cand, weights=weights,
                               smoothing_function=getattr(_smoothing(), smoothing)))


# nltk and rouge-score are imported on first use: importing nltk pulls in scipy.stats and
# costs about a second, which a command that never scores BLEU or ROUGE should not pay.
@lru_cache(maxsize=1)
def _smoothing() -> Any:
    from nltk.translate.bleu_score import SmoothingFunction

    return SmoothingFunction()


@lru_cache(maxsize=1)
def _rouge() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def rouge_l(reference: str, candidate: str) -> float:
    """ROUGE-L F-measure with Porter stemming."""
    ref, cand = " ".join(tokenize(reference)), " ".join(tokenize(candidate))
    if not ref or not cand:
        return 0.0
    return float(_rouge().score(ref, cand)["rougeL"].fmeasure)


class BleuMetric(Metric):
    version = "1"
    cpu_bound = True

    def __init__(self, n: int) -> None:
        self.n = n
        self.card = _BLEU_CARDS[n]

    def signature_fields(self) -> dict:
        return {"n": self.n, "tok": "lower-nopunct", "smooth": "nltk-method1", "lib": "nltk"}

    def score_pair(self, pair: ReportPair) -> PairScore:
        return PairScore(bleu(pair.reference, pair.candidate, n=self.n))


class RougeLMetric(Metric):
    version = "1"
    cpu_bound = True
    card = MetricCard(
        name="rouge", title="ROUGE-L", direction="higher", range=(0.0, 1.0),
        measures="Longest common subsequence F-measure between the two whole reports (lexical "
                 "baseline; blind to negation and clinical meaning).",
        inputs="whole reports", paper="Lin 2004, ROUGE",
        models="none (rouge-score package, Porter stemming)",
        limits="Rewards word order overlap; a report with a flipped finding can score higher "
               "than a faithful paraphrase.")

    def signature_fields(self) -> dict:
        return {"variant": "rougeL-F", "tok": "lower-nopunct", "stem": True, "lib": "rouge-score"}

    def score_pair(self, pair: ReportPair) -> PairScore:
        return PairScore(rouge_l(pair.reference, pair.candidate))


def _bleu_card(n: int) -> MetricCard:
    return MetricCard(
        name="bleu" if n == 4 else f"bleu{n}", title=f"BLEU-{n}", direction="higher",
        range=(0.0, 1.0),
        measures=f"Modified {n}-gram precision with brevity penalty between the two whole "
                 "reports (lexical baseline). The corpus value is the mean of per-pair "
                 "sentence BLEU, not corpus BLEU.",
        inputs="whole reports", paper="Papineni et al. 2002, BLEU",
        models="none (nltk sentence_bleu, smoothing method 1)",
        limits="Counts shared words only: negation, laterality and severity flips barely move it.")


_BLEU_CARDS = {n: _bleu_card(n) for n in (1, 4)}

METRICS = [
    MetricSpec(name="bleu", card=_BLEU_CARDS[4], build=lambda ctx: BleuMetric(4), kind="lexical"),
    MetricSpec(name="bleu1", card=_BLEU_CARDS[1], build=lambda ctx: BleuMetric(1), kind="lexical"),
    MetricSpec(name="rouge", card=RougeLMetric.card, build=lambda ctx: RougeLMetric(),
               kind="lexical"),
]
