"""The Compare tab's logic without Gradio: check one pair, score it metric by metric.

Each metric result is the same dict the CLI writes under ``"metrics"`` (``radscope.engine.runs.results.result_dict``),
because it is produced by the same batch runner on a one-pair batch.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from radscope.engine.io.reports import DEFAULT_MAX_CHARS, ReportPair
from radscope.engine.metrics.framework.defaults import model_under
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.runs.runner import run_batch
from radscope.ui.runtime import RuntimeCache

MAX_UPLOAD_BYTES = 1_000_000  # a .txt report: far beyond any real report


class InputProblem(ValueError):
    """The user's input cannot be scored; the message says what to change."""


def parse_metrics(registry: MetricRegistry, metrics: str | Iterable[str] | None,
                  default: Sequence[str] = ()) -> list[str]:
    """A comma-separated string or a list of names -> names ``registry`` knows (default when empty)."""
    if metrics is None or (isinstance(metrics, str) and not metrics.strip()):
        chosen = list(default)
    else:
        items = metrics.split(",") if isinstance(metrics, str) else list(metrics)
        chosen = [str(m).strip().lower() for m in items if str(m).strip()]
    if not chosen:
        raise InputProblem("Choose at least one metric.")
    known = registry.names()
    unknown = [m for m in chosen if m not in known]
    if unknown:
        raise InputProblem(f"Unknown metric(s): {', '.join(unknown)}. Available: {', '.join(known)}.")
    return list(dict.fromkeys(chosen))


def input_problems(reference: Any, candidate: Any, max_chars: int = DEFAULT_MAX_CHARS) -> list[str]:
    """Readable reasons why a pair cannot be scored (empty list when it can)."""
    found = []
    for label, text in (("reference", reference), ("candidate", candidate)):
        if not isinstance(text, str) or not text.strip():
            found.append(f"The {label} report is empty: paste a report or load a .txt file.")
        elif "\x00" in text:
            found.append(f"The {label} report contains binary data (NUL bytes); paste plain text.")
        elif len(text) > max_chars:
            found.append(f"The {label} report has {len(text):,} characters; the limit is "
                         f"{max_chars:,} (about {max_chars // 7:,} words). Paste only the report.")
    return found


def read_text_upload(path: str | Path | None, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """The text of an uploaded .txt report, or InputProblem saying why it cannot be used."""
    if not path:
        raise InputProblem("No file was uploaded.")
    path = Path(path)
    name = path.name
    try:
        raw = path.read_bytes()
    except OSError:
        raise InputProblem(f"{name}: the uploaded file could not be read.") from None
    if len(raw) > MAX_UPLOAD_BYTES:
        raise InputProblem(f"{name}: {len(raw):,} bytes is too large for one report "
                           f"(limit {MAX_UPLOAD_BYTES:,} bytes).")
    if b"\x00" in raw:
        raise InputProblem(f"{name}: this is a binary file, not a plain-text report.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputProblem(f"{name}: not UTF-8 text (bad byte at offset {exc.start}); save the "
                           "report as UTF-8 plain text.") from None
    if not text.strip():
        raise InputProblem(f"{name}: the file is empty.")
    if len(text) > max_chars:
        raise InputProblem(f"{name}: {len(text):,} characters; the limit for one report is {max_chars:,}.")
    return text


def intended_model(registry: MetricRegistry, name: str, options: dict[str, Any]) -> str | None:
    """The model ``name`` would have run under ``options``: what a panel names when its metric
    could not even start (a missing judge, say), instead of claiming no model was involved."""
    try:
        return model_under(registry.get(name), options)
    except KeyError:
        return None


def failed_result(registry: MetricRegistry, name: str, message: str,
                  model: str | None = None) -> dict[str, Any]:
    """A per-metric result for a metric that could not even start (same keys as a real one);
    ``model`` is the one it tried to use."""
    direction = registry.get(name).card.direction if name in registry else None
    return {"score": None, "direction": direction, "signature": None, "error": message,
            "model": model, "demo_grade": False, "elapsed_ms": 0.0}


def score_metric(cache: RuntimeCache, options: dict[str, Any], pair: ReportPair, name: str,
                 max_chars: int = DEFAULT_MAX_CHARS) -> dict[str, Any]:
    """One metric on one pair; a metric that fails to load or run gives an error result."""
    try:
        runtime, metric = cache.metric(options, name)
    except Exception as exc:  # noqa: BLE001 - model missing, bad option: shown in its panel
        return failed_result(cache.registry, name, f"could not load {name}: {exc}{_no_llama(exc)}",
                             intended_model(cache.registry, name, options or {}))
    try:
        run = run_batch([pair], [name], runtime.ctx, registry=cache.registry, metrics=[metric],
                        max_chars=max_chars)
        return run.rows[0]["metrics"][name]
    except Exception as exc:  # noqa: BLE001 - reported in the metric's panel
        model = metric.model()
        return failed_result(cache.registry, name, f"{type(exc).__name__}: {exc}",
                             model.id if model else None)


def _no_llama(exc: BaseException) -> str:
    """What to do when the embedded judge failed because llama.cpp is not installed (yet)."""
    if "No module named 'llama_cpp'" not in str(exc):
        return ""
    from radscope.ui.judge_build import judge_runtime

    when = ("it is still compiling in the background (the Models tab shows how far)"
            if judge_runtime().state == "building" else "`make setup` compiles it")
    return (f". Judges on this machine need llama.cpp: {when}. Meanwhile the rules reader or a "
            "judge server can score.")


def make_pair(reference: str, candidate: str, modality: str | None = None,
              area: str | None = None) -> ReportPair:
    return ReportPair(id="pair", reference=reference, candidate=candidate,
                      modality=(modality or "").strip() or None, area=(area or "").strip() or None)


def compare_pair(cache: RuntimeCache, reference: str, candidate: str, metrics: Sequence[str],
                 options: dict[str, Any] | None = None, modality: str | None = None,
                 area: str | None = None, max_chars: int = DEFAULT_MAX_CHARS) -> dict[str, dict[str, Any]]:
    """Every chosen metric on one pair: metric name -> per-metric result dict."""
    problems = input_problems(reference, candidate, max_chars)
    if problems:
        raise InputProblem(" ".join(problems))
    pair = make_pair(reference, candidate, modality, area)
    return {name: score_metric(cache, options or {}, pair, name, max_chars) for name in metrics}
