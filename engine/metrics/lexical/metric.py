"""Lexical baselines (BLEU, ROUGE-L) and the token-level similarities other metrics reuse.

BLEU is nltk's ``sentence_bleu`` (one reference, uniform weights, smoothing method 1 or 4),
re-implemented here line for line because importing nltk costs about a second (it pulls in
scipy.stats and scikit-learn), more than scoring a small batch; a test checks that both give
the same float on thousands of inputs, so the signature still names nltk's definition. Each
pair also keeps its n-gram counts, from which the corpus figure is corpus BLEU as sacreBLEU
computes it (``engine.metrics.lexical.stats``), beside the mean of the sentence scores.
ROUGE-L is Google's rouge-score package (``RougeScorer(["rougeL"], use_stemmer=True)``),
re-implemented step for step for speed (``token_rouge_l``; a test checks the floats agree).
Both see the same tokens: lower-cased, punctuation deleted, split on white space (the convention of CLEAR's reference code, so that
CLEAR's list-attribute similarities and the whole-report baselines agree). As metrics they are
the tokenizer (the ``lexical`` extractor) followed by the pure scores on its tokens.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from radscope.engine.context import ModelInfo, RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.extraction import (
    Extracted,
    Extractor,
    ExtractorKind,
    ExtractorMetric,
    ExtractorTable,
    PairwiseExtractor,
    Scoring,
)
from radscope.engine.metrics.framework.registry import MetricSpec
from radscope.engine.metrics.lexical import stats as bleu_stats

_PUNCT_RE = re.compile(r"[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Lower-case, delete punctuation, split on white space."""
    return _PUNCT_RE.sub("", text.lower()).split()


def bleu(reference: str, candidate: str, n: int = 4, smoothing: str = "method1") -> float:
    """Sentence BLEU-n with uniform weights and an nltk smoothing method (0 for empty input)."""
    return token_bleu(tokenize(reference), tokenize(candidate), n, smoothing)


def token_bleu(ref: list[str], cand: list[str], n: int = 4, smoothing: str = "method1") -> float:
    """``bleu`` on already tokenized reports."""
    if not ref or not cand:
        return 0.0
    return sentence_bleu(ref, cand, n, smoothing)


_SMOOTHING_EPSILON = 0.1  # nltk SmoothingFunction defaults: epsilon (method 1), k (method 4)
_SMOOTHING_K = 5


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False)) if len(tokens) >= n else Counter()


def ngram_counts(reference: list[str], hypothesis: list[str], n: int = 4) -> tuple[list[int], list[int]]:
    """Per order 1..n: the hypothesis's n-grams clipped by the reference's counts (matches),
    and all its n-grams (totals), the counts corpus BLEU pools over pairs."""
    matches, totals = [], []
    for order in range(1, n + 1):
        counts, ref_counts = _ngrams(hypothesis, order), _ngrams(reference, order)
        matches.append(sum(min(count, ref_counts[gram]) for gram, count in counts.items()))
        totals.append(sum(counts.values()))
    return matches, totals


def sentence_bleu(reference: list[str], hypothesis: list[str], n: int = 4,
                  smoothing: str = "method1") -> float:
    """nltk 3.10's ``sentence_bleu([reference], hypothesis, (1/n,) * n, method1|method4)``.

    Clipped n-gram precisions kept as integer ratios, 0 when no unigram matches, brevity
    penalty exp(1 - r/c) when the hypothesis is not longer, then the geometric mean through
    ``math.fsum`` of the logs, in nltk's order of operations so that the floats agree.
    """
    if smoothing not in ("method1", "method4"):
        raise ValueError(f"unsupported BLEU smoothing {smoothing!r}; use method1 or method4")
    matches, totals = ngram_counts(reference, hypothesis, n)
    ratios = [(matched, max(1, total)) for matched, total in zip(matches, totals, strict=True)]
    if ratios[0][0] == 0:
        return 0.0
    hyp_len, ref_len = len(hypothesis), len(reference)
    penalty = 1 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    precisions: list[float] = []
    increment = 1
    for matched, total in ratios:
        if matched:
            precisions.append(matched / total)
        elif smoothing == "method1":
            precisions.append((matched + _SMOOTHING_EPSILON) / total)
        elif hyp_len > 1:  # method 4: smaller pseudo-counts for shorter hypotheses
            precisions.append(1 / (2 ** increment * _SMOOTHING_K / math.log(hyp_len)) / total)
            increment += 1
        else:
            precisions.append(0.0)  # nltk leaves it at 0, and a 0 precision is skipped
    weight = 1.0 / n
    logs = (weight * math.log(p) for p in precisions if p > 0)
    return float(penalty * math.exp(math.fsum(logs)))


# ROUGE-L is rouge-score's ``RougeScorer(["rougeL"], use_stemmer=True)`` on the joined tokens,
# re-implemented step for step: its tokenizer (lower-case, non-alphanumerics to spaces, Porter
# stemming of words over three letters, only [a-z0-9]+ tokens kept), the LCS length, then
# precision, recall and F as it computes them. What changes is only the cost: each word is
# stemmed once per process (rouge-score stems every word of every call, most of its time) and
# the LCS length comes from a bit-parallel pass (Hyyro 2004: one integer operation per
# candidate token) instead of a table of len(ref) x len(cand) cells. A test checks that both
# give the same float on thousands of inputs, so the signature still names rouge-score.
_ROUGE_NON_ALNUM_RE = re.compile(r"[^a-z0-9]+")
_ROUGE_VALID_RE = re.compile(r"^[a-z0-9]+$")


