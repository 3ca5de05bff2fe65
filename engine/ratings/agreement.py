"""How far a metric agrees with radiologists on rated pairs.

Per metric: Kendall tau-b and Spearman rho between its scores and the human ratings, each with
a bootstrap CI (``radscope.engine.statistics.mean_bca.correlation``), and, for metrics that
count errors per category (CREPE's counts, VERT's judged errors) where the ratings have counts
per category too, the error-detection F1 per category (``metrics.vert.score.detection_f1``).
Each coefficient is also given ``aligned``: signed so that positive always means the metric
orders the pairs as the radiologists do, whatever the two directions.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from radscope.engine.context import RuntimeContext
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.metrics.vert.schema import INSIGNIFICANT, SIGNIFICANT
from radscope.engine.ratings.rated import CATEGORY_LETTERS, RatedPairs
from radscope.engine.statistics import mean_bca

METHODS: tuple[mean_bca.CorrelationMethod, ...] = ("kendall", "spearman")


def category_counts(result: Mapping[str, Any], significant_only: bool = False) -> dict[str, float] | None:
    """Per-category error counts A-F of one result, when its metric counts them: VERT's judged
    errors (significant, plus insignificant unless ``significant_only``), CREPE's counts."""
    if result.get("error") is not None:
        return None
    assessment = result.get("assessment")
    if isinstance(assessment, Mapping) and isinstance(assessment.get(SIGNIFICANT), Mapping):
        sections = [assessment[SIGNIFICANT]]
        if not significant_only:
            if not isinstance(assessment.get(INSIGNIFICANT), Mapping):
                return None
            sections.append(assessment[INSIGNIFICANT])
        return {letter: float(sum((section.get(letter.lower()) or {}).get("count") or 0
                                  for section in sections)) for letter in CATEGORY_LETTERS}
    counts = result.get("counts")
    if isinstance(counts, Mapping) and set(CATEGORY_LETTERS) <= set(counts):
        return {letter: float(counts[letter]) for letter in CATEGORY_LETTERS}
    return None


def agreement(metric_scores: Sequence[float | None], human: Sequence[float | None],
              human_lower_is_better: bool, metric_lower_is_better: bool, seed: int = 0
              ) -> dict[str, Any]:
    """Kendall tau-b and Spearman rho as computed, each with ``aligned`` (and ``aligned_ci``):
    the coefficient signed so that positive means the metric agrees with the humans. Pairs
    where either side is None are left out."""
    sign = 1.0 if human_lower_is_better == metric_lower_is_better else -1.0
    out: dict[str, Any] = {}
    for method in METHODS:
        c = mean_bca.correlation(metric_scores, human, method=method, seed=seed).to_json()
        c["aligned"] = None if c["coef"] is None else sign * c["coef"]
        bounds = [c["ci_low"], c["ci_high"]]
        c["aligned_ci"] = None if None in bounds else sorted(sign * b for b in bounds)
        out[method] = c
    return out


def no_coefficient_reason(metric_scores: Sequence[float | None], human: Sequence[float | None]) -> str | None:
    """Why no rank correlation can be given, in words; None when it can."""
    both = [(m, h) for m, h in zip(metric_scores, human, strict=True) if m is not None and h is not None]
    if len(both) < 2:
        return f"only {len(both)} pair(s) have both a score and a rating"
    if len({m for m, _ in both}) == 1:
        return "the metric gave every pair the same score"
    if len({h for _, h in both}) == 1:
        return "every pair has the same rating"
    return None


def detection(results: Sequence[Mapping[str, Any]], human_counts: Sequence[Mapping[str, float]],
              significant_only: bool = False) -> dict[str, Any] | None:
    """Per-category detection F1 of a counting metric against human counts (pairs with both);
    None when the metric gives no counts."""
    from radscope.engine.metrics.vert.score import detection_f1

    human, model = [], []
    for result, h in zip(results, human_counts, strict=True):
        g = category_counts(result, significant_only)
        if g is not None:
            human.append({k.lower(): v for k, v in h.items()})
            model.append({k.lower(): v for k, v in g.items()})
    return detection_f1(human, model).to_json() if human else None


def score_agreement(rated: RatedPairs, metric_names: Sequence[str], registry: MetricRegistry,
                    options: Mapping[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """Score the rated pairs with each metric (nothing stored) and measure its agreement with
    the ratings: the report ``radscope agree`` prints and writes."""
    from radscope.engine.runs.runner import run_batch

    if not rated.pairs:
        raise ValueError(f"{rated.source}: no rated pairs")
    ctx = RuntimeContext(options=dict(options or {}))
    try:
        run = run_batch(rated.pairs, list(metric_names), ctx, registry=registry)
    finally:
        ctx.close()
    rows = {str(row["id"]): row for row in run.rows}
    report: dict[str, Any] = {
        "ratings": rated.source, "rating": rated.rating,
        "rating_direction": "lower" if rated.lower_is_better else "higher",
        "n_pairs": len(rated.pairs), "n_unrated": rated.n_unrated, "seed": seed, "metrics": {}}
    for name in metric_names:
        results = [rows[pair.id]["metrics"][name] for pair in rated.pairs]
        scores = [r.get("score") if r.get("error") is None else None for r in results]
        direction = registry.get(name).card.direction
        entry = agreement(scores, rated.ratings, rated.lower_is_better, direction == "lower", seed=seed)
        summary = run.summary["metrics"][name]
        entry.update(direction=direction, n_scored=sum(s is not None for s in scores),
                     n_errors=summary["n_errors"], signature=summary["signature"],
                     model=summary.get("model"), demo_grade=bool(summary.get("demo_grade")))
        reason = no_coefficient_reason(scores, rated.ratings)
        if reason is not None:
            entry["no_coefficient"] = reason
        if rated.category_counts is not None:
            found = detection(results, rated.category_counts, rated.significant_only)
            if found is not None:
                entry["detection_f1"] = found
        report["metrics"][name] = entry
    return report
