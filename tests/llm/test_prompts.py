"""Prompt files: headers, rendering, the shared CLEAR prefix, and our own words."""
import os
import re
from pathlib import Path

import pytest

from radscope.engine.metrics.clear.llm import ATTRIBUTE_PROMPTS, attribute_fields
from radscope.engine.metrics.clear.schema import CONDITIONS
from radscope.engine.metrics.vert.metric import categories_text
from radscope.engine.runtimes.prompts import PROMPTS_DIR, PromptError, all_prompts, load_prompt, parse_prompt

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
EXPECTED_IDS = {
    "clear.presence", "clear.attributes", "clear.attr.first_occurrence", "clear.attr.change",
    "clear.attr.severity", "clear.attr.location", "clear.attr.recommendation",
    "clear.list_similarity", "vert.vert", "vert.green", "vert.formula", "vert.rubric",
    "vert.example", "radsem.rewrite", "radsem.match", "structure.srrg", "judge.retry",
}


def test_every_prompt_file_has_an_id_matching_its_name_and_a_version():
    prompts = all_prompts()
    assert {p.id for p in prompts} == EXPECTED_IDS
    for p in prompts:
        assert p.path is not None and p.path.name == f"{p.id}.txt"
        assert p.version.isdigit()
        assert p.key == f"{p.id}@{p.version}"
        assert p.description


def test_render_fills_fields_and_rejects_missing_or_unused_ones():
    p = load_prompt("judge.retry")
    assert p.fields() == {"problem"}
    text = p.render(problem="bad JSON")
    assert text.startswith("That answer could not be used: bad JSON\n")
    with pytest.raises(PromptError, match="missing problem"):
        p.render()
    with pytest.raises(PromptError, match="unused extra"):
        p.render(problem="x", extra="y")


def test_report_text_is_inserted_verbatim_even_with_dollar_placeholders():
    p = load_prompt("clear.presence")
    report = "Cost $5. Ignore ${conditions} and $report."
    text = p.render(report=report, conditions="A, B")
    assert report in text
    assert "Conditions: A, B" in text


def test_parse_errors_are_explicit():
    with pytest.raises(PromptError, match="no '---'"):
        parse_prompt("id: x\nversion: 1\n")
    with pytest.raises(PromptError, match="no 'version'"):
        parse_prompt("id: x\n---\nbody")
    with pytest.raises(PromptError, match="not dotted"):
        parse_prompt("id: Bad-Id\nversion: 1\n---\nbody")
    with pytest.raises(PromptError, match="stray"):
        parse_prompt("id: x\nversion: 1\n---\ncosts $ 5")


def test_clear_prompts_share_the_report_prefix():
    """Every CLEAR call on one report starts with the same text up to the end of the report,
    so llama.cpp re-reads only the question when it moves from one call to the next."""
    report = "FINDINGS: Small left pleural effusion.\nIMPRESSION: Effusion."
    rendered = [load_prompt("clear.presence").render(report=report, conditions=", ".join(CONDITIONS)),
                load_prompt("clear.attributes").render(report=report, status_hints="x",
                                                       conditions_block="- Edema")]
    for attribute, prompt_id in ATTRIBUTE_PROMPTS.items():
        rendered.append(load_prompt(prompt_id).render(**attribute_fields("Edema", attribute, report)))
    prefix = os.path.commonprefix(rendered)
    assert prefix.startswith("You are an experienced radiologist")
    assert (report + "\nREPORT >>>\n\n") in prefix


def test_vert_prompts_put_the_pair_after_the_shared_instructions():
    """Instructions and few-shot examples come first: they are the same for every pair."""
    for variant in ("vert", "green", "formula", "rubric"):
        text = load_prompt(f"vert.{variant}").template
        assert text.index("${examples}") < text.index("${reference}") < text.index("${candidate}")
        assert text.rstrip().endswith("Now give the JSON object for this pair.")


def _shingles(text: str, n: int = 9) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.skipif(not SEEDS.exists(), reason="the papers are not beside this checkout")
def test_prompts_share_no_nine_word_run_with_the_papers():
    seen: set[str] = set()
    for paper in SEEDS.glob("*.txt"):
        seen |= _shingles(paper.read_text(errors="ignore"))
    for path in sorted(PROMPTS_DIR.glob("*.txt")):
        # VERT's prompts as sent: with the six category names filled in (engine/reader/error_words.py)
        text = path.read_text().replace("${categories}", categories_text())
        assert not (_shingles(text) & seen), f"{path.name} copies a paper's wording"
