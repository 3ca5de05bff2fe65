"""What the ONNX encoder extractors (CREPE's pair regressor, SRR-BERT's labeller) share.

The session is built on the first ``extract`` call and shared through the run context; the
signature and the model card are read from the artifact's manifest without building it, so a
run whose results are all stored loads no model. A model that cannot be found (not exported
yet, say) is reported by ``model()``, in the signature and on every pair, never hidden.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from radscope.engine.context import ModelInfo, Option, RuntimeContext
from radscope.engine.metrics.framework.extraction import ExtractorKind
from radscope.engine.options.reader_choice import encoder_model, reads_with_rules

__all__ = ["EncoderExtractor", "rules_or_encoder"]


class EncoderExtractor:
    """Base of the encoder extractors (``kind = "encoder"``); subclasses add ``extract``."""

    kind: ExtractorKind = "encoder"
    task: str  # the model registry task ("crepe", "srr")
    model_option: Option  # the option naming the model (``--crepe-model``, ...)
    default_model: str  # the bundled model ``auto`` stands for
    # Pairs per extract call: a whole runner chunk, so that the encoder sorts the chunk's
    # inputs by length before cutting its own batches (``OnnxEncoder.run``).
    batch_size = 256
    cpu_bound = False

    def __init__(self, ctx: RuntimeContext, model_name: str) -> None:
        self.ctx = ctx
        self.model_name = model_name
        self._encoder: Any = None
        self._plan: Any = None
        self._load_error: str | None = None

    @classmethod
    def for_run(cls, ctx: RuntimeContext) -> Self:
        """The extractor for the model the run's options name."""
        return cls(ctx, encoder_model(ctx, cls.model_option, cls.default_model))

    def encoder(self) -> Any:
        """The shared ONNX session; raises with the loading problem when there is none."""
        if self._load_error:
            raise RuntimeError(self._load_error)
        if self._encoder is None:
            from radscope.engine.runtimes.encoder_session import load_encoder

            self._encoder = load_encoder(self.model_name, self.task, self.ctx)
        return self._encoder

    def plan(self) -> Any:
        """The session the encoder will have (file, precision, batch), read from the manifest
        without loading the model; None when the model cannot be found (see ``model()``)."""
        if self._plan is None and self._load_error is None:
            try:
                from radscope.engine.runtimes.encoder_session import plan_encoder

                self._plan = plan_encoder(self.model_name, self.task, self.ctx)
            except Exception as exc:  # noqa: BLE001 - reported by model() and per pair
                self._load_error = f"{type(exc).__name__}: {exc}"
        return self._plan

    def model(self) -> ModelInfo:
        plan = self.plan()
        if plan is None:
            return ModelInfo(id=self.model_name, source="unavailable", device="none",
                             detail={"error": self._load_error})
        art = plan.artifact
        # A loaded session reports the providers it really got; otherwise the planned ones.
        providers = self._encoder.providers if self._encoder is not None else None
        return ModelInfo(id=art.id, source=art.source, demo_grade=art.demo_grade,
                         device=plan.device_text(providers), detail=plan.describe(providers))

    def encoder_signature(self) -> dict[str, Any]:
        """Model, file hash, revision, precision, batch and length: what every encoder shares."""
        plan = self.plan()
        if plan is None:
            return {"model": self.model_name, "sha": "unavailable"}
        m = plan.artifact.manifest
        return {"model": plan.artifact.id, "sha": m.files[plan.precision]["sha256"][:12],
                "rev": m.revision, "precision": plan.precision, "batch": plan.batch_size,
                "max_len": m.max_length}

    def manifest(self) -> Any:
        """The artifact's manifest (None when the model cannot be found)."""
        plan = self.plan()
        return plan.artifact.manifest if plan is not None else None

    def reader(self) -> dict[str, Any]:
        """The ``reader`` entry of every pair's details."""
        return {"name": "encoder", "model": self.encoder().artifact.id}

    def close(self) -> None:
        """Nothing of its own: the session belongs to the run context, which closes it."""


def rules_or_encoder(model_option: Option) -> Callable[[RuntimeContext], ExtractorKind]:
    """How CREPE and SRR-BERT choose their reader (``radscope.engine.options.reader_choice``): the rules under
    ``--extractor rules`` unless the model option names an encoder, the encoder otherwise."""

    def choose(ctx: RuntimeContext) -> ExtractorKind:
        return "rules" if reads_with_rules(ctx, model_option) else "encoder"

    return choose
