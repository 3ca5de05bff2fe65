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

from engine.metrics import registry

RULES = "rules"


def _registry_demo_grade(model_id: str) -> bool:
    from models import registry as model_registry

    try:
        return bool(model_registry.get(str(model_id)).demo_grade)
    except KeyError:
        return False


def demo_grade_under(name: str, options: Mapping[str, Any] | None = None) -> bool:
    """Whether metric ``name`` would produce demo-grade numbers under ``options``."""
    options = options or {}
    spec = registry.get(name)
    declared = {opt.name: opt for opt in spec.options}

    def value(option: str) -> Any:
        given = options.get(option)
        return declared[option].default if given in (None, "") else given

    if spec.kind in ("lexical", "rules"):
        return False
    if spec.kind == "encoder":
        model_options = [n for n in declared if n.endswith("_model")]
        return any(_registry_demo_grade(_encoder_under(spec, str(value(n)), value))
                   for n in model_options)
    # an LLM metric: the rules reader needs no judge; a judge server is the user's own model
    if "extractor" in declared and value("extractor") == RULES:
        return False
    if "judge_url" in declared and value("judge_url"):
        return False
    return "judge" in declared and _registry_demo_grade(value("judge"))


def _encoder_under(spec: Any, model: str, value: Any) -> str:
    """The model an encoder metric's ``*_model`` option runs (``engine.reader.choice``): the
    rules reader for ``rules``, or for ``auto`` under the rules extractor; the metric module's
    DEFAULT_MODEL (the bundled demo encoder) for ``auto`` otherwise."""
    import importlib

    from engine.reader.choice import AUTO
    from engine.reader.choice import RULES as READER

    if model == READER or (model == AUTO and value("extractor") == RULES):
        return READER
    if model == AUTO:
        return str(getattr(importlib.import_module(spec.build.__module__), "DEFAULT_MODEL", AUTO))
    return model


def default_metrics(options: Mapping[str, Any] | None = None) -> list[str]:
    """Every registered metric that gives real numbers under ``options`` (offline: all five
    metrics through the rules reader, and the lexical baselines)."""
    return [name for name in registry.names() if not demo_grade_under(name, options)]
