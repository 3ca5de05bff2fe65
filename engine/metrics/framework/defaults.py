"""Which metrics run when the user names none: those that give real numbers offline.

A metric is demo-grade under some options when the model it would use is flagged demo-grade
in ``models/registry.toml`` (the bundled CREPE and SRR encoders, the packaged Gemma judge).
This is decided from the options and the registry alone, without loading any model, so the
CLI and the app can choose their defaults at start-up. A model the registry does not know (a
path, a Hugging Face reference, a judge server) is the user's own choice and counts as real.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from radscope.engine.metrics.framework.registry import MetricRegistry, MetricSpec

RULES = "rules"


def _registry_demo_grade(model_id: str) -> bool:
    from radscope.models import model_registry

    try:
        return bool(model_registry.get(str(model_id)).demo_grade)
    except KeyError:
        return False


def model_under(spec: MetricSpec, options: Mapping[str, Any] | None = None) -> str | None:
    """The model the metric of ``spec`` would run under ``options``, decided without loading it: a
    registry id, a path or server model name, or None when it reads with no model (lexical
    metrics, the rules reader)."""
    options = options or {}
    declared = {opt.name: opt for opt in spec.options}

    def value(option: str) -> Any:
        given = options.get(option)
        return declared[option].default if given in (None, "") else given

    if spec.kind in ("lexical", "rules"):
        return None
    if spec.kind == "encoder":
        encoder = spec.encoder
        if encoder is None:
            raise ValueError(f"encoder metric {spec.name!r} declares no encoder extractor (MetricSpec.encoder)")
        return _encoder_under(encoder.default_model, str(value(encoder.model_option.name)), value)
    # an LLM metric: the rules reader needs no judge
    if "extractor" in declared and value("extractor") == RULES:
        return None
    if "judge_url" in declared and value("judge_url"):
        return str(value("judge_model")) or None
    return str(value("judge")) if "judge" in declared else None


def demo_grade_under(spec: MetricSpec, options: Mapping[str, Any] | None = None) -> bool:
    """Whether the metric of ``spec`` would produce demo-grade numbers under ``options`` (a judge
    server, a path or a Hugging Face reference is the user's own model and counts as real)."""
    options = options or {}
    if options.get("judge_url") and spec.kind not in ("lexical", "rules", "encoder"):
        return False
    model = model_under(spec, options)
    return model is not None and _registry_demo_grade(model)


def _encoder_under(default_model: str, model: str, value: Any) -> str | None:
    """The model an encoder metric's model option runs (``radscope.engine.options.reader_choice``): none (the
    rules reader) for ``rules``, or for ``auto`` under the rules extractor; the encoder
    extractor's declared ``default_model`` (the bundled demo encoder) for ``auto`` otherwise."""
    from radscope.engine.options.reader_choice import AUTO
    from radscope.engine.options.reader_choice import RULES as READER

    if model == READER or (model == AUTO and value("extractor") == RULES):
        return None
    if model == AUTO:
        return default_model
    return model


def default_metrics(registry: MetricRegistry, options: Mapping[str, Any] | None = None) -> list[str]:
    """Every metric of ``registry`` that gives real numbers under ``options`` (offline: all five
    metrics through the rules reader, and the lexical baselines)."""
    return [name for name in registry.names() if not demo_grade_under(registry.get(name), options)]
