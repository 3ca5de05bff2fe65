"""The registered ``vert`` metric: one judge call per pair -> assessment -> every judge score.

``EXTRACTORS`` holds the two judges: the rules judge (``vert.rules``, no LLM) under
``--extractor rules``, the LLM judge below under ``--extractor llm``. Both give a
``JudgeAssessment``, which ``VertScoring`` scores.

The prompt variant (``vert``, ``green``, ``formula``, ``rubric``) decides what the judge is
asked and which score is the headline; every variant's answer also yields GREEN, GREEN-F1,
the formula score and the error counts, all stored per pair. Optional few-shot examples from a
JSONL file are shown before the pair (so the judge's KV cache keeps them between pairs).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from radscope.engine.context import ModelInfo, Option, RuntimeContext
from radscope.engine.eligibility.applicability import ANY
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.extraction import (
    Extracted,
    Extractor,
    ExtractorKind,
    ExtractorMetric,
    ExtractorTable,
    PairwiseExtractor,
    Scoring,
)
from radscope.engine.metrics.framework.judging import judge_for, judged
from radscope.engine.metrics.vert.copied_answer import copied_from
from radscope.engine.metrics.vert.parse import clean_response, parse_assessment
from radscope.engine.metrics.vert.schema import CATEGORIES, JudgeAssessment, judge_schema
from radscope.engine.metrics.vert.score import VARIANTS, Variant, compute_scores
from radscope.engine.metrics.vert.stats import VertStats
from radscope.engine.reader.error_words import CATEGORY_WORDS
from radscope.engine.reader.kinds import ALL_ERROR_KINDS
from radscope.engine.runtimes.jsontext import AnswerError, NotAJudgement, extract_json, validate
from radscope.engine.runtimes.judge import CallTrace, Judge, bounded_schema
from radscope.engine.runtimes.prompts import load_prompt

VERT_VARIANT = Option("vert_variant", "vert",
                      "judge prompt: vert (the judge's overall score), green (GREEN score from "
                      "counts), formula (the judge computes M/(M+2S+0.5I)), rubric (five bands)",
                      choices=VARIANTS)
VERT_FEWSHOT = Option("vert_fewshot", "",
                      "JSONL file of worked examples for the judge, one per line: reference, "
                      "candidate, assessment (the expected answer, JSON object or text)")

GREEN_WORDS = 300  # the green variant reads the first 300 words of each report (GREEN's rule)
MAX_FEWSHOT_BYTES = 1_000_000  # worked examples, not a corpus
EXAMPLE_PROMPT = "vert.example"
# Bounds on the answer, so constrained decoding always finishes: characters per text, items
# per list, errors per category, tokens in all.
_TEXT_CHARS, _ITEMS, _MAX_COUNT, _MAX_TOKENS = 200, 4, 20, 1400

CARD = MetricCard(
    name="vert",
    title="VERT (LLM judge)",
    rules_reader="rules judge",
    measures="An LLM judge's assessment of the candidate against the reference: clinically "
             "significant and insignificant errors in six categories (false finding, omission, "
             "location, severity, extra comparison, missing comparison), matched findings and, "
             "for VERT, its own overall accuracy score. GREEN, GREEN-F1 and the formula score "
             "come from the same answer.",
    inputs="Reference and candidate reports of any modality (whole text; the green variant "
           "reads the first 300 words of each).",
    direction="higher",
    range=(0.0, 1.0),
    paper="VERT: reliable LLM judges for radiology report evaluation (arXiv 2604.03376); "
          "GREEN (Ostmeier et al., 2024) for the error-count format",
    models="offline default (--extractor rules): the rules judge, errors and matched findings "
           "from the clinical reader with the overall score from the formula; --extractor llm: "
           "an LLM judge (GGUF via llama.cpp, or an OpenAI-compatible server).",
    limits="A judge's opinion, not a measurement: scores change with the judge and the prompt "
           "(both are in the signature). The offline demo judge (Gemma 3 270M base) is "
           "demo-grade and its numbers are meaningless.",
    intended_studies=ANY,
    reads=("findings", "impression"),
    reads_why="VERT's judge reads the whole report it is given (findings and impression).",
    sees=ALL_ERROR_KINDS,  # the six error categories
)
RULES_LABEL = "rules judge: errors and matched findings from the clinical reader (no LLM)"
RULES_CARD = dataclasses.replace(
    CARD, title="VERT (rules judge)",
    measures="The " + RULES_LABEL + ": clinically significant and insignificant errors in six "
             "categories (false finding, omission, location, severity, extra comparison, "
             "missing comparison) and the matched findings; GREEN, GREEN-F1 and the "
             "formula score from them, and the overall score from the formula.",
    models="rules reader (engine/reader), no model",
    limits="Rules, not a judge's reading: only what the lexicons name is seen, errors "
           "are whole counts, and the overall score is the formula, not a judgement.")


@dataclass(frozen=True)
class FewShotExample:
    reference: str
    candidate: str
    answer: str  # the expected assessment as the judge should write it


def load_fewshot(path: str | Path) -> list[FewShotExample]:
    """Read worked examples (JSONL: reference, candidate, assessment) with line-numbered errors."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError:
        raise ValueError(f"few-shot file {path} does not exist") from None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FEWSHOT_BYTES:
        # A pipe or a device would block or never end; a huge file would flood every prompt.
        raise ValueError(f"few-shot file {path} must be a regular file of at most "
                         f"{MAX_FEWSHOT_BYTES:,} bytes")
    examples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {number}: not JSON ({exc.msg})") from None
        missing = [k for k in ("reference", "candidate", "assessment")
                   if not isinstance(row, dict) or k not in row]
        if missing:
            raise ValueError(f"{path}: line {number}: missing {', '.join(missing)}")
        answer = row["assessment"]
        answer = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        examples.append(FewShotExample(str(row["reference"]), str(row["candidate"]), answer))
    if not examples:
        raise ValueError(f"{path}: no examples")
    return examples


