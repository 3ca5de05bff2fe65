"""torch modules for export and training (export environment only; never imported by the app).

``CrepeRegressor`` has the parameter layout of the published CREPE class
(``BertForCategoryErrorRegression``): ``bert.*``, ``error_regressors.{0..5}`` and
``error_presence.{0..5}``, each head a ``Linear(hidden, 1)``. The published class builds its
encoder by *name* (``AutoModel.from_pretrained(config._name_or_path)``), which would try to
fetch a second model while loading; here the encoder is rebuilt from the checkpoint's own
config instead, and the weights come from the checkpoint file alone.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
from torch import nn
from transformers import BertConfig, BertModel

N_CATEGORIES = 6
CREPE_ARCHITECTURE = "BertForCategoryErrorRegression"
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


def read_config(checkpoint: Path) -> dict[str, Any]:
    path = Path(checkpoint) / "config.json"
    if not path.exists():
        raise FileNotFoundError(f"{checkpoint} has no config.json; is it a checkpoint directory?")
    return json.loads(path.read_text(encoding="utf-8"))


def load_state_dict(checkpoint: Path) -> dict[str, torch.Tensor]:
    """Weights from model.safetensors (preferred) or pytorch_model.bin."""
    checkpoint = Path(checkpoint)
    safetensors_path = checkpoint / WEIGHT_FILES[0]
    if safetensors_path.exists():
        from safetensors.torch import load_file

        return load_file(str(safetensors_path))
    bin_path = checkpoint / WEIGHT_FILES[1]
    if bin_path.exists():
        return torch.load(bin_path, map_location="cpu", weights_only=True)
    raise FileNotFoundError(f"{checkpoint} has neither {' nor '.join(WEIGHT_FILES)}")


def bert_config(raw: dict[str, Any]) -> BertConfig:
    """A BertConfig from a config dict, with eager attention (plain ops export everywhere)."""
    cfg = BertConfig(**{k: v for k, v in raw.items() if k not in ("architectures", "auto_map")})
    cfg._attn_implementation = "eager"
    return cfg


def _load_into(module: nn.Module, state: dict[str, torch.Tensor]) -> None:
    result = module.load_state_dict(state, strict=False)
    missing = [k for k in result.missing_keys if not k.endswith("position_ids")]
    unexpected = [k for k in result.unexpected_keys if not k.endswith("position_ids")]
    if missing or unexpected:
        raise ValueError(f"checkpoint does not match the architecture: missing {missing[:8]}, "
                         f"unexpected {unexpected[:8]}")


class CrepeRegressor(nn.Module):
    """BERT pair encoder -> pooled vector -> dropout -> six count heads (+ six presence heads).

    The pooled vector is the pooler output when the encoder has a pooler, else the [CLS]
    hidden state (the published rule). Presence heads only serve the training loss.
    """

    def __init__(self, config: BertConfig, *, with_pooler: bool = True, softplus: bool = False,
                 presence_loss_weight: float = 0.5) -> None:
        super().__init__()
        self.config = config
        self.bert = BertModel(config, add_pooling_layer=with_pooler)
        self.with_pooler = with_pooler
        self.softplus = softplus
        self.presence_loss_weight = presence_loss_weight
        dropout = getattr(config, "classifier_dropout", None) or config.hidden_dropout_prob
        self.dropout = nn.Dropout(dropout)
        self.error_regressors = nn.ModuleList(
            [nn.Linear(config.hidden_size, 1) for _ in range(N_CATEGORIES)])
        self.error_presence = nn.ModuleList(
            [nn.Linear(config.hidden_size, 1) for _ in range(N_CATEGORIES)])
        for head in [*self.error_regressors, *self.error_presence]:
            head.weight.data.normal_(0.0, config.initializer_range)
            head.bias.data.zero_()

    def pooled(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
               token_type_ids: torch.Tensor) -> torch.Tensor:
        out = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                        token_type_ids=token_type_ids)
        if self.with_pooler and out.pooler_output is not None:
            return out.pooler_output
        return out.last_hidden_state[:, 0]

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw count-head outputs [batch, 6] (no softplus, no clipping) and presence logits."""
        pooled = self.dropout(self.pooled(input_ids, attention_mask, token_type_ids))
        counts = torch.cat([head(pooled) for head in self.error_regressors], dim=-1)
        presence = torch.cat([head(pooled) for head in self.error_presence], dim=-1)
        return counts, presence

    def config_dict(self) -> dict[str, Any]:
        raw = self.config.to_dict()
        raw.pop("_attn_implementation_autoset", None)
        raw.update({"architectures": [CREPE_ARCHITECTURE], "num_error_categories": N_CATEGORIES,
                    "use_poisson_loss": self.softplus, "use_presence_loss": True,
                    "presence_loss_weight": self.presence_loss_weight})
        return raw

    def save_checkpoint(self, directory: Path) -> None:
        """config.json + model.safetensors in the published layout."""
        from safetensors.torch import save_file

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "config.json").write_text(json.dumps(self.config_dict(), indent=2),
                                               encoding="utf-8")
        state = {k: v.contiguous() for k, v in self.state_dict().items()}
        save_file(state, str(directory / "model.safetensors"))

    @classmethod
    def from_checkpoint(cls, directory: Path) -> CrepeRegressor:
        raw = read_config(directory)
        state = load_state_dict(directory)
        n = int(raw.get("num_error_categories", N_CATEGORIES))
        if n != N_CATEGORIES:
            raise ValueError(f"CREPE checkpoints have {N_CATEGORIES} categories; this one has {n}")
        model = cls(bert_config(raw), with_pooler="bert.pooler.dense.weight" in state,
                    softplus=bool(raw.get("use_poisson_loss", False)),
                    presence_loss_weight=float(raw.get("presence_loss_weight", 0.5)))
        if not any(k.startswith("error_presence.") for k in state):
            # A checkpoint saved without the training-only heads is still complete for inference.
            state = {**state, **{f"error_presence.{k}": v
                                 for k, v in model.error_presence.state_dict().items()}}
        _load_into(model, state)
        return model.eval()

    @classmethod
    def from_backbone(cls, directory: Path, softplus: bool = False) -> CrepeRegressor:
        """A fresh CREPE model on a pretrained BERT encoder (heads randomly initialised)."""
        raw = read_config(directory)
        state = load_state_dict(directory)
        model = cls(bert_config(raw), with_pooler="pooler.dense.weight" in state, softplus=softplus)
        _load_into(model.bert, state)
        return model


