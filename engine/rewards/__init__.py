"""Report metrics as RL rewards: the reward scorer and the shapes TRL, verl and OpenRLHF call.

The modules: ``scorer`` (one weighted reward in [0, 1] per pair, and the TRL / OpenRLHF adapters),
``file`` (the file verl and OpenRLHF load by path), ``server`` (``radscope serve-reward``) with its
``http_limits`` (deadlines, sizes, connection cap), ``batcher`` (requests gathered into batches)
and ``process`` (the scoring process the server feeds). ``radscope.engine.rewards`` itself is the
documented import: it gives the scorer's public names.
"""
from radscope.engine.rewards.scorer import (
    OpenRLHFBatch,
    RewardBatch,
    RewardScorer,
    completion_failed,
    completion_text,
    not_a_report,
    not_scored_or_env,
    not_scored_value,
    one_length,
    openrlhf_rewards,
    parse_weights,
    response_from_query,
    shared_reward_scorer,
    strings_of,
    texts_of,
    trl_async_reward,
    trl_reward,
    unit_reward,
)

__all__ = [
    "OpenRLHFBatch", "RewardBatch", "RewardScorer", "completion_failed", "completion_text", "not_a_report",
    "not_scored_or_env", "not_scored_value", "one_length", "openrlhf_rewards", "parse_weights",
    "response_from_query", "shared_reward_scorer", "strings_of", "texts_of", "trl_async_reward",
    "trl_reward", "unit_reward",
]
