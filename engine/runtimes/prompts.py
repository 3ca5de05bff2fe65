"""Prompt files: load ``prompts/<id>.txt``, read its id/version header, render the template.

A prompt file starts with a small header, then a line ``---``, then the template::

    id: clear.presence
    version: 1
    description: one line saying what the prompt asks
    ---
    ...text with ${report} placeholders...

The id and version travel into every signature and every cache key, so a changed prompt never
reuses an answer to the old one (and must get a new version). Templates use
``string.Template`` (``${name}``; ``$$`` for a literal dollar sign): JSON braces in the text
need no escaping, and a report that happens to contain ``${x}`` is inserted verbatim, never
expanded, because substitution does not re-read inserted values.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from radscope.layout import folder

PROMPTS_DIR = folder("prompts")
_HEADER_LINE_RE = re.compile(r"^(?P<key>[a-z_]+):\s*(?P<value>.*?)\s*$")
_ID_RE = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)*$")


class PromptError(ValueError):
    """A prompt file is malformed, or a render is missing a field."""


@dataclass(frozen=True)
class Prompt:
    """One prompt template with its identity."""

    id: str
    version: str
    description: str
    template: str
    path: Path | None = None

    @property
    def key(self) -> str:
        """``id@version``: how signatures name the prompt."""
        return f"{self.id}@{self.version}"

    @property
    def digest(self) -> str:
        """Short hash of the template text (shown next to the version in diagnostics)."""
        return hashlib.sha256(self.template.encode("utf-8")).hexdigest()[:12]

    def fields(self) -> set[str]:
        """Placeholder names the template uses."""
        return {m.group("named") or m.group("braced")
                for m in Template.pattern.finditer(self.template)
                if m.group("named") or m.group("braced")}

    def render(self, **values: object) -> str:
        """Fill every placeholder; a missing or an unused value is an error (typos show)."""
        needed = self.fields()
        missing = sorted(needed - set(values))
        extra = sorted(set(values) - needed)
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unused {', '.join(extra)}")
            raise PromptError(f"prompt {self.key}: {'; '.join(parts)}")
        return Template(self.template).substitute({k: str(v) for k, v in values.items()})


def parse_prompt(text: str, path: Path | None = None) -> Prompt:
    """Parse the text of a prompt file (header, ``---``, template)."""
    where = str(path) if path else "<prompt>"
    head, sep, body = text.partition("\n---\n")
    if not sep:
        raise PromptError(f"{where}: no '---' line between header and template")
    header: dict[str, str] = {}
    for number, line in enumerate(head.splitlines(), start=1):
        if not line.strip():
            continue
        match = _HEADER_LINE_RE.match(line)
        if not match:
            raise PromptError(f"{where}: header line {number} is not 'key: value': {line!r}")
        header[match["key"]] = match["value"]
    for key in ("id", "version"):
        if not header.get(key):
            raise PromptError(f"{where}: header has no {key!r}")
    if not _ID_RE.match(header["id"]):
        raise PromptError(f"{where}: prompt id {header['id']!r} is not dotted lower-case words")
    template = body.rstrip("\n")
    if not template.strip():
        raise PromptError(f"{where}: empty template")
    for m in Template.pattern.finditer(template):
        if m.group("invalid") is not None:
            raise PromptError(f"{where}: stray '$' at offset {m.start()} (write $$ for a dollar)")
    return Prompt(id=header["id"], version=header["version"],
                  description=header.get("description", ""), template=template, path=path)


@cache
def load_prompt(prompt_id: str, directory: Path = PROMPTS_DIR) -> Prompt:
    """The prompt ``prompt_id`` from ``directory/<prompt_id>.txt`` (its header must agree)."""
    path = directory / f"{prompt_id}.txt"
    if not path.exists():
        raise PromptError(f"no prompt file {path}")
    prompt = parse_prompt(path.read_text(encoding="utf-8"), path)
    if prompt.id != prompt_id:
        raise PromptError(f"{path}: header id {prompt.id!r} differs from the file name")
    return prompt


def all_prompts(directory: Path = PROMPTS_DIR) -> list[Prompt]:
    """Every prompt file in ``directory``, sorted by id."""
    return [load_prompt(p.stem, directory) for p in sorted(directory.glob("*.txt"))]
