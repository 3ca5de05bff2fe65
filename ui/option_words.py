"""Metric options in plain words for the page: a label, a sentence and named choices for the
options a clinician sees first. The engine's own help (``Option.help``) speaks to the command
line (flags, module commands) and stays the CLI's; the values are the same."""
from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Words:
    label: str
    info: str
    choices: dict[str, str] = field(default_factory=dict)  # value -> what the page shows


BLANK_DEMO = ("Blank: the demo-grade {what} that ships with RadScope, which only shows the "
              "pipeline working (its numbers mean nothing).")
MODEL_FROM = ("“auto” uses the rules estimate with the rules reader, and the bundled demo-grade "
              "model when reports are read by models; or type “rules”, a model of the Models tab "
              "({example}, once you got it there), or the folder of an exported model.")

WORDS: dict[str, Words] = {
    "extractor": Words("How reports are read",
                       "The rules reader needs no model and answers at once. Models: an LLM judge "
                       "for CLEAR, VERT and RadSEM, encoder models for CREPE and SRR-BERT.",
                       {"rules": "Rules reader (offline, instant)", "llm": "LLM judge and encoder models"}),
    "clear_mode": Words("CLEAR with a judge: questions per report",
                        "How many questions CLEAR asks the judge.",
                        {"fast": "Fast: one question per report",
                         "faithful": "As in the paper: one per condition and attribute (slow)"}),
    "clear_top5": Words("CLEAR's five main conditions",
                        "Which five conditions the @5 averages use; batch results show both.",
                        {"code": "As in the authors' code", "paper": "As in the paper"}),
    "force_applicability": Words("Score studies outside a metric's design",
                                 "CLEAR, CREPE and SRR-BERT were designed for chest radiographs. "
                                 "Ticked, they score other studies too instead of saying "
                                 "“not applicable”."),
    "sections": Words("Sections to score", "Which parts of the reports the metrics compare.",
                      {"default": "Each metric's own (findings and impression; RadSEM: findings)",
                       "findings": "Findings only", "impression": "Impression only"}),
    "judge": Words("LLM judge",
                   "A judge from the Models tab (e.g. qwen2.5-7b-instruct), a Hugging Face file "
                   "(owner/repository:file.gguf) or a GGUF file on this machine. "
                   + BLANK_DEMO.format(what="judge")),
    "crepe_model": Words("CREPE model", MODEL_FROM.format(example="crepe-biomedbert")),
    "srr_model": Words("SRR-BERT model", MODEL_FROM.format(example="srr-bert-leaves-with-statuses")),
    "radsem_similarity": Words("RadSEM: how sentences are compared",
                               "How the rules matcher measures two sentences' likeness.",
                               {"lexical": "Shared words", "encoder": "Sentence encoder (bundled MiniLM)",
                                "hybrid": "Both, averaged"}),
    "srr_view": Words("SRR-BERT: labels compared",
                      "For models that label a finding present, uncertain or absent.",
                      {"all": "All, as predicted", "present": "Present findings only",
                       "present_or_uncertain": "Present or uncertain findings"}),
    "vert_variant": Words("VERT: the judge's question",
                          "What the judge is asked to give.",
                          {"vert": "VERT: an overall score", "green": "GREEN: a score from error counts",
                           "formula": "Formula: M / (M + 2S + 0.5I)", "rubric": "Rubric: five bands"}),
}

_FLAG = re.compile(r"--([a-z][a-z0-9-]*)")


def label_of(name: str) -> str:
    return WORDS[name].label if name in WORDS else name.replace("_", " ")


def info_of(name: str, engine_help: str) -> str:
    """The page's sentence: plain words where written, else the engine's help without its
    command-line flags (``--extractor rules`` reads "extractor rules")."""
    if name in WORDS:
        return WORDS[name].info
    return _FLAG.sub(lambda m: m.group(1).replace("-", " "), engine_help)


def choices_of(name: str, values: tuple[str, ...]) -> list[tuple[str, str]]:
    """(shown, value) pairs: a named choice where written, else the value itself."""
    named = WORDS[name].choices if name in WORDS else {}
    return [(named.get(v, v), v) for v in values]
