"""The batch runner: pairs x metrics -> stored per-pair results -> corpus summary.

Shared by the CLI, the UI's Batch tab and the benchmarks. Pairs are scored chunk by chunk, and
nothing is kept per pair once its chunk is done: each chunk's rows go to the caller
(``on_rows``: the CLI writes them to its output files), to the summary (``SummaryBuilder``) and,
for the app and the API, into ``BatchRun.rows`` (``keep_rows``). The input may be a list or a
``dataio.PairFile`` read from disk at each pass, so a million pairs never sit in memory.

The (pair, metric) results of each chunk are stored, in one transaction, as soon as the chunk
is scored, so an interrupted run resumes where it stopped (same run id, its stored results read
back a chunk at a time) and a failing pair or metric never stops the others. A stored result
is reused only when the pair's texts (``ReportPair.content_hash``) and the metric's signature
are unchanged; a pair a metric cannot read (engine.eligibility.readable) gets
``cannot read: <reason>`` instead of a number, and a pair outside a metric's scope
(engine.eligibility.applicability) ``not applicable: <reason>``.
"""
from __future__ import annotations

import hashlib
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from radscope.engine.context import RuntimeContext
from radscope.engine.eligibility import applicability, readable
from radscope.engine.io.reports import DEFAULT_MAX_CHARS, ReportPair
from radscope.engine.metrics.framework.base import Metric, PairScore, score_marking_failures
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.options.intended_studies import FORCE_APPLICABILITY
from radscope.engine.runs import parallel
from radscope.engine.runs.results import is_transient_failure, result_dict
from radscope.engine.runs.summary import SummaryBuilder

ProgressFn = Callable[[int, int], None]  # (units done, units total); a unit = one (pair, metric)
RowsFn = Callable[[list[dict[str, Any]]], None]  # one chunk's output rows, in input order
REGISTER_CHUNK = 2000  # pair ids registered in the store (and checked for resume) per query


class PairSource(Protocol):
    """Pairs a run can count and read more than once: a list, or a ``dataio.PairFile``."""

    def __iter__(self) -> Iterator[ReportPair]: ...

    def __len__(self) -> int: ...


