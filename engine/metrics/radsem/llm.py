"""RadSEM stages 1-2 with an LLM judge: atomic rewrites, then contradiction-free matching.

Stage 1 rewrites each report's Findings into atomic sentences. The judge answers a list of
sentences (each one bounded, so the grammar fits llama.cpp at any length, where one string of
3 x the findings' length did not past 341 characters); the list is post-processed as the
reference pipeline post-processes its one string (joined, split on ". ", strip, drop the final
period, remove exact repeats keeping the first, keep order).

Stage 2 pairs the two sentence lists. Its JSON schema is built for the pair at hand: a pair's
``ref_sentence`` must be one of the Ref sentences and its ``gen_sentence`` one of the Gen
sentences, and an unmatched sentence must come from the side it names. Backends that constrain
decoding therefore cannot invent or swap sentences. Answers from backends that do not
constrain are checked the same way after the fact; an item whose sentence is not in the
rewrites (after trimming spaces, case and the final period) is **dropped with a note** rather
than failing the whole pair, since one paraphrased sentence should not void the others. A
sentence the judge neither pairs nor lists is noted too (the reference scorer ignores it).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from radscope.engine.context import ModelInfo, RuntimeContext
from radscope.engine.io.reports import ReportPair, findings_text, split_utterances
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.metrics.framework.judging import judge_for, judged
from radscope.engine.metrics.radsem.extract import RadsemExtraction
from radscope.engine.metrics.radsem.schema import (
    DETAILS,
    NORMALITIES,
    RELATIONS,
    REWRITE_SCHEMA,
    RadsemPair,
    RadsemTags,
    UnmatchedSentence,
    tag_problems,
)
from radscope.engine.runtimes.jsontext import extract_json, validate
from radscope.engine.runtimes.judge import GRAMMAR_MAX_ITEMS, CallTrace, Judge, bounded_schema
from radscope.engine.runtimes.prompts import load_prompt

REWRITE_PROMPT = "radsem.rewrite"
MATCH_PROMPT = "radsem.match"


def split_rewrite(text: str) -> list[str]:
    """Atomic sentences of a rewritten report, as the reference post-processing makes them:
    split on ". ", strip, drop a final period, remove exact repeats (first kept), keep order.
    Each sentence is returned with one final period."""
    seen: dict[str, None] = {}
    for part in text.split(". "):
        sentence = part.strip()
        if sentence.endswith("."):
            sentence = sentence[:-1].rstrip()
        if sentence and sentence not in seen:
            seen[sentence] = None
    return [f"{s}." for s in seen]


def sentence_key(text: str) -> str:
    """How two spellings of one sentence are recognised: spaces, case, final period ignored."""
    return re.sub(r"\s+", " ", text).strip().rstrip(".").strip().casefold()


def _choice(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _nullable(values: Sequence[str]) -> dict[str, Any]:
    return {"anyOf": [_choice(values), {"type": "null"}]}


def match_schema(ref: Sequence[str], gen: Sequence[str]) -> dict[str, Any]:
    """The stage-2 schema for this pair: ``TAG_SCHEMA`` with sentences restricted to the
    rewrites (a pair takes a Ref and a Gen sentence; an unmatched item names its own side)."""
    pair_item = {
        "type": "object",
        "properties": {
            "ref_sentence": _choice(ref), "gen_sentence": _choice(gen),
            "normality": _choice(NORMALITIES), "anatomical_relationship": _choice(RELATIONS),
            "asserted_abnormality_relationship": _nullable(RELATIONS),
            "negated_abnormality_relationship": _nullable(RELATIONS),
            "details_of_abnormality_relationship": _nullable(DETAILS),
        },
        "required": ["ref_sentence", "gen_sentence", "normality", "anatomical_relationship",
                     "asserted_abnormality_relationship", "negated_abnormality_relationship",
                     "details_of_abnormality_relationship"],
        "additionalProperties": False,
    }

    def unmatched_item(side: str, sentences: Sequence[str]) -> dict[str, Any]:
        return {"type": "object",
                "properties": {"sentence_is_from": {"type": "string", "enum": [side]},
                               "sentence": _choice(sentences),
                               "normality": _choice(NORMALITIES)},
                "required": ["sentence_is_from", "sentence", "normality"],
                "additionalProperties": False}

    sides = [unmatched_item(s, v) for s, v in (("Ref", ref), ("Gen", gen)) if v]
    # Many-to-many pairs are allowed, but more pairs than sentences only repeat themselves.
    n_pairs = min(len(ref) * len(gen), len(ref) + len(gen), GRAMMAR_MAX_ITEMS)
    pairs: dict[str, Any] = ({"type": "array", "items": pair_item, "maxItems": n_pairs}
                             if ref and gen else {"type": "array", "maxItems": 0})
    unmatched: dict[str, Any] = {"type": "array",
                                 "maxItems": min(len(ref) + len(gen), GRAMMAR_MAX_ITEMS)}
    if sides:
        unmatched["items"] = sides[0] if len(sides) == 1 else {"anyOf": sides}
    return {"type": "object",
            "properties": {"pairs": pairs, "unmatched_sentences": unmatched},
            "required": ["pairs", "unmatched_sentences"], "additionalProperties": False}


def check_tags(tags: RadsemTags, ref: Sequence[str], gen: Sequence[str]) -> tuple[RadsemTags, list[str]]:
    """Keep the items whose sentences come from the rewrites (mapped to their exact text);
    drop the others with a note; note sentences the judge left out altogether."""
    canon = {"Ref": {sentence_key(s): s for s in ref}, "Gen": {sentence_key(s): s for s in gen}}
    notes: list[str] = []
    used: dict[str, set[str]] = {"Ref": set(), "Gen": set()}
    pairs = []
    for index, pair in enumerate(tags.pairs):
        r = canon["Ref"].get(sentence_key(pair.ref_sentence))
        g = canon["Gen"].get(sentence_key(pair.gen_sentence))
        if r is None or g is None:
            which = " and ".join(n for n, v in (("Ref", r), ("Gen", g)) if v is None)
            notes.append(f"dropped pairs[{index}]: its {which} sentence is not in the rewrite "
                         f"({pair.ref_sentence!r} / {pair.gen_sentence!r})")
            continue
        used["Ref"].add(r)
        used["Gen"].add(g)
        pairs.append(RadsemPair(**{**pair.to_json(), "ref_sentence": r, "gen_sentence": g}))
    unmatched = []
    for index, item in enumerate(tags.unmatched_sentences):
        exact = canon.get(item.sentence_is_from, {}).get(sentence_key(item.sentence))
        if exact is None:
            notes.append(f"dropped unmatched_sentences[{index}]: {item.sentence!r} is not a "
                         f"{item.sentence_is_from or '?'} sentence")
            continue
        used[item.sentence_is_from].add(exact)
        unmatched.append(UnmatchedSentence(item.sentence_is_from, exact, item.normality))
    for side, sentences in (("Ref", ref), ("Gen", gen)):
        left_out = [s for s in sentences if s not in used[side]]
        if left_out:
            notes.append(f"the judge neither paired nor listed {len(left_out)} {side} "
                         f"sentence(s): {left_out}")
    return RadsemTags(pairs=pairs, unmatched_sentences=unmatched), notes


class LlmRadsemExtractor(PairwiseExtractor[RadsemExtraction]):
    """RadSEM extraction by an LLM judge (``kind = "llm"``)."""

    kind: ExtractorKind = "llm"

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    def model(self) -> ModelInfo | None:
        return self.judge.model()

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": self.kind, **self.judge.signature_fields(),
                "prompts": [load_prompt(REWRITE_PROMPT).key, load_prompt(MATCH_PROMPT).key],
                "on_foreign_sentence": "drop+note"}

    def extract_pair(self, pair: ReportPair) -> Extracted[RadsemExtraction]:
        return judged(lambda: self.extract_traced(pair))

    def extract_traced(self, pair: ReportPair) -> tuple[RadsemExtraction, list[CallTrace]]:
        trace: list[CallTrace] = []
        exam = " ".join(x for x in (pair.modality, pair.area) if x) or "not given"
        ref = self._rewrite(findings_text(pair.reference), exam, "reference", trace)
        gen = self._rewrite(findings_text(pair.candidate), exam, "candidate", trace)
        if not ref and not gen:
            return RadsemExtraction(ref, gen, RadsemTags(), ["both rewrites are empty"]), trace
        tags, notes = self._match(ref, gen, trace)
        return RadsemExtraction(ref, gen, tags, notes), trace

    def _rewrite(self, findings: str, exam: str, side: str, trace: list[CallTrace]) -> list[str]:
        if not findings.strip():
            return []
        prompt = load_prompt(REWRITE_PROMPT)
        schema, max_tokens = rewrite_schema(findings)
        answer = self.judge.ask(prompt, {"exam": exam, "findings": findings}, schema,
                                max_tokens=max_tokens)
        trace.append(CallTrace.of(prompt, side, answer))
        return split_rewrite(" ".join(s.strip() for s in answer.value["sentences"]))

    def _match(self, ref: list[str], gen: list[str],
               trace: list[CallTrace]) -> tuple[RadsemTags, list[str]]:
        prompt = load_prompt(MATCH_PROMPT)
        schema = match_schema(ref, gen)

        def read(text: str) -> RadsemTags:
            data = extract_json(text)
            problems = tag_problems(data)
            if problems:
                raise ValueError("the answer does not fit the RadSEM tag schema: "
                                 + "; ".join(problems[:3]))
            if self.judge.backend.constrains:
                validate(data, schema)
            return RadsemTags.from_json(data)

        answer = self.judge.ask(
            prompt, {"ref_sentences": _listing(ref), "gen_sentences": _listing(gen)}, schema,
            max_tokens=match_budget(ref, gen), parse=read)
        trace.append(CallTrace.of(prompt, "pair", answer))
        return check_tags(answer.value, ref, gen)


SENTENCE_CHARS = 300  # one atomic sentence at most; SSREE's longest reference rewrites are ~200
SENTENCE_SLACK = 40  # an atomic sentence may add a site or a side to the sentence it comes from
MAX_SENTENCES = 400  # beyond any report that fits a judge's context


def rewrite_schema(findings: str) -> tuple[dict[str, Any], int]:
    """Stage 1's schema for ``findings`` and its token budget.

    The total the schema allows is the old string budget (3 x the findings, at least 400
    characters: atomic sentences repeat sites and split sides): about one sentence per 25
    characters of total. Each sentence is at most as long as the longest sentence of the
    findings plus ``SENTENCE_SLACK`` (an atomic sentence is a part of one, with its site and
    side spelt out), and never beyond ``SENTENCE_CHARS``: a rambling judge then cannot make the
    stage-2 prompt and answer outgrow its context. Tokens: one per character of the total plus
    four per item for quotes and commas, so the budget does not cut off an answer of the
    expected size.
    """
    total = max(400, 3 * len(findings))
    items = min(MAX_SENTENCES, max(4, total // 25))
    longest = max((len(s) for s in split_utterances(findings)), default=len(findings))
    chars = min(SENTENCE_CHARS, longest + SENTENCE_SLACK)
    schema = bounded_schema(REWRITE_SCHEMA, max_string=chars, max_items=items)
    return schema, total + 4 * items + 32


def match_budget(ref: Sequence[str], gen: Sequence[str]) -> int:
    """Tokens for the longest answer the stage-2 schema allows, at two characters a token: a
    pair object is about 330 characters of keys and labels plus its two sentences, an
    unmatched item about 80 plus its sentence."""
    longest = max((len(s) for s in [*ref, *gen]), default=0)
    n_pairs = min(len(ref) * len(gen), len(ref) + len(gen))
    chars = n_pairs * (330 + 2 * longest) + (len(ref) + len(gen)) * (80 + longest)
    return chars // 2 + 64


def _listing(sentences: Sequence[str]) -> str:
    return "\n".join(f"- {s}" for s in sentences) if sentences else "(none)"


def build_extractor(ctx: RuntimeContext) -> LlmRadsemExtractor:
    """The LLM extractor for the run's judge."""
    return LlmRadsemExtractor(judge_for(ctx))
