"""The Batch tab's logic without Gradio: inspect an upload, map its columns, run the batch in
a worker thread with progress and cancellation, and turn the results into tables and files.

Scoring goes through ``radscope.engine.runs.runner.run_batch`` with the app's ``Store``, so every finished
(pair, metric) result is on disk at once and a run interrupted for any reason resumes when it
is started again with the same run id.
"""
from __future__ import annotations

import math
import queue
import re
import secrets
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.dataio import Columns, InputError
from radscope.engine.io.export import write_results_csv
from radscope.engine.io.reports import DEFAULT_MAX_CHARS, ReportPair
from radscope.engine.metrics.framework.base import Metric
from radscope.engine.metrics.framework.registry import MetricRegistry, export_columns_of
from radscope.engine.runs.compare import compare_systems
from radscope.engine.runs.runner import BatchRun, input_run_id, resume_or_new_run_id, run_batch
from radscope.engine.runs.store import Store, StoreError
from radscope.engine.runs.summary import shown_figures
from radscope.ui.runtime import ModelGate
from radscope.ui.views.common import BAD, esc, fmt

UPLOAD_SUFFIXES = (".csv", ".tsv", ".jsonl", ".json", ".txt")  # .txt is read as TSV
NUMBER_ROWS = "(number the rows)"
NO_COLUMN = "(none)"
NO_OWNER = "(no session)"  # public mode, a request without a browser session: owns nothing
PREVIEW_ROWS = 5
PREVIEW_CHARS = 90
PREVIEW_COLUMNS = 50
# An upload is held whole as a table (preview, mapping): these bound its size whatever its shape,
# so that inspecting a file takes a bounded time (the upload itself is at most MAX_FILE_SIZE).
MAX_UPLOAD_COLUMNS = 1_000
MAX_UPLOAD_CELLS = 2_000_000
# Column names (compared lower-cased, with spaces, dots and hyphens read as "_") that usually
# hold each role, best first. A column is guessed for one role at most.
ROLE_GUESSES: dict[str, tuple[str, ...]] = {
    "id": ("id", "pair_id", "study_id", "study", "studyid", "report_id", "case_id", "case",
           "exam_id", "accession", "image_id", "dicom_id", "uid", "key"),
    "reference": ("reference", "ref", "references", "reference_report", "ground_truth",
                  "groundtruth", "gt", "gt_report", "ground_truth_report", "target", "original",
                  "original_report", "radiologist_report", "report", "findings", "label"),
    "candidate": ("candidate", "cand", "candidates", "candidate_report", "hypothesis", "hyp",
                  "prediction", "pred", "predicted", "predicted_report", "pred_report",
                  "generated", "generated_report", "gen", "model_report", "model_output", "output",
                  "ai_report", "system_a", "candidate_a"),
    "candidate_b": ("candidate_b", "system_b", "cand_b", "candidate2", "prediction_b", "hyp_b"),
    "modality": ("modality",),
    "area": ("area", "body_area", "body_part", "region"),
}
ROLE_LABELS = {"id": "id", "reference": "reference", "candidate": "candidate",
               "candidate_b": "second candidate", "modality": "modality", "area": "area"}
_RUN_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$")


class BatchProblem(ValueError):
    """The batch cannot run; the message tells the user what to change."""