def input_run_id(pairs: Iterable[ReportPair], metrics: Sequence[Metric] | Mapping[str, str],
                 max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """``run-<hash>``: the same for the same pairs (ids and texts), metrics, signatures and
    length limit, so that running the same input again finds its earlier run. ``metrics`` is
    the metrics or their signatures by name."""
    signatures = metrics if isinstance(metrics, Mapping) else {m.name: m.signature() for m in metrics}
    digest = hashlib.sha256()
    for pair in pairs:
        digest.update(f"{pair.id}\x1f{pair.content_hash()}\x1e".encode())
    for name, signature in signatures.items():
        digest.update(f"{name}\x1f{signature}\x1e".encode())
    digest.update(str(max_chars).encode())
    return f"run-{digest.hexdigest()[:12]}"


def resume_or_new_run_id(store: Any | None, base: str, fresh: bool = False) -> str:
    """The newest run of this input (``base`` or ``base-N``): an unfinished one is resumed and
    a finished one answers again from what it stored (the id names the same pairs, texts and
    signatures, so nothing needs scoring). ``base`` when there is none; with ``fresh``, a new
    run on purpose: ``base-N`` with the next free N."""
    if store is None:
        return base
    family = [r for r in store.list_runs()
              if r.run_id == base or (r.run_id.startswith(f"{base}-") and r.run_id[len(base) + 1:].isdigit())]
    if not family:
        return base
    if not fresh:
        return family[0].run_id  # list_runs is newest first
    numbers = [int(r.run_id[len(base) + 1:]) for r in family if r.run_id != base]
    return f"{base}-{max(numbers, default=1) + 1}"


def earlier_run_of(store: Any, run_id: str, input_label: str, metric_names: Sequence[str],
                   signatures: Mapping[str, str]) -> str | None:
    """The newest finished run, other than ``run_id``, of the same input (its label: the file
    as given) with the same metrics and signatures: an edited input takes the results of its
    unchanged pairs from it instead of scoring and storing them again."""
    if not input_label:
        return None
    for info in store.list_runs():
        if (info.run_id != run_id and info.status == "finished" and info.input == input_label
                and sorted(info.metrics) == sorted(metric_names)
                and info.options == {"signatures": dict(signatures)}):
            return str(info.run_id)
    return None


@dataclass
class BatchRun:
    run_id: str
    rows: list[dict[str, Any]]  # empty unless run_batch was asked to keep them
    summary: dict[str, Any]
    metrics: list[str] = field(default_factory=list)

    @property
    def answered_from_store(self) -> bool:
        """Whether this was an identical rerun of a finished run: every result read back, nothing stored."""
        return bool(self.summary.get("answered_from_store"))


def run_batch(
    pairs: PairSource,
    metric_names: Sequence[str],
    ctx: RuntimeContext,
    *,
    registry: MetricRegistry,
    store: Any | None = None,
    run_id: str | None = None,
    input_label: str = "",
    max_chars: int = DEFAULT_MAX_CHARS,
    concurrency: int = 1,
    chunk_size: int = 32,
    progress: ProgressFn | None = None,
    metrics: Sequence[Metric] | None = None,
    workers: int = 1,
    on_rows: RowsFn | None = None,
    keep_rows: bool = True,
    chunk_guard: Callable[[], AbstractContextManager[Any]] | None = None,
    reuse_earlier: bool = False,
) -> BatchRun:
    """Score every pair with every metric, storing each chunk's results as it finishes.

    ``registry`` builds the metrics by name (and again in each worker process).
    With a ``store`` and a ``run_id`` that already exists, finished (pair, metric) results are
    read back, chunk by chunk, instead of recomputed. ``metrics`` may pass already-built
    metric objects (the app keeps them loaded between requests). ``workers`` > 1 scores the
    CPU-bound metrics in that many processes (``radscope.engine.runs.parallel``; same results). Each
    chunk's output rows go to ``on_rows`` as soon as it is scored; ``keep_rows`` (the app,
    the API) also returns them all in ``BatchRun.rows``, which a large run should not ask for.
    ``chunk_guard`` is entered around each chunk's scoring (the app's model gate: other
    requests get the models between two chunks). With ``reuse_earlier`` (the command line,
    whose store is one user's), a new run of an input that an earlier finished run scored
    under the same signatures (``earlier_run_of``) takes that run's results for its unchanged
    pairs. Off by default: in the public app another visitor's run of a file of the same name
    must never answer for, or reveal anything to, this one.
    """
    started = time.perf_counter()
    counters_before = Counter(ctx.counters)  # the context may serve several runs
    metric_names = list(metric_names)
    built = list(metrics) if metrics is not None else registry.build(metric_names, ctx)
    signatures = {m.name: m.signature() for m in built}
    run_id = run_id or resume_or_new_run_id(store, input_run_id(pairs, signatures, max_chars))
    n_pairs = len(pairs)
    units = n_pairs * len(built)
    was_finished = _finished(store, run_id)
    reuse, resumed = _open_run(store, run_id, input_label, metric_names, pairs, signatures)
    # An identical finished run: nothing to score, and its kept summary is this run's.
    answer = _stored_answer(store, run_id, resumed, units, n_pairs,
                            ctx.counters - counters_before) if was_finished else None
    if answer is not None and on_rows is None and not keep_rows:  # nobody wants the rows either
        if progress:
            progress(units, units)
        return _answered_run(run_id, [], answer, metric_names, started)
    chunk_results = _ChunkResults(signatures, progress, units, resumed["reused"])
    if was_finished:  # stored again only if something must be scored (a retried judge failure)
        chunk_results.before_write = lambda: _open_run(store, run_id, input_label, metric_names,
                                                       [], signatures, reopen=True)
    elif store is not None and not reuse and reuse_earlier:
        chunk_results.earlier = earlier_run_of(store, run_id, input_label, metric_names, signatures)
    builder = SummaryBuilder(built, signatures) if answer is None else None
    kept: list[dict[str, Any]] = []
    scoring = _Scoring(max_chars, bool(ctx.option(FORCE_APPLICABILITY)), _thread_pool(concurrency),
                       parallel.process_scorer(registry, built, ctx.options, workers,
                                               n_pairs - resumed["complete"]))
    _run_chunks(_chunks(pairs, chunk_size), built, chunk_results, scoring, store, run_id,
                reuse=reuse, chunk_guard=chunk_guard,
                deliver=lambda rows: deliver_rows(rows, builder, on_rows, kept if keep_rows else None))
    answered = was_finished and chunk_results.stored == 0
    if builder is None:  # an identical finished run's rows were read back for the caller
        assert answer is not None and answered
        return _answered_run(run_id, kept, answer, metric_names, started)
    resumed["copied"] = chunk_results.copied
    summary = run_summary(builder, ctx.counters - counters_before, run_id, n_pairs, resumed)
    _note_storage(summary, chunk_results, answered)
    _keep_summary(store, run_id, summary, answered)
    summary["elapsed_s"] = round(time.perf_counter() - started, 3)
    return BatchRun(run_id=run_id, rows=kept, summary=summary, metrics=metric_names)


def _thread_pool(concurrency: int) -> ThreadPoolExecutor | None:
    """A thread pool to score a metric's pairs side by side, only when more than one thread is
    asked for (one thread scores in the caller's, with no pool to close)."""
    return ThreadPoolExecutor(max_workers=max(1, concurrency)) if concurrency > 1 else None


def _answered_run(run_id: str, rows: list[dict[str, Any]], answer: dict[str, Any],
                  metric_names: list[str], started: float) -> BatchRun:
    """An identical rerun of a finished run: its kept summary answers, timed as this run."""
    answer["elapsed_s"] = round(time.perf_counter() - started, 3)
    return BatchRun(run_id=run_id, rows=rows, summary=answer, metrics=metric_names)


def _run_chunks(chunks: Iterable[list[ReportPair]], built: Sequence[Metric],
                chunk_results: _ChunkResults, scoring: _Scoring, store: Any | None, run_id: str, *,
                reuse: bool, chunk_guard: Callable[[], AbstractContextManager[Any]] | None,
                deliver: Callable[[list[dict[str, Any]]], None]) -> None:
    """Score the pairs chunk by chunk, each chunk's results stored as each metric finishes and
    its rows delivered, so that an interrupted run keeps all it finished; the scoring's pool
    and processes are closed however it ends."""
    try:
        for chunk in chunks:
            chunk_results.start(chunk)
            if reuse and store is not None:
                chunk_results.reuse(store, run_id)
            if chunk_results.earlier:
                chunk_results.reuse_earlier(store)
            with chunk_guard() if chunk_guard else nullcontext():
                for metric in built:
                    scoring.score(metric, chunk_results.todo(metric, chunk), chunk_results.record)
                    chunk_results.save(store, run_id)
            deliver(chunk_results.rows(chunk, built))
    finally:
        if chunk_results.pending:  # stopped inside a chunk (cancelled, interrupted): keep what did finish
            chunk_results.save(store, run_id)
        scoring.close()


def _note_storage(summary: dict[str, Any], chunk_results: _ChunkResults, answered: bool) -> None:
    """Say in the summary whether the store answered, which earlier run gave results, and how
    many results this run stored."""
    summary["answered_from_store"] = answered
    if chunk_results.copied:
        summary["earlier_run"] = chunk_results.earlier
    summary["stored"] = chunk_results.stored


def _keep_summary(store: Any | None, run_id: str, summary: dict[str, Any], answered: bool) -> None:
    """Mark the run finished in the store with its summary; an identical rerun that the store
    answered keeps the summary it had."""
    if store is not None and not answered:
        store.finish_run(run_id, summary=summary)


def _stored_answer(store: Any, run_id: str, resumed: Counter, units: int, n_pairs: int,
                   counters: Counter) -> dict[str, Any] | None:
    """The summary a finished run kept, as this identical rerun's, when every one of its
    results holds (the registration pass counted them all reused); None otherwise."""
    if resumed["reused"] != units or resumed["recomputed"] or resumed["retried"]:
        return None
    kept = store.run_summary(run_id)
    if kept is None:
        return None
    answer = {**kept, "run_id": run_id, "n_pairs": n_pairs, "answered_from_store": True, "stored": 0,
              "resumed": {"reused": units, "recomputed": 0, "retried": 0}}
    for key in ("model_calls", "encoder_batches", "cache_hits"):
        answer[key] = int(counters.get(key, 0))
    for key in ("prompt_tokens", "completion_tokens", "earlier_run"):
        answer.pop(key, None)
    return answer


def _finished(store: Any | None, run_id: str) -> bool:
    info = store.get_run(run_id) if store is not None else None
    return info is not None and info.status == "finished"


def _open_run(store: Any | None, run_id: str, input_label: str, metric_names: list[str],
              pairs: PairSource | list[ReportPair], signatures: dict[str, str],
              reopen: bool = False) -> tuple[bool, Counter]:
    """Start (or resume) the run in the store and register its pairs: whether it has stored
    results to look up, and what a resume reuses (``_register_pairs``). A finished run is
    only checked (same metrics and options), not reopened, until something must be stored
    (``reopen``)."""
    if store is None:
        return False, Counter()
    options = {"signatures": signatures}
    if _finished(store, run_id) and not reopen:
        info = store.check_run(run_id, metric_names, options)
    else:
        info = store.start_run(run_id, input_label, metric_names, options)
    reuse = info.n_results > 0
    return reuse, _register_pairs(store, run_id, pairs, signatures if reuse else None)


class _ChunkResults:
    """The results of the chunk being scored, by pair and metric, those not stored yet (written
    once per chunk and metric), and the run's progress in (pair, metric) units."""

    def __init__(self, signatures: dict[str, str], progress: ProgressFn | None, total: int,
                 done: int) -> None:
        self.signatures, self.progress, self.total, self.done = signatures, progress, total, done
        self.hashes: dict[str, str] = {}  # the chunk's pairs' content hashes
        self.results: dict[str, dict[str, dict[str, Any]]] = {}
        self.unsaved: list[tuple[str, str, dict[str, Any], str]] = []
        self.copies: list[tuple[str, str, dict[str, Any], str]] = []  # read from ``earlier``
        self.stored = 0  # results written to the store by this run
        self.copied = 0  # of which taken from an earlier run of the same input
        self.earlier: str | None = None  # that run (see ``earlier_run_of``)
        self.before_write: Callable[[], Any] | None = None  # reopens a finished run once
        if progress:
            progress(done, total)

    def start(self, chunk: list[ReportPair]) -> None:
        self.hashes = {p.id: p.content_hash() for p in chunk}
        self.results = {p.id: {} for p in chunk}

    def reuse(self, store: Any, run_id: str) -> None:
        """Take the chunk's stored results that are still valid instead of scoring them again."""
        _reuse_stored(store.results_for(run_id, list(self.results)), self.results, self.hashes,
                      self.signatures)

    def reuse_earlier(self, store: Any) -> None:
        """Take the results of the chunk's unchanged pairs from the earlier run of the same
        input; they are stored in this run too (their details are shared, not written again)."""
        assert self.earlier is not None
        missing = [pid for pid, got in self.results.items() if len(got) < len(self.signatures)]
        if not missing:
            return
        before = {pid: set(self.results[pid]) for pid in missing}
        _reuse_stored(store.results_for(self.earlier, missing), self.results, self.hashes, self.signatures)
        for pid in missing:
            for name in set(self.results[pid]) - before[pid]:
                self.copies.append((pid, name, self.results[pid][name], self.hashes[pid]))
                self.copied += 1
                self.done += 1
        if self.progress:
            self.progress(self.done, self.total)

    def todo(self, metric: Metric, chunk: list[ReportPair]) -> list[ReportPair]:
        return [p for p in chunk if metric.name not in self.results[p.id]]

    def record(self, metric: Metric, pair: ReportPair, result: PairScore) -> None:
        payload = result_dict(metric, result, self.signatures[metric.name])
        self.results[pair.id][metric.name] = payload
        self.unsaved.append((pair.id, metric.name, payload, self.hashes[pair.id]))
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total)

    @property
    def pending(self) -> bool:
        return bool(self.unsaved or self.copies)

    def save(self, store: Any | None, run_id: str) -> None:
        if store is not None and self.pending:
            if self.before_write is not None:
                self.before_write()
                self.before_write = None
            if self.copies:
                assert self.earlier is not None
                store.copy_results(run_id, self.earlier, self.copies)
            store.put_results(run_id, self.unsaved)
            self.stored += len(self.unsaved) + len(self.copies)
        self.unsaved.clear()
        self.copies.clear()

    def rows(self, chunk: list[ReportPair], built: Sequence[Metric]) -> list[dict[str, Any]]:
        """The chunk's output rows, in input order."""
        return [{"id": p.id, "metrics": {m.name: self.results[p.id][m.name] for m in built
                                         if m.name in self.results[p.id]}} for p in chunk]


