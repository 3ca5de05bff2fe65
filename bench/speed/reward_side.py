"""One side of ``python -m bench reward``: a process that times rows when asked.

``python -m bench.speed.reward_side DATA PAIRS BATCH [--collector off]`` runs in a source tree (this one, or a
baseline commit's checkout, where the benchmark copies this file), reads one JSON request per
line on stdin (``{"row": "api:radsem"}``) and answers one JSON line with the CPU seconds of a
pass over the pairs with fresh texts (every per-text and per-word cache of the engine emptied
first) and of a second pass with the caches that pass left (warm). It uses only what every
version of the API has had (``radscope.engine.api.Scorer``, ``bench.speed.scale``'s pairs), so that
the old and the new code are timed by the same lines.

Rows: ``api:<metrics>`` (``Scorer.score`` on batches), ``one:<metrics>`` (one pair per call),
``lib:sacrebleu`` (``BLEU(effective_order=True).sentence_score``), ``lib:nltk``
(``sentence_bleu`` on our tokens, smoothing method 1: what our BLEU reproduces) and
``lib:rouge-score`` (``RougeScorer(["rougeL"], use_stemmer=True)``, what our ROUGE-L
reproduces). CPU time (``time.process_time``): the readers run on one thread, so it is what
one idle core's wall clock would show, also on a machine shared with other work.
"""
from __future__ import annotations

import functools
import gc
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

# The engine's caches are found by their modules' names. A baseline tree (``--baseline-rev``) runs
# this same file against its own engine, whose modules may have other names (the layout before
# round 6), so the kept caches are listed under both.
_ENGINE = "radscope.engine."
# Caches that hold loaded lexicons, models or prompts, not texts: kept between passes.
_KEPT_MODULES = ("radscope.engine.reader.vocabulary.loader", "radscope.engine.reader.lexicon_loader",
                 "radscope.engine.metrics.framework.registry", "radscope.engine.metrics.registry",
                 "radscope.engine.runtimes.prompts", "radscope.engine.runtimes", "radscope.engine.io.examples")


def text_caches() -> list[Any]:
    """Every per-text (or per-word) ``lru_cache`` of the engine: the ones sized above one."""
    return [obj for obj in gc.get_objects()
            if isinstance(obj, functools._lru_cache_wrapper)
            and _module(obj).startswith(_ENGINE)
            and not _module(obj).startswith(_KEPT_MODULES)
            and obj.cache_info().maxsize != 1]


def _module(cache: Any) -> str:
    """The module a cache belongs to; for one around a bound method without a module of its own
    (``alternation.RemovalSequence.found`` compiled by mypyc: docs/speed.md, round 4), its
    class's module, else that cache would stay warm in a "fresh" pass."""
    module = getattr(cache, "__module__", None)
    if module is None:
        owner = getattr(getattr(cache, "__wrapped__", None), "__self__", None)
        module = type(owner).__module__ if owner is not None else ""
    return str(module)


def _library_row(name: str, pairs: Sequence[tuple[str, str]]) -> Callable[[], int]:
    if name == "sacrebleu":
        from sacrebleu.metrics import BLEU

        bleu = BLEU(effective_order=True)
        return lambda: sum(bleu.sentence_score(c, [r]).score >= 0 for r, c in pairs)
    if name == "nltk":
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        try:
            from radscope.engine.metrics.lexical.metric import tokenize
        except ImportError:  # a baseline tree from before the lexical package
            from radscope.engine.metrics.lexical import tokenize  # type: ignore[attr-defined,no-redef]

        smooth = SmoothingFunction().method1
        return lambda: sum(sentence_bleu([tokenize(r)], tokenize(c), smoothing_function=smooth) >= 0
                           for r, c in pairs)
    if name == "rouge-score":
        from rouge_score import rouge_scorer

        rouge = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
        return lambda: sum(rouge.score(r, c)["rougeL"].fmeasure >= 0 for r, c in pairs)
    raise ValueError(f"unknown library row {name!r}")


class Side:
    """The pairs, the scorers built so far, and how to time a row."""

    def __init__(self, data: str, n_pairs: int, batch: int) -> None:
        from bench.speed.scale import load_reports, synthetic_pairs

        reports, self.source = load_reports(data or None)
        self.pairs = synthetic_pairs(reports, n_pairs)
        self.batch = batch
        self.scorers: dict[str, Any] = {}

    def _scorer(self, metrics: str) -> Any:
        from radscope.engine.api import Scorer

        if metrics not in self.scorers:
            scorer = Scorer(metrics.split("+"), extractor="rules")
            scorer.score(*zip(*self.pairs[:self.batch], strict=True))  # loads the lexicons
            self.scorers[metrics] = scorer
        return self.scorers[metrics]

    def _pass(self, row: str) -> Callable[[], int]:
        kind, _, name = row.partition(":")
        if kind == "lib":
            return _library_row(name, self.pairs)
        scorer = self._scorer(name)
        size = 1 if kind == "one" else self.batch
        chunks = [self.pairs[i:i + size] for i in range(0, len(self.pairs), size)]

        def run() -> int:
            errors = 0
            for chunk in chunks:
                scores = scorer.score(*zip(*chunk, strict=True))
                errors += sum(r["metrics"][m]["error"] is not None
                              for r in scores.records for m in r["metrics"])
            return errors
        return run

    def measure(self, row: str) -> dict[str, Any]:
        run = self._pass(row)
        caches = text_caches()
        for cache in caches:
            cache.cache_clear()
        start = time.process_time()
        errors = run()
        fresh = time.process_time() - start
        start = time.process_time()
        run()
        warm = time.process_time() - start
        return {"row": row, "n": len(self.pairs), "fresh_s": fresh, "warm_s": warm, "caches_emptied": len(caches),
                "errors": errors if row.startswith(("api", "one")) else None}


def main(argv: list[str]) -> int:
    data, n_pairs, batch = argv[0], int(argv[1]), int(argv[2])
    if argv[3:] == ["--collector", "off"]:
        gc.disable()  # for the whole process (``bench reward --collector off``)
    elif argv[3:]:
        raise SystemExit(f"unknown arguments {argv[3:]}")
    side = Side(data, n_pairs, batch)
    print(json.dumps({"ready": True, "source": side.source}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            answer = side.measure(request["row"])
        except Exception as exc:  # noqa: BLE001 - the benchmark prints it beside the row
            answer = {"row": request["row"], "failed": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