@dataclass
class ColumnMapping:
    """Which column plays which role (the UI's column-mapping step)."""

    id: str | None
    reference: str
    candidate: str
    candidate_b: str | None = None
    modality: str | None = None
    area: str | None = None

    @classmethod
    def from_ui(cls, id_col: str | None, reference: str | None, candidate: str | None,
                candidate_b: str | None = None, modality: str | None = None,
                area: str | None = None) -> ColumnMapping:
        def opt(value: str | None) -> str | None:
            value = (value or "").strip()
            return None if value in ("", NO_COLUMN, NUMBER_ROWS) else value
        if not opt(reference) or not opt(candidate):
            raise BatchProblem("Choose the reference and the candidate columns.")
        mapping = cls(id=opt(id_col), reference=opt(reference) or "", candidate=opt(candidate) or "",
                      candidate_b=opt(candidate_b), modality=opt(modality), area=opt(area))
        mapping.check_distinct()
        return mapping

    def check_distinct(self) -> None:
        """One column plays one role: the same column as reference and candidate would score
        every pair as a perfect match."""
        roles: dict[str, list[str]] = {}
        for role, label in ROLE_LABELS.items():
            column = getattr(self, role)
            if column:
                roles.setdefault(column, []).append(label)
        for column, labels in roles.items():
            if len(labels) > 1:
                raise BatchProblem(f"Column {column!r} is chosen as both the {' and the '.join(labels)} "
                                   "column; choose a different column for each role.")

    def columns(self, candidate: str | None = None) -> Columns:
        return Columns(id=self.id, reference=self.reference, candidate=candidate or self.candidate,
                       modality=self.modality, area=self.area)


def _normal_name(column: str) -> str:
    return re.sub(r"[\s.\-]+", "_", column.strip().lower())


# A column not in ROLE_GUESSES is still read as a system's reports when its name is made of
# these words, with "a"/"1" or "b"/"2" as a separate word (or digit) telling system A from B:
# model_b_report, pred_b, candidate2, system_1, hyp-B. A report word alone ("report_b") counts
# only with such a mark; a reference word or a metadata word ("model_name") rules a column out.
_SYSTEM_WORDS = frozenset({"candidate", "cand", "candidates", "hypothesis", "hyp", "prediction",
                           "predictions", "pred", "predicted", "generated", "generation", "gen",
                           "model", "output", "ai", "system", "sys"})
_REPORT_WORDS = frozenset({"report", "reports", "text", "findings", "impression"})
_NOT_SYSTEM_WORDS = frozenset({"reference", "ref", "gt", "ground", "truth", "groundtruth", "target",
                               "original", "radiologist", "label", "name", "id", "score", "version",
                               "type", "date", "time", "path", "file", "url"})
_MARKS = {"a": "A", "1": "A", "b": "B", "2": "B"}


def _system_mark(column: str) -> str | None:
    """"A" or "B" for a column named as one system's reports, "" for a system without a mark,
    None for any other column."""
    words = re.findall(r"[a-z]+|\d+", _normal_name(column))
    marks = {_MARKS[w] for w in words if w in _MARKS}
    rest = [w for w in words if w not in _MARKS]
    if len(marks) > 1 or not rest or any(w in _NOT_SYSTEM_WORDS for w in rest):
        return None
    if not all(w in _SYSTEM_WORDS or w in _REPORT_WORDS for w in rest):
        return None
    if marks:
        return marks.pop()
    return "" if any(w in _SYSTEM_WORDS for w in rest) else None


def guess_columns(columns: Sequence[str]) -> dict[str, str | None]:
    """Best guess of each role's column: first the usual names (``ROLE_GUESSES``), then, for
    the two systems, names made of system words with an A / B mark (``_system_mark``); no
    column gets two roles. A lone system-B column is the candidate: B needs an A."""
    by_name: dict[str, str] = {}
    for column in columns:
        by_name.setdefault(_normal_name(column), column)
    guess: dict[str, str | None] = {}
    taken: set[str] = set()
    for role in ("candidate_b", "reference", "candidate", "id", "modality", "area"):
        found = next((by_name[n] for n in ROLE_GUESSES[role] if n in by_name and by_name[n] not in taken),
                     None)
        guess[role] = found
        if found:
            taken.add(found)
    marked: dict[str, list[str]] = {"A": [], "B": [], "": []}
    for column in dict.fromkeys(by_name.values()):
        mark = _system_mark(column)
        if column not in taken and mark is not None:
            marked[mark].append(column)
    if guess["candidate"] is None and (marked["A"] or marked[""]):
        guess["candidate"] = (marked["A"] or marked[""]).pop(0)
    if guess["candidate_b"] is None and marked["B"]:
        guess["candidate_b"] = marked["B"].pop(0)
    if guess["candidate"] is None:
        guess["candidate"], guess["candidate_b"] = guess["candidate_b"], None
    return {role: guess[role] for role in ROLE_GUESSES}