@dataclass
class _Scoring:
    """How a run scores a metric's pairs: its length limit, whether it scores outside the
    intended studies, and its thread pool and worker processes (closed at the end)."""

    max_chars: int
    force: bool
    pool: ThreadPoolExecutor | None
    procs: parallel.ProcessScorer | None

    def score(self, metric: Metric, todo: list[ReportPair],
              record: Callable[[Metric, ReportPair, PairScore], None]) -> None:
        score_metric_pairs(metric, todo, record, max_chars=self.max_chars,
                           reader_languages=metric.reader_languages, force=self.force,
                           pool=self.pool, procs=self.procs)

    def close(self) -> None:
        if self.pool:  # an interrupted run (Ctrl-C) drops the pairs not yet started
            self.pool.shutdown(wait=True, cancel_futures=True)
        if self.procs:
            self.procs.close()


def deliver_rows(rows: list[dict[str, Any]], builder: SummaryBuilder | None, on_rows: RowsFn | None,
                 kept: list[dict[str, Any]] | None) -> None:
    """A chunk's rows, in input order, to the caller, the summary (unless it is kept already)
    and (when kept) the run."""
    if on_rows:
        on_rows(rows)
    if builder is not None:
        for row in rows:
            builder.add_row(row["metrics"], pair_id=row["id"])
    if kept is not None:
        kept.extend(rows)


