"""Every JSON schema the project sends fits llama.cpp's grammar, at every report length up to the
judge's context, and fits the OpenAI ``json_schema`` (strict) and ``json_object`` dialects.

llama.cpp's grammar parser refuses a repetition of 1,024 or more (a free string with
``maxLength`` >= 1024): RadSEM's old rewrite schema (one string of 3 x the findings' length)
failed from 342 characters of findings on. The check here is the real one: llama-cpp-python's
schema converter, then ``llama_sampler_init_grammar`` on the packaged Gemma vocabulary.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from radscope.engine.metrics.clear.llm import _PHRASE_CHARS, _PHRASES, SIMILARITY_SCHEMA
from radscope.engine.metrics.clear.schema import (
    ATTRIBUTES,
    CONDITIONS,
    attribute_answer_schema,
    fast_answer_schema,
    presence_schema,
)
from radscope.engine.metrics.radsem.llm import SENTENCE_CHARS, match_schema, rewrite_schema
from radscope.engine.metrics.vert.metric import _ITEMS, _MAX_COUNT, _TEXT_CHARS
from radscope.engine.metrics.vert.schema import judge_schema
from radscope.engine.runtimes.judge import (
    GRAMMAR_MAX_STRING,
    GrammarRejected,
    bounded_schema,
    grammar_problems,
    schema_nodes,
)
from radscope.engine.runtimes.openai_compat import response_format
from radscope.engine.structured.rewrite import STRUCTURE_SCHEMA

N_CTX = 8192  # the demo judge's context (models/registry.toml)
# Findings lengths from one word to a report that fills the context (about 4 characters a token).
FINDINGS_LENGTHS = (12, 341, 342, 2000, 8000, 4 * N_CTX)


def _findings(length: int) -> str:
    """Findings of ``length`` characters, in sentences of about 250 (long CT sentences)."""
    sentence = ("There is a small left pleural effusion with adjacent atelectasis " * 4)[:248] + ". "
    return (sentence * (length // len(sentence) + 1))[:length]


def _sentences(n: int, side: str) -> list[str]:
    return [f"{side} finding number {i} of the report, at a site with a long name." for i in range(n)]


def project_schemas() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema the pipelines send, as they send it (bounded), for the lengths above."""
    yield "clear.presence", presence_schema()
    yield "clear.attributes[13]", bounded_schema(fast_answer_schema(list(CONDITIONS)),
                                                 _PHRASE_CHARS, _PHRASES)
    for attribute in ATTRIBUTES:
        yield f"clear.attr.{attribute}", bounded_schema(attribute_answer_schema(attribute),
                                                        _PHRASE_CHARS, _PHRASES)
    yield "clear.list_similarity", SIMILARITY_SCHEMA
    for with_score in (True, False):
        yield (f"vert(score={with_score})",
               bounded_schema(judge_schema(with_score), _TEXT_CHARS, _ITEMS, _MAX_COUNT))
    yield "structure.srrg", bounded_schema(STRUCTURE_SCHEMA, max_string=200, max_items=8)
    for length in FINDINGS_LENGTHS:
        yield f"radsem.rewrite[{length} chars]", rewrite_schema(_findings(length))[0]
        # as many atomic sentences as such findings can hold (one per 25 characters, x 3)
        n = max(1, min(400, 3 * length // 25))
        yield f"radsem.match[{n}x{n}]", match_schema(_sentences(n, "Ref"), _sentences(n, "Gen"))
    yield "radsem.match[1x0]", match_schema(_sentences(1, "Ref"), [])


SCHEMAS = dict(project_schemas())


@pytest.fixture(scope="module")
def gemma_vocab(gemma_gguf):
    import llama_cpp

    llama = llama_cpp.Llama(str(gemma_gguf), vocab_only=True, verbose=False)
    yield llama._model.vocab
    llama.close()


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_every_schema_fits_llama_cpp_grammar(name, gemma_vocab):
    from radscope.engine.runtimes.llamacpp import check_grammar

    schema = SCHEMAS[name]
    assert grammar_problems(schema) == []
    check_grammar(gemma_vocab, schema)  # raises GrammarRejected


def test_the_limit_is_real_and_the_check_catches_it(gemma_vocab):
    """What the limit is about: 1000 is accepted, 1024 refused, and ``bounded_schema`` never
    lets a string past the limit whatever it is asked for."""
    from radscope.engine.runtimes.llamacpp import check_grammar

    def string(n: int) -> dict[str, Any]:
        return {"type": "object", "properties": {"s": {"type": "string", "maxLength": n}},
                "required": ["s"], "additionalProperties": False}

    check_grammar(gemma_vocab, string(GRAMMAR_MAX_STRING))
    with pytest.raises(GrammarRejected):
        check_grammar(gemma_vocab, string(1024))
    assert grammar_problems(string(1024)) == ["$.properties.s: maxLength 1024 > 1000"]
    capped = bounded_schema({"type": "string"}, max_string=6000)
    assert capped["maxLength"] == GRAMMAR_MAX_STRING


def _strict_problems(schema: Any) -> list[str]:
    """What OpenAI's strict json_schema mode refuses: objects must list every property as
    required and forbid additional ones."""
    problems = []
    for where, node in schema_nodes(schema):
        if node.get("type") == "object" and "properties" in node:
            if set(node.get("required", [])) != set(node["properties"]):
                problems.append(f"{where}: not every property is required")
            if node.get("additionalProperties") is not False:
                problems.append(f"{where}: additionalProperties is not false")
    return problems


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_every_schema_fits_both_server_dialects(name):
    schema = SCHEMAS[name]
    assert _strict_problems(schema) == []
    assert response_format("json_schema", schema)["json_schema"]["schema"] is schema
    assert response_format("json_object", schema)["schema"] is schema


def test_the_rewrite_is_a_list_of_bounded_sentences_at_any_length():
    for length in FINDINGS_LENGTHS:
        schema, max_tokens = rewrite_schema(_findings(length))
        sentences = schema["properties"]["sentences"]
        assert sentences["items"]["maxLength"] <= SENTENCE_CHARS
        # the answer of the old budget (3 x the findings) fits the items and the tokens
        assert sentences["maxItems"] * sentences["items"]["maxLength"] >= 3 * length
        assert max_tokens >= 3 * length