def mapping_status(path: str | Path, frame: pd.DataFrame, values: Sequence[str | None]) -> tuple[str, str]:
    """(kind, message) for the file-status box: rows and columns, then what is still missing
    or wrong in the chosen mapping (id, reference, candidate, candidate B, modality, area)."""
    cols = [str(c) for c in frame.columns]
    head = f"{Path(path).name}: {len(frame):,} rows, columns: {dataio.name_list(cols)}."
    chosen = dict(zip(("id", "reference", "candidate"), values[:3], strict=False))
    missing = [r for r in ("reference", "candidate")
               if (chosen.get(r) or "").strip() in ("", NO_COLUMN, NUMBER_ROWS)]
    if missing:
        names = ", ".join(ROLE_GUESSES[missing[-1]][:6])
        return "warn", (f"{head} Could not guess the {' and '.join(missing)} column (no column named "
                        f"{names}, ...); choose it above.")
    try:
        mapping = ColumnMapping.from_ui(*values)
    except BatchProblem as exc:
        return "error", f"{head} {exc}"
    absent = [f"{c!r} ({ROLE_LABELS[role]})" for role in ROLE_LABELS
              if (c := getattr(mapping, role)) and c not in cols]
    if absent:
        return "error", f"{head} Not in the file: {', '.join(absent)}; choose among its columns."
    return "ok", f"{head} Reference: {mapping.reference!r}, candidate: {mapping.candidate!r}."


NO_UPLOAD = "Upload a CSV, TSV, JSONL or JSON file of report pairs first."


def read_upload(path: str | Path | None) -> tuple[pd.DataFrame, list[int]]:
    if not path:
        raise BatchProblem(NO_UPLOAD)
    if Path(path).suffix.lower() not in UPLOAD_SUFFIXES:
        raise BatchProblem(f"{Path(path).name}: not a table of report pairs; upload one of "
                           f"{', '.join(UPLOAD_SUFFIXES)} (CSV or TSV with a header row, JSONL with "
                           "one JSON object per line, or JSON).")
    try:
        return dataio.read_table(path, max_columns=MAX_UPLOAD_COLUMNS, max_cells=MAX_UPLOAD_CELLS)
    except InputError as exc:
        raise BatchProblem(_strip_path(str(exc), path)) from None


def _strip_path(message: str, path: str | Path) -> str:
    """Show the uploaded file's name, not the server's temporary path."""
    return message.replace(str(path), Path(path).name)


def preview_frame(frame: pd.DataFrame, n: int = PREVIEW_ROWS) -> pd.DataFrame:
    """The first rows and columns, long cells shortened (built as lists: setting a wide
    frame's columns one by one takes time quadratic in their number)."""
    head = frame.iloc[:n, :PREVIEW_COLUMNS]

    def short(value: Any) -> str:
        text = "" if value is None else str(value)
        return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"
    return pd.DataFrame([[short(v) for v in row] for row in head.itertuples(index=False, name=None)],
                        columns=head.columns)


def build_pairs(path: str | Path, mapping: ColumnMapping, max_pairs: int) -> tuple[list[ReportPair], list[ReportPair] | None]:
    """Pairs for system A (and B when a second candidate column is mapped)."""
    frame, lines = read_upload(path)
    source = Path(path).name
    where = None if Path(path).suffix.lower() == ".json" else lines
    try:
        pairs = dataio.pairs_from_frame(frame, mapping.columns(), source=source, lines=where)
        pairs_b = (dataio.pairs_from_frame(frame, mapping.columns(mapping.candidate_b), source=source,
                                           lines=where) if mapping.candidate_b else None)
    except InputError as exc:
        raise BatchProblem(_strip_path(str(exc), path).replace(
            " (use --id-col to name another column, or --id-col none to number the rows)",
            f" (choose another id column, or '{NUMBER_ROWS}')")) from None
    if not pairs:
        raise BatchProblem(f"{source}: no pairs found.")
    if len(pairs) > max_pairs:
        raise BatchProblem(f"{source}: {len(pairs):,} pairs; this app scores at most {max_pairs:,} "
                           "per upload. Split the file, or use the command line "
                           "(radscope score) for large runs.")
    return pairs, pairs_b