def run_summary(builder: SummaryBuilder, counters: Counter, run_id: str, n_pairs: int,
                resumed: Counter) -> dict[str, Any]:
    """The summary of a run (the Ray engine's too): figures, run id, size and what was resumed."""
    summary = builder.summary(counters)
    summary["run_id"] = run_id
    summary["n_pairs"] = n_pairs
    summary["resumed"] = {"reused": resumed["reused"], "recomputed": resumed["recomputed"],
                          "retried": resumed["retried"]}
    if resumed["copied"]:
        summary["resumed"]["from_earlier_run"] = resumed["copied"]
    return summary


def _chunks(pairs: Iterable[ReportPair], size: int) -> Iterator[list[ReportPair]]:
    it = iter(pairs)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _register_pairs(store: Any, run_id: str, pairs: Iterable[ReportPair],
                    signatures: dict[str, str] | None) -> Counter:
    """Register the run's pairs in input order (a pass over the input, before any scoring, so
    that an interrupted run knows its size) and refuse a repeated id. With ``signatures`` (the
    run has stored results), count the stored results a resume reuses, recomputes and
    retries, and the pairs it need not score at all ("complete")."""
    counts: Counter = Counter()
    seen: set[str] = set()
    for chunk in _chunks(pairs, REGISTER_CHUNK):
        ids = [p.id for p in chunk]
        repeated = sorted({i for i in ids if i in seen} | {i for i, k in Counter(ids).items() if k > 1})
        if repeated:
            raise ValueError(f"pair ids repeat within run {run_id!r}: {repeated[:10]}")
        seen.update(ids)
        store.put_pairs(run_id, ids)
        if signatures is not None:
            results: dict[str, dict[str, dict[str, Any]]] = {p.id: {} for p in chunk}
            counts += _reuse_stored(store.results_for(run_id, ids, details=False), results,
                                    {p.id: p.content_hash() for p in chunk}, signatures)
            counts["complete"] += sum(len(r) == len(signatures) for r in results.values())
    return counts


