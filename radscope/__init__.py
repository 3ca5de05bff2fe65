"""RadScope as an installed package: ``radscope.engine``, ``radscope.models``, ``radscope.ui``.

The one top-level name keeps a training repository's own ``engine`` or ``models`` package and
ours apart. The shortcuts here load nothing until used::

    import radscope

    scores = radscope.score(references, candidates, metrics="radsem,bleu")  # per-pair arrays
    summary = radscope.summarize(references, candidates, metrics="radsem")  # the CLI's summary

Both build a ``Scorer`` for one call; build ``radscope.Scorer`` yourself to score many times.

In a checkout the subpackages live at the repository's top level (``engine/``, ``models/``,
``ui/``); ``radscope.layout`` maps them here, without symbolic links.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from radscope.layout import install_finder

if TYPE_CHECKING:
    from radscope.engine.api import CorpusResult, Scorer, Scores

__all__ = ["CorpusResult", "Scorer", "Scores", "score", "summarize"]

install_finder()


def __getattr__(name: str) -> Any:
    if name in ("Scorer", "Scores", "CorpusResult"):
        from radscope.engine import api

        return getattr(api, name)
    raise AttributeError(f"module 'radscope' has no attribute {name!r}")


def score(references: list[str], candidates: list[str], metrics: str = "radsem,clear,vert,bleu,rouge",
          **options: Any) -> Scores:
    """Score ``candidates[i]`` against ``references[i]`` once (the rules readers by default)."""
    from radscope.engine.api import Scorer

    options.setdefault("extractor", "rules")
    with Scorer(metrics, **options) as scorer:
        return scorer.score(references, candidates)


def summarize(references: list[str], candidates: list[str], metrics: str = "radsem,clear,vert,bleu,rouge",
              **options: Any) -> CorpusResult:
    """Score a corpus once and return its per-pair results with the CLI's corpus summary."""
    from radscope.engine.api import Scorer

    options.setdefault("extractor", "rules")
    with Scorer(metrics, **options) as scorer:
        return scorer.score_corpus(references, candidates)