def check_run_id(run_id: str | None) -> str | None:
    run_id = (run_id or "").strip()
    if not run_id:
        return None
    if not _RUN_ID_RE.match(run_id):
        raise BatchProblem("A run id may use letters, digits, '.', '_', ':' and '-' (up to 100 "
                           "characters).")
    return run_id


# --------------------------------------------------------------------------- running


@dataclass
class Progress:
    """Where a running batch stands (in results = pairs x metrics, and in pairs)."""

    system: str
    done: int
    total: int
    n_pairs: int
    started: float
    start_done: int = 0  # results already stored when the run (re)started

    @property
    def fraction(self) -> float:
        return 1.0 if self.total == 0 else self.done / self.total

    @property
    def pairs_done(self) -> int:
        return int(self.n_pairs * self.fraction + 1e-9)

    def eta_s(self) -> float | None:
        fresh = self.done - self.start_done
        if fresh <= 0 or self.done >= self.total:
            return None
        rate = (time.monotonic() - self.started) / fresh
        return rate * (self.total - self.done)


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return "—"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, sec = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {sec:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def whole_run(update: Progress, systems: int, started: float, start_done: int) -> Progress:
    """One progress for the whole run, A then B (pairs x metrics x systems), timed from the
    start of the run (not of the current system) so that elapsed time and ETA are true."""
    offset = update.total if update.system == "B" else 0  # system A is finished when B runs
    return Progress(update.system, offset + update.done, update.total * systems,
                    update.n_pairs * systems, started, start_done)


def progress_html(p: Progress | None, systems: int = 1, state: str = "running", note: str = "") -> str:
    """A persistent progress bar (the built-in one disappears when the run ends); ``p`` covers
    the whole run (see ``whole_run``)."""
    if p is None:
        return f"<div class='rs-progress' data-state='{esc(state)}'>{esc(note)}</div>"
    percent = 100 if state == "done" else int(p.fraction * 100)
    elapsed = time.monotonic() - p.started
    label = ("Done" if state == "done" else "Stopped" if state == "stopped" else "Scoring")
    if systems > 1:
        label += " systems A and B" if state == "done" else f" (now system {p.system})"
    pairs = "pairs of both systems" if systems > 1 else "pairs"
    done = p.total if state == "done" else p.done
    eta = "" if state != "running" else f" · ETA {fmt_seconds(p.eta_s())}"
    return (f"<div class='rs-progress' data-state='{esc(state)}' data-percent='{percent}'>"
            f"<progress max='100' value='{percent}' aria-label='batch progress'></progress> "
            f"<span class='rs-progress-text'>{label}: {p.n_pairs if state == 'done' else p.pairs_done}"
            f"/{p.n_pairs} {pairs} ({percent} %) · {done}/{p.total} results (pairs × metrics"
            f"{' × systems' if systems > 1 else ''}) · elapsed {fmt_seconds(elapsed)}{eta}</span>"
            + (f"<div class='rs-muted'>{esc(note)}</div>" if note else "") + "</div>")


class Cancelled(Exception):
    """Raised inside the runner's progress callback to stop a batch between two results."""


@dataclass
class BatchJob:
    """One batch (one or two systems) running in a worker thread.

    The worker pushes Progress updates onto a queue; the Gradio generator drains it. Setting
    ``cancel`` stops the worker before its next result (what is stored stays stored)."""

    pairs: list[ReportPair]
    pairs_b: list[ReportPair] | None
    metric_names: list[str]
    metrics: list[Metric]
    registry: MetricRegistry  # the app's, which built ``metrics``
    ctx: RuntimeContext
    store: Store
    run_id: str
    input_label: str
    max_chars: int = DEFAULT_MAX_CHARS
    concurrency: int = 1
    gate: ModelGate | None = None  # held chunk by chunk when the metrics use a model
    cancel: threading.Event = field(default_factory=threading.Event)
    updates: queue.Queue[Progress] = field(default_factory=queue.Queue)
    run_a: BatchRun | None = None
    run_b: BatchRun | None = None
    error: BaseException | None = None
    _thread: threading.Thread | None = None

    @property
    def run_id_b(self) -> str:
        return f"{self.run_id}-b"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._work, name=f"batch-{self.run_id}", daemon=True)
        self._thread.start()

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _one(self, system: str, pairs: list[ReportPair], run_id: str) -> BatchRun:
        started = time.monotonic()
        first: list[int] = []

        def progress(done: int, total: int) -> None:
            if self.cancel.is_set():
                raise Cancelled()
            if not first:
                first.append(done)
            self.updates.put(Progress(system, done, total, len(pairs), started, first[0]))

        return run_batch(pairs, self.metric_names, self.ctx, registry=self.registry,
                         store=self.store, run_id=run_id,
                         input_label=f"{self.input_label} [{system}]" if self.pairs_b else self.input_label,
                         max_chars=self.max_chars, concurrency=self.concurrency, progress=progress,
                         metrics=self.metrics, chunk_guard=self.gate.held if self.gate else None)

    def _work(self) -> None:
        try:
            self.run_a = self._one("A", self.pairs, self.run_id)
            if self.pairs_b is not None:
                self.run_b = self._one("B", self.pairs_b, self.run_id_b)
        except BaseException as exc:  # noqa: BLE001 - handed to the UI thread, never lost
            self.error = exc

    def follow(self, poll_s: float = 0.25) -> Iterator[Progress]:
        """Yield the latest progress (at most every ``poll_s`` seconds) until the worker stops."""
        while True:
            alive = self.alive()
            latest = None
            try:
                while True:
                    latest = self.updates.get_nowait()
            except queue.Empty:
                pass
            if latest is not None:
                yield latest
            if not alive:
                return
            time.sleep(poll_s)