def score_metric_pairs(metric: Metric, pairs: Sequence[ReportPair],
                       record: Callable[[Metric, ReportPair, PairScore], None], *,
                       max_chars: int = DEFAULT_MAX_CHARS, reader_languages: str | None = None,
                       force: bool = False, pool: ThreadPoolExecutor | None = None,
                       procs: parallel.ProcessScorer | None = None) -> None:
    """Score ``pairs`` with one metric, handing each result to ``record``. Without calling the
    metric, a pair is marked when its input is unusable (empty, too long), when the metric's
    reader cannot read it (``reader_languages``: the languages its reader knows, see engine.eligibility.readable; the
    metric's own when not given), or, unless ``force``, when its exam is outside the studies the metric was designed for (the runner and
    the in-process API, engine.api, share this)."""
    if reader_languages is None:
        reader_languages = metric.reader_languages
    valid = []
    for pair in pairs:
        reason = _unscorable(pair, max_chars, reader_languages)
        if reason:
            record(metric, pair, PairScore.failed(reason))
        elif not force and (reason := _not_applicable(metric, pair)):
            record(metric, pair, PairScore(None, details={"not_applicable": reason}))
        else:
            valid.append(pair)
    _score_chunk(metric, valid, record, pool, procs)


def _unscorable(pair: ReportPair, max_chars: int, languages: str) -> str | None:
    """Why no metric whose reader knows these languages may score the pair: an input problem (empty,
    oversized, binary) or text it cannot read; None when it can be scored."""
    problems = pair.problems(max_chars)
    if problems:
        return "input: " + "; ".join(problems)
    return readable.pair_unreadable(pair, languages)