def run_fewshot(ctx: RuntimeContext) -> tuple[list[FewShotExample], str]:
    """The run's worked examples and the hash of their file (read before the judge loads, so
    a bad file is reported at once)."""
    path = str(ctx.option(VERT_FEWSHOT) or "")
    if not path:
        return [], "none"
    return load_fewshot(path), hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def truncate_words(text: str, n: int = GREEN_WORDS) -> str:
    """The first ``n`` whitespace-separated words (GREEN truncates both reports this way)."""
    words = text.split()
    return text if len(words) <= n else " ".join(words[:n])


def categories_text() -> str:
    """The six categories as the judge reads them: ReXVal's name (its answers use the letters)
    and the same category in a clinician's words."""
    return "\n".join(f"({c.key}) {c.name}, that is: {CATEGORY_WORDS[c.letter]}" for c in CATEGORIES)


def examples_text(examples: Sequence[FewShotExample]) -> str:
    prompt = load_prompt(EXAMPLE_PROMPT)
    return "".join(prompt.render(number=i, reference=e.reference, candidate=e.candidate,
                                 answer=e.answer) + "\n"
                   for i, e in enumerate(examples, start=1))


def check_variant(variant: str) -> Variant:
    if variant not in VARIANTS:
        raise ValueError(f"unknown VERT variant {variant!r}; choose from {', '.join(VARIANTS)}")
    return variant


class VertScoring(Scoring[JudgeAssessment]):
    """Every judge score of the assessment; the variant's is the headline (higher is better)."""

    stats_version = VertStats.STATS_VERSION

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def score(self, value: JudgeAssessment, details: dict[str, Any]) -> PairScore:
        scores = compute_scores(value)
        out = {"variant": self.variant, "assessment": value.to_json(),
               "scores": scores.to_json(), **details}
        headline = scores.headline(self.variant)
        if headline is None:
            return PairScore(None, out, error=f"judge answer unusable for the {self.variant} "
                                              f"score: {scores.headline_error(self.variant)}")
        return PairScore(score=float(headline), details=out)

    def failed(self, error: str, details: dict[str, Any]) -> PairScore:
        return PairScore.failed(error, {"variant": self.variant, **details})