# --------------------------------------------------------------------------- results


def results_table(rows: Sequence[Mapping[str, Any]], names: Sequence[str],
                  rows_b: Sequence[Mapping[str, Any]] | None = None, error_chars: int = 160) -> Any:
    """One row per pair: each metric's score (and B's), then one ``errors`` column naming every
    metric that failed on the pair, coloured so failures stand out in a sorted table (the
    full messages are in the downloads)."""
    by_id_b = {r["id"]: r for r in rows_b} if rows_b is not None else {}
    records = []
    for row in rows:
        rec: dict[str, Any] = {"id": row["id"]}
        errors = []
        systems = [("", row)] + ([(" (B)", by_id_b.get(row["id"], {}))] if rows_b is not None else [])
        for name in names:
            for suffix, source in systems:
                res = (source.get("metrics") or {}).get(name) or {}
                rec[f"{name}{suffix}"] = _round(res.get("score"))
                if res.get("error"):
                    message = str(res["error"])
                    if len(message) > error_chars:
                        message = message[:error_chars] + "…"
                    errors.append(f"{name}{suffix}: {message}")
        rec["errors"] = " · ".join(errors)
        records.append(rec)
    frame = pd.DataFrame.from_records(records)
    if frame.empty:
        return frame
    if not frame["errors"].astype(bool).any():
        frame = frame.drop(columns=["errors"])
        return frame.style.format(_number_format(frame))

    def colour(col: pd.Series) -> list[str]:
        if col.name == "errors":
            return [f"background-color:{BAD}" if v else "" for v in col]
        return ["" for _ in col]
    return frame.style.apply(colour, axis=0).format(_number_format(frame))


def _number_format(frame: pd.DataFrame) -> dict[str, Any]:
    def number(value: Any) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        return f"{value:.4f}"
    return {c: number for c in frame.columns if c not in ("id", "errors")}


def _round(value: Any) -> float | None:
    return None if not isinstance(value, (int, float)) else float(value)