def _reuse_stored(stored: Iterable[Any], results: dict[str, dict[str, dict[str, Any]]],
                  hashes: dict[str, str], signatures: dict[str, str]) -> Counter:
    """Put the stored results (``ResultRow``s) that still hold into ``results``; count the
    reused ones and the ones whose pair text or metric signature changed (recomputed)."""
    counts: Counter = Counter()
    for row in stored:
        if row.pair_id not in results or row.metric not in signatures:
            continue
        if is_transient_failure(row.payload):
            counts["retried"] += 1  # the judge process failed, not the pair: ask again
        elif row.content_hash == hashes[row.pair_id] and row.signature == signatures[row.metric]:
            results[row.pair_id][row.metric] = row.payload
            counts["reused"] += 1
        else:
            counts["recomputed"] += 1
    return counts


# The pair's exam (an immutable ``Exam``) is detected once for all the metrics that ask.
_exam = lru_cache(maxsize=4096)(applicability.exam_of)


def _not_applicable(metric: Metric, pair: ReportPair) -> str | None:
    """"not applicable: ..." when the pair's exam is outside the studies the metric was designed for."""
    intended = metric.card.intended_studies
    if intended == applicability.ANY:
        return None
    exam = _exam(pair.reference, pair.candidate, pair.modality, pair.area)
    reason = applicability.outside_intended_studies(intended, exam)
    return f"not applicable: {reason}" if reason else None


def _score_chunk(metric: Metric, pairs: list[ReportPair],
                 record: Callable[[Metric, ReportPair, PairScore], None],
                 pool: ThreadPoolExecutor | None,
                 procs: parallel.ProcessScorer | None = None) -> None:
    if not pairs:
        return
    if procs is not None and procs.handles(metric):
        for pair, result in zip(pairs, procs.score(metric, pairs), strict=True):
            record(metric, pair, result)
    elif metric.batch_size > 1:
        for start in range(0, len(pairs), metric.batch_size):
            batch = pairs[start:start + metric.batch_size]
            for pair, result in zip(batch, score_marking_failures(metric, batch), strict=True):
                record(metric, pair, result)
    elif pool is not None:
        futures = [(pair, pool.submit(score_marking_failures, metric, [pair])) for pair in pairs]
        for pair, future in futures:
            record(metric, pair, future.result()[0])
    else:
        for pair in pairs:
            record(metric, pair, score_marking_failures(metric, [pair])[0])
