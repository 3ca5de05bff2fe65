"""BLEU's corpus figure is corpus BLEU as sacreBLEU computes it (n-gram counts pooled over the
pairs, one brevity penalty, its "exp" smoothing), on our tokens; the mean of sentence BLEU is
kept beside it. Checked against sacreBLEU itself on project-written reports."""
from __future__ import annotations

import random

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.lexical.metric import tokenize
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch

sacrebleu = pytest.importorskip("sacrebleu", reason="sacreBLEU is a dev dependency (requirements/dev.txt)")

SENTENCES = ["No pleural effusion.", "Heart size is normal.", "Small left pleural effusion.",
             "Mild bibasilar atelectasis.", "No pneumothorax.", "The lungs are clear.",
             "Stable cardiomegaly.", "Right lower lobe opacity, possibly pneumonia.",
             "Degenerative changes of the spine.", "No acute cardiopulmonary process."]


def _pairs(seed: int, n: int) -> list[ReportPair]:
    rng = random.Random(seed)
    pairs = []
    for i in range(n):
        ref = " ".join(rng.sample(SENTENCES, rng.randint(1, 5)))
        cand = " ".join(rng.sample(SENTENCES, rng.randint(1, 5)))
        pairs.append(ReportPair(f"p{i}", ref, cand))
    return pairs


def _corpus(pairs: list[ReportPair], metric: str) -> dict:
    run = run_batch(pairs, [metric], RuntimeContext(), registry=production())
    return run.summary["metrics"][metric]


def _sacrebleu(pairs: list[ReportPair], order: int) -> float:
    hyps = [" ".join(tokenize(p.candidate)) for p in pairs]
    refs = [" ".join(tokenize(p.reference)) for p in pairs]
    return sacrebleu.metrics.BLEU(tokenize="none", max_ngram_order=order).corpus_score(hyps, [refs]).score / 100


@pytest.mark.parametrize("metric, order", [("bleu", 4), ("bleu1", 1)])
@pytest.mark.parametrize("seed", range(4))
def test_corpus_bleu_is_sacrebleus_on_our_tokens(metric, order, seed):
    pairs = _pairs(seed, 60)
    summary = _corpus(pairs, metric)
    assert summary["corpus"]["corpus_bleu"] == pytest.approx(_sacrebleu(pairs, order), abs=1e-12)
    # The mean of sentence BLEU stays the per-pair score's mean, and it is another number.
    assert summary["corpus"]["mean_sentence_bleu"] == pytest.approx(summary["mean"], abs=1e-15)
    assert summary["corpus"]["corpus_bleu"] != pytest.approx(summary["mean"], abs=1e-3)
    assert summary["corpus_figures"]["corpus_bleu"]["ci_low"] <= summary["corpus"]["corpus_bleu"] \
        <= summary["corpus_figures"]["corpus_bleu"]["ci_high"]


def test_short_candidates_smoothing_and_the_brevity_penalty_as_in_sacrebleu():
    # Candidates shorter than the references (one brevity penalty on the pooled lengths), no
    # 4-gram anywhere in the corpus but 3-grams (sacreBLEU's precision 0 there: corpus BLEU 0),
    # then one 4-gram without a match (its "exp" smoothing).
    short = [ReportPair("a", "No pleural effusion or pneumothorax.", "No effusion."),
             ReportPair("b", "Heart size is normal today.", "Heart normal.")]
    assert _corpus(short, "bleu")["corpus"]["corpus_bleu"] == pytest.approx(_sacrebleu(short, 4), abs=1e-12)
    assert _corpus(short, "bleu1")["corpus"]["corpus_bleu"] == pytest.approx(_sacrebleu(short, 1), abs=1e-12)
    unmatched = [*short, ReportPair("c", "Lungs are clear.", "Lungs clear bilaterally without consolidation.")]
    assert _corpus(unmatched, "bleu")["corpus"]["corpus_bleu"] == pytest.approx(_sacrebleu(unmatched, 4), abs=1e-12)
    assert _sacrebleu(unmatched, 4) > 0


def test_the_card_names_both_figures():
    card = production().get("bleu").card
    assert "corpus BLEU as sacreBLEU" in card.measures and "mean of per-pair sentence BLEU" in card.measures
