"""One metric's result on one pair as JSON (an output line's entry, a stored row).

Shared by the runner that writes results and the store's resume (engine.runs.summary reads them back
through each metric's typed statistics record).
"""
from __future__ import annotations

from typing import Any

from radscope.engine.metrics.framework.base import Metric, PairScore

# Keys every per-pair metric result has; everything else in the dict is the metric's details.
STANDARD_KEYS = ("score", "direction", "signature", "error", "model", "demo_grade", "elapsed_ms")


def result_dict(metric: Metric, result: PairScore, signature: str | None = None) -> dict[str, Any]:
    """The JSON form of one metric's result on one pair (one entry of an output line)."""
    model = metric.model()
    out: dict[str, Any] = {
        "score": result.score,
        "direction": metric.direction,
        "signature": signature or metric.signature(),
        "error": result.error,
        "model": model.id if model else None,
        "demo_grade": bool(model and model.demo_grade),
        "elapsed_ms": round(result.elapsed_ms, 3),
    }
    clash = set(result.details) & set(out)
    if clash:
        raise ValueError(f"{metric.name}: details may not use the reserved keys {sorted(clash)}")
    out.update(result.details)
    return out


def is_transient_failure(payload: dict[str, Any]) -> bool:
    """A stored failure of the judge's process (a crash or a hang), not of the pair: a resumed
    run computes it again instead of keeping the error."""
    judge_error = payload.get("judge_error")
    return bool(payload.get("error") and isinstance(judge_error, dict)
                and judge_error.get("transient"))