def summary_html(summary: Mapping[str, Any], title: str = "Summary") -> str:
    """The run's summary table: per metric its mean with its one bootstrap interval, the
    headline figures (in words) under it, counts and model; the set-up signatures, which
    readers need only to check or repeat a run, folded away below the table."""
    rows, signatures = [], []
    for name, m in summary.get("metrics", {}).items():
        arrow = "↑" if m.get("direction") == "higher" else "↓"
        ci = (f"[{fmt(m.get('ci_low'), 4)}, {fmt(m.get('ci_high'), 4)}]"
              if m.get("mean") is not None else "")
        demo = "<span class='rs-badge rs-demo'>demo-grade model</span>" if m.get("demo_grade") else ""
        demo_css = " class='rs-demo-value'" if m.get("demo_grade") else ""
        apart = (f" <span class='rs-muted'>({m['n_not_applicable']} not applicable)</span>"
                 if m.get("n_not_applicable") else "")
        figures = "".join(
            f"<br><span class='rs-muted'>{esc(figure_label(key))} "
            f"{esc(fmt(f.get('value'), 4))} [{esc(fmt(f.get('ci_low'), 4))}, "
            f"{esc(fmt(f.get('ci_high'), 4))}]</span>"
            for key in shown_figures(m) if (f := m["corpus_figures"][key]))
        rows.append(
            f"<tr><td><b>{esc(name)} {arrow}</b></td><td{demo_css}>{esc(fmt(m.get('mean'), 4))}</td>"
            f"<td{demo_css}>{esc(ci)}{figures}</td><td>{esc(m.get('n'))}{apart}</td>"
            f"<td{' class=rs-bad' if m.get('n_errors') else ''}>{esc(m.get('n_errors'))}</td>"
            f"<td{' class=rs-bad' if m.get('n_cannot_read') else ''}>{esc(m.get('n_cannot_read', 0))}</td>"
            f"<td><code>{esc(m.get('model') or '—')}</code> {demo}</td></tr>")
        signatures.append(f"<li><b>{esc(name)}</b> <code>{esc(m.get('signature'))}</code></li>")
    extra = [f"run id <code>{esc(summary.get('run_id'))}</code>",
             f"{esc(summary.get('n_pairs'))} pairs", f"{esc(summary.get('elapsed_s'))} s",
             f"judge calls {esc(summary.get('model_calls', 0))}",
             f"judge cache hits {esc(summary.get('cache_hits', 0))}",
             f"encoder batches {esc(summary.get('encoder_batches', 0))}"]
    resumed = summary.get("resumed") or {}
    if resumed.get("reused") or resumed.get("recomputed"):
        extra.append(f"resumed: {esc(resumed.get('reused'))} stored results reused, "
                     f"{esc(resumed.get('recomputed'))} recomputed (pair text or signature changed)")
    demo_models = summary.get("demo_grade_metrics") or {}
    if demo_models:
        extra.append("demo-grade numbers, not measurements: "
                     + ", ".join(f"{esc(n)} (<code>{esc(model)}</code>)" for n, model in demo_models.items()))
    return (f"<h3 class='rs-sub'>{esc(title)}</h3><table class='rs-table rs-summary'><thead><tr>"
            "<th>metric</th><th>mean</th><th>95% CI (bootstrap)</th><th>n</th><th>errors</th>"
            "<th title='reports this metric cannot read: empty, no words, or not English for an "
            "English-only reader'>cannot read</th>"
            "<th>model</th></tr></thead><tbody>" + "".join(rows)
            + f"</tbody></table><div class='rs-muted'>{' · '.join(extra)}</div>"
            + (f"<details class='rs-signatures'><summary>Set-up signatures ({len(signatures)}): "
               "what each metric ran with, to check or repeat the run</summary>"
               f"<ul class='rs-list rs-sig'>{''.join(signatures)}</ul></details>" if signatures else ""))


