"""The reward file trainers load by path: verl's ``compute_score`` and OpenRLHF's ``reward_func``.

Print its path with ``python -c "import radscope.engine.reward_file as f; print(f.__file__)"`` and give it
to the trainer:

- verl: ``custom_reward_function.path=<that path>`` (name ``compute_score``, the default). The
  same function serves the per-sample managers (``compute_score(data_source, solution_str,
  ground_truth, extra_info=None, **reward_kwargs)`` -> ``{"score": reward, "scored": 1.0|0.0}``)
  and ``reward_model.reward_manager=batch`` (``compute_score(data_sources=, solution_strs=,
  ground_truths=, extra_infos=, **reward_kwargs)`` -> one float per sample).
- OpenRLHF: ``--reward.remote_url <that path>`` (``--remote_rm_url`` before v0.10.2);
  ``reward_func(queries, prompts, labels)`` strips each prompt from its query and returns
  ``{"rewards", "scores", "extra_logs"}`` as tensors (lists where torch is absent).

The metrics come from ``reward_kwargs`` (verl: ``custom_reward_function.reward_kwargs.metrics=
"radsem:0.7,crepe:0.3"``) or from ``RADSCOPE_REWARD_METRICS`` (default ``radsem``); a sample
that cannot be scored gets ``not_scored`` / ``RADSCOPE_REWARD_NOT_SCORED`` (default 0.0: see
``radscope.engine.rewards`` for why). Each process builds its scorer once, on its first call, and keeps
it: verl and OpenRLHF call from Ray workers and threads, so nothing is built at import time
and nothing needs to be pickled.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

from radscope.engine.rewards import RewardScorer, openrlhf_rewards

_scorers: dict[tuple[str, tuple[tuple[str, Any], ...]], RewardScorer] = {}
_lock = threading.Lock()


def reward_scorer(metrics: str | None = None, **options: Any) -> RewardScorer:
    """This process's scorer for ``metrics`` and ``options``, built on first use."""
    metrics = metrics or os.environ.get("RADSCOPE_REWARD_METRICS") or "radsem"
    key = (metrics, tuple(sorted(options.items())))
    with _lock:
        if key not in _scorers:
            _scorers[key] = RewardScorer(metrics, **options)
        return _scorers[key]


def _not_scored(value: float | None) -> float:
    return float(value if value is not None else os.environ.get("RADSCOPE_REWARD_NOT_SCORED", "0"))


def compute_score(data_source: Any = None, solution_str: str | None = None, ground_truth: str | None = None,
                  extra_info: Any = None, *, data_sources: Sequence[Any] | None = None,
                  solution_strs: Sequence[str] | None = None, ground_truths: Sequence[str] | None = None,
                  extra_infos: Sequence[Any] | None = None, metrics: str | None = None,
                  not_scored: float | None = None, **options: Any) -> dict[str, float] | list[float]:
    """verl's reward function, per sample or (``solution_strs=``) per batch; see the module
    docstring. ``data_source`` and ``extra_info`` are accepted and not used."""
    del data_source, data_sources, extra_info, extra_infos  # part of verl's call; not used
    rewarder = reward_scorer(metrics, **options)
    fallback = _not_scored(not_scored)
    if solution_strs is not None:
        if ground_truths is None or len(ground_truths) != len(solution_strs):
            raise ValueError("compute_score(solution_strs=...) needs one ground truth per solution")
        return rewarder.rewards([str(g) for g in ground_truths], list(solution_strs)).filled(fallback)
    if solution_str is None or ground_truth is None:
        raise ValueError("compute_score needs solution_str and ground_truth (or solution_strs= and "
                         "ground_truths= for the batch reward manager)")
    batch = rewarder.rewards([str(ground_truth)], [solution_str])
    return {"score": batch.filled(fallback)[0], "scored": batch.scored()[0]}


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str],
                **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's custom reward function (queries are prompt + response)."""
    reply = openrlhf_rewards(reward_scorer(kwargs.pop("metrics", None)), queries, prompts, labels,
                             _not_scored(kwargs.pop("not_scored", None)))
    try:
        import torch
    except ImportError:  # OpenRLHF always has torch; plain lists serve a caller without it
        return reply
    return {"rewards": torch.tensor(reply["rewards"], dtype=torch.float32),
            "scores": torch.tensor(reply["scores"], dtype=torch.float32),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float32) for k, v in reply["extra_logs"].items()}}
