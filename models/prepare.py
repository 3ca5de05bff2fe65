"""Models made ready before the app serves: ``RADSCOPE_PREPARE=id,id`` or the config file's
``prepare = [...]``, so a Space or a server image starts with real models.

Each id is fetched (``radscope.models.fetch``; instant when a receipt says it is ready) and becomes the
default of the option that selects it (``crepe_model``, ``srr_model``, ``judge``) unless the
config sets that option. A model that fails is reported on stderr with its step and advice, and
the app starts without it: its metric keeps its default model, which the panels label
(demo-grade badge) as before.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from radscope.models import model_registry
from radscope.models.fetch import FetchFailed, fetch
from radscope.models.progress import Cancelled, Reporter
from radscope.models.receipts import Prepared

ENV = "RADSCOPE_PREPARE"


@dataclass
class PrepareOutcome:
    prepared: list[Prepared] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def option_defaults(self) -> dict[str, str]:
        """The first prepared model per option (crepe_model, srr_model, judge)."""
        out: dict[str, str] = {}
        for item in self.prepared:
            if item.option is not None:
                out.setdefault(*item.option)
        return out


def parse_ids(value: str | list[str] | None) -> list[str]:
    """A comma-separated string or a list -> ids; unknown ids raise ValueError naming them."""
    if not value:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    ids = [str(i).strip() for i in items if str(i).strip()]
    unknown = [i for i in ids if i not in model_registry.load_registry()]
    if unknown:
        raise ValueError(f"unknown model id(s) to prepare: {', '.join(unknown)}; "
                         f"see `radscope models list`")
    return ids


def requested(config_ids: list[str] | None = None) -> list[str]:
    """The environment's ids, then the config's, each once."""
    ids = parse_ids(os.environ.get(ENV)) + list(config_ids or [])
    return list(dict.fromkeys(ids))


def prepare_all(ids: list[str], report: Reporter) -> PrepareOutcome:
    outcome = PrepareOutcome()
    started = time.monotonic()
    for model_id in ids:
        try:
            outcome.prepared.append(fetch(model_id, report))
        except (FetchFailed, Cancelled) as exc:
            outcome.failed[model_id] = str(exc)
            print(f"error: preparing {model_id} failed; the app starts without it.\n{exc}", file=sys.stderr)
    outcome.seconds = time.monotonic() - started
    return outcome