def system_comparison(rows_a: Sequence[Mapping[str, Any]], rows_b: Sequence[Mapping[str, Any]],
                      names: Sequence[str], directions: Mapping[str, str], include_demo: bool = False,
                      ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """``radscope.engine.runs.compare.compare_systems`` as a table: per metric its mean (both
    systems with their bootstrap CIs, B - A with its CI, p and the verdict), then one row per
    headline corpus figure (its value for A and B, B - A with its CI, p, verdict). Each row's
    CI and p come from one paired bootstrap, so a CI that leaves out 0 sits beside p < 0.05 and
    a verdict. Demo-grade metrics get no verdict unless ``include_demo``; differing set-ups get
    none either. ``directions``: each metric's better direction (its card's)."""
    compared = compare_systems(rows_a, rows_b, names, include_demo=include_demo, directions=directions)
    records = []
    for name, c in compared.items():
        arrow = "↑" if c["direction"] == "higher" else "↓"
        paired, a, b = c["paired"], c["a"], c["b"]
        records.append({
            "metric": f"{name} {arrow}", "pairs": paired["n"],
            "A [95% CI]": _ci_text(a["mean"], a["ci_low"], a["ci_high"]),
            "B [95% CI]": _ci_text(b["mean"], b["ci_low"], b["ci_high"]),
            "B − A [95% CI]": _ci_text(paired["mean_diff"], paired["ci_low"], paired["ci_high"]),
            "p": p_text(paired["p_value"]), "verdict": c["verdict"]})
        for figure in c.get("headline", []):
            f = c["figures"][figure]
            records.append({
                "metric": f"{name}: {figure_label(figure)} {_ARROWS[f['direction']]}",
                "pairs": paired["n"],
                "A [95% CI]": fmt(f["a"], 4), "B [95% CI]": fmt(f["b"], 4),
                "B − A [95% CI]": _ci_text(f["diff"], f["ci_low"], f["ci_high"]),
                "p": p_text(f["p_value"]), "verdict": f["verdict"]})
    return pd.DataFrame.from_records(records), compared


_ARROWS = {"higher": "↑", "lower": "↓", "descriptive": "(descriptive)"}
# Figure names as words: the metric's own terms for its headline figures, and word by word for
# the rest ("abnormal.unmatched_gen" -> "abnormal unmatched gen").
_FIGURE_LABELS = {"presence.pos_f1@13": "F1@13", "presence.pos_f1@5": "F1@5",
                  "leaf.micro.f1": "micro F1", "leaf.macro.f1": "macro F1",
                  "abnormal.mean_f1": "abnormal F1", "normal.mean_f1": "normal F1",
                  "mean_total": "total errors, mean", "mean_pair_score": "pair score, mean"}
_WORDS = {"f1": "F1", "vert": "VERT", "green": "GREEN", "pos": "positive",
          "neg": "negative", "gen": "candidate", "ref": "reference"}


def figure_label(name: str) -> str:
    """A corpus figure's flat name as a table shows it, in words ("vert.mean" -> "VERT
    mean", "presence.pos_f1@13" -> "F1@13")."""
    if name in _FIGURE_LABELS:
        return _FIGURE_LABELS[name]
    return " ".join(_WORDS.get(word, word) for word in re.split(r"[._]+", name) if word)


def p_text(p_value: float | None) -> str:
    """A p-value as a table shows it: four decimals, or "< 0.001" below what a few thousand
    resamples can tell apart."""
    if p_value is None:
        return "n/a"
    return "< 0.001" if p_value < 0.001 else f"{p_value:.4f}"


def _ci_text(mean: float | None, low: float | None, high: float | None) -> str:
    if mean is None:
        return "n/a"
    return f"{mean:.4f} [{fmt(low, 4)}, {fmt(high, 4)}]"


def write_downloads(run_a: BatchRun, run_b: BatchRun | None, comparison: dict[str, Any] | None,
                    out_dir: str | Path | None = None, pairs: Sequence[ReportPair] | None = None,
                    pairs_b: Sequence[ReportPair] | None = None) -> tuple[Path, Path, Path]:
    """JSONL (one line per pair, as the CLI writes; system B's results under ``metrics_b``),
    CSV (the CLI's ``--csv`` table, see radscope.engine.io.export: texts, per-pair scores,
    errors and flat details; B's columns suffixed ``_b``) and the summary JSON."""
    out = Path(out_dir or tempfile.mkdtemp(prefix="radscope-results-"))
    out.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", run_a.run_id)
    rows = run_a.rows
    if run_b is not None:
        by_id = {r["id"]: r["metrics"] for r in run_b.rows}
        rows = [{**r, "metrics_b": by_id.get(r["id"], {})} for r in run_a.rows]
    jsonl = dataio.write_jsonl(rows, out / f"{stem}.jsonl")
    csv_path = out / f"{stem}.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as handle:
        write_results_csv(handle, lambda: rows, export_columns_of, pairs,
                          pairs_b if run_b is not None else None)
    summary: dict[str, Any] = dict(run_a.summary)
    if run_b is not None:
        summary = {**summary, "system_b": run_b.summary, "comparison": comparison or {}}
    summary_path = dataio.write_json(summary, out / f"{stem}-summary.json")
    return jsonl, csv_path, summary_path


def runs_frame(store: Store, limit: int = 50, owner: str | None = None) -> pd.DataFrame:
    """Earlier runs in the store (``owner``'s only, when given), newest first, with how far
    each got and their size: the runs ``radscope runs list`` shows."""
    from radscope.engine.runs.commands import human_bytes

    try:
        runs = store.list_runs(owner)[:limit]
        sizes = store.run_sizes([r.run_id for r in runs])
    except StoreError as exc:  # pragma: no cover - a broken store file
        return pd.DataFrame({"error": [str(exc)]})
    records = []
    for r in runs:
        expected = r.n_pairs * max(1, len(r.metrics))
        records.append({"run id": r.run_id, "started": r.created_at[:19].replace("T", " "),
                        "input": Path(r.input.split(" [")[0]).name if r.input else "",
                        "metrics": ", ".join(r.metrics), "status": r.status, "pairs": r.n_pairs,
                        "results": f"{r.n_results}/{expected}", "errors": r.n_errors,
                        "size": human_bytes(sizes.get(r.run_id, 0))})
    return pd.DataFrame.from_records(records, columns=["run id", "started", "input", "metrics",
                                                       "status", "pairs", "results", "errors", "size"])


def resumable_runs(store: Store, owner: str | None = None) -> list[str]:
    """Run ids that stopped before finishing (system-B halves are resumed with their A run)."""
    runs = store.list_runs(owner)
    ids = {r.run_id for r in runs}
    return [r.run_id for r in runs
            if r.status != "finished" and not (r.run_id.endswith("-b") and r.run_id[:-2] in ids)]


def default_run_id(store: Store | None, pairs: Sequence[ReportPair], metrics: Sequence[Metric],
                   max_chars: int = DEFAULT_MAX_CHARS, public: bool = False) -> str:
    """Locally: the unfinished run of this same input and set-up when there is one (it
    resumes), else a new id derived from the input (see ``radscope.engine.runs.runner.input_run_id``). On a
    public server: an unguessable new id (a visitor's run is theirs alone, and an id derived
    from the input would tell one visitor that another scored the same file)."""
    if public:
        return f"run-{secrets.token_hex(12)}"
    return resume_or_new_run_id(store, input_run_id(pairs, metrics, max_chars))


def claim_run_ids(store: Store, run_ids: Sequence[str], owner: str | None) -> None:
    """Public mode: bind the run ids to the visitor, or BatchProblem when one is not theirs
    (nothing about that run is shown). Local mode (``owner`` None) has one user: no check."""
    if owner is None:
        return
    if owner == NO_OWNER:
        raise BatchProblem("This server is public: a batch belongs to the browser session that "
                           "started it, and this request has none.")
    for run_id in run_ids:
        if not store.claim_run(run_id, owner):
            raise BatchProblem(f"Run id {run_id} is not one of this session's runs. Leave the run "
                               "id empty to start a new run.")
