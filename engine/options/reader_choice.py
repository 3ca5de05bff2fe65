"""Which reader a CREPE or SRR-BERT run uses: the rules reader or an ONNX encoder.

``--crepe-model`` / ``--srr-model`` default to ``auto``: the rules reader under
``--extractor rules`` (the default, offline and fast), the bundled demo encoder under
``--extractor llm`` (exactly what these metrics ran before the reader existed). ``rules``
always picks the reader; any other value names an encoder, which then runs whatever the
extractor, so asking for a model never silently gives the rules.
"""
from __future__ import annotations

from typing import Any

from radscope.engine.context import Option
from radscope.engine.options.extractor import EXTRACTOR

AUTO, RULES = "auto", "rules"


def reads_with_rules(ctx: Any, model_option: Option) -> bool:
    model = str(ctx.option(model_option) or AUTO)
    if model == AUTO:
        return str(ctx.option(EXTRACTOR)) == RULES
    return model == RULES


def encoder_model(ctx: Any, model_option: Option, default: str) -> str:
    """The encoder to load: the option's model, or ``default`` for ``auto``."""
    model = str(ctx.option(model_option) or AUTO)
    if model == RULES:
        raise ValueError(f"{model_option.flag} rules selects the rules reader, "
                         "not an encoder")
    return default if model == AUTO else model
