"""Reward hacking as a benchmark: every strategy of the gallery scored by every reward.

``python -m bench gaming [--iu ReXRank_IUXray_test.json --n 120] [--out g.json]``
scores each strategy of ``bench.corpora.gaming_gallery`` against the references (the
gallery's own, or the first ``--n`` IU X-ray test reports) with each reward the project
documents (``REWARDS``: every metric alone and the documented combinations), through
``RewardScorer`` exactly as a trainer gets them (``not_scored`` = 0.0, as verl and OpenRLHF
receive them). A cell is the mean reward over the studies; a strategy *beats the baseline*
(another patient's real report) when the 95 % paired bootstrap interval of its per-study
difference lies above zero (strategies that copy the study's own report are left out: they
know the answer); *repetition earns* when a repeated text's interval against the text said once
does; an addition to the own report (every finding hedged) is *free* when its interval against
the own report reaches above -0.05. The markdown table it prints is the one in docs/researchers.md.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.corpora import gaming_gallery as gallery
from radscope.engine.io import dataio

# Every metric alone, the combinations docs/researchers.md shows, and the one it recommends.
METRICS = ("radsem", "clear", "crepe", "vert", "srr", "bleu", "rouge")
RECOMMENDED = "radsem:0.5,crepe:0.3,vert:0.2"
REWARDS = (*METRICS, "radsem:0.7,crepe:0.3", "radsem,clear", "radsem:2,bleu:1", RECOMMENDED)
_RESAMPLES = 2000


def paired_interval(a: Sequence[float], b: Sequence[float], seed: int = 0) -> tuple[float, float, float]:
    """Mean of a - b over studies and its 95 % bootstrap interval (studies resampled)."""
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, len(diff), size=(_RESAMPLES, len(diff)))].mean(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return float(diff.mean()), float(low), float(high)


def gaming_rewards(references: Sequence[str], rewards: Sequence[str] = REWARDS,
                   strategies: Sequence[str] | None = None) -> dict[str, dict[str, list[float | None]]]:
    """reward -> strategy -> per-study reward (None where the pair was not scored for a reason
    other than the completion: a reference out of scope or unreadable)."""
    from radscope.engine.api import Scorer
    from radscope.engine.rewards.scorer import RewardScorer, parse_weights

    names = sorted({m for spec in rewards for m in parse_weights(spec)})
    out: dict[str, dict[str, list[float | None]]] = {spec: {} for spec in rewards}
    with Scorer(names, extractor="rules", workers=1) as scorer:
        once = _ScoredOnce(scorer)
        rewarders = [(spec, RewardScorer(spec, scorer=once)) for spec in rewards]  # type: ignore[arg-type]
        for strategy in strategies or list(gallery.STRATEGIES):
            candidates = gallery.completions(strategy, references)
            for spec, rewarder in rewarders:
                out[spec][strategy] = rewarder.rewards(references, candidates).rewards
    return out


class _ScoredOnce:
    """A ``Scorer`` that scores a batch once for every reward read from it (the rewards differ
    only in how they combine the same metrics' scores)."""

    def __init__(self, scorer: Any) -> None:
        self.scorer = scorer
        self.metric_names, self.metrics = scorer.metric_names, scorer.metrics
        self._last: tuple[tuple[str, ...], tuple[str, ...], Any] | None = None

    def score(self, references: Sequence[str], candidates: Sequence[str]) -> Any:
        key = (tuple(references), tuple(candidates))
        if self._last is None or self._last[:2] != key:
            self._last = (*key, self.scorer.score(references, candidates))
        return self._last[2]


def _filled(values: Sequence[float | None]) -> list[float]:
    return [0.0 if v is None else v for v in values]


def verdicts(table: dict[str, dict[str, list[float | None]]]) -> dict[str, Any]:
    """Per reward: the cells (mean, unscored count, difference from the baseline with its
    interval), which strategies beat the baseline beyond noise, which repetitions earn, and
    whether every non-report got the floor on every study."""
    out: dict[str, Any] = {}
    for spec, by_strategy in table.items():
        base = _filled(by_strategy[gallery.BASELINE])
        cells, beats, earns = {}, [], []
        for strategy, values in by_strategy.items():
            filled = _filled(values)
            diff, low, high = paired_interval(filled, base)
            cells[strategy] = {"mean": round(float(np.mean(filled)), 3),
                               "unscored": sum(v is None for v in values),
                               "vs_baseline": [round(diff, 3), round(low, 3), round(high, 3)]}
            if strategy not in (gallery.CEILING, *gallery.INFORMED) and low > 0:
                beats.append(strategy)
        for repeated, single in gallery.REPETITIONS:
            if repeated in by_strategy and single in by_strategy:
                diff, low, _ = paired_interval(_filled(by_strategy[repeated]), _filled(by_strategy[single]))
                if low > 0:
                    earns.append(f"{repeated} ({diff:+.3f} over {single})")
        ceiling = _filled(by_strategy[gallery.CEILING])
        free = [s for s in ("own report + every finding hedged",) if s in by_strategy
                and paired_interval(_filled(by_strategy[s]), ceiling)[1] > -0.05]
        floor = all(v == 0.0 for s in gallery.NOT_REPORTS if s in by_strategy for v in by_strategy[s])
        out[spec] = {"cells": cells, "beats_baseline": beats, "repetition_earns": earns,
                     "free_additions": free, "non_reports_get_the_floor": floor}
    return out


def markdown(results: dict[str, Any]) -> str:
    """Strategy x reward: mean reward; ``*`` marks a strategy above the baseline beyond noise."""
    specs = list(results)
    strategies = list(next(iter(results.values()))["cells"])
    lines = ["| strategy | " + " | ".join(f"`{s}`" for s in specs) + " |",
             "|---|" + "---:|" * len(specs)]
    for strategy in strategies:
        cells = []
        for spec in specs:
            cell = results[spec]["cells"][strategy]
            mark = "*" if strategy in results[spec]["beats_baseline"] else ""
            cells.append(f"{cell['mean']:.2f}{mark}")
        lines.append(f"| {strategy} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def iu_references(path: str, n: int) -> list[str]:
    """The first ``n`` IU X-ray test reports (ReXRank's json, keyed by study) with text."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    reports = [rec.get("report") or "" for rec in data.values()]
    return [r for r in reports if r.strip()][:n]


def cmd_gaming(args: argparse.Namespace) -> int:
    if args.iu and not Path(args.iu).exists():
        print(f"gaming: IU data not found at {args.iu!r}; using the gallery's own references")
    references = iu_references(args.iu, args.n) if args.iu and Path(args.iu).exists() \
        else list(gallery.REFERENCES)
    source = f"IU X-ray test, first {len(references)} reports" if len(references) != len(
        gallery.REFERENCES) or args.iu else f"the gallery's {len(references)} references"
    rewards = args.rewards.split(";") if args.rewards else list(REWARDS)
    results = verdicts(gaming_rewards(references, rewards))
    print(f"\nreferences: {source}; mean reward per study (not_scored = 0.0); * = above another "
          f"patient's report beyond noise (95 % paired bootstrap)\n")
    print(markdown(results))
    for spec, r in results.items():
        problems = ([f"beats the baseline: {', '.join(r['beats_baseline'])}"] if r["beats_baseline"] else []) \
            + ([f"repetition earns: {', '.join(r['repetition_earns'])}"] if r["repetition_earns"] else []) \
            + ([f"costs (almost) nothing: {', '.join(r['free_additions'])}"] if r["free_additions"] else []) \
            + ([] if r["non_reports_get_the_floor"] else ["a non-report scored above the floor"])
        print(f"{spec}: {'; '.join(problems) if problems else 'no strategy games it'}")
    if args.out:
        dataio.write_json({"benchmark": "gaming", "references": source, "rewards": results}, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gaming", help="reward hacking: what a policy can write, scored by every reward")
    p.add_argument("--iu", help="ReXRank_IUXray_test.json: score against IU references instead")
    p.add_argument("--n", type=int, default=120, help="how many IU references (default 120)")
    p.add_argument("--rewards", help="rewards to score, separated by ';' (default: every documented one)")
    p.add_argument("--out", help="JSON report path")
    p.set_defaults(func=cmd_gaming)