class VertJudgeExtractor(PairwiseExtractor[JudgeAssessment]):
    """The LLM judge's assessment of a pair, one call per pair (``kind = "llm"``)."""

    kind: ExtractorKind = "llm"

    def __init__(self, judge: Judge, variant: Variant,
                 fewshot: tuple[list[FewShotExample], str] = ([], "none")) -> None:
        self.variant = variant
        self.examples, self.fewshot_hash = fewshot
        self.judge = judge
        self.prompt = load_prompt(f"vert.{self.variant}")
        self.schema = judge_schema(with_score=self.variant != "green")
        self._examples_text = examples_text(self.examples)

    def model(self) -> ModelInfo | None:
        return self.judge.model()

    def signature_fields(self) -> dict[str, Any]:
        prompts = [self.prompt.key] + ([load_prompt(EXAMPLE_PROMPT).key] if self.examples else [])
        return {"extractor": "llm", **self.judge.signature_fields(), "prompts": prompts,
                "variant": self.variant, "fewshot": f"{len(self.examples)}:{self.fewshot_hash}",
                "truncate": GREEN_WORDS if self.variant == "green" else "none"}

    def _read(self, text: str, reports: Sequence[str] = ()) -> JudgeAssessment:
        """The assessment in the judge's text (JSON or GREEN sections). JSON from a backend that
        constrained it must fit the schema exactly: anything else means the constraint failed.
        An answer copied from one of the ``reports`` is no judgement (AnswerError)."""
        try:
            found = extract_json(clean_response(text))
        except AnswerError:
            found = None
        if isinstance(found, dict):  # re-serialised: raw control characters are gone
            if self.judge.backend.constrains:
                validate(found, self.schema)
            copied = copied_from(found, reports)
            if copied:
                raise NotAJudgement(f"the answer is not a judgement: {copied}")
            text = json.dumps(found, ensure_ascii=False)
        return parse_assessment(text, expect_score=self.variant != "green")

    def _ask(self, pair: ReportPair) -> tuple[JudgeAssessment, list[CallTrace]]:
        reference, candidate = pair.reference, pair.candidate
        if self.variant == "green":
            reference, candidate = truncate_words(reference), truncate_words(candidate)
        answer = self.judge.ask(
            self.prompt, {"categories": categories_text(), "examples": self._examples_text,
                          "reference": reference, "candidate": candidate},
            bounded_schema(self.schema, _TEXT_CHARS, _ITEMS, _MAX_COUNT), max_tokens=_MAX_TOKENS,
            parse=lambda text: self._read(text, (reference, candidate)))
        return answer.value, [CallTrace.of(self.prompt, "pair", answer)]

    def extract_pair(self, pair: ReportPair) -> Extracted[JudgeAssessment]:
        extracted = judged(lambda: self._ask(pair))
        if extracted.error is not None:
            return extracted
        judge = self.judge.model()
        return Extracted(extracted.value, {"reader": {"name": "llm", "judge": judge.id if judge else None},
                                           **extracted.details})


def _rules(ctx: RuntimeContext) -> Extractor[JudgeAssessment]:
    from radscope.engine.metrics.vert.rules import VertRulesExtractor  # the reader: imported on use

    return VertRulesExtractor(str(ctx.option(VERT_VARIANT)), RULES_LABEL)


def _llm(ctx: RuntimeContext) -> Extractor[JudgeAssessment]:
    variant, fewshot = check_variant(str(ctx.option(VERT_VARIANT))), run_fewshot(ctx)
    return VertJudgeExtractor(judge_for(ctx), variant, fewshot)


EXTRACTORS = ExtractorTable("vert", {"rules": _rules, "llm": _llm})


def build(ctx: RuntimeContext) -> ExtractorMetric[JudgeAssessment]:
    """The rules judge under ``--extractor rules`` (the default), the LLM judge under ``llm``."""
    variant = check_variant(str(ctx.option(VERT_VARIANT)))
    return EXTRACTORS.build_metric(ctx, VertScoring(variant),
                                   lambda kind: RULES_CARD if kind == "rules" else CARD)


def judge_metric(ctx: RuntimeContext, judge: Judge) -> ExtractorMetric[JudgeAssessment]:
    """VERT with the LLM judge ``judge`` instead of the run's (benchmarks, tests)."""
    variant = check_variant(str(ctx.option(VERT_VARIANT)))
    extractor = VertJudgeExtractor(judge, variant, run_fewshot(ctx))
    return ExtractorMetric(CARD, extractor, VertScoring(variant))