@lru_cache(maxsize=1)
def _porter() -> Any:
    """rouge-score's stemmer, nltk's Porter (imported on first use: importing nltk costs about
    a second that a command without ROUGE should not pay)."""
    from nltk.stem import porter

    return porter.PorterStemmer()


@lru_cache(maxsize=100_000)
def _rouge_stem(word: str) -> str:
    return str(_porter().stem(word))


def rouge_tokens(text: str) -> list[str]:
    """rouge-score's ``tokenize(text, PorterStemmer())``."""
    words = _ROUGE_NON_ALNUM_RE.sub(" ", text.lower()).split()
    return [t for t in (_rouge_stem(w) if len(w) > 3 else w for w in words)
            if _ROUGE_VALID_RE.match(t)]


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two token lists (bit-parallel)."""
    positions: dict[str, int] = {}
    for i, token in enumerate(a):
        positions[token] = positions.get(token, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for token in b:
        match = positions.get(token)
        if match:
            u = v & match
            v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def rouge_l(reference: str, candidate: str) -> float:
    """ROUGE-L F-measure with Porter stemming."""
    return token_rouge_l(tokenize(reference), tokenize(candidate))


def token_rouge_l(ref_tokens: list[str], cand_tokens: list[str]) -> float:
    """``rouge_l`` on already tokenized reports."""
    target, prediction = rouge_tokens(" ".join(ref_tokens)), rouge_tokens(" ".join(cand_tokens))
    if not target or not prediction:
        return 0.0
    lcs = lcs_length(target, prediction)
    precision, recall = lcs / len(prediction), lcs / len(target)
    return float(2 * precision * recall / (precision + recall)) if precision + recall > 0 else 0.0


Tokens = tuple[list[str], list[str]]  # the reference's and the candidate's


class Tokenizer(PairwiseExtractor[Tokens]):
    """The ``lexical`` extractor: both reports lower-cased, without punctuation, split."""

    kind: ExtractorKind = "lexical"
    cpu_bound = True

    def model(self) -> ModelInfo | None:
        return None

    def signature_fields(self) -> dict[str, Any]:
        return {"tok": "lower-nopunct"}

    def extract_pair(self, pair: ReportPair) -> Extracted[Tokens]:
        return Extracted((tokenize(pair.reference), tokenize(pair.candidate)))


class BleuScoring(Scoring[Tokens]):
    stats_version = bleu_stats.STATS_VERSION

    def __init__(self, n: int) -> None:
        self.n = n

    def signature_fields(self, extractor_fields: dict[str, Any]) -> dict[str, Any]:
        return {"n": self.n, **extractor_fields, "smooth": "nltk-method1", "lib": "nltk"}

    def score(self, value: Tokens, details: dict[str, Any]) -> PairScore:
        ref, cand = value
        matches, totals = ngram_counts(ref, cand, self.n)
        return PairScore(token_bleu(ref, cand, n=self.n),
                         details={"ngram_matches": matches, "ngram_totals": totals,
                                  "candidate_length": len(cand), "reference_length": len(ref)})


class RougeLScoring(Scoring[Tokens]):
    def signature_fields(self, extractor_fields: dict[str, Any]) -> dict[str, Any]:
        return {"variant": "rougeL-F", **extractor_fields, "stem": True, "lib": "rouge-score"}

    def score(self, value: Tokens, details: dict[str, Any]) -> PairScore:
        return PairScore(token_rouge_l(*value))


def _tokenizer(ctx: RuntimeContext) -> Extractor[Tokens]:
    return Tokenizer()


def _lexical_metric(card: MetricCard, scoring: Scoring[Tokens], statistics: Any = None) -> MetricSpec:
    table = ExtractorTable(card.name, {"lexical": _tokenizer}, lambda ctx: "lexical")

    def build(ctx: RuntimeContext) -> ExtractorMetric[Tokens]:
        return table.build_metric(ctx, scoring, lambda kind: card)

    return MetricSpec(name=card.name, card=card, build=build, kind="lexical", extractors=table,
                      statistics=statistics)


def _bleu_card(n: int) -> MetricCard:
    return MetricCard(
        name="bleu" if n == 4 else f"bleu{n}", title=f"BLEU-{n}", direction="higher",
        range=(0.0, 1.0),
        measures=f"Modified {n}-gram precision with brevity penalty between the two whole "
                 "reports (lexical baseline). Two corpus figures: corpus BLEU as sacreBLEU "
                 "computes it (n-gram counts pooled over the pairs, one brevity penalty: "
                 "'corpus_bleu', the figure papers quote) and the mean of per-pair sentence BLEU "
                 "('mean', what each pair's score averages to).",
        inputs="whole reports", paper="Papineni et al. 2002, BLEU",
        models="none (nltk sentence_bleu, smoothing method 1)",
        limits="Counts shared words only: negation, laterality and severity flips barely move it.")


_BLEU_CARDS = {n: _bleu_card(n) for n in (1, 4)}

ROUGE_CARD = MetricCard(
    name="rouge", title="ROUGE-L", direction="higher", range=(0.0, 1.0),
    measures="Longest common subsequence F-measure between the two whole reports (lexical "
             "baseline; blind to negation and clinical meaning).",
    inputs="whole reports", paper="Lin 2004, ROUGE",
    models="none (rouge-score package, Porter stemming)",
    limits="Rewards word order overlap; a report with a flipped finding can score higher "
           "than a faithful paraphrase.")

METRICS = [_lexical_metric(_BLEU_CARDS[4], BleuScoring(4), bleu_stats.statistics("bleu", 4)),
           _lexical_metric(_BLEU_CARDS[1], BleuScoring(1), bleu_stats.statistics("bleu1", 1)),
           _lexical_metric(ROUGE_CARD, RougeLScoring())]
