"""A stand-in OpenAI-compatible judge server for timing the engine, not for scores.

``python -m bench.doubles.judge_standin --port 8001 --delay-ms 200`` answers every chat
completion after a fixed delay, one request at a time (as a llama.cpp server with one slot
does), with the smallest JSON that fits the schema the request carries (llama-cpp-python's
``json_object`` dialect: ``response_format.schema``): required keys only, empty lists and
strings, zero, the first enum value, for a pattern the first of a few plain strings it accepts.
It lets ``bench.speed.cluster`` measure what the runner and Ray add around judge calls on a
machine too small to run two real judges; its answers mean nothing and it is never a registry
model.
"""
from __future__ import annotations

import argparse
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_PATTERN_TRIES = ("0.50", "1.00", "0", "a", "")


def minimal_instance(schema: dict[str, Any]) -> Any:
    """The smallest value that fits ``schema`` (the subset of JSON Schema the prompts use)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        return {key: minimal_instance(properties.get(key, {})) for key in schema.get("required", [])}
    if kind == "array":
        return [minimal_instance(schema.get("items", {}))] * int(schema.get("minItems", 0))
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    pattern = schema.get("pattern")
    if pattern:
        return next(t for t in _PATTERN_TRIES if re.search(pattern, t))
    return ""


def serve(port: int, delay_s: float, model: str) -> None:
    one_at_a_time = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet: a benchmark reads no access log
            pass

        def _reply(self, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._reply({"object": "list", "data": [{"id": model, "object": "model"}]})

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            schema = (request.get("response_format") or {}).get("schema") or {}
            with one_at_a_time:
                time.sleep(delay_s)
            content = json.dumps(minimal_instance(schema))
            self._reply({"id": "standin", "object": "chat.completion", "model": model,
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": content}}],
                         "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay-ms", type=float, default=200.0)
    parser.add_argument("--model", default="standin")
    args = parser.parse_args()
    serve(args.port, args.delay_ms / 1000, args.model)


if __name__ == "__main__":
    main()
