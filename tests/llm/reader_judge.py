"""A judge that answers like the reader: an OpenAI-compatible stand-in server for tests.

It serves ``POST /v1/chat/completions`` on 127.0.0.1 and answers every LLM prompt of CLEAR,
VERT and RadSEM from the rules reader's reading of the same reports: the reports are found in
the rendered prompt (between its ``<<< ...`` / ``... >>>`` markers), the question from the
schema in ``response_format`` (both the ``json_schema`` and the ``json_object`` dialects), and
the answer is the rules extractor's value for that report written in the schema's shape. The
LLM pipelines then go prompt -> answer -> parse -> score with answers that mean something, and
their scores can be compared with ``--extractor rules`` on the same pairs.

Test code only: it is never registered as a model and never imported by the engine.
"""
from __future__ import annotations

from dataclasses import replace

import json
import re
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from radscope.engine.io.reports import ReportPair, findings_and_impression, findings_text, section_view
from radscope.engine.metrics.clear import rules as clear_rules
from radscope.engine.metrics.clear.schema import ATTRIBUTES, CHOICE_ATTRIBUTES, CONDITIONS
from radscope.engine.metrics.radsem.llm import sentence_key
from radscope.engine.metrics.radsem.rules import RadsemRulesExtractor
from radscope.engine.metrics.vert.rules import VertRulesExtractor

_BLOCK = r"\n<<< {name}\n(.*?)\n{name} >>>"


def _block(text: str, name: str) -> str | None:
    found = re.search(_BLOCK.format(name=re.escape(name)), text, re.S)
    return found.group(1) if found else None


def _bounded(items: list[str], schema: dict[str, Any]) -> list[str]:
    """A list cut to the schema's ``maxItems`` and each item to its ``maxLength``."""
    limit = schema.get("maxItems", len(items))
    length = (schema.get("items") or {}).get("maxLength")
    return [item[:length] if length else item for item in items[:limit]]


# The sections a metric may be asked to read (its card's, or --sections): what a prompt shows.
_SECTION_CHOICES = (("findings", "impression"), ("findings",), ("impression",))


