"""The reward file trainers load by path: verl's ``compute_score`` and OpenRLHF's ``reward_func``.

Print its path with ``python -c "import radscope.engine.rewards.file as f; print(f.__file__)"`` and give it
to the trainer:

- verl: ``custom_reward_function.path=<that path>`` (name ``compute_score``, the default). The
  same function serves the per-sample managers (``compute_score(data_source, solution_str,
  ground_truth, extra_info=None, **reward_kwargs)`` -> ``{"score": reward, "scored": 1.0|0.0}``)
  and ``reward_model.reward_manager=batch`` (``compute_score(data_sources=, solution_strs=,
  ground_truths=, extra_infos=, **reward_kwargs)`` -> one float per sample).
- OpenRLHF: ``--reward.remote_url <that path>`` (``--remote_rm_url`` before v0.10.2);
  ``reward_func(queries, prompts, labels)`` strips each prompt from its query and returns
  ``{"rewards", "scores", "extra_logs"}`` as tensors (lists where torch is absent); a query that
  does not begin with its prompt is a ``ValueError`` naming it (the server's 422).

The metrics come from ``reward_kwargs`` (verl: ``custom_reward_function.reward_kwargs.metrics=
"radsem:0.7,crepe:0.3"``) or from ``RADSCOPE_REWARD_METRICS`` (default ``radsem``); a sample
that cannot be scored gets ``not_scored`` / ``RADSCOPE_REWARD_NOT_SCORED`` (default 0.0: see
``radscope.engine.rewards.scorer`` for why; NaN and infinity are refused). Each process builds its scorer
once, on its first call, and keeps it (``radscope.engine.rewards.scorer.shared_reward_scorer``).

Loaded by path, this file is a module Python cannot import by name, so Ray pickles its functions
by value (verl's ``remote`` reward manager, OpenRLHF 0.9's ``ray.remote(reward_func)``): they
carry their code and the globals they use. Every global here is therefore a function of this
file or a name imported from ``radscope``, which pickle refers to by name; the scorers, the lock
guarding them and the models stay in ``radscope.engine.rewards.scorer``, built in the process that calls.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from radscope.engine.rewards.scorer import (
    RewardScorer,
    not_scored_or_env,
    one_length,
    openrlhf_rewards,
    shared_reward_scorer,
    strings_of,
)


def reward_scorer(metrics: str | None = None, **options: Any) -> RewardScorer:
    """This process's scorer for ``metrics`` (default ``RADSCOPE_REWARD_METRICS``, else radsem)."""
    return shared_reward_scorer(metrics or os.environ.get("RADSCOPE_REWARD_METRICS") or "radsem", **options)


def compute_score(data_source: Any = None, solution_str: str | None = None, ground_truth: str | None = None,
                  extra_info: Any = None, *, data_sources: Sequence[Any] | None = None,
                  solution_strs: Sequence[str] | None = None, ground_truths: Sequence[str] | None = None,
                  extra_infos: Sequence[Any] | None = None, metrics: str | None = None,
                  not_scored: float | None = None, **options: Any) -> dict[str, float] | list[float]:
    """verl's reward function, per sample or (``solution_strs=``) per batch; see the module
    docstring. ``data_source`` and ``extra_info`` are accepted and not used."""
    del data_source, data_sources, extra_info, extra_infos  # part of verl's call; not used
    fallback = not_scored_or_env(not_scored)
    if solution_strs is not None or ground_truths is not None:
        solutions = strings_of(solution_strs, "solution_strs")
        references = strings_of(ground_truths, "ground_truths")
        one_length(solution_strs=solutions, ground_truths=references)
        return reward_scorer(metrics, **options).rewards(references, solutions).filled(fallback)
    if solution_str is None or ground_truth is None:
        raise ValueError("compute_score needs solution_str and ground_truth (or solution_strs= and "
                         "ground_truths= for verl's batch reward manager)")
    for name, value in (("solution_str", solution_str), ("ground_truth", ground_truth)):
        if not isinstance(value, str):
            raise TypeError(f"{name} is {type(value).__name__}, not a string")
    batch = reward_scorer(metrics, **options).rewards([ground_truth], [solution_str])
    return {"score": batch.filled(fallback)[0], "scored": batch.scored()[0]}


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str],
                **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's custom reward function (queries are prompt + response)."""
    fallback = not_scored_or_env(kwargs.pop("not_scored", None))
    reply = openrlhf_rewards(reward_scorer(kwargs.pop("metrics", None)), queries, prompts, labels, fallback)
    try:
        import torch
    except ImportError:  # OpenRLHF always has torch; plain lists serve a caller without it
        return reply
    return {"rewards": torch.tensor(reply["rewards"], dtype=torch.float32),
            "scores": torch.tensor(reply["scores"], dtype=torch.float32),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float32) for k, v in reply["extra_logs"].items()}}