class CountsOnly(nn.Module):
    """What is exported: the count heads only ([batch, 6]); presence heads are training-only."""

    def __init__(self, model: CrepeRegressor) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids, attention_mask, token_type_ids)[0]


class MeanPoolEmbedder(nn.Module):
    """Sentence embeddings the all-MiniLM-L6-v2 way: masked mean of token states, L2-normalised."""

    def __init__(self, bert: BertModel) -> None:
        super().__init__()
        self.bert = bert

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                           token_type_ids=token_type_ids).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(states.dtype)
        # The masked sum as one [1, T] x [T, H] product per sequence, not a sum over axis 1:
        # onnxruntime reduces a middle axis by a different route for one sequence than for
        # several, which moved embeddings by ~5e-8 with the batch; a batched MatMul does not.
        summed = torch.bmm(mask.transpose(1, 2), states).squeeze(1)
        mean = summed / mask.sum(dim=1).clamp(min=1e-9)
        return torch.nn.functional.normalize(mean, p=2.0, dim=-1)

    @classmethod
    def from_checkpoint(cls, directory: Path) -> MeanPoolEmbedder:
        raw = read_config(directory)
        state = load_state_dict(directory)
        state = {k.removeprefix("bert."): v for k, v in state.items()}
        bert = BertModel(bert_config(raw), add_pooling_layer=False)
        _load_into(bert, {k: v for k, v in state.items() if not k.startswith("pooler.")})
        return cls(bert).eval()


class LogitsOnly(nn.Module):
    """A BertForSequenceClassification reduced to its logits (multi-label: sigmoid outside)."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids).logits


def load_sequence_classifier(directory: Path) -> nn.Module:
    """A BertForSequenceClassification checkpoint with eager attention, in eval mode."""
    from transformers import BertForSequenceClassification

    raw = read_config(directory)
    model = BertForSequenceClassification(bert_config(raw))
    _load_into(model, load_state_dict(directory))
    return model.eval()


def detect_task(directory: Path) -> str:
    """crepe | srr | embedder, from a checkpoint's config (and sentence-transformers files)."""
    raw = read_config(directory)
    architectures = raw.get("architectures") or []
    if CREPE_ARCHITECTURE in architectures or "num_error_categories" in raw:
        return "crepe"
    if "BertForSequenceClassification" in architectures:
        return "srr"
    if (Path(directory) / "modules.json").exists() or "BertModel" in architectures:
        return "embedder"
    raise ValueError(f"cannot tell what {directory} is (architectures: {architectures}); "
                     "expected a CREPE, SRR-BERT or sentence-encoder checkpoint")