class ReaderAnswers:
    """The answers: the rules extractors' readings of the registered pairs."""

    def __init__(self, given: Iterable[ReportPair]) -> None:
        pairs = list(given)
        # Each registered pair, and each as a metric reads it (only the sections it reads, under
        # canonical headings: ``section_view``): the rules extractors read those views, so the
        # answers are read from them too.
        seen: dict[tuple[str, str], ReportPair] = {}
        for pair in pairs:
            for parts in ((), *_SECTION_CHOICES):
                view = pair if not parts else replace(
                    pair, reference=section_view(pair.reference, parts),
                    candidate=section_view(pair.candidate, parts))
                seen.setdefault((view.reference.strip(), view.candidate.strip()), view)
        self.pairs = list(seen.values())
        self._texts: dict[str, str] = {}  # a report as a prompt shows it -> as a pair holds it
        for pair in self.pairs:
            for text in (pair.reference, pair.candidate):
                for view in (text, findings_and_impression(text), findings_text(text)):
                    self._texts.setdefault(view.strip(), text)
        self._radsem = RadsemRulesExtractor()
        self.calls: list[str] = []  # which question each request was

    def report(self, shown: str) -> str:
        try:
            return self._texts[shown.strip()]
        except KeyError:
            raise ValueError(f"the stand-in judge does not know this report: {shown[:80]!r}") from None

    def answer(self, prompt: str, schema: dict[str, Any]) -> dict[str, Any]:
        props = schema.get("properties", {})
        if "sentences" in props:
            return self._rewrite(prompt, props["sentences"])
        if "pairs" in props:
            return self._match(props)
        if "significant_errors" in props:
            return self._vert(prompt, schema)
        if set(props) == set(CONDITIONS):
            self.calls.append("clear.presence")
            reading = clear_rules.read_report(self.report(_block(prompt, "REPORT") or ""))
            return dict(reading.presence)
        if "answer" in props:
            return self._attribute(prompt, props["answer"])
        if set(props) <= set(CONDITIONS):
            return self._fast(prompt, list(props), props)
        raise ValueError(f"the stand-in judge has no answer for a schema with keys {sorted(props)}")

    # -- CLEAR -------------------------------------------------------------------------------

    def _attributes(self, prompt: str, conditions: list[str]) -> dict[str, dict[str, Any]]:
        reading = clear_rules.read_report(self.report(_block(prompt, "REPORT") or ""))
        return clear_rules.report_extraction(reading, conditions).attributes

    def _fast(self, prompt: str, conditions: list[str], props: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("clear.attributes")
        values = self._attributes(prompt, conditions)
        return {c: {a: (_bounded(v, props[c]["properties"][a]) if isinstance(v, list) else v)
                    for a, v in values[c].items()} for c in conditions}

    def _attribute(self, prompt: str, answer: dict[str, Any]) -> dict[str, Any]:
        task = prompt.rsplit("REPORT >>>", 1)[-1]
        condition = next(c for c in sorted(CONDITIONS, key=len, reverse=True) if c in task)
        values = self._attributes(prompt, [condition])[condition]
        if answer.get("type") == "array":  # descriptive location or recommendation
            attribute = "recommendation" if "follow-up" in task else "descriptive location"
            self.calls.append(f"clear.attr.{attribute}")
            return {"answer": _bounded(values[attribute], answer)}
        allowed = set(answer["enum"])
        attribute = next(a for a in CHOICE_ATTRIBUTES if set(ATTRIBUTES[a].values) == allowed)
        self.calls.append(f"clear.attr.{attribute}")
        return {"answer": values[attribute]}

    # -- RadSEM ------------------------------------------------------------------------------

    def _pair_of(self, ref: str | None, cand: str | None) -> ReportPair:
        for pair in self.pairs:
            if ref is not None and ref.strip() != pair.reference.strip():
                continue
            if cand is not None and cand.strip() != pair.candidate.strip():
                continue
            return pair
        raise ValueError("the stand-in judge does not know this pair")

    def _rewrite(self, prompt: str, sentences: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("radsem.rewrite")
        text = self.report(_block(prompt, "FINDINGS") or "")
        pair = next(p for p in self.pairs if text in (p.reference, p.candidate))
        extraction = self._radsem.read_pair(pair)
        side = extraction.ref_sentences if text == pair.reference else extraction.gen_sentences
        return {"sentences": _bounded(list(side), sentences)}

    def _match(self, props: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("radsem.match")
        item = props["pairs"].get("items", {}).get("properties", {})
        ref = item.get("ref_sentence", {}).get("enum", [])
        gen = item.get("gen_sentence", {}).get("enum", [])
        keys = ({sentence_key(s) for s in ref}, {sentence_key(s) for s in gen})
        for pair in self.pairs:
            extraction = self._radsem.read_pair(pair)
            if ({sentence_key(s) for s in extraction.ref_sentences},
                    {sentence_key(s) for s in extraction.gen_sentences}) == keys:
                exact = {sentence_key(s): s for s in [*ref, *gen]}
                tags = extraction.tags.to_json()
                for p in tags["pairs"]:
                    p["ref_sentence"] = exact[sentence_key(p["ref_sentence"])]
                    p["gen_sentence"] = exact[sentence_key(p["gen_sentence"])]
                for u in tags["unmatched_sentences"]:
                    u["sentence"] = exact[sentence_key(u["sentence"])]
                return tags
        raise ValueError("the stand-in judge does not know these rewrites")

    # -- VERT --------------------------------------------------------------------------------

    def _vert(self, prompt: str, schema: dict[str, Any]) -> dict[str, Any]:
        self.calls.append("vert")
        pair = self._pair_of(_block(prompt, "REFERENCE REPORT"), _block(prompt, "CANDIDATE REPORT"))
        variant = "vert" if "overall_score" in schema["properties"] else "green"
        extracted = VertRulesExtractor(variant, "stand-in").extract_pair(pair)
        if extracted.value is None:
            raise ValueError(f"the reader cannot read this pair: {extracted.error}")
        data = extracted.value.to_json()
        props = schema["properties"]
        answer: dict[str, Any] = {"explanation": "Errors and matches as the rules reader reads them."}
        for key in ("significant_errors", "insignificant_errors"):
            section = props[key]["properties"]
            answer[key] = {c: {"count": v["count"],
                               "errors": _bounded(v["errors"], section[c]["properties"]["errors"])}
                           for c, v in data[key].items()}
        answer["matched_findings"] = {
            "count": data["matched_findings"]["count"],
            "findings": _bounded(data["matched_findings"]["findings"],
                                 props["matched_findings"]["properties"]["findings"])}
        if "overall_score" in props:
            answer["overall_score"] = f"{data['overall_score']:.2f}"
        return answer


class ReaderJudgeServer:
    """``ReaderAnswers`` behind an OpenAI-compatible HTTP endpoint on 127.0.0.1 (a context
    manager: ``with ReaderJudgeServer(pairs) as url: ...``)."""

    def __init__(self, pairs: Iterable[ReportPair]) -> None:
        self.answers = ReaderAnswers(pairs)
        answers = self.answers

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fmt = body.get("response_format") or {}
                schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema") or {}
                prompt = body["messages"][0]["content"]
                try:
                    text = json.dumps(answers.answer(prompt, schema))
                except (ValueError, KeyError, StopIteration) as exc:
                    self._send(400, {"error": {"message": f"stand-in: {exc}"}})
                    return
                self._send(200, {
                    "id": "stand-in", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "reader"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": len(prompt) // 4,
                              "completion_tokens": len(text) // 4,
                              "total_tokens": (len(prompt) + len(text)) // 4}})

            def _send(self, status: int, data: dict[str, Any]) -> None:
                raw = json.dumps(data).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
